"""K'uh Nah's messages: why a move is refused, what a move did, how a score comes about (English templates).

Ids are ``kuhnah.<key>``; see :mod:`ziggurat.core.message` for the template
syntax. A ``card`` parameter is the nested message ``kuhnah.card`` ("the 17
(monkey|bat)", with the card's ``id``, ``value``, ``left`` and ``right``
animals); a ``where`` parameter is ``kuhnah.where`` ("row 2 pos 1", rows and
positions counted as the rulebook draws a pyramid: the base is row 1, pos 1 its
leftmost card).
"""

from __future__ import annotations

from ziggurat.core.message import Catalog

# names of pieces and places, nested in the other messages
NAMES = {
    "card": "the {value} ({left}|{right})",
    "where": "row {row} pos {pos}",
}

# why a move is not legal (State.why_illegal)
REFUSALS = {
    "no_jade": "you have no jade left: you must take a card",
    "take_first": "take a card from the Quarry first: you place the card you take",
    "place_first": "you took {card}: place it in your pyramid first",
    "not_in_quarry": "{card} is not in the Quarry",
    "first_card": "your pyramid is empty: the first card starts the base ('base')",
    "slot_taken": "{where} is taken already, by {card}",
    "slot_unsupported": "{where} needs two cards side by side under it: {missing} {count:is|are} empty",
    "support": "{card} can't go at {where}: {reason}",
    "support_both": "{card} can't go at {where}: {left}; and {right}",
    "heavier_left": "it is heavier than {support} under its left half, and their halves don't match: "
    "{mine} against {theirs}",
    "heavier_right": "it is heavier than {support} under its right half, and their halves don't match: "
    "{mine} against {theirs}",
    "as_heavy_left": "it is as heavy as {support} under its left half, and their halves don't match: "
    "{mine} against {theirs}",
    "as_heavy_right": "it is as heavy as {support} under its right half, and their halves don't match: "
    "{mine} against {theirs}",
    "wild_when": "a half is made wild right after taking a card, before placing it",
    "wild_used": "you have already used your wild jade this game",
    "wild_no_jade": "you have no jade left to make a half wild",
    "wild_already_left": "the left half of {card} is wild already",
    "wild_already_right": "the right half of {card} is wild already",
    "wild_not_yours": "{card} is neither the card you took nor in your pyramid",
    "chance_not_in_deck": "{card} is not in the deck",
    "chance_no_seat": "there is no player {player} to start",
}

# what a move or a chance outcome did (State.describe_action)
MOVES = {
    "jade": "puts a jade on {card} ({jade} jade on it now)",
    "take": "takes {card} with {jade} jade",
    "take_bare": "takes {card} (no jade on it)",
    "place_first_card": "places {card} as the first card of the base",
    "place_base_left": "places {card} at the left end of the base",
    "place_base_right": "places {card} at the right end of the base",
    "place_upper": "places {card} at {where}, on {left} and {right}",
    "wild_left": "puts a jade on the left half ({animal}) of {card}: it is wild for the rest of the game",
    "wild_right": "puts a jade on the right half ({animal}) of {card}: it is wild for the rest of the game",
    "chance_remove": "a card is removed unseen",
    "chance_reveal": "{card} comes into the Quarry",
    "chance_start": "player {player} starts",
}

# the terms and notes of a score breakdown (State.score_breakdown)
SCORING = {
    "score_card": "{card} at {where} supports no card",
    "score_jade": "{jade} jade held",
    "score_jade_hidden": "jade held (secret until the end)",
    "score_lowest": "the lowest score wins",
}

# why the game ended (State.end_reason; the game's spec.ends, as end_<code>)
ENDS = {
    "end_quarry_empty": "the deck ran out and the Quarry could not be refilled",
}

M = Catalog("kuhnah", {**NAMES, **REFUSALS, **MOVES, **SCORING, **ENDS})
