"""Lucent (Fat Elf Games, Jonah Kellman & Tobias Vyseri): one shared pyramid of gems; the last to place wins."""

from ziggurat.core.kernel import GameKernel
from ziggurat.core.registry import GameEntry
from ziggurat.games.lucent.encode import state_tensor_writer, tensor, tensor_size, tensor_writer
from ziggurat.games.lucent.heuristic import heuristic, value
from ziggurat.games.lucent.render import render
from ziggurat.games.lucent.rules import SPEC, LucentGame, LucentState
from ziggurat.games.lucent.web import board

RULES = """\
Lucent — 2 to 5 players. Build one shared pyramid of gems; be the last player to place one.

Deck    45 gems, 9 each of red, blue, yellow, green, purple (a reconstruction; --option deck=FILE
        loads your own). Everything is dealt one card at a time, seat 1 (left of the dealer) first;
        hands are hidden. With 2 or 4 players the card left over is the Focus Gem, face up in the
        centre of the base row; with 3 or 5 the first player's first card is the Focus Gem.
Pyramid The base row is nine wide, four either side of the Focus Gem (base 1..9, focus = base 5);
        a new base card goes next to one already placed. Row k (1..8) has 9-k slots; a card there
        sits on the two cards under it and must match the colour of at least one of them.
        Higher rows need not be contiguous. Wildcards and Geomancers are any colour.
Turn    Play one card: 'play red at base 3', 'play blue at row 2 slot 3' (short: 'red r2s3'),
        first move with 3/5 players: 'play green as focus'. You must play if you can.
Out     A player who can't play is out and puts their hand down; an empty hand is skipped.
End     When nobody can play. The last player to place wins (score 1, others 0).
Variants wildcards: remove two random gems unseen, add the two Wildcards (still 45 cards).
        geomancers: everyone is dealt a Geomancer first (45 + players cards).
        geomancer-focus: a Geomancer is the Focus Gem before the deal (not with geomancers);
        with 2 or 4 players the last card dealt is set aside unseen, out of the game.
        points: last placer 1, each player who played every card 1, and with geomancers
        1 for a player whose last card played was their Geomancer. Play several games
        (ziggurat.games.lucent.match.play_points_match) and add the points up.
"""


def load_kernel() -> GameKernel:
    """The compiled kernel (imports numba: the ``fast`` extra)."""
    from ziggurat.games.lucent.kernel import KERNEL

    return KERNEL


ENTRY = GameEntry(
    game_class=LucentGame,
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

__all__ = ["ENTRY", "RULES", "SPEC", "LucentGame", "LucentState"]
