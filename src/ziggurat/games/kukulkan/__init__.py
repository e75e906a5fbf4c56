"""Kukulkán: roll and write — build your own El Castillo with a shared die."""

from ziggurat.core.kernel import GameKernel
from ziggurat.core.registry import GameEntry
from ziggurat.games.kukulkan.encode import state_tensor_writer, tensor, tensor_size, tensor_writer
from ziggurat.games.kukulkan.heuristic import heuristic, value
from ziggurat.games.kukulkan.render import render
from ziggurat.games.kukulkan.rules import SPEC, KukulkanGame, KukulkanState
from ziggurat.games.kukulkan.web import board

RULES = """\
Kukulkán — 2 to 6 players (1 as practice). Each builds their own El Castillo on a sheet.

Sheet   17 stone blocks in 5 rows (a reconstruction: see docs); the base is pre-numbered
        4 5 6 5 4. All 62 border segments start dotted. The vertical axis is the five
        middle blocks; A, B (row 4) and C, D (row 2) are labelled.
Round   The die is rolled once; everyone uses that number n at the same time, unseen,
        for one action; the choices are revealed together.
  Draw  exactly n dotted segments as one continuous trail (you may pass through drawn
        points, never redraw a segment).
  Write n in a blank block whose outline is drawn and whose supports are numbered:
        n must be lower than its support (or the sum of its two supports).
  Mark  a numbered block showing n (base blocks once their outline is drawn).
  Pass  only when none of these is possible without a help.
Helps   Each once per game, one per round, never combined: same-value (write a value
        equal to the support or the sum); plus/minus one (6 -> 5 or 1, 1 -> 6 or 2);
        super-six (a rolled 6 becomes 1..5).
Bonuses At the end of each round. Normal (each player once): base numbered and marked:
        a permanent plus/minus one (it counts as the round's help); axis marked: 3;
        every block numbered: the highest external block value. First to claim (all who
        qualify the same round): A and C marked: |C - A|; B and D marked: |D - B|.
End     At the end of the round when each normal bonus has been claimed by someone.
        Backstop: at the end of a round after which nobody could act on any roll
        (every value 1..6, with every help still held); a round in which everyone
        happened to pass ends nothing. Safeguard: option max-rounds (default 1000).
Score   1 per marked block plus bonuses; ties: more marked blocks, then shared.
Actions draw s12 | write b7 | mark b3 | pass | help plus-one 5 | help super-six 3 |
        help same-value   (a draw is given segment by segment; A-D also name blocks)
"""


def load_kernel() -> GameKernel:
    """The compiled kernel (imports numba: the ``fast`` extra)."""
    from ziggurat.games.kukulkan.kernel import KERNEL

    return KERNEL


ENTRY = GameEntry(
    game_class=KukulkanGame,
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
    # it reads its own sheet and pending choice, never the others' hidden choices
    heuristic_needs_determinisation=False,
)

__all__ = ["ENTRY", "RULES", "SPEC", "KukulkanGame", "KukulkanState"]
