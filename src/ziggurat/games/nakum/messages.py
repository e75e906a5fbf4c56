"""Nakum's messages: why a placement or choice is refused, what a move did, how a score comes about (English).

Ids are ``nakum.<key>``; see :mod:`ziggurat.core.message` for the template
syntax. Names stay as printed (tiles, cards: ``tile`` is the tile's name, a
``card`` parameter the nested ``nakum.card`` "Mercader de Jade (m1)"). Costs
and gains are lists of nested amounts (``nakum.maize`` "2 maize", ``nakum.skins``,
``nakum.masks``, ``nakum.points``, ``nakum.market_card``, ...); an ``effect`` is
``nakum.effect`` ("3 maize") or ``nakum.effect_cost`` ("pay 1 mask: 2 maize, 2
points at the end").
"""

from __future__ import annotations

from ziggurat.core.message import Catalog

# names of pieces and places, nested in the other messages
NAMES = {
    "card": "{name} ({id})",
    "maize": "{n} maize",
    "skins": "{n} {n:skin|skins}",
    "masks": "{n} {n:mask|masks}",
    "points": "{n} {n:point|points}",
    "market_card": "a market card",
    "heritage_card": "a heritage card",
    "free_camp": "free a camp",
    "end_points": "{n} {n:point|points} at the end",
    "nothing": "nothing",
    "effect": "{gains}",
    "effect_cost": "pay {cost}: {gains}",
}

# why a move is not legal (State.why_illegal)
REFUSALS = {
    "pending_camp": "choose an option of the camp of {tile} first",
    "pending_buy": "choose the market card to buy first",
    "pending_offer": "choose the offering to make first",
    "pending_play": "choose the heritage card to play first",
    "pending_favour": "choose Pituk's favour first",
    "pending_free": "choose the black cube to remove first",
    "pending_reveal": "reveal a face-down jungle tile first",
    "pending_heritage": "play a heritage card from your hand first",
    "place_first": "place a worker first: this choice comes with a placement",
    "pass_not_allowed": "you may pass only when no space is open to you",
    "face_down": "{tile} is not face up",
    "space_yours": "you already have a worker on this space",
    "space_full_one": "this space holds one worker and it is taken",
    "space_full_two": "this space holds two workers and both are taken",
    "cannot_pay": "you cannot pay {cost}",
    "no_affordable_card": "you cannot pay for any market card on offer",
    "no_heritage": "you have no heritage card left in your hand",
    "camp_exhausted": "the camp of {tile} is exhausted: a black cube covers every option",
    "camp_inactive": "the camp of {tile} is open only while a worker (anyone's) is on a basic space of {tile}",
    "camp_no_option": "you can take none of the open options of the camp of {tile}",
    "explore_face_up": "the tile at position {pos} is face up already",
    "explore_taken": "the tile at position {pos} already has an explorer this round",
    "pyramid_workers": "an offering needs two of your workers, and you have {hand} in hand",
    "pyramid_none": "there is no active offering",
    "pyramid_cannot_pay": "you cannot pay for any active offering",
    "pituk_not_yet": "Pituk comes only once every jungle tile is face up",
    "pituk_done": "Pituk has granted both his favours",
    "start_holder": "you hold the start player token already",
    "start_taken": "player {player} has taken the start player token this round",
    "pituk_taken": "Pituk already has a worker this round (player {player}'s)",
    "grow_first_round": "the clan can't grow in the first round",
    "grow_workers": "growing the clan needs two of your workers, and you have {hand} in hand",
    "grow_reserve": "you have no worker left in the reserve",
    "camp_other": "your worker is on the camp of {tile}",
    "camp_no_such_option": "the camp of {tile} has only {count} options",
    "option_covered": "a black cube covers option {option} of the camp of {tile}",
    "not_in_market": "market card {card} is not face up in the market",
    "not_active": "offering {card} is not active",
    "not_in_hand": "heritage card {card} is not in your hand",
    "favour_used": "Pituk has already granted that favour",
    "no_cube": "there is no black cube on option {option} of the camp of {tile}",
    "no_such_cube": "the camp of {tile} has no option {option}",
    "reveal_setup": "tiles are revealed this way only at setup; explore a tile to have it revealed at Night",
    "reveal_face_up": "the tile at position {pos} is face up already",
    "two_basics": "{tile} has two basic spaces: say '{text} 1' or '{text} 2'",
    "chance_face_up": "{tile} is face up already",
    "chance_not_in_market_deck": "market card {card} is not in the market deck",
    "chance_not_in_offering_deck": "offering {card} is not in the offering deck",
    "chance_not_in_box": "heritage card {card} is not among the undealt heritage cards",
    "chance_no_such": "the deck drawn from now has no card number {number}",
}

# what a move or a chance outcome did (State.describe_action)
MOVES = {
    "pass": "passes: no space is open to them",
    "basic": "places a worker on {tile}, basic space {number}: {effect}",
    "camp": "places a worker on the camp of {tile}",
    "option": "takes option {option} of the camp of {tile}: {effect}; a black cube covers it",
    "explore": "explores the tile at position {pos} (1 point; it is revealed at Night)",
    "pyramid": "places two workers at the pyramid",
    "pituk": "places a worker with Pituk",
    "start": "takes the start player token: they start next round",
    "grow": "grows the clan with two workers and one from the reserve: one more worker from next round on",
    "buy": "buys market card {card}: {effect}",
    "offer": "makes offering {card}: pays {cost}, {points} points",
    "offer_sacrifice": "makes offering {card}: pays {cost}, sacrifices {sacrifice} {sacrifice:worker|workers}, "
    "{points} points",
    "heritage": "plays heritage card {card}: {effect}",
    "favour_market": "asks Pituk to reshuffle the market cards and reveal 5 new ones (1 point)",
    "favour_offerings": "asks Pituk to discard the active offerings and reveal 2 new ones (1 point)",
    "free": "removes the black cube from option {option} of the camp of {tile}",
    "reveal": "chooses the tile at position {pos} to be revealed",
    "chance_tile": "{tile} is revealed at position {pos}",
    "chance_market": "market card {card} comes into the market",
    "chance_offering": "offering {card} becomes active",
    "chance_deal": "player {player} is dealt heritage card {card}",
    "chance_deal_hidden": "player {player} is dealt a heritage card",
}

# the terms and notes of a score breakdown (State.score_breakdown)
SCORING = {
    "score_offering": "offering {card}",
    "score_market": "market card {card}, points at the end",
    "score_heritage": "heritage card {card}, points at the end",
    "score_tokens": "{count} point {count:token|tokens}",
    "score_maize": "{count} maize stored, 1 point per {per}",
    "score_skins": "{count} {count:skin|skins} stored, 1 point per {per}",
    "score_masks": "{count} {count:mask|masks} stored, 1 point per {per}",
    "note_ties": "ties: most point tokens, then most masks, then whoever made an offering first",
}

# why the game ended (State.end_reason; the game's spec.ends, as end_<code>)
ENDS = {
    "end_second_offering": "a player completed a second offering",
    "end_round_limit": "the round limit was reached (a safeguard, not a rule of the game)",
}

M = Catalog("nakum", {**NAMES, **REFUSALS, **MOVES, **SCORING, **ENDS})
