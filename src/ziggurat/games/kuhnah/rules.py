"""K'uh Nah's rules, top to bottom like the rulebook (see ``docs/rulings.md``).

Setup is chance: cards are removed unseen one at a time, two are flipped into
the Quarry, and (if asked) the start player is drawn. A turn is either *jade*
(one jade on one Quarry card) or *take* (a Quarry card with all its jade),
followed by the placement of the taken card in the player's pyramid, a second
decision. After a placement the Quarry is refilled from the deck (chance); when
the deck is empty the game ends at once.

Pyramid coordinates: a card at row ``r`` (0 = base), column ``x`` rests on
``(r-1, x)`` (its *left support*) and ``(r-1, x+1)`` (its *right support*). The
first base card is at column 0; base cards extend the row at either end. Cells
are stored under the key ``r * 128 + x + 64``, so the right neighbour is
``key + 1`` and the slot above a pair is ``key + 128``.

Action ids (fixed for a given deck size and player count):

* 0, 1: jade on Quarry card 1 or 2;  2, 3: take Quarry card 1 or 2;
* 4: base, left end (also "the first base card");  5: base, right end;
* 6 ..: an upper slot, by row and by column counted from the base's left end;
* then, with ``jade-wild``: jade on one half of a card (card index * 2 + half).

Chance outcome ids are card indices (removal and reveal) and, for a random
start player, the player number.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ziggurat.core.errors import ConfigError, IllegalActionError, ParseActionError, RecordError
from ziggurat.core.game import CHANCE, TERMINAL, Game, State
from ziggurat.core.message import Message
from ziggurat.core.outcome import EndReason, PlayerScore, ScoreBreakdown, ScoreTerm
from ziggurat.core.params import param
from ziggurat.core.spec import GameSpec, OptionSpec
from ziggurat.games.kuhnah.cards import Card, CardList, load_cards
from ziggurat.games.kuhnah.messages import M

REMOVE = {2: 29, 3: 19, 4: 9, 5: 19, 6: 1}
START_JADE = 8

JADE_ON = 0
TAKE = 2
BASE_LEFT = 4
BASE_RIGHT = 5
UPPER = 6

ROW = 128
ORIGIN = 64
LEFT, RIGHT = 0, 1

# phases
SETUP_REMOVE, SETUP_REVEAL, SETUP_START, TURN, PLACE, REFILL, OVER = range(7)

# the two turn choices, shared by every state (legal action lists are never mutated)
_JADE_OR_TAKE = [JADE_ON, JADE_ON + 1, TAKE, TAKE + 1]
_TAKE_ONLY = [TAKE, TAKE + 1]
# ``KuhNahState.drawn`` when no draw waits to be confirmed: past the end of any deck
NO_DRAW = 1 << 30
_PHASE_NAMES = ("setup", "setup", "setup", "turn", "place", "refill", "over")


def _key(row: int, col: int) -> int:
    return row * ROW + col + ORIGIN


def _row_col(key: int) -> tuple[int, int]:
    return key // ROW, key % ROW - ORIGIN


SPEC = GameSpec(
    id="kuhnah",
    name="K'uh Nah",
    aliases=("kuh-nah", "kuh nah"),
    min_players=2,
    max_players=6,
    has_chance=True,
    has_hidden_information=True,
    lower_score_wins=True,
    summary="Build a pyramid of heavy-under-light cards; take with jade, lowest score wins.",
    ends=(EndReason("quarry-empty", M("end_quarry_empty")),),
    options=(
        OptionSpec("open-jade", "bool", False, help="every player's jade count is shown (private by default)"),
        OptionSpec(
            "jade-wild",
            "bool",
            False,
            variant=True,
            help="the jaguar is an ordinary symbol; once per game a jade makes one half wild",
        ),
        OptionSpec(
            "start-player",
            "choice",
            "1",
            choices=("random", "1", "2", "3", "4", "5", "6"),
            help="who goes first: a seat number or random",
        ),
        OptionSpec("deck", "path", None, help="a TOML card list to play with instead of the reconstruction"),
        # the rulebook's numbers (docs/analysis.md, "Parameters")
        param("start-jade", "int", START_JADE, 0, 50, "jade each player starts with"),
        param("jade-points", "int", 1, 0, 10, "points each jade left at the end takes off its holder's score"),
        *(
            param(f"remove-{n}", "int", REMOVE[n], 0, 47, f"cards removed unseen at setup with {n} players")
            for n in sorted(REMOVE)
        ),
    ),
)


class KuhNahGame(Game):
    """K'uh Nah for 2–6 players."""

    spec = SPEC

    def _configure(self) -> None:
        self.cards: CardList = load_cards(self.options["deck"])  # type: ignore[arg-type]
        start = self.options["start-player"]
        if start != "random" and int(str(start)) > self.num_players:
            raise ConfigError(f"start-player {start} is not a seat in a {self.num_players}-player game")
        self.jade_wild = bool(self.options["jade-wild"])
        self.open_jade = bool(self.options["open-jade"])
        n = len(self.cards.cards)
        self.num_cards = n
        self.start_jade = int(self.options["start-jade"])  # type: ignore[arg-type]
        self.jade_points = int(self.options["jade-points"])  # type: ignore[arg-type]
        self.removed_count = int(self.options[f"remove-{self.num_players}"])  # type: ignore[arg-type]
        if n - self.removed_count < 3:
            raise ConfigError(
                f"remove-{self.num_players}={self.removed_count} leaves {n - self.removed_count} of the "
                f"{n} cards; the Quarry needs 2 and the deck at least 1"
            )
        self.next_seat = [(p + 1) % self.num_players for p in range(self.num_players)]  # who plays after p
        self.deck_size = n - self.removed_count
        # The last card stays in the Quarry, so one player holds at most deck_size - 1.
        self.max_cards = self.deck_size - 1
        self.value = [c.value for c in self.cards.cards]
        names = self.cards.animals
        self.symbol_names = names
        wild = self.cards.wild if not self.jade_wild else None
        self.wild_symbol = names.index(wild) if wild is not None else -1
        self.left_symbol = [names.index(c.left) for c in self.cards.cards]
        self.right_symbol = [names.index(c.right) for c in self.cards.cards]
        # what a view shows of each card, and whether each half is wild by its symbol
        self.card_json = [c.to_json() for c in self.cards.cards]
        self.wild_by_symbol = [
            (self.left_symbol[i] == self.wild_symbol, self.right_symbol[i] == self.wild_symbol) for i in range(n)
        ]
        # Upper slots: row r (1..) has max_cards - r columns; row r needs a
        # triangle of (r+1)(r+2)/2 cards, so rows stop where that exceeds max_cards.
        self.row_offset = [0, 0]
        total = 0
        r = 1
        while (r + 1) * (r + 2) // 2 <= self.max_cards:
            self.row_offset.append(0)
            self.row_offset[r] = UPPER + total
            total += self.max_cards - r
            r += 1
        self.max_row = r - 1
        self.wild_base = UPPER + total
        # (row, column from the base's left end) of every upper-slot action
        self.slot_of = [(0, 0)] * UPPER
        for row in range(1, self.max_row + 1):
            self.slot_of += [(row, col) for col in range(self.max_cards - row)]
        # the cell key of every upper-slot action, counted from a base whose left end is column 0
        self.slot_key = [row * ROW + ORIGIN + col for row, col in self.slot_of]
        # Support by symbols and weight alone, per card: bit ``a`` of left_ok[c] says that card a may
        # carry c on its left half (heavier, or a's right half matches c's left half or is wild);
        # right_ok likewise for the right support. Jade-wild halves are checked on top.
        value, lsym, rsym, wsym = self.value, self.left_symbol, self.right_symbol, self.wild_symbol
        self.left_ok = [
            sum(1 << a for a in range(n) if value[a] > value[c] or rsym[a] == lsym[c] or wsym in (lsym[c], rsym[a]))
            for c in range(n)
        ]
        self.right_ok = [
            sum(1 << b for b in range(n) if value[b] > value[c] or lsym[b] == rsym[c] or wsym in (rsym[c], lsym[b]))
            for c in range(n)
        ]
        # The same tables turned round, per support: bit c of carry_left[a] says that a may carry card c
        # on its left half (a is c's left support), carry_right[b] likewise; a pair (a, b) may carry
        # exactly the cards in carry_left[a] & carry_right[b] before jade-wild halves.
        self.carry_left = [sum(1 << c for c in range(n) if self.left_ok[c] >> a & 1) for a in range(n)]
        self.carry_right = [sum(1 << c for c in range(n) if self.right_ok[c] >> b & 1) for b in range(n)]
        # the upper-slot action above the pair whose left card has key ``key``, for a base whose left
        # end is column 0 (subtract the base's left column); rows without a slot above are never asked
        self.pair_action = [
            self.row_offset[min(key // ROW + 1, len(self.row_offset) - 1)] + key % ROW - ORIGIN
            for key in range((self.max_row + 1) * ROW)
        ]
        self._num_actions = self.wild_base + (2 * n if self.jade_wild else 0)

    @property
    def num_actions(self) -> int:
        return self._num_actions

    @property
    def max_chance_outcomes(self) -> int:
        return max(self.num_cards, self.num_players)

    @property
    def max_game_length(self) -> int:
        jade = self.start_jade * self.num_players
        takes = self.max_cards
        chance = self.num_cards + 1
        return chance + takes * (jade + 3) + jade

    def new_initial_state(self) -> KuhNahState:
        return KuhNahState(self)

    def card(self, index: int) -> Card:
        """The card at ``index`` of the card list."""
        return self.cards.cards[index]


class KuhNahState(State):
    """A K'uh Nah position."""

    __slots__ = (
        "_shown_pyramids",
        "base_left",
        "base_right",
        "cells",
        "current",
        "deck",
        "drawn",
        "jade",
        "open_pairs",
        "phase",
        "quarry",
        "quarry_jade",
        "removed",
        "taken",
        "to_move",
        "wild_halves",
        "wild_used",
    )  # fmt: skip

    game: KuhNahGame
    current: int  # the core's hook, a field here

    def __init__(self, game: KuhNahGame):
        super().__init__(game)
        n = game.num_players
        self.phase = SETUP_REMOVE if game.removed_count else SETUP_REVEAL
        self.to_move = 0
        self.current = CHANCE  # who decides now (the core's hook), kept in step with phase and to_move
        self.quarry = [-1, -1]
        self.quarry_jade = [0, 0]
        self.deck = list(range(game.num_cards))  # not removed, not revealed; kept sorted
        # where sample_chance last drew a card from the deck: a hint, checked before use; a copy starts
        # without one (a determinisation must not carry where a card lay in the true deck)
        self.drawn = NO_DRAW
        self.removed: list[int] = []
        self.taken = -1  # quarry slot of the card being placed
        self.jade = [game.start_jade] * n
        self.cells: list[dict[int, int]] = [{} for _ in range(n)]
        self.base_left = [0] * n
        self.base_right = [-1] * n  # base covers columns base_left..base_right
        self.wild_used = [False] * n
        self.wild_halves: set[int] = set()  # card * 2 + half
        # the pyramids as every view shows them, made once per position (every move forgets them: _apply)
        self._shown_pyramids: list[list[dict[str, Any]]] | None = None
        # derived from ``cells`` (kept in step by _apply, rebuilt by recount): per player, the side-by-side
        # pairs with nothing on them yet (the upper slots a card could go in), as the key of the pair's
        # left card -> the cards the pair may carry by weight and symbols (bit c: card c), in the order
        # the pairs were made
        self.open_pairs: list[dict[int, int]] = [{} for _ in range(n)]

    # ---------------------------------------------------------- who decides
    def _who(self) -> int:
        """Who decides in this phase: the player to move on a turn or a placement, else chance or nobody."""
        phase = self.phase
        if phase == TURN or phase == PLACE:
            return self.to_move
        if phase == OVER:
            return TERMINAL
        return CHANCE

    # ---------------------------------------------------------------- chance
    def _chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase == SETUP_START:
            n = self.game.num_players
            return [(p, 1.0 / n) for p in range(n)]
        p = 1.0 / len(self.deck)
        return [(c, p) for c in self.deck]

    def sample_chance(self, rng: random.Random) -> int:
        u = rng.random()
        if self.phase == SETUP_START:
            return int(u * self.game.num_players)
        deck = self.deck
        i = self.drawn = int(u * len(deck))
        return deck[i]

    def _chance_legal(self, outcome: int) -> bool:
        if self.phase == SETUP_START:
            return outcome in range(self.game.num_players)
        deck = self.deck
        i = self.drawn  # a card just drawn by sample_chance is found without a scan of the deck
        return (i < len(deck) and deck[i] == outcome) or outcome in deck

    # ----------------------------------------------------------------- rules
    def _legal_actions(self, player: int) -> list[int]:
        if self.phase == TURN:
            return _JADE_OR_TAKE if self.jade[player] > 0 else _TAKE_ONLY
        return self._placements(player, self.quarry[self.taken])

    def _placements(self, player: int, card: int) -> list[int]:
        """Legal slots for ``card`` in ``player``'s pyramid, then wild choices."""
        cells = self.cells[player]
        g = self.game
        pairs = self.open_pairs[player]
        if not cells:
            actions = [BASE_LEFT]
        else:
            actions = [BASE_LEFT, BASE_RIGHT]
            if pairs:
                above = g.pair_action
                shift = self.base_left[player]
                if not self.wild_halves:
                    bit = 1 << card
                    for key, fits in pairs.items():
                        if fits & bit:
                            actions.append(above[key] - shift)
                else:
                    for key, fits in pairs.items():
                        if fits >> card & 1 or self._may_carry(card, cells[key], cells[key + 1]):
                            actions.append(above[key] - shift)
                if len(actions) > 3:
                    actions.sort()  # the pairs come in the order they were made
        if g.jade_wild and not self.wild_used[player] and self.jade[player] > 0:
            base = g.wild_base
            wild_cards = sorted([card, *cells.values()])
            for c in wild_cards:
                if (c * 2) not in self.wild_halves:
                    actions.append(base + 2 * c)
                if (c * 2 + 1) not in self.wild_halves:
                    actions.append(base + 2 * c + 1)
        return actions

    def _apply(self, action: int, player: int) -> None:
        self._shown_pyramids = None
        phase = self.phase
        if phase == TURN:
            if action < TAKE:
                self.jade[player] -= 1
                self.quarry_jade[action] += 1
            else:
                slot = action - TAKE
                self.taken = slot
                self.jade[player] += self.quarry_jade[slot]
                self.quarry_jade[slot] = 0
                self.phase = PLACE
                return
            self.to_move = self.current = self.game.next_seat[player]
        elif phase == PLACE:
            g = self.game
            if action >= g.wild_base:
                self.jade[player] -= 1
                self.wild_used[player] = True
                self.wild_halves.add(action - g.wild_base)
                return
            slot = self.taken
            card = self.quarry[slot]
            self.quarry[slot] = -1
            self.taken = -1
            cells = self.cells[player]
            pairs = self.open_pairs[player]
            # the new card makes a pair with each neighbour (nothing can lie on a card just placed)
            if action == BASE_LEFT:
                if cells:
                    left_end = self.base_left[player] = self.base_left[player] - 1
                    key = ORIGIN + left_end
                    pairs[key] = g.carry_left[card] & g.carry_right[cells[key + 1]]
                else:
                    self.base_right[player] = 0
                    key = ORIGIN + self.base_left[player]
            elif action == BASE_RIGHT:
                right_end = self.base_right[player] = self.base_right[player] + 1
                key = ORIGIN + right_end
                pairs[key - 1] = g.carry_left[cells[key - 1]] & g.carry_right[card]
            else:
                key = g.slot_key[action] + self.base_left[player]
                del pairs[key - ROW]
                left = cells.get(key - 1)
                if left is not None:
                    pairs[key - 1] = g.carry_left[left] & g.carry_right[card]
                right = cells.get(key + 1)
                if right is not None:
                    pairs[key] = g.carry_left[card] & g.carry_right[right]
            cells[key] = card
            self.to_move = g.next_seat[player]
            if self.deck:
                self.phase, self.current = REFILL, CHANCE
            else:
                self.phase, self.current = OVER, TERMINAL
        elif phase == SETUP_START:
            self.to_move = self.current = action
            self.phase = TURN
        else:  # a card comes off the deck
            deck = self.deck
            i = self.drawn
            if i < len(deck) and deck[i] == action:
                del deck[i]
            else:
                deck.remove(action)
            if phase == SETUP_REMOVE:
                self.removed.append(action)
                if len(self.removed) == self.game.removed_count:
                    self.removed.sort()
                    self.phase = SETUP_REVEAL
                return
            # a refill, or a reveal at setup: the first empty Quarry place, and play goes on once both are full
            quarry = self.quarry
            if quarry[0] < 0:
                quarry[0] = action
            else:
                quarry[1] = action
            if quarry[0] < 0 or quarry[1] < 0:
                return
            if phase == REFILL:
                self.phase, self.current = TURN, self.to_move
            elif self.game.options["start-player"] == "random":
                self.phase = SETUP_START
            else:
                self.to_move = self.current = int(str(self.game.options["start-player"])) - 1
                self.phase = TURN

    def recount(self) -> None:
        """Work out again what play keeps in step (who decides, the open pairs), after fields were set by hand."""
        self._shown_pyramids = None
        self.current = self._who()
        left, right = self.game.carry_left, self.game.carry_right
        self.open_pairs = [
            {key: left[a] & right[cells[key + 1]] for key, a in sorted(cells.items())
             if key + 1 in cells and key + ROW not in cells}
            for cells in self.cells
        ]  # fmt: skip

    def _may_carry(self, card: int, left: int, right: int) -> bool:
        """True if side-by-side ``left`` and ``right`` may carry ``card``: each by the tables or a jade-wild half."""
        g = self.game
        return bool(g.left_ok[card] >> left & 1 or self._wild_match(card, LEFT, left)) and bool(
            g.right_ok[card] >> right & 1 or self._wild_match(card, RIGHT, right)
        )

    def _wild_match(self, card: int, half: int, support: int) -> bool:
        """True if a jade-wild half makes ``support`` carry ``half`` of ``card`` (the other half of the support)."""
        halves = self.wild_halves
        return (card * 2 + half) in halves or (support * 2 + 1 - half) in halves

    def _slot(self, action: int) -> tuple[int, int]:
        """(row, column counted from the base's left end) of an upper-slot action."""
        return self.game.slot_of[action]

    # ------------------------------------------------------------ why not
    def _why_illegal(self, action: int, player: int) -> Message:
        """Why ``action`` is not legal for ``player`` now (see :meth:`State.why_illegal`): every refusal, by rule."""
        g = self.game
        if player == CHANCE:
            if self.phase == SETUP_START:
                return M("chance_no_seat", player=action + 1)
            return M("chance_not_in_deck", card=self._card_message(action))
        if action >= g.wild_base:
            return self._why_not_wild(action, player)
        if self.phase == TURN:
            if action < TAKE:
                return M("no_jade")  # a take is always legal on a turn
            return M("take_first")
        card = self.quarry[self.taken]
        if action < BASE_LEFT:
            return M("place_first", card=self._card_message(card))
        if action < UPPER:  # base right (base left is always legal): only once the base has a card
            return M("first_card")
        cells = self.cells[player]
        if not cells:
            return M("first_card")
        row, col = self._slot(action)
        key = _key(row, col + self.base_left[player])
        where = M("where", row=row + 1, pos=col + 1)
        if key in cells:
            return M("slot_taken", where=where, card=self._card_message(cells[key]))
        a, b = cells.get(key - ROW), cells.get(key - ROW + 1)
        if a is None or b is None:
            missing = [M("where", row=row, pos=col + 1 + i) for i, c in enumerate((a, b)) if c is None]
            return M("slot_unsupported", where=where, missing=missing, count=len(missing))
        reasons = []
        if not (g.left_ok[card] >> a & 1 or self._wild_match(card, LEFT, a)):
            reasons.append(self._why_not_carry(card, a, LEFT))
        if not (g.right_ok[card] >> b & 1 or self._wild_match(card, RIGHT, b)):
            reasons.append(self._why_not_carry(card, b, RIGHT))
        what = self._card_message(card)
        if len(reasons) == 2:
            return M("support_both", card=what, where=where, left=reasons[0], right=reasons[1])
        return M("support", card=what, where=where, reason=reasons[0])

    def _why_not_carry(self, card: int, support: int, half: int) -> Message:
        """Why ``support``, under ``half`` of ``card``, can't carry it: not heavier, and the touching halves differ."""
        g = self.game
        c, s = g.card(card), g.card(support)
        mine, theirs = (c.left, s.right) if half == LEFT else (c.right, s.left)
        key = ("as_heavy_" if g.value[support] == g.value[card] else "heavier_") + ("left" if half == LEFT else "right")
        return M(key, support=self._card_message(support), mine=mine, theirs=theirs)

    def _why_not_wild(self, action: int, player: int) -> Message:
        g = self.game
        if self.phase != PLACE:  # (a game without the variant has no wild action ids)
            return M("wild_when")
        if self.wild_used[player]:
            return M("wild_used")
        if self.jade[player] == 0:
            return M("wild_no_jade")
        c, half = divmod(action - g.wild_base, 2)
        if c != self.quarry[self.taken] and c not in self.cells[player].values():
            return M("wild_not_yours", card=self._card_message(c))
        return M("wild_already_left" if half == LEFT else "wild_already_right", card=self._card_message(c))

    def _card_message(self, card: int) -> Message:
        c = self.game.card(card)
        return M("card", id=c.id, value=c.value, left=c.left, right=c.right)

    # ------------------------------------------------------ what a move did
    def _describe(self, action: int, player: int, audience: int | None) -> Message:
        """What the legal ``action`` does (see :meth:`State.describe_action`); nothing in it is secret."""
        g = self.game
        if player == CHANCE:
            if self.phase == SETUP_START:
                return M("chance_start", player=action + 1, seat=action)
            if self.phase == SETUP_REMOVE:
                return M("chance_remove")
            return M("chance_reveal", card=self._card_message(action))
        if self.phase == TURN:
            if action < TAKE:
                return M("jade", card=self._card_message(self.quarry[action]), jade=self.quarry_jade[action] + 1)
            slot = action - TAKE
            taken = self._card_message(self.quarry[slot])
            jade = self.quarry_jade[slot]
            return M("take", card=taken, jade=jade) if jade else M("take_bare", card=taken)
        card = self.quarry[self.taken]
        if action >= g.wild_base:
            c, half = divmod(action - g.wild_base, 2)
            animal = g.card(c).left if half == LEFT else g.card(c).right
            return M("wild_left" if half == LEFT else "wild_right", animal=animal, card=self._card_message(c))
        what = self._card_message(card)
        cells = self.cells[player]
        if action == BASE_LEFT:
            return M("place_base_left", card=what) if cells else M("place_first_card", card=what)
        if action == BASE_RIGHT:
            return M("place_base_right", card=what)
        row, col = self._slot(action)
        key = _key(row, col + self.base_left[player])
        left, right = cells[key - ROW], cells[key - ROW + 1]
        return M(
            "place_upper",
            card=what,
            where=M("where", row=row + 1, pos=col + 1),
            left=self._card_message(left),
            right=self._card_message(right),
        )

    def _is_wild(self, card: int, half: int) -> bool:
        g = self.game
        sym = g.left_symbol[card] if half == LEFT else g.right_symbol[card]
        return sym == g.wild_symbol or (card * 2 + half) in self.wild_halves

    def _halves_match(self, card: int, half: int, support: int, support_half: int) -> bool:
        """True if ``half`` of ``card`` matches ``support_half`` of ``support``."""
        g = self.game
        if self._is_wild(card, half) or self._is_wild(support, support_half):
            return True
        mine = g.left_symbol[card] if half == LEFT else g.right_symbol[card]
        theirs = g.left_symbol[support] if support_half == LEFT else g.right_symbol[support]
        return mine == theirs

    # ------------------------------------------------------------------ text
    def _action_text(self, action: int, player: int) -> str:
        g = self.game
        if player == CHANCE:
            if self.phase == SETUP_START:
                return f"start player {action + 1}"
            verb = "remove" if self.phase == SETUP_REMOVE else "reveal"
            return f"{verb} {g.card(action).id}"
        if action < TAKE:
            return f"jade {self._quarry_id(action)}"
        if action < BASE_LEFT:
            return f"take {self._quarry_id(action - TAKE)}"
        if action == BASE_LEFT:
            return "base left" if self.cells[player] else "base"
        if action == BASE_RIGHT:
            return "base right"
        if action >= g.wild_base:
            c, half = divmod(action - g.wild_base, 2)
            return f"wild {g.card(c).id} {'left' if half == LEFT else 'right'}"
        row, col = self._slot(action)
        return f"row {row + 1} pos {col + 1}"

    def _quarry_id(self, slot: int) -> str:
        card = self.quarry[slot]
        return self.game.card(card).id if card >= 0 else f"quarry {slot + 1}"

    def _parse(self, text: str, player: int) -> int:
        g = self.game
        words = text.split()
        if player == CHANCE:
            if len(words) == 3 and words[:2] == ["start", "player"] and words[2].isdigit():
                verb, outcome = "start", int(words[2]) - 1
            elif len(words) == 2 and words[0] in ("remove", "reveal"):
                verb, outcome = words[0], self._card_index(words[1])
            else:
                raise ParseActionError(f"{text!r} is not a chance outcome (remove X, reveal X, start player N)")
            # the outcome ids of a draw and of the start player overlap: say only what this node does
            now = "start" if self.phase == SETUP_START else "remove" if self.phase == SETUP_REMOVE else "reveal"
            if verb != now:
                doing = "picks the start player" if now == "start" else f"{now}s a card"
                raise IllegalActionError(f"chance {doing} now: {text!r} is not an outcome here")
            return outcome
        if len(words) == 2 and words[0] in ("jade", "take"):
            base = JADE_ON if words[0] == "jade" else TAKE
            if words[1] in ("1", "2"):
                return base + int(words[1]) - 1
            card = self._card_index(words[1])
            for slot in (0, 1):
                if self.quarry[slot] == card:
                    return base + slot
            raise IllegalActionError(M("not_in_quarry", card=self._card_message(card)))
        if words == ["base"] or words == ["base", "left"]:
            return BASE_LEFT
        if words == ["base", "right"]:
            return BASE_RIGHT
        if len(words) == 4 and words[0] == "row" and words[2] == "pos" and words[1].isdigit() and words[3].isdigit():
            row, col = int(words[1]) - 1, int(words[3]) - 1
            if row == 0:
                raise ParseActionError("row 1 is the base: say 'base left' or 'base right'")
            if not 1 <= row <= g.max_row or not 0 <= col < g.max_cards - row:
                raise ParseActionError(f"there is no row {row + 1} pos {col + 1} in a pyramid of this game")
            return g.row_offset[row] + col
        if len(words) == 3 and words[0] == "wild" and words[2] in ("left", "right"):
            if not g.jade_wild:
                raise ParseActionError("wild halves are part of the jade-wild variant only")
            card = self._card_index(words[1])
            return g.wild_base + 2 * card + (LEFT if words[2] == "left" else RIGHT)
        raise ParseActionError(
            f"{text!r} is not a K'uh Nah action (try: jade 22a, take 22a, base left, base right, row 2 pos 1"
            + (", wild 22a left" if g.jade_wild else "")
            + ")"
        )

    def _card_index(self, word: str) -> int:
        try:
            return self.game.cards.index(word)
        except KeyError:
            raise ParseActionError(f"there is no card {word!r} (cards are named like 22a, 22b)") from None

    # ----------------------------------------------------------------- state
    def _copy(self) -> KuhNahState:
        new = KuhNahState.__new__(KuhNahState)
        new.game = self.game
        new.phase = self.phase
        new.to_move = self.to_move
        new.current = self.current
        new.quarry = self.quarry.copy()
        new.quarry_jade = self.quarry_jade.copy()
        new.deck = self.deck.copy()
        new.drawn = NO_DRAW
        new.removed = self.removed.copy()
        new.taken = self.taken
        new.jade = self.jade.copy()
        new.cells = [c.copy() for c in self.cells]
        new.open_pairs = [o.copy() for o in self.open_pairs]
        new.base_left = self.base_left.copy()
        new.base_right = self.base_right.copy()
        new.wild_used = self.wild_used.copy()
        new.wild_halves = self.wild_halves.copy()
        new._shown_pyramids = self._shown_pyramids  # the same position: the same pyramids (never changed)
        return new

    def _resample(self, player: int, rng: random.Random) -> KuhNahState:
        """Redeal what ``player`` can't see: which unseen cards were removed and which are in the deck.

        Jade counts are private at the table but follow from the public moves
        (everyone starts with the same jade; every jade placed and taken is seen), so they
        are kept.
        """
        new = self._copy()
        deck, removed = self.deck, self.removed
        if not deck or not removed:
            return new  # one pile only: nothing to redeal
        pool = deck + removed
        # a uniform split: draw the smaller pile from the pool (fewest draws), the rest is the other
        small = rng.sample(pool, min(len(deck), len(removed)))
        drawn = set(small)
        rest = sorted(c for c in pool if c not in drawn)
        small.sort()
        if len(deck) <= len(removed):
            new.deck, new.removed = small, rest
        else:
            new.deck, new.removed = rest, small
        return new

    def _dump(self) -> dict[str, Any]:
        return {
            "phase": _PHASE_NAMES[self.phase]
            if self.phase not in (SETUP_REMOVE, SETUP_REVEAL)
            else ("remove" if self.phase == SETUP_REMOVE else "reveal"),
            "to_move": self.to_move,
            "quarry": list(self.quarry),
            "quarry_jade": list(self.quarry_jade),
            "deck": sorted(self.deck),
            "removed": sorted(self.removed),
            "taken": self.taken,
            "jade": list(self.jade),
            "pyramids": [sorted([k, c] for k, c in cells.items()) for cells in self.cells],
            "base_left": list(self.base_left),
            "base_right": list(self.base_right),
            "wild_used": list(self.wild_used),
            "wild_halves": sorted(self.wild_halves),
        }

    def _load(self, data: Mapping[str, Any]) -> None:
        names = {"remove": SETUP_REMOVE, "reveal": SETUP_REVEAL, "setup": SETUP_START, "turn": TURN,
                 "place": PLACE, "refill": REFILL, "over": OVER}  # fmt: skip
        g = self.game
        n = g.num_players
        if data["phase"] not in names:
            raise RecordError(f"unknown phase {data['phase']!r}")
        self.phase = names[data["phase"]]
        self.to_move = int(data["to_move"])
        self.quarry = [int(c) for c in data["quarry"]]
        self.quarry_jade = [int(j) for j in data["quarry_jade"]]
        self.deck = sorted(int(c) for c in data["deck"])
        self.removed = sorted(int(c) for c in data["removed"])
        self.taken = int(data["taken"])
        self.jade = [int(j) for j in data["jade"]]
        self.cells = [{int(k): int(c) for k, c in cells} for cells in data["pyramids"]]
        self.recount()
        self.base_left = [int(x) for x in data["base_left"]]
        self.base_right = [int(x) for x in data["base_right"]]
        self.wild_used = [bool(x) for x in data["wild_used"]]
        self.wild_halves = {int(h) for h in data["wild_halves"]}
        lists = (self.jade, self.cells, self.base_left, self.base_right, self.wild_used)
        if any(len(x) != n for x in lists) or len(self.quarry) != 2 or len(self.quarry_jade) != 2:
            raise RecordError("saved K'uh Nah state has the wrong number of players or Quarry cards")
        placed = [c for cells in self.cells for c in cells.values()]
        every = self.deck + self.removed + [c for c in self.quarry if c >= 0] + placed
        if sorted(every) != list(range(g.num_cards)):
            raise RecordError("saved K'uh Nah state does not account for every card exactly once")
        if not 0 <= self.to_move < n or min(self.jade + self.quarry_jade) < 0:
            raise RecordError("saved K'uh Nah state has an impossible player or jade count")
        if self.phase == PLACE and not (0 <= self.taken <= 1 and self.quarry[self.taken] >= 0):
            raise RecordError("saved K'uh Nah state is placing a card that is not there")
        # how full the Quarry is follows from the phase: empty while cards are removed, filled left
        # then right at the reveal, full on a turn, one place empty while it waits for a refill
        full = [c >= 0 for c in self.quarry]
        expected = {
            SETUP_REMOVE: ([False, False],),
            SETUP_REVEAL: ([False, False], [True, False]),
            SETUP_START: ([True, True],),
            TURN: ([True, True],),
            PLACE: ([True, True],),
            REFILL: ([True, False], [False, True]),
        }.get(self.phase)
        if expected is not None and full not in expected:
            raise RecordError(f"saved K'uh Nah state has a Quarry of {self.quarry} in phase {data['phase']!r}")
        self._check_pyramids()

    def _check_pyramids(self) -> None:
        """Refuse pyramids that play cannot build (for :meth:`_load`; the pyramids and their base ends are set).

        The base row has no gaps and its ends are the ones kept; every upper card
        lies on two side-by-side cards that may carry it (by weight and symbols,
        or a jade-wild half); a wild half belongs to a card in play, one per
        player who used their wild jade.
        """
        g = self.game
        used = sum(self.wild_used)
        if used and not g.jade_wild:
            raise RecordError("saved K'uh Nah state uses a jade-wild, but the game is played without it")
        in_play = {c for cells in self.cells for c in cells.values()}
        if self.phase == PLACE:
            in_play.add(self.quarry[self.taken])
        if len(self.wild_halves) != used or any(h >> 1 not in in_play for h in self.wild_halves):
            raise RecordError("saved K'uh Nah state has wild halves that no used jade-wild made")
        for p, cells in enumerate(self.cells):
            left, right = self.base_left[p], self.base_right[p]
            base = sorted(key - ORIGIN for key in cells if key // ROW == 0)
            if base != list(range(left, right + 1)) or (not cells and (left, right) != (0, -1)):
                raise RecordError(
                    f"saved K'uh Nah state: player {p + 1}'s base row is not the unbroken row from column "
                    f"{left} to {right}"
                )
            if left < -ORIGIN or right >= ROW - ORIGIN:
                raise RecordError(f"saved K'uh Nah state: player {p + 1}'s base row is wider than any deck")
            for key, card in cells.items():
                row, col = _row_col(key)
                if row == 0:
                    continue  # the base, checked above
                a, b = cells.get(key - ROW), cells.get(key - ROW + 1)
                if row < 0 or a is None or b is None:
                    raise RecordError(
                        f"saved K'uh Nah state: player {p + 1}'s card at row {row + 1}, column {col - left + 1} "
                        "does not lie on two cards"
                    )
                if not self._may_carry(card, a, b):
                    raise RecordError(
                        f"saved K'uh Nah state: player {p + 1}'s {g.card(card).id} lies on cards that cannot carry it"
                    )

    # ------------------------------------------------------------------ view
    def _pyramids_shown(self) -> list[list[dict[str, Any]]]:
        """Every pyramid's cards as a view shows them (public: the same for every audience)."""
        g = self.game
        base_json = g.card_json
        by_symbol = g.wild_by_symbol
        halves = self.wild_halves
        pyramids = []
        for p in range(g.num_players):
            left0 = self.base_left[p]
            cards = []
            for key, c in sorted(self.cells[p].items()):
                row, col = _row_col(key)
                wl, wr = by_symbol[c]
                entry = dict(base_json[c])
                entry["row"] = row + 1
                entry["pos"] = col - left0 + 1
                entry["wild"] = [wl or c * 2 + LEFT in halves, wr or c * 2 + RIGHT in halves]
                cards.append(entry)
            pyramids.append(cards)
        return pyramids

    def view(self, player: int | None = None) -> dict[str, Any]:
        """What ``player`` sees (``None``: a spectator).

        Public: the Quarry and its jade, every pyramid, deck and removed counts,
        who used their wild jade. Private: each player's jade count (shown only
        to its owner unless ``open-jade``, and to all once the game is over, when
        it is counted). Never shown: which cards were removed
        and the order of the deck.

        The pyramids are made once per position and shared by every view of it
        (a server sends one to each seat and the spectators): read them, never
        change them.
        """
        g = self.game
        card_json = g.card
        pyramids = self._shown_pyramids
        if pyramids is None:
            pyramids = self._shown_pyramids = self._pyramids_shown()
        shown = g.open_jade or self.phase == OVER
        jade = [self.jade[p] if (shown or p == player) else None for p in range(g.num_players)]
        taken = None
        if self.phase == PLACE:
            c = self.quarry[self.taken]
            taken = card_json(c).to_json()
            taken["wild"] = [self._is_wild(c, LEFT), self._is_wild(c, RIGHT)]
        quarry: list[dict[str, Any] | None] = []
        for slot in (0, 1):
            c = self.quarry[slot]
            if c < 0 or (self.phase == PLACE and slot == self.taken):
                quarry.append(None)
            else:
                entry = card_json(c).to_json()
                entry["jade"] = self.quarry_jade[slot]
                entry["wild"] = [self._is_wild(c, LEFT), self._is_wild(c, RIGHT)]
                quarry.append(entry)
        cur = self.current_player()
        out: dict[str, Any] = {
            "game": "kuhnah",
            "player": player,
            "players": g.num_players,
            "phase": _PHASE_NAMES[self.phase],
            "to_move": cur if cur >= 0 else None,
            "quarry": quarry,
            "taken": taken,
            "deck": len(self.deck),
            "removed": len(self.removed),
            "jade": jade,
            "pyramids": pyramids,
            "wild_used": list(self.wild_used),
            "jade_wild": g.jade_wild,
            "wild_symbol": g.cards.wild if not g.jade_wild else None,
        }
        if self.phase == OVER:
            out["scores"] = list(self._scores())
            out["ranks"] = list(self.outcome().ranks)
        return out

    # --------------------------------------------------------------- scoring
    def uncovered(self, player: int) -> list[int]:
        """Cards of ``player``'s pyramid that support no card (they score)."""
        cells = self.cells[player]
        return [c for key, c in cells.items() if key + ROW not in cells and key + ROW - 1 not in cells]

    def score(self, player: int) -> float:
        """``player``'s score as it stands: uncovered card values less their jade (lower is better)."""
        value = self.game.value
        cells = self.cells[player]
        total = 0
        for key, c in cells.items():  # the uncovered cards, as uncovered() lists them
            if key + ROW not in cells and key + ROW - 1 not in cells:
                total += value[c]
        return float(total - self.game.jade_points * self.jade[player])

    def _scores(self) -> tuple[float, ...]:
        return tuple(self.score(p) for p in range(self.game.num_players))

    def _score_breakdown(self, audience: int | None) -> ScoreBreakdown:
        """Per player: each uncovered card's value, then minus the jade held (secret to others until the end).

        Before the end it is the score if the game ended now; another player's
        jade is hidden as the view hides it (``open-jade`` shows it).
        """
        g = self.game
        over = self.phase == OVER
        shown = g.open_jade or over
        players = []
        for p in range(g.num_players):
            cells = self.cells[p]
            left0 = self.base_left[p]
            terms = []
            for key, c in sorted(cells.items()):
                if key + ROW in cells or key + ROW - 1 in cells:
                    continue
                row, col = _row_col(key)
                where = M("where", row=row + 1, pos=col - left0 + 1)
                terms.append(ScoreTerm(M("score_card", card=self._card_message(c), where=where), float(g.value[c])))
            if shown or p == audience:
                terms.append(ScoreTerm(M("score_jade", jade=self.jade[p]), float(-g.jade_points * self.jade[p])))
            else:
                terms.append(ScoreTerm(M("score_jade_hidden"), None))
            players.append(PlayerScore.of(p, terms))
        return ScoreBreakdown(over, tuple(players), (M("score_lowest"),))
