"""K'uh Nah (WizKids 2019, Adam E. Daulton): build a pyramid, lowest score wins."""

from ziggurat.core.kernel import GameKernel
from ziggurat.core.registry import GameEntry
from ziggurat.games.kuhnah.encode import state_tensor_writer, tensor, tensor_size, tensor_writer
from ziggurat.games.kuhnah.heuristic import heuristic, value
from ziggurat.games.kuhnah.render import render
from ziggurat.games.kuhnah.rules import SPEC, KuhNahGame, KuhNahState
from ziggurat.games.kuhnah.web import board

RULES = """\
K'uh Nah — 2 to 6 players. Build a pyramid whose uncovered cards weigh as little as possible.

Setup   50 cards (6..30, two of each), each with an animal on its left and right half.
        Remove cards unseen (2p 29, 3p 19, 4p 9, 5p 19, 6p 1); flip two face up: the Quarry.
        Everyone has 8 jade (kept secret unless playing with open jade).
Turn    Either put one of your jade on a Quarry card,
        or take a Quarry card with all the jade on it and place it in your pyramid.
        With no jade you must take. The Quarry is refilled after the placement.
Place   Base row: at its left or right end (always possible, no gaps).
        Higher rows: over two adjacent cards (brick bond). Each supporting card must be
        heavier than the new card, or its touching half must show the same animal
        (new card's left half vs the left support's right half; right vs left).
        The jaguar matches every animal. Equal weights need a match. Cards never move.
End     When the deck is empty and the Quarry can't be refilled; the last card stays.
Score   Every card that supports no card counts its value; subtract the jade you hold.
        Lowest score wins; equal scores share the win.
Variant jade-wild: the jaguar is an ordinary animal; once per game, after taking a card,
        put one jade on a half of that card or of your pyramid: that half is wild.
"""


def load_kernel() -> GameKernel:
    """The compiled kernel (imports numba: the ``fast`` extra)."""
    from ziggurat.games.kuhnah.kernel import KERNEL

    return KERNEL


ENTRY = GameEntry(
    game_class=KuhNahGame,
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
    # it reads the Quarry, the pyramids and its own jade, never the deck or removed cards
    heuristic_needs_determinisation=False,
)

__all__ = ["ENTRY", "SPEC", "KuhNahGame", "KuhNahState"]
