"""Kukulkán's messages: why a choice is refused, what a choice did, how a score comes about (English templates).

Ids are ``kukulkan.<key>``; see :mod:`ziggurat.core.message` for the template
syntax. A ``segment`` parameter is the nested ``kukulkan.segment`` ("s12", with
its two end ``points`` on the sheet's grid), a ``block`` is ``kukulkan.block``
("b7") or ``kukulkan.block_labelled`` ("b12 (A)"); ``help`` is one of the help
names (``kukulkan.help_same`` ...); ``n`` is the number the player is using
this round (the die, or what a help made of it).
"""

from __future__ import annotations

from ziggurat.core.message import Catalog

# names of pieces and places, nested in the other messages
NAMES = {
    "segment": "s{segment}",
    "block": "b{block}",
    "block_labelled": "b{block} ({label})",
    "help_same": "same-value stacking",
    "help_plus": "plus/minus one",
    "help_super": "super-six",
    "help_perm": "the permanent plus/minus one",
}

# why a move is not legal (State.why_illegal)
REFUSALS = {
    "trail_finish": "finish your trail first: {done} of {n} segments drawn, draw the next one",
    "trail_repeat": "{segment} is already in this trail",
    "trail_not_next": "{segment} does not continue your trail: the next segment must touch {point}",
    "trail_not_next_two": "{segment} does not continue your trail: the next segment must touch {left} or {right}",
    "trail_dead_end": "after {segment} your trail could not reach exactly {n} segments",
    "help_chosen": "you chose {help} this round: now use it (one help per round, and no pass after it)",
    "same_write": "with same-value stacking you must write a number",
    "drawn": "{segment} is drawn already: a segment is never drawn twice",
    "no_trail": "no trail of exactly {n} undrawn {n:segment|segments} can begin with {segment}",
    "write_base": "{block} is a base block: its {value} is printed on the sheet",
    "write_numbered": "{block} is numbered already (a {value})",
    "write_outline": "this block's outline is not drawn yet: {missing} {count:is|are} still dotted",
    "write_supports": "{block} rests on {blank}, not numbered yet: number {count:it|them} first",
    "write_not_lower_one": "{n} is not lower than its support's {total}",
    "write_not_lower_two": "{n} is not lower than the sum of its two supports, {total}",
    "write_same_one": "with same-value stacking the number must equal its support's {total}, not {n}",
    "write_same_two": "with same-value stacking the number must equal the sum of its two supports, {total}, not {n}",
    "mark_blank": "{block} has no number yet",
    "mark_marked": "{block} is marked already",
    "mark_value": "{block} shows a {value}, not a {n}",
    "mark_base_outline": "base block {block} can be marked only once its whole outline is drawn: "
    "{missing} {count:is|are} still dotted",
    "pass_possible": "you can't pass: you can still use the {n} (a pass is only for when nothing is possible)",
    "help_used": "you have already used {help}",
    "same_no_block": "no block could take a {n} equal to its support (or to the sum of its two supports)",
    "plus_not_next": "plus/minus one turns a {n} into a {low} or a {high}, not a {m}",
    "super_not_six": "super-six only changes a rolled 6, and the die shows {die}",
    "help_useless": "with a {m} you could not draw, write or mark anything",
}

# what a move or a chance outcome did (State.describe_action)
MOVES = {
    "draw_first": "starts a trail of {n}: draws {segment}",
    "draw_next": "draws {segment} ({done} of {n})",
    "write": "writes a {n} in {block}",
    "mark": "marks {block} (a {value})",
    "pass": "passes",
    "use_same": "uses same-value stacking",
    "use_plus": "uses plus/minus one: the {die} counts as a {m}",
    "use_perm": "uses the permanent plus/minus one: the {die} counts as a {m}",
    "use_super": "uses super-six: the 6 counts as a {m}",
    "chance_roll": "the die shows {n}",
}

# the terms and notes of a score breakdown (State.score_breakdown)
SCORING = {
    "score_marked": "{count} marked {count:block|blocks}",
    "score_base": "base bonus: a permanent plus/minus one (no points)",
    "score_axis": "axis bonus: the five axis blocks numbered and marked",
    "score_full": "full bonus: every block numbered; the highest external block shows {value}",
    "score_ac": "A-C bonus, first to claim: C shows {c}, A shows {a}",
    "score_bd": "B-D bonus, first to claim: D shows {d}, B shows {b}",
    "note_tie": "a tie goes to the player with more marked blocks; if that ties too, the win is shared",
}

# why the game ended (State.end_reason; the game's spec.ends, as end_<code>)
ENDS = {
    "end_bonuses": "the three normal bonuses were claimed",
    "end_no_usable_roll": "no player could act on any roll",
    "end_round_limit": "the round limit was reached (a safeguard, not a rule of the game)",
    "end_all_passed": "every player had to pass (the backstop before 2026-11-24)",
}

M = Catalog("kukulkan", {**NAMES, **REFUSALS, **MOVES, **SCORING, **ENDS})
