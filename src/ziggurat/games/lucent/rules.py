"""Lucent's rules, top to bottom like the rulebook (see ``docs/rulings.md``).

Setup is chance. With ``wildcards``, gems are removed unseen one at a time and
the Wildcards join the deck; with ``geomancers``, every player first gets one
Geomancer. Then the deck is dealt one card at a time, seat 1 first (the player
left of the dealer), round and round. With 2 or 4 players the last card dealt
is the Focus Gem, face up in the centre of the base row; with 3 or 5 the first
player's first card is the Focus Gem. With ``geomancer-focus`` a Geomancer is
the Focus Gem before the deal instead; with 2 or 4 players the last card dealt
is then set aside face down, unseen by everyone, out of the game.

The pyramid has 45 slots. Row 0 is the base, nine wide, the Focus Gem in its
centre (``base 5``); row ``k`` (1..8) has ``9 - k`` slots; the gem at row ``r``
slot ``j`` rests on row ``r-1`` slots ``j`` and ``j+1``. Slots are numbered
0..44 row by row from the base (slot id = row offset + position - 1).

A player's turn is one decision, *play a card of some kind at some slot*:

* action id = ``kind * 45 + slot``; kinds are the colours in deck order, then
  the Wildcard, then the Geomancer (315 ids with five colours). Cards of one
  kind are interchangeable, so the id names the kind, not the card.
* the Focus Gem placed by the first player is ``kind * 45 + 4`` (base 5).
* texts: ``play red at base 3``, ``play blue at row 2 slot 3``,
  ``play green as focus``; also accepted: ``red b3``, ``red r2s3``, ``red at
  focus``, without ``play``.

Nobody ever passes: a player with no card is skipped, a player with cards but
no legal play is *out* (puts their hand down) at once, and when nobody can play
the game is over. Those steps are automatic, not decisions.

Chance outcome ids are card indices (see :mod:`ziggurat.games.lucent.deck`).
"""

from __future__ import annotations

import random
from bisect import bisect_left, insort
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

from ziggurat.core.errors import ConfigError, IllegalActionError, ParseActionError, RecordError
from ziggurat.core.game import CHANCE, TERMINAL, Game, State
from ziggurat.core.message import Message
from ziggurat.core.outcome import EndReason, PlayerScore, ScoreBreakdown, ScoreTerm
from ziggurat.core.params import param
from ziggurat.core.spec import GameSpec, OptionSpec
from ziggurat.games.lucent.deck import GEOMANCER, MAX_COLOURS, WILDCARD, Deck, load_deck
from ziggurat.games.lucent.messages import M

# ------------------------------------------------------------------ geometry
WIDTH = 9
ROWS = 9
NUM_SLOTS = 45
FOCUS = 4
ROW_OFFSET = (0, 9, 17, 24, 30, 35, 39, 42, 44)
SLOT_ROW = tuple(r for r in range(ROWS) for _ in range(WIDTH - r))
SLOT_POS = tuple(j for r in range(ROWS) for j in range(WIDTH - r))


# the kind and the slot of every action id (``kind * 45 + slot``), up to the most kinds a deck may have
KIND_OF = tuple(a // NUM_SLOTS for a in range((MAX_COLOURS + 2) * NUM_SLOTS))
SLOT_OF = tuple(a % NUM_SLOTS for a in range((MAX_COLOURS + 2) * NUM_SLOTS))


def slot_id(row: int, pos: int) -> int:
    """Slot number of row ``row`` (0 = base), position ``pos`` (0-based)."""
    return ROW_OFFSET[row] + pos


# supports of each slot (None for the base) and, for each slot, the slots above
# it paired with the other support of that slot
SUPPORTS: tuple[tuple[int, int], ...] = tuple(
    (slot_id(SLOT_ROW[s] - 1, SLOT_POS[s]), slot_id(SLOT_ROW[s] - 1, SLOT_POS[s] + 1)) if SLOT_ROW[s] else (-1, -1)
    for s in range(NUM_SLOTS)
)
ABOVE: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((u, SUPPORTS[u][1] if SUPPORTS[u][0] == s else SUPPORTS[u][0]) for u in range(NUM_SLOTS) if s in SUPPORTS[u])
    for s in range(NUM_SLOTS)
)


def slot_name(slot: int) -> str:
    """``base 3`` or ``row 2 slot 3`` (1-based positions)."""
    r, j = SLOT_ROW[slot], SLOT_POS[slot]
    return f"base {j + 1}" if r == 0 else f"row {r} slot {j + 1}"


# phases
REMOVE, DEAL, PLAY, OVER = range(4)
_PHASE_NAMES = ("remove", "deal", "play", "over")

SPEC = GameSpec(
    id="lucent",
    name="Lucent",
    aliases=("gem pyramid",),
    min_players=2,
    max_players=5,
    has_chance=True,
    has_hidden_information=True,
    summary="Build one shared pyramid of gems, matching colours; the last player able to place wins.",
    ends=(EndReason("nobody-can-play", M("end_nobody_can_play")),),
    options=(
        OptionSpec(
            "wildcards", "bool", False, variant=True,
            help="remove two random gems unseen and add the two Wildcards (any colour)",
        ),
        OptionSpec(
            "geomancers", "bool", False, variant=True,
            help="deal one Geomancer (any colour) to each player first; with points, ending on it earns 1",
        ),
        OptionSpec(
            "geomancer-focus", "bool", False, variant=True,
            help="a Geomancer (any colour) is the Focus Gem; with 2 or 4 players the last card is set aside unseen",
        ),
        OptionSpec(
            "points", "bool", False, variant=True,
            help="score points: 1 for the last placer, 1 for each player who played every card",
        ),
        OptionSpec("deck", "path", None, help="a TOML deck file to play with instead of the reconstruction"),
        # the rulebook's numbers (docs/analysis.md, "Parameters")
        param("colours", "int", 5, 1, MAX_COLOURS, "gem colours in the deck (beyond the five: orange, white, black)"),
        param("gems", "int", 9, 1, 20, "gems of each colour"),
        param("wildcard-count", "int", 2, 0, 8, "Wildcards in the box (the wildcards variant adds them all)"),
        param("geomancer-count", "int", 5, 0, 8, "Geomancers in the box (the geomancer variants use them)"),
    ),
)  # fmt: skip

EXTRA_COLOURS = ("orange", "white", "black")
"""Names of the colours a ``colours`` parameter beyond the shipped deck's adds."""


def deck_with_params(deck: Deck, options: Mapping[str, object]) -> Deck:
    """The shipped deck with the parameters' colours, gems and special cards."""
    n = int(options["colours"])  # type: ignore[call-overload]
    colours = (*deck.colours, *(c for c in EXTRA_COLOURS if c not in deck.colours))[:n]
    gems = int(options["gems"])  # type: ignore[call-overload]
    wild = int(options["wildcard-count"])  # type: ignore[call-overload]
    geo = int(options["geomancer-count"])  # type: ignore[call-overload]
    return Deck(f"{deck.source} with parameters", tuple(colours), (gems,) * len(colours), wild, geo)


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def open_slots(
    lo: int, hi: int, pyr: Sequence[int], upper: Iterable[int], allow: Sequence[int], nk: int, all_mask: int
) -> list[tuple[int, int]]:
    """Open slots once the Focus Gem is down, each with the mask of kinds that may go there.

    ``lo``..``hi`` is the placed base; ``upper`` the open upper slots (both supports placed);
    ``allow[a * nk + b]`` the kinds that fit over supports of kinds ``a`` and ``b``.
    """
    out = []
    if lo > 0:
        out.append((lo - 1, all_mask))
    if hi < WIDTH - 1:
        out.append((hi + 1, all_mask))
    for s in upper:
        a, b = SUPPORTS[s]
        out.append((s, allow[pyr[a] * nk + pyr[b]]))
    return out


class LucentGame(Game):
    """Lucent for 2–5 players."""

    spec = SPEC

    def _configure(self) -> None:
        self.deck: Deck = load_deck(self.options["deck"])  # type: ignore[arg-type]
        changed = [p.name for p in self.spec.params if self.options[p.name] != p.default]
        if changed and self.options["deck"] is not None:
            raise ConfigError(
                f"parameters ({', '.join(changed)}) change the shipped deck; with deck=FILE set the numbers in the file"
            )
        if changed:
            self.deck = deck_with_params(self.deck, self.options)
        d = self.deck
        n = self.num_players
        self.wildcards = bool(self.options["wildcards"])
        self.geomancers = bool(self.options["geomancers"])
        self.geo_focus = bool(self.options["geomancer-focus"])
        self.points = bool(self.options["points"])
        self.kinds = d.kinds
        self.num_kinds = k = len(d.kinds)
        self.wild = d.wild_kind
        self.geo = d.geo_kind
        self.all_mask = (1 << k) - 1
        self.wild_bits = (1 << self.wild) | (1 << self.geo)
        self.colour_bits = self.all_mask & ~self.wild_bits
        self.card_kind = d.card_kind
        self.card_ids = d.card_ids
        self.card_index = {cid: i for i, cid in enumerate(self.card_ids)}
        # the kinds that may go on a pair of supports (a, b): a wild support takes anything
        self.allow_pair = [
            self.all_mask if a >= self.wild or b >= self.wild else (1 << a) | (1 << b) | self.wild_bits
            for a in range(k)
            for b in range(k)
        ]
        gems = [i for i in range(len(self.card_kind)) if self.card_kind[i] < self.wild]
        wilds = [i for i in range(len(self.card_kind)) if self.card_kind[i] == self.wild]
        self.gem_indices = gems
        self.wild_indices = wilds if self.wildcards else []
        self.removals = len(wilds) if self.wildcards else 0
        if self.wildcards and self.removals > len(gems):
            raise ConfigError(f"{d.source}: the wildcards variant removes {self.removals} gems but the deck has "
                              f"only {len(gems)}")  # fmt: skip
        if self.geomancers and self.geo_focus:
            raise ConfigError(
                "the geomancers and geomancer-focus variants cannot be played together: the Geomancers are "
                "either dealt to the players (geomancers) or one of them is the Focus Gem (geomancer-focus)"
            )
        if self.geo_focus and d.geomancers < 1:
            raise ConfigError(f"{d.source}: the geomancer-focus variant puts a Geomancer as the Focus Gem "
                              "but the deck has none")  # fmt: skip
        if self.geomancers and d.geomancers < n:
            raise ConfigError(
                f"{d.source}: the geomancers variant deals one Geomancer to each of {n} players "
                f"but the deck has {d.geomancers}"
            )
        # the kinds in each mask of kinds, ascending (a hand's ``have`` mask -> the kinds it can play)
        self.kinds_in = [tuple(x for x in range(k) if m >> x & 1) for m in range(1 << k)]
        # the plays at each slot for each mask of kinds (slot -> mask -> action ids): listing a hand's plays
        # is then one lookup per open slot instead of a test per kind and slot
        self.plays_at = [[tuple(x * NUM_SLOTS + s for x in kinds) for kinds in self.kinds_in] for s in range(NUM_SLOTS)]
        self.cards_of_kind = [[i for i, x in enumerate(self.card_kind) if x == kind] for kind in range(k)]
        # with 2 or 4 players the last card dealt is the Focus Gem, or set aside if a Geomancer is the focus
        self.focus_from_deal = n in (2, 4) and not self.geo_focus
        self.set_aside = n in (2, 4) and self.geo_focus
        # the seats in turn order from each seat (``n`` too: the seat after the last one is the first)
        self.seats_from = [tuple((start + i) % n for i in range(n)) for start in range(n + 1)]
        self.deal_size = len(gems) + len(self.wild_indices)
        # cards of each kind in the game (removed gems included)
        inplay = list(d.counts)
        if not self.wildcards:
            inplay[self.wild] = 0
        inplay[self.geo] = n if self.geomancers else 1 if self.geo_focus else 0
        self.in_play = inplay

    @property
    def num_actions(self) -> int:
        return self.num_kinds * NUM_SLOTS

    @property
    def max_chance_outcomes(self) -> int:
        return len(self.card_kind)

    @property
    def max_game_length(self) -> int:
        return self.removals + self.deal_size + NUM_SLOTS

    def new_initial_state(self) -> LucentState:
        return LucentState(self)

    def kind_of(self, word: str) -> int:
        """Kind number named by ``word`` (a colour, ``wildcard``/``wild``, ``geomancer``/``geo``)."""
        if word in ("wild", "wildcard", "wildcards"):
            return self.wild
        if word in ("geo", "geomancer", "geomancers"):
            return self.geo
        try:
            return self.kinds.index(word)
        except ValueError:
            raise ParseActionError(f"{word!r} is not a card: say one of {', '.join(self.kinds)}") from None

    def kind_text(self, kind: int) -> str:
        """``a red gem``, ``a Wildcard``, ``a Geomancer``."""
        if kind == self.wild:
            return "a Wildcard"
        if kind == self.geo:
            return "a Geomancer"
        name = self.kinds[kind]
        return f"{_article(name)} {name} gem"


class LucentState(State):
    """A Lucent position."""

    __slots__ = (
        "aside",
        "cached",
        "current",
        "dealt",
        "deck",
        "hands",
        "have",
        "hi",
        "last_kind",
        "last_placer",
        "lo",
        "opens",
        "out",
        "out_mask",
        "phase",
        "pyramid",
        "removed",
        "sizes",
        "to_move",
        "upper",
    )  # fmt: skip

    game: LucentGame
    current: int  # the core's hook, a field here

    def __init__(self, game: LucentGame):
        super().__init__(game)
        n = game.num_players
        k = game.num_kinds
        self.phase = REMOVE if game.removals else DEAL
        self.deck = list(game.gem_indices) if game.removals else game.gem_indices + game.wild_indices
        self.removed: list[int] = []
        self.aside: list[int] = []  # the card set aside unseen (geomancer-focus with 2 or 4 players)
        self.dealt = 0
        self.hands = [[0] * k for _ in range(n)]
        self.sizes = [0] * n
        self.have = [0] * n
        if game.geomancers:
            for p in range(n):
                self.hands[p][game.geo] = 1
                self.sizes[p] = 1
                self.have[p] = 1 << game.geo
        self.pyramid = [-1] * NUM_SLOTS
        self.lo = -1  # base row covers lo..hi (-1: empty)
        self.hi = -1
        self.upper: list[int] = []  # open slots above the base, sorted
        # once the Focus Gem is down: every open slot with the kinds that fit there, by slot (kept move by move)
        self.opens: list[tuple[int, int]] = []
        if game.geo_focus:
            self.pyramid[FOCUS] = game.geo
            self.lo = self.hi = FOCUS
            self.opens = [(FOCUS - 1, game.all_mask), (FOCUS + 1, game.all_mask)]
        self.out = [False] * n
        self.out_mask = [0] * n  # kinds that were playable when a player went out
        self.to_move = -1
        self.current = CHANCE  # who decides now: ``to_move`` in play, CHANCE before, TERMINAL after
        self.last_placer = -1
        self.last_kind = [-1] * n
        self.cached: list[int] | None = None

    # ---------------------------------------------------------- who decides
    # ---------------------------------------------------------------- chance
    def _chance_outcomes(self) -> list[tuple[int, float]]:
        p = 1.0 / len(self.deck)
        return [(c, p) for c in self.deck]

    def sample_chance(self, rng: random.Random) -> int:
        deck = self.deck
        return deck[int(rng.random() * len(deck))]

    def _chance_legal(self, outcome: int) -> bool:
        return outcome in self.deck

    # ----------------------------------------------------------------- rules
    def _legal_actions(self, player: int) -> list[int]:
        cached = self.cached
        if cached is not None and player == self.to_move:
            return cached
        return self._plays(player)

    def open_slots(self) -> list[tuple[int, int]]:
        """Every open slot with the mask of kinds that may go there, slots ascending."""
        g = self.game
        if self.lo < 0:
            return [(FOCUS, g.all_mask)]
        return open_slots(self.lo, self.hi, self.pyramid, self.upper, g.allow_pair, g.num_kinds, g.all_mask)

    def _plays(self, player: int) -> list[int]:
        """Legal plays of ``player`` (kind * 45 + slot), ascending."""
        have = self.have[player]
        if not have:
            return []
        if self.lo < 0:
            return list(self.game.plays_at[FOCUS][have])
        plays_at = self.game.plays_at
        acts: list[int] = []
        for s, m in self.opens:
            acts += plays_at[s][m & have]
        acts.sort()  # slot by slot above; action ids go kind by kind
        return acts

    def _reopen(self) -> None:
        """Recount ``opens`` from the pyramid (after loading)."""
        self.opens = [] if self.lo < 0 else self.open_slots()

    def playable_mask(self) -> int:
        """Kinds that could be played somewhere now (by anyone holding them)."""
        if self.lo < 0:
            return self.game.all_mask
        mask = 0
        for _, m in self.opens:
            mask |= m
        return mask

    def reveals_hidden(self, action: int, player: int) -> bool | None:
        """After a play the next players are checked in turn: whoever holds nothing playable goes out. That
        tells the mover something of a hand they cannot see, unless every card they cannot see is playable
        then, or that hand is known anyway (it holds every card the mover cannot see), or the next player
        still holds their Geomancer, or nobody else has cards. ``True`` otherwise: safe, if sometimes more
        careful than needed."""
        if self.phase != PLAY:
            return None
        g = self.game
        after = cast(LucentState, self.clone())
        after.apply_action(action, player)
        mask = after.playable_mask()
        if not mask:
            return False  # nothing can be played by anyone: the game is over whatever the hands
        unseen = 0  # kinds of the cards ``player`` cannot see, and how many there are
        count = len(self.removed) + len(self.deck) + len(self.aside)
        for q in range(g.num_players):
            if q != player:
                for k in range(g.num_kinds):
                    if k != g.geo and self.hands[q][k]:
                        unseen |= 1 << k
                        count += self.hands[q][k]
        for c in self.removed + self.deck + self.aside:
            unseen |= 1 << g.card_kind[c]
        n = g.num_players
        for i in range(1, n):
            q = (player + i) % n
            if self.out[q] or not after.sizes[q]:
                continue
            if g.geomancers and after.hands[q][g.geo]:
                return False  # their Geomancer goes anywhere: they play, and that was known
            if count == after.sizes[q]:
                return False  # every card ``player`` cannot see is in that hand: it is known (two players)
            return bool(unseen & ~mask)
        return False

    def _advance(self, start: int) -> None:
        """Give the turn to the next player from ``start`` who can play; the rest go out or are skipped."""
        sizes = self.sizes
        out = self.out
        for q in self.game.seats_from[start]:
            if out[q] or not sizes[q]:
                continue
            legal = self._plays(q)
            if legal:
                self.to_move = self.current = q
                self.cached = legal
                return
            out[q] = True
            self.out_mask[q] = self.playable_mask()
        self.phase = OVER
        self.to_move = -1
        self.current = TERMINAL
        self.cached = None

    def _apply(self, action: int, player: int) -> None:
        g = self.game
        if player == CHANCE:
            deck = self.deck
            deck.remove(action)
            if self.phase == REMOVE:
                insort(self.removed, action)
                if len(self.removed) == g.removals:
                    deck.extend(g.wild_indices)
                    self.phase = DEAL
                return
            kind = g.card_kind[action]
            if deck or not (g.focus_from_deal or g.set_aside):
                q = self.dealt % g.num_players
                self.hands[q][kind] += 1
                self.sizes[q] += 1
                self.have[q] |= 1 << kind
            elif g.set_aside:
                self.aside.append(action)
            else:
                self.pyramid[FOCUS] = kind
                self.lo = self.hi = FOCUS
                self.opens = [(FOCUS - 1, g.all_mask), (FOCUS + 1, g.all_mask)]
            self.dealt += 1
            if not deck:
                self.phase = PLAY
                self._advance(0)
            return
        kind = KIND_OF[action]
        slot = SLOT_OF[action]
        hand = self.hands[player]
        hand[kind] -= 1
        if not hand[kind]:
            self.have[player] &= ~(1 << kind)
        self.sizes[player] -= 1
        pyr = self.pyramid
        pyr[slot] = kind
        # ``opens`` lists the open base ends first (left, right), then the open upper slots in the order of ``upper``
        opens = self.opens
        upper = self.upper
        lo = self.lo
        hi = self.hi
        if slot >= WIDTH:
            i = upper.index(slot)
            del upper[i]
            del opens[(lo > 0) + (hi < WIDTH - 1) + i]
        elif lo < 0:  # the Focus Gem: the base opens on both sides, for any kind
            self.lo = self.hi = lo = hi = slot
            opens[:0] = ((slot - 1, g.all_mask), (slot + 1, g.all_mask))
        elif slot < lo:  # the base grows to the left: the next slot out opens, for any kind
            self.lo = lo = slot
            if slot:
                opens[0] = (slot - 1, g.all_mask)
            else:
                del opens[0]
        else:  # to the right; that end is listed after the left one while the base can still grow left
            self.hi = hi = slot
            right = 1 if lo > 0 else 0
            if slot < WIDTH - 1:
                opens[right] = (slot + 1, g.all_mask)
            else:
                del opens[right]
        for above, other in ABOVE[slot]:
            if pyr[other] >= 0:
                i = bisect_left(upper, above)
                upper.insert(i, above)
                a, b = SUPPORTS[above]
                opens.insert((lo > 0) + (hi < WIDTH - 1) + i, (above, g.allow_pair[pyr[a] * g.num_kinds + pyr[b]]))
        self.last_placer = player
        self.last_kind[player] = kind
        self._advance(player + 1)

    # ------------------------------------------------------------ why not
    def _why_illegal(self, action: int, player: int) -> Message:
        """Why ``action`` is not legal now (see :meth:`State.why_illegal`): the card, then the place."""
        g = self.game
        if player == CHANCE:
            if self.phase == REMOVE and g.card_kind[action] >= g.wild:
                return M("chance_remove_gem", card=g.card_ids[action])
            return M("chance_not_in_deck", card=g.card_ids[action])
        kind, slot = divmod(action, NUM_SLOTS)
        if not self.hands[player][kind]:
            if kind == g.wild:
                return M("no_wildcard") if g.wildcards else M("no_wildcards")
            if kind == g.geo:
                if g.geo_focus:
                    return M("geo_focus")
                return M("geo_played") if g.geomancers else M("no_geomancers")
            return M("no_gem", kind=g.kinds[kind])
        pyr = self.pyramid
        if self.lo < 0:
            return M("focus_first")  # the one legal slot of a card in hand
        card = self._card_message(kind)
        where = self._slot_message(slot)
        if pyr[slot] >= 0:
            return M("slot_taken", slot=where, card=self._card_message(pyr[slot]))
        if slot < WIDTH:  # an empty base slot not next to the placed base (the base is never full here)
            ends = [self._slot_message(s) for s in (self.lo - 1, self.hi + 1) if 0 <= s < WIDTH]
            if len(ends) == 2:
                return M("base_adjacent_two", lo=self.lo + 1, hi=self.hi + 1, left=ends[0], right=ends[1])
            return M("base_adjacent", lo=self.lo + 1, hi=self.hi + 1, end=ends[0])
        a, b = SUPPORTS[slot]
        missing = [self._slot_message(s) for s in (a, b) if pyr[s] < 0]
        if missing:
            return M("needs_both", row=SLOT_ROW[slot], missing=missing, count=len(missing))
        left = self._card_message(pyr[a])
        right = self._card_message(pyr[b])
        return M("colour", card=card, slot=where, left=left, right=right)

    def _card_message(self, kind: int) -> Message:
        g = self.game
        if kind == g.wild:
            return M("wildcard")
        if kind == g.geo:
            return M("geomancer")
        return M("gem", kind=g.kinds[kind])

    @staticmethod
    def _slot_message(slot: int) -> Message:
        r, j = SLOT_ROW[slot], SLOT_POS[slot]
        return M("base", pos=j + 1) if r == 0 else M("row", row=r, pos=j + 1)

    # ------------------------------------------------------ what a move did
    def _describe(self, action: int, player: int, audience: int | None) -> Message:
        """What the legal ``action`` does (see :meth:`State.describe_action`); a dealt card is named to its owner."""
        g = self.game
        if player == CHANCE:
            if self.phase == REMOVE:
                return M("chance_remove")
            card = self._card_message(g.card_kind[action])
            last = len(self.deck) == 1
            if last and g.set_aside:
                return M("chance_aside")
            if last and g.focus_from_deal:
                return M("chance_focus", card=card)
            q = self.dealt % g.num_players
            if audience == q:
                return M("chance_deal", player=q + 1, seat=q, card=card)
            return M("chance_deal_hidden", player=q + 1, seat=q)
        kind, slot = divmod(action, NUM_SLOTS)
        card = self._card_message(kind)
        if self.lo < 0:
            return M("play_focus", card=card)
        if slot < WIDTH:
            return M("play_base", card=card, slot=self._slot_message(slot))
        a, b = SUPPORTS[slot]
        left, right = self._card_message(self.pyramid[a]), self._card_message(self.pyramid[b])
        return M("play_upper", card=card, slot=self._slot_message(slot), left=left, right=right)

    # ------------------------------------------------------------------ text
    def _action_text(self, action: int, player: int) -> str:
        g = self.game
        if player == CHANCE:
            cid = g.card_ids[action]
            if self.phase == REMOVE:
                return f"remove {cid}"
            if g.focus_from_deal and len(self.deck) == 1:
                return f"deal {cid} as focus"
            if g.set_aside and len(self.deck) == 1:
                return f"deal {cid} aside"
            return f"deal {cid} to player {self.dealt % g.num_players + 1}"
        kind, slot = divmod(action, NUM_SLOTS)
        if slot == FOCUS and self.lo < 0:
            return f"play {g.kinds[kind]} as focus"
        return f"play {g.kinds[kind]} at {slot_name(slot)}"

    def _parse(self, text: str, player: int) -> int:
        g = self.game
        words = text.split()
        if player == CHANCE:
            return self._parse_chance(words, text)
        if words and words[0] == "play":
            words = words[1:]
        if not words:
            raise ParseActionError("say which card to play and where, e.g. 'play red at base 3'")
        kind = g.kind_of(words[0])
        rest = words[1:]
        if rest and rest[0] in ("at", "as", "on"):
            rest = rest[1:]
        return kind * NUM_SLOTS + self._parse_slot(rest, text)

    def _parse_slot(self, words: list[str], text: str) -> int:
        usage = "say where: base 1..9, row 1..8 slot N, or focus (e.g. 'play red at row 2 slot 3')"
        if not words:
            raise ParseActionError(f"{text!r}: {usage}")
        if words == ["focus"]:
            return FOCUS
        row: int | None = None
        pos: int | None = None
        w = words
        if len(w) == 2 and w[0] == "base" and w[1].lstrip("-").isdigit():
            row, pos = 0, int(w[1])
        elif len(w) == 4 and w[0] == "row" and w[2] == "slot" and w[1].isdigit() and w[3].lstrip("-").isdigit():
            row, pos = int(w[1]), int(w[3])
        elif len(w) == 1 and w[0][:1] == "b" and w[0][1:].lstrip("-").isdigit():
            row, pos = 0, int(w[0][1:])
        elif len(w) == 1 and w[0][:1] == "r" and "s" in w[0]:
            r, _, j = w[0][1:].partition("s")
            if r.isdigit() and j.lstrip("-").isdigit():
                row, pos = int(r), int(j)
        if row is None or pos is None:
            raise ParseActionError(f"{text!r}: {usage}")
        if row == 0 and not 1 <= pos <= WIDTH:
            raise ParseActionError(
                f"there is no base {pos}: the base row is nine wide, base 1 to base 9, "
                "four either side of the Focus Gem at base 5"
            )
        if not 0 <= row < ROWS:
            raise ParseActionError(f"there is no row {row}: row 0 is the base, rows 1 to 8 are above it")
        if not 1 <= pos <= WIDTH - row:
            raise ParseActionError(f"there is no row {row} slot {pos}: row {row} has slots 1 to {WIDTH - row}")
        return slot_id(row, pos - 1)

    def _parse_chance(self, words: list[str], text: str) -> int:
        g = self.game
        if len(words) < 2 or words[0] not in ("remove", "deal"):
            raise ParseActionError(f"{text!r} is not a chance outcome (remove red3, deal red3 to player 1)")
        index = g.card_index.get(words[1])
        if index is None:
            raise ParseActionError(f"there is no card {words[1]!r} (cards are named like red3, wildcard1)")
        verb = "remove" if self.phase == REMOVE else "deal"
        if words[0] != verb:
            raise IllegalActionError(f"cards are {'removed' if verb == 'remove' else 'dealt'} now, not {words[0]}ed")
        if len(words) > 2:
            expected = self._action_text(index, CHANCE).split()[2:]
            if words[2:] != expected:
                raise IllegalActionError(f"the next card goes {' '.join(expected)}, not {' '.join(words[2:])}")
        return index

    # ----------------------------------------------------------------- state
    def _copy(self) -> LucentState:
        new = LucentState.__new__(LucentState)
        new.game = self.game
        new.phase = self.phase
        new.deck = self.deck.copy()
        new.removed = self.removed.copy()
        new.aside = self.aside.copy()
        new.dealt = self.dealt
        new.hands = [h.copy() for h in self.hands]
        new.sizes = self.sizes.copy()
        new.have = self.have.copy()
        new.pyramid = self.pyramid.copy()
        new.lo = self.lo
        new.hi = self.hi
        new.upper = self.upper.copy()
        new.opens = self.opens.copy()
        new.out = self.out.copy()
        new.out_mask = self.out_mask.copy()
        new.to_move = self.to_move
        new.current = self.current
        new.last_placer = self.last_placer
        new.last_kind = self.last_kind.copy()
        new.cached = self.cached  # never mutated, only replaced
        return new

    def _resample(self, player: int, rng: random.Random) -> LucentState:
        """Redeal what ``player`` can't see, consistently with everything public.

        Hidden: the other players' hands, the gems removed by the wildcards
        variant, the card set aside by ``geomancer-focus`` and, during the
        deal, the undealt cards. Kept: every hand size,
        ``player``'s own hand, the pyramid, and each player's Geomancer (everyone
        was dealt one; who still holds theirs is public). A player who went out
        had nothing playable at that moment, so their redealt hand holds none of
        the kinds that were playable then; removed cards are always coloured gems.
        """
        g = self.game
        new = self._copy()
        if self.phase == REMOVE:
            cards = self.deck + self.removed
            rng.shuffle(cards)
            r = len(self.removed)
            new.removed = sorted(cards[:r])
            new.deck = sorted(cards[r:])
            return new
        geo = g.geo
        nk = g.num_kinds
        # containers: (key, size, allowed mask); key is a player, "removed" or "deck"
        containers: list[tuple[object, int, int]] = []
        pool: list[int] = []
        for q in range(g.num_players):
            if q == player:
                continue
            hand = self.hands[q]
            for k in range(nk):
                if k != geo and hand[k]:
                    pool.extend([k] * hand[k])
            mask = g.all_mask & ~self.out_mask[q] if self.out[q] else g.all_mask
            containers.append((q, self.sizes[q] - hand[geo], mask))
        if self.removed:
            pool.extend(g.card_kind[c] for c in self.removed)
            containers.append(("removed", len(self.removed), g.colour_bits))
        if self.aside:
            pool.extend(g.card_kind[c] for c in self.aside)
            containers.append(("aside", len(self.aside), g.all_mask))
        if self.deck:
            pool.extend(g.card_kind[c] for c in self.deck)
            containers.append(("deck", len(self.deck), g.all_mask))
        assignment = self._assign(pool, containers, rng)
        if assignment is None:  # pragma: no cover - the true deal proves one exists, and _assign is exact
            raise AssertionError("no deal consistent with the view: the state is inconsistent")
        for key, kinds in assignment.items():
            if isinstance(key, int):
                hand = [0] * nk
                hand[geo] = self.hands[key][geo]
                have = self.have[key] & (1 << geo)
                for k in kinds:
                    hand[k] += 1
                    have |= 1 << k
                new.hands[key] = hand
                new.have[key] = have
        # card indices for the deck and the removed pile, kind by kind
        by_kind = g.cards_of_kind
        used = [0] * nk
        for key in ("deck", "removed", "aside"):
            if key in assignment:
                cards = []
                for k in assignment[key]:
                    cards.append(by_kind[k][used[k]])
                    used[k] += 1
                if key == "deck":
                    new.deck = sorted(cards)
                elif key == "removed":
                    new.removed = sorted(cards)
                else:
                    new.aside = sorted(cards)
        if new.phase == PLAY and new.to_move != player:  # the hand to move was redealt (``player``'s stays)
            new.cached = new._plays(new.to_move)
        return new

    @staticmethod
    def _assign(
        pool: list[int], containers: list[tuple[object, int, int]], rng: random.Random, tries: int = 40
    ) -> dict[object, list[int]] | None:
        """Randomly share ``pool`` (kinds) among containers of fixed sizes that accept only some kinds.

        A few random greedy deals first (cheap, well spread); if they all get
        stuck, an exact one by maximum flow (kinds to containers), so a deal is
        found whenever one exists (``None`` only if none does).
        """
        # how many cards of the pool each container could take, and every kind in the pool
        counts: dict[int, int] = {}
        for k in pool:
            counts[k] = counts.get(k, 0) + 1
        fits = [sum(c for k, c in counts.items() if mask >> k & 1) for _, _, mask in containers]
        pool_mask = 0
        for k in counts:
            pool_mask |= 1 << k
        for _ in range(tries):
            items = pool.copy()
            rng.shuffle(items)
            keyed = [(fits[i], rng.random(), i) for i in range(len(containers))]
            keyed.sort()
            result: dict[object, list[int]] = {}
            ok = True
            for _, _, i in keyed:
                key, size, mask = containers[i]
                if mask & pool_mask == pool_mask:  # takes any card left: the first ``size`` of them
                    taken = items[:size]
                    rest = items[size:]
                else:
                    taken = []
                    rest = []
                    for k in items:
                        if len(taken) < size and mask >> k & 1:
                            taken.append(k)
                        else:
                            rest.append(k)
                if len(taken) < size:
                    ok = False
                    break
                result[key] = taken
                items = rest
            if ok:
                return result
        return _flow_assign(pool, containers, rng)

    def _dump(self) -> dict[str, Any]:
        return {
            "phase": _PHASE_NAMES[self.phase],
            "deck": list(self.deck),
            "removed": list(self.removed),
            "aside": list(self.aside),
            "dealt": self.dealt,
            "hands": [list(h) for h in self.hands],
            "pyramid": list(self.pyramid),
            "out": list(self.out),
            "out_mask": list(self.out_mask),
            "to_move": self.to_move,
            "last_placer": self.last_placer,
            "last_kind": list(self.last_kind),
        }

    def _load(self, data: Mapping[str, Any]) -> None:
        g = self.game
        n = g.num_players
        nk = g.num_kinds
        bad = "saved Lucent state"
        if data["phase"] not in _PHASE_NAMES:
            raise RecordError(f"{bad}: unknown phase {data['phase']!r}")
        self.phase = _PHASE_NAMES.index(data["phase"])
        ncards = len(g.card_kind)

        def card_list(name: str) -> list[int]:
            value = data.get(name, []) if name == "aside" else data[name]  # saves from before the variant
            if not isinstance(value, list) or not all(isinstance(c, int) and 0 <= c < ncards for c in value):
                raise RecordError(f"{bad}: {name!r} must be a list of card indices")
            return sorted(value)

        self.deck = card_list("deck")
        self.removed = card_list("removed")
        self.aside = card_list("aside")
        hidden = self.deck + self.removed + self.aside
        if len(set(hidden)) != len(hidden):
            raise RecordError(f"{bad}: a card is listed twice in the deck, removed pile and set-aside card")
        dealt_out = self.phase in (PLAY, OVER)
        if len(self.aside) != (1 if g.set_aside and dealt_out else 0):
            raise RecordError(
                f"{bad}: {len(self.aside)} cards set aside; one card is set aside after the deal only with "
                "geomancer-focus and 2 or 4 players"
            )
        self.dealt = int(data["dealt"])
        hands = data["hands"]
        if not isinstance(hands, list) or len(hands) != n or any(not isinstance(h, list) or len(h) != nk
                                                                 for h in hands):  # fmt: skip
            raise RecordError(f"{bad}: 'hands' must hold {n} lists of {nk} counts")
        self.hands = [[int(c) for c in h] for h in hands]
        if any(c < 0 for h in self.hands for c in h):
            raise RecordError(f"{bad}: a hand holds a negative number of cards")
        self.sizes = [sum(h) for h in self.hands]
        self.have = [sum(1 << k for k in range(nk) if h[k]) for h in self.hands]
        pyramid = data["pyramid"]
        if not isinstance(pyramid, list) or len(pyramid) != NUM_SLOTS:
            raise RecordError(f"{bad}: 'pyramid' must list {NUM_SLOTS} slots")
        self.pyramid = [int(k) for k in pyramid]
        if any(not -1 <= k < nk for k in self.pyramid):
            raise RecordError(f"{bad}: a pyramid slot holds an unknown kind")
        self.out = [bool(x) for x in data["out"]]
        self.out_mask = [int(x) for x in data["out_mask"]]
        self.to_move = int(data["to_move"])
        self.last_placer = int(data["last_placer"])
        self.last_kind = [int(x) for x in data["last_kind"]]
        if any(len(x) != n for x in (self.out, self.out_mask, self.last_kind)):
            raise RecordError(f"{bad}: per-player lists have the wrong length")
        if not -1 <= self.last_placer < n or any(not -1 <= k < nk for k in self.last_kind):
            raise RecordError(f"{bad}: impossible last placer or last card")
        # the pyramid: a contiguous base around the focus, every upper gem supported and matching
        base = [s for s in range(WIDTH) if self.pyramid[s] >= 0]
        if base:
            self.lo, self.hi = base[0], base[-1]
            if len(base) != self.hi - self.lo + 1 or not self.lo <= FOCUS <= self.hi:
                raise RecordError(f"{bad}: the base row has a gap or misses the Focus Gem")
        else:
            self.lo = self.hi = -1
        self.upper = []
        for s in range(WIDTH, NUM_SLOTS):
            a, b = SUPPORTS[s]
            both = self.pyramid[a] >= 0 and self.pyramid[b] >= 0
            k = self.pyramid[s]
            if k >= 0:
                if not both:
                    raise RecordError(f"{bad}: the gem at {slot_name(s)} has no two gems under it")
                if not g.allow_pair[self.pyramid[a] * nk + self.pyramid[b]] >> k & 1:
                    raise RecordError(f"{bad}: the gem at {slot_name(s)} matches neither gem under it")
            elif both:
                self.upper.append(s)
        self._reopen()
        # every card accounted for
        counts = [0] * nk
        for c in hidden:
            counts[g.card_kind[c]] += 1
        for h in self.hands:
            for k in range(nk):
                counts[k] += h[k]
        for k in self.pyramid:
            if k >= 0:
                counts[k] += 1
        expected = list(g.in_play)
        if self.phase == REMOVE:
            expected[g.wild] = 0  # the Wildcards join the deck once the gems are removed
        if counts != expected:
            raise RecordError(f"{bad}: the cards do not add up to the deck ({counts} != {expected})")
        if any(g.card_kind[c] >= g.wild for c in self.removed):
            raise RecordError(f"{bad}: only coloured gems can be removed")
        if g.geomancers and any(h[g.geo] > 1 for h in self.hands):
            raise RecordError(f"{bad}: a player holds two Geomancers")
        if g.geo_focus and self.pyramid[FOCUS] != g.geo:
            raise RecordError(f"{bad}: with geomancer-focus the Focus Gem (base 5) must be the Geomancer")
        self.cached = None
        if self.phase == PLAY:
            if not 0 <= self.to_move < n or self.out[self.to_move]:
                raise RecordError(f"{bad}: player to move {self.to_move} cannot be playing")
            self.cached = self._plays(self.to_move)
            if not self.cached:
                raise RecordError(f"{bad}: the player to move has no legal play")
        elif self.to_move != -1:
            raise RecordError(f"{bad}: nobody is to move outside the play phase")
        self.current = self.to_move if self.phase == PLAY else TERMINAL if self.phase == OVER else CHANCE

    # ------------------------------------------------------------------ view
    def view(self, player: int | None = None) -> dict[str, Any]:
        """What ``player`` sees (``None``: a spectator).

        Public: the pyramid and the Focus Gem, every hand size, who is out,
        who placed last, each player's last card played, the open slots and
        what may go there, how many cards are still to deal, were removed or
        were set aside (only how many: nobody sees them).
        Private: a player's own hand (shown only to them).
        """
        g = self.game
        kinds = g.kinds
        rows = [
            [kinds[k] if (k := self.pyramid[slot_id(r, j)]) >= 0 else None for j in range(WIDTH - r)]
            for r in range(ROWS)
        ]
        open_slots = []
        if self.phase == PLAY:
            for s, mask in self.open_slots():
                open_slots.append(
                    {
                        "slot": slot_name(s) if not (self.lo < 0 and s == FOCUS) else "focus",
                        "row": SLOT_ROW[s],
                        "pos": SLOT_POS[s] + 1,
                        "kinds": [kinds[k] for k in range(g.num_kinds) if mask >> k & 1],
                    }
                )
        hand = None
        if player is not None and 0 <= player < g.num_players:
            hand = {kinds[k]: c for k, c in enumerate(self.hands[player]) if c}
        cur = self.current_player()
        out: dict[str, Any] = {
            "game": "lucent",
            "player": player,
            "players": g.num_players,
            "phase": _PHASE_NAMES[self.phase],
            "to_move": cur if cur >= 0 else None,
            "kinds": list(kinds),
            "hand": hand,
            "hand_sizes": list(self.sizes),
            "out": list(self.out),
            "pyramid": rows,
            "focus": rows[0][FOCUS],
            "open_slots": open_slots,
            "deck": len(self.deck),
            "removed": len(self.removed),
            "aside": len(self.aside),
            "last_placer": self.last_placer if self.last_placer >= 0 else None,
            "last_played": [kinds[k] if k >= 0 else None for k in self.last_kind],
            "variants": {
                "wildcards": g.wildcards,
                "geomancers": g.geomancers,
                "geomancer-focus": g.geo_focus,
                "points": g.points,
            },
        }
        if self.phase == OVER:
            out["scores"] = list(self._scores())
            out["ranks"] = list(self.outcome().ranks)
        return out

    # --------------------------------------------------------------- scoring
    def _scores(self) -> tuple[float, ...]:
        """1 for the last placer; with ``points`` also 1 per emptied hand and 1 for ending on a Geomancer."""
        g = self.game
        scores = [0.0] * g.num_players
        if self.last_placer >= 0:
            scores[self.last_placer] += 1
        if g.points:
            for p in range(g.num_players):
                if self.sizes[p] == 0:
                    scores[p] += 1
                if g.geomancers and self.last_kind[p] == g.geo:
                    scores[p] += 1
        return tuple(scores)

    def _score_breakdown(self, audience: int | None) -> ScoreBreakdown:
        """Per player: 1 for the last placer; with ``points``, 1 for an emptied hand (and 1 for ending on a Geomancer).

        Before the end it is the standing now (who placed last so far, who has
        played every card). Hand sizes and the cards played are public.
        """
        g = self.game
        players = []
        for p in range(g.num_players):
            terms = []
            if p == self.last_placer:
                terms.append(ScoreTerm(M("score_last"), 1.0))
            if g.points and self.sizes[p] == 0:
                terms.append(ScoreTerm(M("score_all"), 1.0))
            if g.points and g.geomancers and self.last_kind[p] == g.geo:
                terms.append(ScoreTerm(M("score_geomancer"), 1.0))
            players.append(PlayerScore.of(p, terms))
        notes = [M("note_points")] if g.points else [M("note_winner")]
        if g.points and g.geomancers:
            notes.append(M("note_geomancers"))
        return ScoreBreakdown(self.phase == OVER, tuple(players), tuple(notes))


__all__ = ["GEOMANCER", "NUM_SLOTS", "SPEC", "WILDCARD", "LucentGame", "LucentState", "slot_id", "slot_name"]


def _flow_assign(
    pool: list[int], containers: list[tuple[object, int, int]], rng: random.Random
) -> dict[object, list[int]] | None:
    """An exact share of ``pool`` among ``containers`` (see ``LucentState._assign``) by augmenting paths.

    Nodes: each kind (supply: its count) and each container (demand: its size);
    a kind may flow into a container that accepts it. Augmenting paths are
    searched in a random order, so the deal found is not always the same.
    """
    kinds = sorted(set(pool))
    supply = {k: pool.count(k) for k in kinds}
    if sum(size for _, size, _ in containers) != len(pool):
        return None
    flow = [[0] * len(containers) for _ in kinds]
    filled = [0] * len(containers)
    left = dict(supply)

    def augment(ci: int, seen: set[int]) -> bool:
        """Find one more unit for container ``ci``: a kind with supply left, or one moved from elsewhere."""
        order = list(range(len(kinds)))
        rng.shuffle(order)
        for ki in order:
            if ki in seen or not containers[ci][2] >> kinds[ki] & 1:
                continue
            seen.add(ki)
            if left[kinds[ki]] > 0:
                left[kinds[ki]] -= 1
                flow[ki][ci] += 1
                return True
            # take a unit of this kind back from another container, which then looks for a replacement
            for cj in range(len(containers)):
                if cj != ci and flow[ki][cj] > 0:
                    flow[ki][cj] -= 1
                    if augment(cj, seen):
                        flow[ki][ci] += 1
                        return True
                    flow[ki][cj] += 1
        return False

    for ci, (_, size, _) in enumerate(containers):
        while filled[ci] < size:
            if not augment(ci, set()):
                return None
            filled[ci] += 1
    result: dict[object, list[int]] = {}
    for ci, (key, _, _) in enumerate(containers):
        items = [k for ki, k in enumerate(kinds) for _ in range(flow[ki][ci])]
        rng.shuffle(items)
        result[key] = items
    return result
