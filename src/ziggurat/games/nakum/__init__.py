"""Nakum (Carlos Viedma): worker placement around a Maya pyramid."""

from ziggurat.core.kernel import GameKernel
from ziggurat.core.registry import GameEntry
from ziggurat.games.nakum.encode import state_tensor_writer, tensor, tensor_size, tensor_writer
from ziggurat.games.nakum.heuristic import heuristic, value
from ziggurat.games.nakum.render import render
from ziggurat.games.nakum.rules import SPEC, NakumGame, NakumState
from ziggurat.games.nakum.web import board

RULES = """\
Nakum — 2 to 4 players. Hunt, harvest, explore and sacrifice for the gods' favour.
(Tiles, cards and storage limits are a reconstruction: see docs/games/nakum.md.)

Setup   Pyramid tile in the centre, 8 jungle tiles face down around it. 2 offerings
        and 5 market cards face up. Each player: family card, 2 workers (2 more in the
        reserve), 3 heritage cards. All play a heritage card at once (hidden until all
        chose) and take what it gives. The start player reveals a tile, then the next
        player another (2 players: one tile only).
Day     From the start player, one worker at a time, until all are placed:
        basic space      gain at once (resources, points, a market or heritage card)
        camp             needs a worker on a basic space of its tile; pick an open
                         option, gain it, cover it with a black cube (once per game)
        explore N        a face-down tile, one explorer each: 1 point; revealed at night
        market card      pay its cost once, gain it, keep it for its end points;
                         free-a-camp cards remove one black cube of your choice
        heritage card    play one from your hand, gain it
        pyramid          2 workers: make an active offering, sacrifice the workers it
                         asks (they go to the reserve at night), pay, keep the card
        Pituk            once every tile is face up: 1 point and a favour, each once:
                         reshuffle the market (5 new) or replace both offerings
        start player     take the token (not if you hold it): you start next round
        grow the clan    2 workers + 1 from the reserve; not in round 1: +1 worker
        2-3 players: one worker per space; 4 players: marked spaces take two workers
        of different players. No legal space: pass.
Night   Workers come back; explored tiles are revealed; market refilled to 5,
        offerings to 2.
End     After the Day in which someone completes a second offering (no Night).
        The rulebook sets no round limit; as a safeguard for play that never
        offers, the game also stops after round max-rounds (default 50), reported
        as its own end ("round limit"), not the rulebook's.
Score   Offerings + card end points + point tokens + storage (3 maize, 2 skins or
        1 mask = 1 point, rounded down). Resources beyond the family limits
        (9 maize, 6 skins, 4 masks) are lost when gained.
        Ties: most point tokens, then most masks, then the first to make an offering.
Texts   place maizal basic 1, place cazador camp, camp cazador 2, explore 3,
        place pyramid, offer o1, buy m3, heritage h2, place pituk, pituk market,
        place start, place grow, free maizal 1, reveal 2, pass
"""


def load_kernel() -> GameKernel:
    """The compiled kernel (imports numba: the ``fast`` extra)."""
    from ziggurat.games.nakum.kernel import KERNEL

    return KERNEL


ENTRY = GameEntry(
    game_class=NakumGame,
    rules=RULES,
    render=render,
    board=board,
    heuristic=heuristic,
    tensor=tensor,
    tensor_size=tensor_size,
    tensor_writer=tensor_writer,
    state_tensor_writer=state_tensor_writer,
    value=value,
    # measured (docs/bots.md): random playouts to the end of the Day, then judged by ``value``,
    # beat playouts to the end of the game (random Nakum players barely ever finish it)
    search={"cut": "chance"},
    kernel=load_kernel,
)

__all__ = ["ENTRY", "SPEC", "NakumGame", "NakumState"]
