"""Lucent's messages: why a card may not go somewhere, what a move did, how a score comes about (English templates).

Ids are ``lucent.<key>``; see :mod:`ziggurat.core.message` for the template
syntax. A ``card`` parameter is a nested message (``lucent.gem`` "a red gem"
with the deck's colour word, ``lucent.wildcard``, ``lucent.geomancer``); a
``slot`` is ``lucent.base`` ("base 3") or ``lucent.row`` ("row 2 slot 3"): the
base row is row 0, positions count from 1 at the left.
"""

from __future__ import annotations

from ziggurat.core.message import Catalog

# names of pieces and places, nested in the other messages
NAMES = {
    "gem": "a {kind} gem",
    "wildcard": "a Wildcard",
    "geomancer": "a Geomancer",
    "base": "base {pos}",
    "row": "row {row} slot {pos}",
}

# why a move is not legal (State.why_illegal)
REFUSALS = {
    "no_gem": "you have no {kind} gem in your hand",
    "no_wildcard": "you have no Wildcard in your hand",
    "no_wildcards": "Wildcards are played only in the wildcards variant",
    "no_geomancers": "Geomancers are played only in the geomancers variant",
    "geo_focus": "the one Geomancer in play is the Focus Gem; the others stay in the box",
    "geo_played": "you have already played your Geomancer",
    "focus_first": "the first card is the Focus Gem, the centre of the base row: play it as focus (base 5)",
    "slot_taken": "{slot} is taken already, by {card}",
    "base_adjacent": "a new base card must be next to one already placed: the base row covers base {lo} "
    "to base {hi}, so only {end}",
    "base_adjacent_two": "a new base card must be next to one already placed: the base row covers base {lo} "
    "to base {hi}, so only {left} or {right}",
    "needs_both": "a card in row {row} needs both cards under it: {missing} {count:is|are} empty",
    "colour": "{card} at {slot} matches the colour of neither card below it: {left} and {right}",
    "chance_not_in_deck": "card {card} is not in the deck",
    "chance_remove_gem": "only coloured gems are removed, not {card}",
}

# what a move or a chance outcome did (State.describe_action)
MOVES = {
    "play_focus": "plays {card} as the Focus Gem",
    "play_base": "plays {card} at {slot}",
    "play_upper": "plays {card} at {slot}, on {left} and {right}",
    "chance_remove": "a gem is removed unseen",
    "chance_deal": "player {player} is dealt {card}",
    "chance_deal_hidden": "player {player} is dealt a card",
    "chance_focus": "{card} is dealt face up as the Focus Gem",
    "chance_aside": "a card is set aside unseen",
}

# the terms and notes of a score breakdown (State.score_breakdown)
SCORING = {
    "score_last": "placed the last gem",
    "score_all": "played every card",
    "score_geomancer": "played their Geomancer as their last card",
    "note_winner": "without the points variant the score only names the winner: 1 for the last player to place a gem",
    "note_points": "points variant: 1 for the last player to place a gem, 1 for each player who played every card",
    "note_geomancers": "geomancers: 1 for each player whose last card played was their Geomancer",
}

# why the game ended (State.end_reason; the game's spec.ends, as end_<code>)
ENDS = {
    "end_nobody_can_play": "nobody could place a card",
}

M = Catalog("lucent", {**NAMES, **REFUSALS, **MOVES, **SCORING, **ENDS})
