"""Pyramix (Gamewright, Tim Roediger): take cubes from a pyramid, win colours with ankhs."""

from ziggurat.core.kernel import GameKernel
from ziggurat.core.registry import GameEntry
from ziggurat.games.pyramix.encode import state_tensor_writer, tensor, tensor_size, tensor_writer
from ziggurat.games.pyramix.heuristic import heuristic, value
from ziggurat.games.pyramix.render import render
from ziggurat.games.pyramix.rules import SPEC, PyramixGame, PyramixState
from ziggurat.games.pyramix.web import board

RULES = """\
Pyramix — 2 to 4 players. Take cubes from a pyramid; win colours with ankh majorities.

Cubes   56: in each of blue, purple, orange, green 8 ankhs (1 point), 4 cranes (2), 1 eye (3);
        plus 4 cobras (0 points). They are stacked at random into a three-sided pyramid standing
        on its corner: layers a (the tray, 21 cubes), b 15, c 10, d 6, e 3, f 1 (the top).
        Each cube rests on three cubes below; its three upper faces look at the places above.
Turn    Take one cube (say "take a3"). It must
          1. show two or three faces (a face is visible when nothing rests on it there),
          2. not leave a tray place empty for good (a tray cube showing three faces can't go),
          3. touch no cobra on any of its six faces — but a cobra may always be taken,
             even next to another cobra (1 and 2 still apply).
Cascade A cube showing two faces had one cube on it: that cube, and the whole line above it
        in the same direction, slides down one place to fill the gap.
End     When the player to move can take nothing (normally: only the tray is left).
Score   Cobras in the tray leave play with the tray cubes sharing an edge with them.
        For each colour, the player with strictly the most ankhs of it collects the tray's
        cubes of that colour (a tie, zero included: nobody). 1 per ankh, 2 per crane,
        3 per eye. Highest total wins; equal totals share the win.
"""


def load_kernel() -> GameKernel:
    """The compiled kernel (imports numba: the ``fast`` extra)."""
    from ziggurat.games.pyramix.kernel import KERNEL

    return KERNEL


ENTRY = GameEntry(
    game_class=PyramixGame,
    rules=RULES,
    render=render,
    heuristic=heuristic,
    tensor=tensor,
    tensor_size=tensor_size,
    tensor_writer=tensor_writer,
    state_tensor_writer=state_tensor_writer,
    value=value,
    board=board,
    kernel=load_kernel,
)

__all__ = ["ENTRY", "SPEC", "PyramixGame", "PyramixState"]
