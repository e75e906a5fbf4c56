"""Nakum's rules, top to bottom like the rulebook (see ``docs/rulings.md``).

Setup is chance, one card at a time: two offerings, five market cards, three
heritage cards for every player. Then everyone plays a heritage card at the same
time (a simultaneous node; the choices stay hidden until all are in), and the
start player (and, with 3–4 players, the next one) chooses a face-down jungle
tile to reveal.

Jungle tiles are laid out lazily (a *deferred decision*): a face-down position
holds no tile yet; when it is revealed, a chance node picks which of the tiles
still unrevealed it is. Market and offering decks are likewise unordered sets,
drawn from one card at a time. So nothing about the tiles or decks is hidden in
the state: the only secret is each player's heritage hand (and, during setup,
the card each has chosen).

A round is a Day (from the start player clockwise, one worker placement at a
time, until nobody has workers left or nobody can place one) and a Night
(workers back, sacrificed ones to the reserve, explored tiles revealed, market
refilled to 5 and offerings to 2). A placement that needs a choice is followed by
that choice as a separate decision of the same player: the camp option, the
market card, the offering, the heritage card, Pituk's favour, the black cube to
remove. The game ends after the Day in which a player completes a second
offering (no Night), or — a safeguard the rulebook does not need for real
players — after the Day of round ``max-rounds``.

Action ids (fixed for a content set): pass; place on a basic space (by tile and
space); place on a camp (by tile); explore (by position); pyramid, Pituk, start
player, grow the clan; camp option (tile, option); buy a market card; offer an
offering; play a heritage card; Pituk's two favours; free a cube (tile, option);
reveal a position at setup. Chance outcome ids are tile indices (reveals) or card
indices (draws from the deck named by the node).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from typing import Any

from ziggurat.core.errors import ConfigError, IllegalActionError, ParseActionError, RecordError
from ziggurat.core.game import CHANCE, SIMULTANEOUS, TERMINAL, Game, State
from ziggurat.core.message import CORE, Message
from ziggurat.core.outcome import EndReason, PlayerScore, ScoreBreakdown, ScoreTerm
from ziggurat.core.params import param
from ziggurat.core.spec import GameSpec, OptionSpec
from ziggurat.games.nakum.content import (
    HERITAGE_ACTION,
    MARKET_ACTION,
    MAX_OPTIONS,
    NUM_TILES,
    Content,
    Effect,
    Family,
    load_content,
)
from ziggurat.games.nakum.messages import M

# phases
HERITAGE_SETUP, REVEAL, DAY, CAMP, BUY, OFFER, PLAY, FAVOUR, FREE, DAWN, OVER = range(11)
PHASE_NAMES = ("heritage", "reveal", "day", "camp", "buy", "offer", "play", "favour", "free", "dawn", "over")
ONE_DECIDES = tuple(phase not in (HERITAGE_SETUP, OVER) for phase in range(len(PHASE_NAMES)))  # by phase

# draw tokens (the chance queue): a position 0..7 is a tile reveal there
DRAW_MARKET = 8
DRAW_OFFERING = 9
DRAW_DEAL = 10  # + player

MARKET_SIZE = 5
OFFERINGS_SIZE = 2
HAND_SIZE = 3
START_WORKERS = 2
RESERVE_WORKERS = 2
FAVOURS = ("market", "offerings")
CENTRAL = ("pyramid", "pituk", "start", "grow")
PLACEMENT_STEPS = 4  # place, option, card, cube: the most decisions one worker can take

_POP = [bin(i).count("1") for i in range(16)]
NOBODY_EXPLORES = [-1] * NUM_TILES

# How a game ends, as indices of ENDS: the rulebook's end, then the safeguard (never the rulebook's)
END_SECOND_OFFERING, END_ROUND_LIMIT = 0, 1
ENDS = (
    EndReason("second-offering", M("end_second_offering")),
    EndReason("round-limit", M("end_round_limit"), printed=False),
)
MAX_ROUNDS = 50  # about seven times a purposeful game (docs/games/nakum.md)

SPEC = GameSpec(
    id="nakum",
    name="Nakum",
    aliases=("nakum",),
    min_players=2,
    max_players=4,
    has_chance=True,
    has_hidden_information=True,
    has_simultaneous_moves=True,
    summary="Worker placement in the jungle around a Maya pyramid: hunt, harvest, explore, make offerings.",
    ends=ENDS,
    options=(
        OptionSpec(
            "max-rounds",
            "int",
            MAX_ROUNDS,
            minimum=1,
            maximum=1000,
            help="safeguard: the game also ends after this round (the rulebook sets no limit)",
        ),
        OptionSpec("tiles", "path", None, help="a TOML file of 8 jungle tiles instead of the reconstruction"),
        OptionSpec("market", "path", None, help="a TOML file of market cards instead of the reconstruction"),
        OptionSpec("offerings", "path", None, help="a TOML file of offering cards instead of the reconstruction"),
        OptionSpec("heritage", "path", None, help="a TOML file of heritage cards instead of the reconstruction"),
        OptionSpec("family", "path", None, help="a TOML family card (storage limits) instead of the reconstruction"),
        # the rulebook's numbers (docs/analysis.md, "Parameters"); the family card's are the shipped card's
        param("maize-limit", "int", 9, 1, 20, "maize a family can store"),
        param("skins-limit", "int", 6, 1, 20, "skins a family can store"),
        param("masks-limit", "int", 4, 1, 20, "masks a family can store"),
        param("maize-per-point", "int", 3, 1, 20, "maize that make one point at the end"),
        param("skins-per-point", "int", 2, 1, 20, "skins that make one point at the end"),
        param("masks-per-point", "int", 1, 1, 20, "masks that make one point at the end"),
        param("offering-bonus", "int", 0, 0, 20, "points added to every offering card's printed points"),
        param("start-workers", "int", START_WORKERS, 1, 6, "workers each clan starts with (placed every Day)"),
        param("reserve-workers", "int", RESERVE_WORKERS, 0, 6, "workers each player keeps in the reserve at the start"),
        param("market-size", "int", MARKET_SIZE, 1, 8, "market cards face up (the row refilled each Night)"),
        param("offerings-size", "int", OFFERINGS_SIZE, 1, 4, "offering cards face up (the row refilled each Night)"),
        param("offerings-to-end", "int", 2, 1, 20, "offerings one player completes to end the game after that Day"),
    ),
)

_FAMILY_PARAMS = ("maize-limit", "skins-limit", "masks-limit", "maize-per-point", "skins-per-point", "masks-per-point")


def content_with_params(content: Content, options: Mapping[str, object]) -> Content:
    """``content`` with the parameters' family card and offering points."""
    v = [int(options[name]) for name in _FAMILY_PARAMS]  # type: ignore[call-overload]
    family = Family((v[0], v[1], v[2]), (v[3], v[4], v[5]))
    bonus = int(options["offering-bonus"])  # type: ignore[call-overload]
    offerings = tuple(dataclasses.replace(x, points=x.points + bonus) for x in content.offerings)
    return dataclasses.replace(content, family=family, offerings=offerings)


def _eff(e: Effect) -> tuple[int, int, int, int, int, int, int, int]:
    return (*e.cost, *e.gain, e.action)


Plan = tuple[int, int, int, int, int, int, int, int]


def _plan(e: tuple[int, ...], limits: tuple[int, int, int]) -> Plan:
    """An effect as applied: what it adds to each store (gain less cost), its points, its action, the stores' limits."""
    return (e[3] - e[0], e[4] - e[1], e[5] - e[2], e[6], e[7], *limits)


class NakumGame(Game):
    """Nakum for 2–4 players."""

    spec = SPEC

    def _configure(self) -> None:
        o = self.options
        self.content: Content = load_content(
            o["tiles"],  # type: ignore[arg-type]
            o["market"],  # type: ignore[arg-type]
            o["offerings"],  # type: ignore[arg-type]
            o["heritage"],  # type: ignore[arg-type]
            o["family"],  # type: ignore[arg-type]
        )
        changed = [p.name for p in self.spec.params if o[p.name] != p.default]
        if o["family"] is not None and set(changed) & set(_FAMILY_PARAMS):
            raise ConfigError(
                f"parameters ({', '.join(sorted(set(changed) & set(_FAMILY_PARAMS)))}) change the shipped family "
                "card; with family=FILE set the numbers in the file"
            )
        if changed:
            from_file = self.content.family if o["family"] is not None else None
            self.content = content_with_params(self.content, o)
            if from_file is not None:  # the file's family card stands
                self.content = dataclasses.replace(self.content, family=from_file)
        c = self.content
        n = self.num_players
        if len(c.heritage) < HAND_SIZE * n:
            raise ConfigError(
                f"{c.source('heritage')}: {len(c.heritage)} heritage cards are too few for {n} players "
                f"({HAND_SIZE} each are dealt)"
            )
        self.max_rounds = int(o["max-rounds"])  # type: ignore[arg-type]
        self.start_workers = int(o["start-workers"])  # type: ignore[arg-type]
        self.reserve_workers = int(o["reserve-workers"])  # type: ignore[arg-type]
        self.all_workers = self.start_workers + self.reserve_workers
        self.offerings_to_end = int(o["offerings-to-end"])  # type: ignore[arg-type]
        self.market_size = int(o["market-size"])  # type: ignore[arg-type]
        self.offerings_size = int(o["offerings-size"])  # type: ignore[arg-type]
        self.night_draws = (DRAW_MARKET,) * self.market_size + (DRAW_OFFERING,) * self.offerings_size
        if self.offerings_to_end > len(c.offerings):
            raise ConfigError(
                f"offerings-to-end={self.offerings_to_end}: there are only {len(c.offerings)} offering cards"
            )
        self.tiles = c.tiles
        self.tile_index = {t.key: i for i, t in enumerate(c.tiles)}
        # spaces: basics 0..NB-1, camps NB..NB+7, then Pituk, start, grow
        self.tile_basics: list[list[int]] = []
        self.basic_tile: list[int] = []
        self.basic_num: list[int] = []
        self.basic_effect: list[tuple[int, ...]] = []
        cap: list[int] = []
        for t, tile in enumerate(c.tiles):
            ids = []
            for j, space in enumerate(tile.basics):
                ids.append(len(self.basic_tile))
                self.basic_tile.append(t)
                self.basic_num.append(j)
                self.basic_effect.append(_eff(space.effect))
                cap.append(2 if n == 4 and space.double else 1)
            self.tile_basics.append(ids)
        nb = self.num_basics = len(self.basic_tile)
        cap += [2 if n == 4 and tile.camp_double else 1 for tile in c.tiles]
        self.camp_space = [nb + t for t in range(NUM_TILES)]
        self.pituk_space = nb + NUM_TILES
        self.start_space = nb + NUM_TILES + 1
        self.grow_space = nb + NUM_TILES + 2
        cap += [1, 1, 2 if n == 4 else 1]  # the clan space is marked for 4 players
        self.cap = cap
        self.num_spaces = len(cap)
        self.camp_effects = [[_eff(e) for e in tile.camp] for tile in c.tiles]

        def need(e: tuple[int, ...]) -> tuple[int, int, int, int]:
            kind = 1 if any(e[:3]) else 0
            if e[7] == MARKET_ACTION:
                kind = 2
            elif e[7] == HERITAGE_ACTION:
                kind = 3
            return (kind, e[0], e[1], e[2])

        # per tile: (basic spaces with what they need, camp space, camp options that need something,
        # full mask, mask of the options that need nothing)
        self.tile_needs = [
            (
                [(s, *need(self.basic_effect[s])) for s in self.tile_basics[t]],
                nb + t,
                [(k, *need(e)) for k, e in enumerate(self.camp_effects[t]) if need(e)[0]],
                (1 << len(tile.camp)) - 1,
                sum(1 << k for k, e in enumerate(self.camp_effects[t]) if not need(e)[0]),
            )
            for t, tile in enumerate(c.tiles)
        ]
        self.camp_full = [(1 << len(tile.camp)) - 1 for tile in c.tiles]
        # per basic space what it needs (kind, maize, skins, masks), and each tile's basic spaces
        self.basic_need = [need(e) for e in self.basic_effect]
        self.shared_spaces = any(c == 2 for c in cap)  # two players may share a space (4 players)
        self.market_cost = [m.effect.cost for m in c.market]
        self.market_effect = [_eff(m.effect) for m in c.market]
        self.market_free = [m.free_camp for m in c.market]
        self.heritage_effect = [_eff(h.effect) for h in c.heritage]
        self.heritage_free = [h.free_camp for h in c.heritage]
        # effects as applied: (net maize, net skins, net masks, points, action), cost and gain in one
        lim = c.family.limits
        self.basic_plan = [_plan(e, lim) for e in self.basic_effect]
        self.camp_plans = [[_plan(e, lim) for e in effects] for effects in self.camp_effects]
        self.market_plan = [_plan(e, lim) for e in self.market_effect]
        self.heritage_plan = [_plan(e, lim) for e in self.heritage_effect]
        # by action id, a basic space as placed on: the space, its bit, its tile's bit, whether it takes
        # one worker only, its effect's plan (action 0 is pass, not a space)
        self.basic_place: list[tuple[int, ...]] = [(0,) * 12]
        self.basic_place += [(s, 1 << s, 1 << self.basic_tile[s], cap[s] == 1, *self.basic_plan[s]) for s in range(nb)]
        self.offer_cost = [x.cost for x in c.offerings]
        self.offer_sacrifice = [x.sacrifice for x in c.offerings]
        self.limits = c.family.limits
        self.per_point = c.family.per_point
        self.card_points = [m.end_points for m in c.market]
        self.heritage_points = [h.end_points for h in c.heritage]
        self.offer_points = [x.points for x in c.offerings]
        # action ids
        self.A_BASIC = 1
        self.A_CAMP = self.A_BASIC + nb
        self.A_EXPLORE = self.A_CAMP + NUM_TILES
        self.A_PYRAMID = self.A_EXPLORE + NUM_TILES
        self.A_PITUK = self.A_PYRAMID + 1
        self.A_START = self.A_PITUK + 1
        self.A_GROW = self.A_START + 1
        self.A_OPTION = self.A_GROW + 1
        self.A_BUY = self.A_OPTION + NUM_TILES * MAX_OPTIONS
        self.A_OFFER = self.A_BUY + len(c.market)
        self.A_HERITAGE = self.A_OFFER + len(c.offerings)
        self.A_FAVOUR = self.A_HERITAGE + len(c.heritage)
        self.A_FREE = self.A_FAVOUR + len(FAVOURS)
        self.A_REVEAL = self.A_FREE + NUM_TILES * MAX_OPTIONS
        self._num_actions = self.A_REVEAL + NUM_TILES
        # The placement listing works on bit sets (bit s: space s; bit t: tile t; bit pos: position):
        # basic spaces by what they need, each tile's basic spaces, and the action ids of every set of
        # basic spaces (by byte), camps and positions, so a listing is a few lookups and no loop.
        assert nb <= 16, "at most two basic spaces on each of the eight tiles"
        self.free_basics = sum(1 << s for s, nd in enumerate(self.basic_need) if nd[0] == 0)
        self.cost_basics = [(1 << s, c0, c1, c2) for s, (kind, c0, c1, c2) in enumerate(self.basic_need) if kind == 1]
        self.market_basics = sum(1 << s for s, nd in enumerate(self.basic_need) if nd[0] == 2)
        self.heritage_basics = sum(1 << s for s, nd in enumerate(self.basic_need) if nd[0] == 3)
        self.tile_basics_mask = [sum(1 << s for s in ids) for ids in self.tile_basics]
        self.basic_tile_bit = [1 << t for t in self.basic_tile]
        self.space_single = [c == 1 for c in cap]
        self.basic_ids_low = [[self.A_BASIC + s for s in range(8) if m >> s & 1] for m in range(256)]
        self.basic_ids_high = [[self.A_BASIC + 8 + s for s in range(8) if m >> s & 1] for m in range(256)]
        self.bits_of = [tuple(i for i in range(8) if m >> i & 1) for m in range(256)]
        self.camp_ids = [[self.A_CAMP + t for t in range(NUM_TILES) if m >> t & 1] for m in range(256)]
        self.camp_free_options = [free for _, _, _, _, free in self.tile_needs]
        # a camp option as its decision is listed: (option, cost, action)
        self.camp_choices = [[(k, *e[:3], e[7]) for k, e in enumerate(effects)] for effects in self.camp_effects]
        self.pituk_bit = 1 << self.pituk_space
        self.start_bit = 1 << self.start_space
        self.grow_bit = 1 << self.grow_space
        # the next players after p, clockwise
        self.after = [tuple((p + i) % n for i in range(1, n + 1)) for p in range(n)]
        self.setup_draws = [DRAW_OFFERING] * self.offerings_size + [DRAW_MARKET] * self.market_size
        self.setup_draws += [DRAW_DEAL + p for _ in range(HAND_SIZE) for p in range(n)]
        self.free_camps = sum(1 << t for t, free in enumerate(self.camp_free_options) if free)
        self.explore_ids = [[self.A_EXPLORE + pos for pos in range(NUM_TILES) if m >> pos & 1] for m in range(256)]
        # what every store within the family card's limits can pay for, by maize, skins and masks
        # (nested lists rather than a dict of triples: three indexings are cheaper than hashing a
        # tuple, and the listings ask for the mover's store at every decision; 350 stores with the
        # shipped card, at most 21 ** 3)
        l0, l1, l2 = c.family.limits
        self.stores = [
            [[self.affordable(m0, m1, m2) for m2 in range(l2 + 1)] for m1 in range(l1 + 1)] for m0 in range(l0 + 1)
        ]
        texts = ["pass"]
        for s in range(nb):
            tile = c.tiles[self.basic_tile[s]]
            suffix = f" {self.basic_num[s] + 1}" if len(tile.basics) > 1 else ""
            texts.append(f"place {tile.key} basic{suffix}")
        texts += [f"place {t.key} camp" for t in c.tiles]
        texts += [f"explore {pos + 1}" for pos in range(NUM_TILES)]
        texts += [f"place {name}" for name in CENTRAL]
        texts += [f"camp {t.key} {k + 1}" for t in c.tiles for k in range(MAX_OPTIONS)]
        texts += [f"buy {m.id}" for m in c.market]
        texts += [f"offer {x.id}" for x in c.offerings]
        texts += [f"heritage {h.id}" for h in c.heritage]
        texts += [f"pituk {f}" for f in FAVOURS]
        texts += [f"free {t.key} {k + 1}" for t in c.tiles for k in range(MAX_OPTIONS)]
        texts += [f"reveal {pos + 1}" for pos in range(NUM_TILES)]
        assert len(texts) == self._num_actions
        self.texts = texts
        # camp option / cube ids of options a tile does not have name nothing
        self.text_ids = {
            text: a
            for a, text in enumerate(texts)
            if not (self.A_OPTION <= a < self.A_BUY or self.A_FREE <= a < self.A_REVEAL)
            or (a - (self.A_OPTION if a < self.A_BUY else self.A_FREE)) % MAX_OPTIONS
            < len(c.tiles[(a - (self.A_OPTION if a < self.A_BUY else self.A_FREE)) // MAX_OPTIONS].camp)
        }
        self.market_ids = {m.id: i for i, m in enumerate(c.market)}
        self.offer_ids = {x.id: i for i, x in enumerate(c.offerings)}
        self.heritage_ids = {h.id: i for i, h in enumerate(c.heritage)}

    def affordable(self, m0: int, m1: int, m2: int) -> tuple[int, int, int, int]:
        """What a store of (m0, m1, m2) maize, skins and masks can pay for, as bit sets: the basic
        spaces whose effect needs nothing or only resources, the market cards, the offerings, and
        the basic spaces again with those that buy a market card (for when one can be bought).

        Worked out once for every store the family card allows (``stores``), which the
        listings read.
        """
        basics = self.free_basics
        for bit, c0, c1, c2 in self.cost_basics:
            if m0 >= c0 and m1 >= c1 and m2 >= c2:
                basics |= bit
        cards = 0
        for c, (c0, c1, c2) in enumerate(self.market_cost):
            if m0 >= c0 and m1 >= c1 and m2 >= c2:
                cards |= 1 << c
        offers = 0
        for c, (c0, c1, c2) in enumerate(self.offer_cost):
            if m0 >= c0 and m1 >= c1 and m2 >= c2:
                offers |= 1 << c
        return (basics, cards, offers, basics | self.market_basics)

    @property
    def num_actions(self) -> int:
        return self._num_actions

    @property
    def max_chance_outcomes(self) -> int:
        c = self.content
        return max(NUM_TILES, len(c.market), len(c.offerings), len(c.heritage))

    @property
    def max_game_length(self) -> int:
        n = self.num_players
        workers = self.all_workers
        setup = self.offerings_size + self.market_size + HAND_SIZE * n + n + 2 * 2
        placements = workers * n
        per_round = placements * PLACEMENT_STEPS + n * (placements + 1) + self.market_size + self.offerings_size
        pituk = len(FAVOURS) * (self.market_size + self.offerings_size)
        return setup + self.max_rounds * per_round + NUM_TILES + pituk

    def new_initial_state(self) -> NakumState:
        return NakumState(self)


class _BoardList:
    """A board list of a Nakum state, read and replaced by its public name.

    The state keeps bit sets derived from these lists for its listings. Play
    changes the lists through their underscored names and keeps the sets in
    step; anyone else gets the list through the public name, which marks the
    sets stale, so they are surveyed again before the next listing (a list
    changed by hand is never missed).
    """

    def __set_name__(self, owner: type, name: str) -> None:
        self.kept = "_" + name

    def __get__(self, state: NakumState | None, owner: type | None = None) -> list[int]:
        if state is None:  # asked of the class itself
            return self  # type: ignore[return-value]
        state._stale = True
        return getattr(state, self.kept)  # type: ignore[no-any-return]

    def __set__(self, state: NakumState, value: list[int]) -> None:
        setattr(state, self.kept, value)
        state._stale = True


class NakumState(State):
    """A Nakum position."""

    __slots__ = (
        # _cubes, _explorer, _layout, _market, _occ, _offers: the board lists (handed out by the
        # properties cubes, explorer, layout, market, occ, offers); the other underscored names are
        # bit sets derived from them, never saved or compared (see _survey)
        "_active",
        "_cubes",
        "_explorable",
        "_explorer",
        "_free_camps",
        "_full",
        "_layout",
        "_market",
        "_market_cards",
        "_mine",
        "_occ",
        "_offer_cards",
        "_offers",
        "_on_board",
        "_stale",
        "bought",
        "box",
        "choice",
        "ctx",
        "draws",
        "end_triggered",
        "favours",
        "first_offer",
        "hand",
        "hands",
        "made",
        "market_deck",
        "offer_count",
        "offer_deck",
        "offer_discard",
        "passes",
        "phase",
        "played",
        "pyramid",
        "res",
        "reserve",
        "revealed",
        "reveals_left",
        "round",
        "sacrificed",
        "start",
        "tile_pos",
        "to_move",
        "tokens",
        "workers",
    )  # fmt: skip

    game: NakumGame

    def __init__(self, game: NakumGame):
        super().__init__(game)
        n = game.num_players
        c = game.content
        self.phase = HERITAGE_SETUP
        self.to_move = 0
        self.round = 0
        self.start = 0
        self.draws = game.setup_draws.copy()
        self.reveals_left = 0
        self.ctx = -1  # the tile whose camp is being used
        self._layout = [-1] * NUM_TILES  # position -> tile index, -1 face down
        self.tile_pos = [-1] * NUM_TILES  # tile index -> position, -1 not revealed
        self.revealed = 0
        self._explorer = [-1] * NUM_TILES  # position -> player exploring it this round
        self._occ = [0] * game.num_spaces  # bitmask of players on a space
        self.pyramid = [0] * n  # workers on the pyramid
        self._cubes = [0] * NUM_TILES  # bitmask of covered camp options
        self.favours = 0  # bitmask of Pituk's used favours
        self._market: list[int] = []
        self._market_cards = 0
        self.market_deck = list(range(len(c.market)))
        self._offers: list[int] = []
        self._offer_cards = 0
        self.offer_deck = list(range(len(c.offerings)))
        self.offer_discard: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(n)]  # heritage hands, sorted
        self.choice = [-1] * n  # heritage card chosen at setup, hidden until all are in
        self.box = list(range(len(c.heritage)))  # undealt heritage cards
        self.res = [0] * (3 * n)  # maize, skins, masks per player
        self.tokens = [0] * n  # point tokens
        self.workers = [game.start_workers] * n  # workers of the clan (not in the reserve)
        self.hand = [game.start_workers] * n  # workers not yet placed this Day
        self.reserve = [game.reserve_workers] * n
        self.sacrificed = [0] * n  # sacrificed this Day; to the reserve at Night
        self.bought: list[list[int]] = [[] for _ in range(n)]
        self.played: list[list[int]] = [[] for _ in range(n)]
        self.made: list[list[int]] = [[] for _ in range(n)]
        self.first_offer = [-1] * n  # order of each player's first offering
        self.offer_count = 0
        self.end_triggered = False
        self.passes = 0
        # the derived sets of an empty board, face down (what _survey would find)
        self._full = self._active = self._on_board = 0
        self._mine = [0] * n
        self._explorable = (1 << NUM_TILES) - 1
        self._free_camps = game.free_camps
        self._stale = False

    def _survey(self) -> None:
        """Derive the bit sets the placement listing reads from the board lists.

        ``_full``: spaces nobody more may enter; ``_mine[p]``: spaces with a worker of
        player ``p`` (closed to ``p`` even where another may still join; kept only where
        two players may share a space, otherwise every taken space is full); ``_active``:
        tiles with a worker on a basic space (their camp is open); ``_on_board``: basic
        spaces of face-up tiles; ``_explorable``: face-down positions with no explorer;
        ``_free_camps``: tiles whose camp has an uncovered option that needs nothing;
        ``_market_cards``: the market's cards; ``_offer_cards``: the active offerings.
        ``_apply`` keeps them in step move by move. The board lists themselves are
        reached from outside only through the properties ``occ``, ``layout``,
        ``explorer``, ``cubes``, ``market`` and ``offers``, which mark the sets stale (whoever holds a list may
        change it: a test or a tool setting up a position by hand), so they are
        surveyed again before the next listing instead of being read stale.
        """
        g = self.game
        n = g.num_players
        nb = g.num_basics
        full = 0
        mine = [0] * n
        active = 0
        for s, o in enumerate(self._occ):
            if o:
                if g.space_single[s] or _POP[o] >= 2:
                    full |= 1 << s
                if g.shared_spaces:
                    for q in range(n):
                        if o >> q & 1:
                            mine[q] |= 1 << s
                if s < nb:
                    active |= g.basic_tile_bit[s]
        on_board = 0
        explorable = 0
        for pos, t in enumerate(self._layout):
            if t >= 0:
                on_board |= g.tile_basics_mask[t]
            elif self._explorer[pos] < 0:
                explorable |= 1 << pos
        self._full = full
        self._mine = mine
        self._free_camps = 0
        for t, covered in enumerate(self._cubes):
            if g.camp_free_options[t] & ~covered:
                self._free_camps |= 1 << t
        self._active = active
        self._on_board = on_board
        self._explorable = explorable
        self._market_cards = 0
        for c in self._market:
            self._market_cards |= 1 << c
        self._offer_cards = 0
        for c in self._offers:
            self._offer_cards |= 1 << c
        self._stale = False

    # the board lists, each kept under its underscored name; handing one out marks the derived sets stale
    occ = _BoardList()  # per space, the players on it (a bit set each).
    layout = _BoardList()  # per position, the face-up tile there (-1: face down).
    explorer = _BoardList()  # per position, the player exploring it this round (-1: none).
    market = _BoardList()  # the face-up market cards, in the order drawn.
    offers = _BoardList()  # the active offerings, in the order drawn.
    cubes = _BoardList()  # per tile, its camp options covered by a black cube (a bit set).

    # ---------------------------------------------------------- who decides
    def current_player(self) -> int:
        if self.draws:
            return CHANCE
        if ONE_DECIDES[self.phase]:  # the common case first (one lookup: asked twice a move)
            return self.to_move
        return TERMINAL if self.phase == OVER else SIMULTANEOUS

    current = property(current_player)  # the core's hook, worked out on each read

    def players_to_move(self) -> tuple[int, ...]:
        """At the setup's heritage choice: everyone who has not chosen yet."""
        cur = self.current_player()
        if cur == SIMULTANEOUS:
            return tuple(p for p, c in enumerate(self.choice) if c < 0)
        return (cur,) if cur >= 0 else ()

    # ---------------------------------------------------------------- chance
    def _pool(self) -> list[int]:
        """What the next draw is made from (the deck, the box, or the tiles not yet face up)."""
        head = self.draws[0]
        if head == DRAW_MARKET:
            return self.market_deck
        if head == DRAW_OFFERING:
            return self.offer_deck
        if head < NUM_TILES:
            return [t for t, pos in enumerate(self.tile_pos) if pos < 0]
        return self.box

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        pool = self._pool()
        p = 1.0 / len(pool)
        return [(c, p) for c in pool]

    def sample_chance(self, rng: random.Random) -> int:
        head = self.draws[0]
        # the decks first, without a call: most draws refill the market or the offerings
        if head == DRAW_MARKET:
            pool = self.market_deck
        elif head == DRAW_OFFERING:
            pool = self.offer_deck
        elif head >= DRAW_DEAL:
            pool = self.box
        else:
            pool = self._pool()
        return pool[int(rng.random() * len(pool))]

    def _chance_legal(self, outcome: int) -> bool:
        head = self.draws[0]
        if head == DRAW_MARKET:
            return outcome in self.market_deck
        if head == DRAW_OFFERING:
            return outcome in self.offer_deck
        if head < NUM_TILES:
            return outcome in range(NUM_TILES) and self.tile_pos[outcome] < 0
        return outcome in self.box

    def _normalize(self) -> None:
        """Drop draws that have nothing to do; start the Day once the Night's draws are done."""
        draws = self.draws
        while draws:
            head = draws[0]
            if head == DRAW_MARKET:
                if len(self._market) < self.game.market_size and self.market_deck:
                    return
            elif head == DRAW_OFFERING:
                if len(self._offers) < self.game.offerings_size and self.offer_deck:
                    return
            else:
                return
            # nothing changes while draws are dropped: the whole run of this kind goes at once
            k = 1
            left = len(draws)
            while k < left and draws[k] == head:
                k += 1
            del draws[:k]
        if self.phase == DAWN:
            self._start_day()

    # ----------------------------------------------------------------- rules
    def _legal_actions(self, player: int) -> list[int]:
        if self._stale:
            self._survey()
        g = self.game
        res = self.res
        b = 3 * player
        phase = self.phase
        if phase == DAY:
            # the placements (most decisions are one): bit sets of spaces, tiles and positions
            closed = self._full | self._mine[player]
            # basic spaces: what the space needs is at hand, face up, and open to the player
            basics, cards, offers, with_market = g.stores[res[b]][res[b + 1]][res[b + 2]]
            market_ok = cards & self._market_cards  # some market card the player can pay for
            if market_ok:
                basics = with_market
            heritage_hand = self.hands[player]
            if heritage_hand:
                basics |= g.heritage_basics
            basics &= self._on_board & ~closed
            acts = g.basic_ids_low[basics & 255] + g.basic_ids_high[basics >> 8]
            # camps of tiles with a worker on a basic space, open to the player, with an option it can take
            camps = self._active & ~(closed >> g.num_basics)
            if camps:
                ok = camps & self._free_camps  # an uncovered option that needs nothing
                camps &= ~ok
                if camps:  # the other options: what each needs
                    m0 = res[b]
                    m1 = res[b + 1]
                    m2 = res[b + 2]
                    cubes = self._cubes
                    tile_needs = g.tile_needs
                    for t in g.bits_of[camps]:
                        _, _, options, full, _ = tile_needs[t]
                        covered = cubes[t]
                        if covered == full:
                            continue
                        for k, kind, c0, c1, c2 in options:
                            if covered >> k & 1:
                                continue
                            if (kind == 1 and m0 >= c0 and m1 >= c1 and m2 >= c2) or (kind == 3 and heritage_hand):
                                ok |= 1 << t
                                break
                            if kind == 2 and market_ok:
                                ok |= 1 << t
                                break
                if ok:
                    acts += g.camp_ids[ok]
            if self._explorable:
                acts += g.explore_ids[self._explorable]
            hand = self.hand[player]
            if hand >= 2 and offers & self._offer_cards:  # an active offering the player can pay for
                acts.append(g.A_PYRAMID)
            if self.revealed == NUM_TILES and self.favours != 3 and not closed & g.pituk_bit:
                acts.append(g.A_PITUK)
            if self.start != player and not closed & g.start_bit:
                acts.append(g.A_START)
            if hand >= 2 and self.round > 1 and self.reserve[player] > 0 and not closed & g.grow_bit:
                acts.append(g.A_GROW)
            if not acts:
                return [0]
            return acts
        # the decisions other than a placement, the most frequent first: a worker's follow-ups, and
        # the setup's (plain loops rather than comprehensions: these lists hold a few ids)
        if phase == BUY:
            affordable = g.stores[res[b]][res[b + 1]][res[b + 2]][1]
            base = g.A_BUY
            ids: list[int] = []
            for c in self._market:
                if affordable >> c & 1:
                    ids.append(base + c)
            ids.sort()
            return ids
        if phase == CAMP:
            t = self.ctx
            base = g.A_OPTION + t * MAX_OPTIONS
            covered = self._cubes[t]
            m0 = res[b]
            m1 = res[b + 1]
            m2 = res[b + 2]
            ids = []
            for k, c0, c1, c2, action in g.camp_choices[t]:
                if covered >> k & 1 or m0 < c0 or m1 < c1 or m2 < c2:
                    continue
                if action == MARKET_ACTION:
                    if not g.stores[m0][m1][m2][1] & self._market_cards:  # no market card it can pay for
                        continue
                elif action == HERITAGE_ACTION and not self.hands[player]:
                    continue
                ids.append(base + k)
            return ids
        if phase == PLAY or phase == HERITAGE_SETUP:
            ids = []
            base = g.A_HERITAGE
            for c in self.hands[player]:
                ids.append(base + c)
            return ids
        if phase == FREE:
            ids = []
            for t, covered in enumerate(self._cubes):
                if covered:
                    base = g.A_FREE + t * MAX_OPTIONS
                    for k in g.bits_of[covered]:
                        ids.append(base + k)
            return ids
        if phase == OFFER:
            affordable = g.stores[res[b]][res[b + 1]][res[b + 2]][2]
            base = g.A_OFFER
            ids = []
            for c in self._offers:
                if affordable >> c & 1:
                    ids.append(base + c)
            ids.sort()
            return ids
        if phase == FAVOUR:
            return [g.A_FAVOUR + f for f in range(len(FAVOURS)) if not self.favours >> f & 1]
        if phase == REVEAL:
            return [g.A_REVEAL + pos for pos in range(NUM_TILES) if self._layout[pos] < 0]
        return []

    def _affords(self, cost: tuple[int, ...], p: int) -> bool:
        res = self.res
        b = 3 * p
        return res[b] >= cost[0] and res[b + 1] >= cost[1] and res[b + 2] >= cost[2]

    def _can(self, e: tuple[int, ...], p: int) -> bool:
        """Whether player ``p`` can take effect ``e`` now (pay its cost, and buy or play a card if it asks)."""
        res = self.res
        b = 3 * p
        if res[b] < e[0] or res[b + 1] < e[1] or res[b + 2] < e[2]:
            return False
        action = e[7]
        if action == MARKET_ACTION:
            costs = self.game.market_cost
            for c in self._market:
                m = costs[c]
                if res[b] >= m[0] and res[b + 1] >= m[1] and res[b + 2] >= m[2]:
                    return True
            return False
        if action == HERITAGE_ACTION:
            return bool(self.hands[p])
        return True

    def _space_open(self, space: int, bit: int) -> bool:
        o = self._occ[space]
        return not o or (self.game.cap[space] == 2 and not o & bit and _POP[o] < 2)

    def _apply(self, action: int, player: int) -> None:
        if player == CHANCE:
            self._apply_chance(action)
            return
        g = self.game
        phase = self.phase
        if phase == DAY:
            if action < g.A_CAMP:
                if action == 0:
                    self._pass(player)
                    return
                # a basic space, the most frequent move: its effect written out here (see _effect)
                s, space_bit, tile_bit, single, d0, d1, d2, points, then, l0, l1, l2 = g.basic_place[action]
                hand = self.hand
                hand[player] -= 1
                o = self._occ[s]  # the players there before (never the mover: its space is closed to it)
                self._occ[s] = o | 1 << player
                if g.shared_spaces:
                    self._mine[player] |= space_bit
                    if o or single:  # a second player joins, or only one may stand there
                        self._full |= space_bit
                else:  # every space takes one worker: taken is full (and _mine is not needed)
                    self._full |= space_bit
                self._active |= tile_bit
                res = self.res
                b = 3 * player
                if d0:
                    v = res[b] + d0
                    res[b] = v if v < l0 else l0
                if d1:
                    v = res[b + 1] + d1
                    res[b + 1] = v if v < l1 else l1
                if d2:
                    v = res[b + 2] + d2
                    res[b + 2] = v if v < l2 else l2
                if points:
                    self.tokens[player] += points
                self.passes = 0
                if then == MARKET_ACTION:
                    self.phase = BUY
                elif then == HERITAGE_ACTION:
                    self.phase = PLAY
                else:
                    for q in g.after[player]:
                        if hand[q]:
                            self.to_move = q
                            return
                    self._end_day()
            elif action < g.A_EXPLORE:
                t = action - g.A_CAMP
                self.hand[player] -= 1
                self._occupy(g.camp_space[t], player)
                self.passes = 0
                self.ctx = t
                self.phase = CAMP
            elif action < g.A_PYRAMID:
                pos = action - g.A_EXPLORE
                self.hand[player] -= 1
                self._explorer[pos] = player
                self._explorable &= ~(1 << pos)
                self.tokens[player] += 1
                self._end_turn(player)
            elif action == g.A_PYRAMID:
                self.hand[player] -= 2
                self.pyramid[player] += 2
                self.passes = 0
                self.phase = OFFER
            elif action == g.A_PITUK:
                self.hand[player] -= 1
                self._occupy(g.pituk_space, player)
                self.passes = 0
                self.phase = FAVOUR
            elif action == g.A_START:
                self.hand[player] -= 1
                self._occupy(g.start_space, player)
                self.start = player
                self._end_turn(player)
            else:  # grow the clan: two workers and one from the reserve
                self.hand[player] -= 2
                self.reserve[player] -= 1
                self.workers[player] += 1
                self._occupy(g.grow_space, player)
                self._end_turn(player)
        elif phase == CAMP:
            t = self.ctx
            k = action - g.A_OPTION - t * MAX_OPTIONS
            covered = self._cubes[t] | 1 << k
            self._cubes[t] = covered
            if not g.camp_free_options[t] & ~covered:
                self._free_camps &= ~(1 << t)
            self.ctx = -1
            self._effect(g.camp_plans[t][k], player)
        elif phase == BUY:
            c = action - g.A_BUY
            self._market.remove(c)
            self._market_cards &= ~(1 << c)
            self.bought[player] = [*self.bought[player], c]
            self._card(g.market_plan[c], g.market_free[c], player)
        elif phase == OFFER:
            c = action - g.A_OFFER
            cost = g.offer_cost[c]
            b = 3 * player
            res = self.res
            res[b] -= cost[0]
            res[b + 1] -= cost[1]
            res[b + 2] -= cost[2]
            sac = g.offer_sacrifice[c]
            self.workers[player] -= sac
            self.sacrificed[player] += sac
            self._offers.remove(c)
            self._offer_cards &= ~(1 << c)
            self.made[player] = [*self.made[player], c]
            if self.first_offer[player] < 0:
                self.first_offer[player] = self.offer_count
            self.offer_count += 1
            if len(self.made[player]) >= g.offerings_to_end:
                self.end_triggered = True
            self._end_turn(player)
        elif phase == PLAY:
            c = action - g.A_HERITAGE
            self.hands[player] = [x for x in self.hands[player] if x != c]
            self.played[player] = [*self.played[player], c]
            self._card(g.heritage_plan[c], g.heritage_free[c], player)
        elif phase == FAVOUR:
            f = action - g.A_FAVOUR
            self.favours |= 1 << f
            self.tokens[player] += 1
            if f == 0:  # all market cards shuffled together, five new ones
                self.market_deck = sorted(self.market_deck + self._market)
                self._market = []
                self._market_cards = 0
                self.draws += [DRAW_MARKET] * self.game.market_size
            else:
                self.offer_discard += self._offers
                self._offers = []
                self._offer_cards = 0
                self.draws += [DRAW_OFFERING] * self.game.offerings_size
            self._end_turn(player)
            self._normalize()
        elif phase == FREE:
            t, k = divmod(action - g.A_FREE, MAX_OPTIONS)
            covered = self._cubes[t] & ~(1 << k)
            self._cubes[t] = covered
            if g.camp_free_options[t] & ~covered:
                self._free_camps |= 1 << t
            self._end_turn(player)
        elif phase == HERITAGE_SETUP:
            c = action - g.A_HERITAGE
            self.hands[player] = [x for x in self.hands[player] if x != c]
            self.choice[player] = c
            if min(self.choice) >= 0:
                self._resolve_heritage()
        elif phase == REVEAL:
            self.draws.append(action - g.A_REVEAL)
            self.reveals_left -= 1
            if self.reveals_left:
                self.to_move = (self.to_move + 1) % g.num_players
            else:
                self.phase = DAWN

    def _occupy(self, space: int, p: int) -> None:
        """A worker of ``p`` on ``space``: the board list and the sets derived from it."""
        o = self._occ[space]  # the players there before (never p: the space is closed to it)
        self._occ[space] = o | 1 << p
        sb = 1 << space
        if self.game.shared_spaces:
            self._mine[p] |= sb
            if o or self.game.space_single[space]:  # a second player joins, or only one may stand there
                self._full |= sb
        else:  # every space takes one worker: taken is full (and _mine is not needed)
            self._full |= sb

    def _apply_chance(self, a: int) -> None:
        draws = self.draws
        head = draws.pop(0)
        # where the next draw plainly has something to do, _normalize is not called: it would
        # drop nothing (a refill's next card with room left and a card to come, a reveal, a deal)
        if head == DRAW_MARKET:
            self.market_deck.remove(a)
            market = self._market
            market.append(a)
            self._market_cards |= 1 << a
            if draws and draws[0] == DRAW_MARKET and len(market) < self.game.market_size and self.market_deck:
                return
        elif head < NUM_TILES:
            self._layout[head] = a
            self._explorable &= ~(1 << head)
            self._on_board |= self.game.tile_basics_mask[a]
            self.tile_pos[a] = head
            self.revealed += 1
            if draws and draws[0] < NUM_TILES:
                return
        elif head == DRAW_OFFERING:
            self.offer_deck.remove(a)
            self._offers.append(a)
            self._offer_cards |= 1 << a
        else:
            self.box.remove(a)
            self.hands[head - DRAW_DEAL] = sorted([*self.hands[head - DRAW_DEAL], a])
            if draws and draws[0] >= DRAW_DEAL:
                return
        self._normalize()

    def _gain(self, plan: Plan, p: int) -> None:
        """Pay and gain ``plan``'s resources (beyond the family card's limit they are lost) and its points."""
        d0, d1, d2, points, _, l0, l1, l2 = plan
        res = self.res
        b = 3 * p
        # a store the effect does not touch is left as it is (it is within its limit already)
        if d0:
            v = res[b] + d0
            res[b] = v if v < l0 else l0
        if d1:
            v = res[b + 1] + d1
            res[b + 1] = v if v < l1 else l1
        if d2:
            v = res[b + 2] + d2
            res[b + 2] = v if v < l2 else l2
        if points:
            self.tokens[p] += points

    def _effect(self, plan: Plan, p: int) -> None:
        """A basic space's or camp option's effect; then its card to buy or play, or the next player's turn."""
        d0, d1, d2, points, action, l0, l1, l2 = plan
        res = self.res
        b = 3 * p
        if d0:
            v = res[b] + d0
            res[b] = v if v < l0 else l0
        if d1:
            v = res[b + 1] + d1
            res[b + 1] = v if v < l1 else l1
        if d2:
            v = res[b + 2] + d2
            res[b + 2] = v if v < l2 else l2
        if points:
            self.tokens[p] += points
        self.passes = 0
        if action == MARKET_ACTION:
            self.phase = BUY
        elif action == HERITAGE_ACTION:
            self.phase = PLAY
        else:
            hand = self.hand
            for q in self.game.after[p]:
                if hand[q]:
                    self.phase = DAY
                    self.to_move = q
                    return
            self._end_day()

    def _card(self, plan: Plan, free_camp: bool, p: int) -> None:
        """A market or heritage card's effect; then a black cube to remove, or the next player's turn."""
        self._gain(plan, p)
        if free_camp and any(self._cubes):
            self.phase = FREE
        else:
            self._end_turn(p)

    def _resolve_heritage(self) -> None:
        """Everyone has chosen: the cards are shown and taken (setup)."""
        g = self.game
        for p, c in enumerate(self.choice):
            self.played[p] = [*self.played[p], c]
            self._gain(g.heritage_plan[c], p)
        self.choice = [-1] * g.num_players
        self.phase = REVEAL
        self.to_move = self.start
        self.reveals_left = 1 if g.num_players == 2 else 2

    def _end_turn(self, p: int) -> None:
        """The next player with workers in hand is to place one; if nobody has any, the Day ends."""
        self.passes = 0
        hand = self.hand
        for q in self.game.after[p]:
            if hand[q]:
                self.phase = DAY
                self.to_move = q
                return
        self._end_day()

    def _pass(self, p: int) -> None:
        """No legal space: the turn goes on; when everyone with workers has passed in a row, the Day ends."""
        self.passes += 1
        n = self.game.num_players
        hand = self.hand
        if self.passes >= n - hand.count(0):  # every player with workers in hand has passed
            self._end_day()
            return
        for i in range(1, n + 1):
            q = (p + i) % n
            if hand[q] > 0:
                self.to_move = q
                return

    def _end_day(self) -> None:
        """The Night (or the end: after the Day of a second offering, or of the last round)."""
        g = self.game
        self.passes = 0
        if self.end_triggered or self.round >= g.max_rounds:
            self.phase = OVER
            self.draws = []
            return
        n = g.num_players
        if any(self.sacrificed):
            self.reserve = [r + x for r, x in zip(self.reserve, self.sacrificed, strict=True)]
            self.sacrificed = [0] * n
        self._occ = [0] * g.num_spaces
        self._full = self._active = 0
        self._mine = [0] * n
        self.pyramid = [0] * n
        draws = self.draws
        explorer = self._explorer
        if explorer != NOBODY_EXPLORES:
            for pos, who in enumerate(explorer):
                if who >= 0:
                    explorer[pos] = -1
                    draws.append(pos)
                    self._explorable |= 1 << pos  # face down until revealed at dawn
        self.phase = DAWN
        self.to_move = self.start
        if draws:
            draws += self.game.night_draws
            self._normalize()
        # nothing to reveal: the refills that have nothing to do are dropped here, as _normalize would
        elif len(self._market) < self.game.market_size and self.market_deck:
            draws += self.game.night_draws
        elif len(self._offers) < self.game.offerings_size and self.offer_deck:
            draws += self.game.night_draws[self.game.market_size :]
        else:
            self._start_day()

    def _start_day(self) -> None:
        g = self.game
        while True:
            self.round += 1
            self.hand = self.workers.copy()
            for q in g.after[self.start - 1]:  # from the start player on
                if self.hand[q] > 0:
                    self.phase = DAY
                    self.to_move = q
                    self.passes = 0
                    return
            if self.round >= g.max_rounds:  # nobody has a worker: the remaining rounds are empty
                self.phase = OVER
                return

    # ------------------------------------------------------------ why not
    def _why_illegal(self, action: int, player: int) -> Message:
        """Why ``action`` is not legal for ``player`` now (see :meth:`State.why_illegal`): every refusal, by rule.

        The checks follow ``_legal_actions`` phase by phase, reading the board
        lists (never the derived sets, which may be stale).
        """
        g = self.game
        if player == CHANCE:
            return self._why_not_drawn(action)
        phase = self.phase
        placing = action < g.A_OPTION
        if phase == DAY:
            if placing:
                return self._why_not_place(action, player)
            if action >= g.A_REVEAL:
                return M("reveal_setup")
            return M("place_first")
        if phase == CAMP and g.A_OPTION <= action < g.A_BUY:
            return self._why_not_option(action, player)
        if phase == BUY and g.A_BUY <= action < g.A_OFFER:
            c = action - g.A_BUY
            if c not in self._market:
                return M("not_in_market", card=self._card_message(g.content.market[c]))
            return M("cannot_pay", cost=self._amounts(g.market_cost[c]))
        if phase == OFFER and g.A_OFFER <= action < g.A_HERITAGE:
            c = action - g.A_OFFER
            if c not in self._offers:
                return M("not_active", card=self._card_message(g.content.offerings[c]))
            return M("cannot_pay", cost=self._amounts(g.offer_cost[c]))
        if phase in (PLAY, HERITAGE_SETUP) and g.A_HERITAGE <= action < g.A_FAVOUR:
            return M("not_in_hand", card=self._card_message(g.content.heritage[action - g.A_HERITAGE]))
        if phase == FAVOUR and g.A_FAVOUR <= action < g.A_FREE:
            return M("favour_used")
        if phase == FREE and g.A_FREE <= action < g.A_REVEAL:
            t, k = divmod(action - g.A_FREE, MAX_OPTIONS)
            name = g.tiles[t].name
            if k >= len(g.tiles[t].camp):
                return M("no_such_cube", tile=name, option=k + 1)
            return M("no_cube", tile=name, option=k + 1)
        if phase == REVEAL and action >= g.A_REVEAL:
            return M("reveal_face_up", pos=action - g.A_REVEAL + 1)
        if phase == CAMP:
            return M("pending_camp", tile=g.tiles[self.ctx].name)
        key = {BUY: "pending_buy", OFFER: "pending_offer", PLAY: "pending_play", FAVOUR: "pending_favour",
               FREE: "pending_free", REVEAL: "pending_reveal", HERITAGE_SETUP: "pending_heritage"}[phase]  # fmt: skip
        return M(key)

    def _why_not_drawn(self, outcome: int) -> Message:
        """Why chance cannot draw ``outcome`` from what the next draw is made of."""
        c = self.game.content
        head = self.draws[0]
        if head < NUM_TILES:
            pool: tuple[Any, ...] = c.tiles
        else:
            pool = c.market if head == DRAW_MARKET else c.offerings if head == DRAW_OFFERING else c.heritage
        if outcome >= len(pool):
            return M("chance_no_such", number=outcome + 1)
        if head < NUM_TILES:
            return M("chance_face_up", tile=c.tiles[outcome].name)
        card = self._card_message(pool[outcome])
        if head == DRAW_MARKET:
            return M("chance_not_in_market_deck", card=card)
        if head == DRAW_OFFERING:
            return M("chance_not_in_offering_deck", card=card)
        return M("chance_not_in_box", card=card)

    def _why_not_place(self, action: int, p: int) -> Message:
        g = self.game
        if action == 0:
            return M("pass_not_allowed")
        hand = self.hand[p]
        if action < g.A_EXPLORE:
            if action < g.A_CAMP:
                s = action - g.A_BASIC
                t = g.basic_tile[s]
            else:
                t = action - g.A_CAMP
                s = g.camp_space[t]
            name = g.tiles[t].name
            if self.tile_pos[t] < 0:
                return M("face_down", tile=name)
            if action >= g.A_CAMP:
                if self._cubes[t] == g.camp_full[t]:
                    return M("camp_exhausted", tile=name)
                if not any(self._occ[b] for b in g.tile_basics[t]):
                    return M("camp_inactive", tile=name)
            closed = self._why_closed(s, p)
            if closed is not None:
                return closed
            if action >= g.A_CAMP:
                return M("camp_no_option", tile=name)
            kind, c0, c1, c2 = g.basic_need[s]
            if kind == 1:
                return M("cannot_pay", cost=self._amounts((c0, c1, c2)))
            if kind == 2:
                return M("no_affordable_card")
            return M("no_heritage")
        if action < g.A_PYRAMID:
            pos = action - g.A_EXPLORE
            if self._layout[pos] >= 0:
                return M("explore_face_up", pos=pos + 1)
            return M("explore_taken", pos=pos + 1)
        if action == g.A_PYRAMID:
            if hand < 2:
                return M("pyramid_workers", hand=hand)
            if not self._offers:
                return M("pyramid_none")
            return M("pyramid_cannot_pay")
        # the central spaces: their own conditions, then a space with no room (what is left when they hold)
        if action == g.A_PITUK:
            if self.revealed < NUM_TILES:
                return M("pituk_not_yet")
            if self.favours == 3:
                return M("pituk_done")
            space = g.pituk_space
        elif action == g.A_START:
            if self.start == p:
                return M("start_holder")
            space = g.start_space
        else:
            if self.round <= 1:
                return M("grow_first_round")
            if hand < 2:
                return M("grow_workers", hand=hand)
            if self.reserve[p] < 1:
                return M("grow_reserve")
            space = g.grow_space
        closed = self._why_closed(space, p)
        if closed is not None and closed.id == "nakum.space_full_one" and space != g.grow_space:
            # one worker there, another player's: name them and what they hold
            q = self._occ[space].bit_length() - 1
            closed = M("pituk_taken" if space == g.pituk_space else "start_taken", player=q + 1, seat=q)
        return closed if closed is not None else CORE("not_legal", action=g.texts[action])

    def _why_closed(self, space: int, p: int) -> Message | None:
        """Why ``space`` takes no worker of ``p`` (theirs is there, or it is full); None if it takes one."""
        o = self._occ[space]
        if o >> p & 1:
            return M("space_yours")
        if o and (self.game.cap[space] == 1 or _POP[o] >= 2):
            return M("space_full_one" if self.game.cap[space] == 1 else "space_full_two")
        return None

    def _why_not_option(self, action: int, p: int) -> Message:
        g = self.game
        t, k = divmod(action - g.A_OPTION, MAX_OPTIONS)
        name = g.tiles[self.ctx].name
        if t != self.ctx:
            return M("camp_other", tile=name)
        if k >= len(g.tiles[t].camp):
            return M("camp_no_such_option", tile=name, count=len(g.tiles[t].camp))
        if self._cubes[t] >> k & 1:
            return M("option_covered", tile=name, option=k + 1)
        e = g.camp_effects[t][k]
        if not self._affords(e[:3], p):
            return M("cannot_pay", cost=self._amounts(e[:3]))
        if e[7] == MARKET_ACTION:
            return M("no_affordable_card")
        return M("no_heritage")

    @staticmethod
    def _amounts(values: tuple[int, ...] | list[int], points: int = 0) -> list[Message]:
        """Maize, skins and masks (then points) as a list of amount messages, leaving out the zeros."""
        out = [M(name, n=n) for name, n in zip(("maize", "skins", "masks"), values, strict=False) if n]
        if points:
            out.append(M("points", n=points))
        return out

    @staticmethod
    def _card_message(card: Any) -> Message:
        return M("card", name=card.name, id=card.id)

    def _effect_message(self, effect: Effect, end_points: int = 0, free_camp: bool = False) -> Message:
        """What an effect gives (and costs), as ``nakum.effect`` or ``nakum.effect_cost``."""
        gains = self._amounts(effect.gain[:3], effect.gain[3])
        if effect.action == MARKET_ACTION:
            gains.append(M("market_card"))
        elif effect.action == HERITAGE_ACTION:
            gains.append(M("heritage_card"))
        if free_camp:
            gains.append(M("free_camp"))
        if end_points:
            gains.append(M("end_points", n=end_points))
        if not gains:
            gains.append(M("nothing"))
        cost = self._amounts(effect.cost)
        return M("effect_cost", cost=cost, gains=gains) if cost else M("effect", gains=gains)

    # ------------------------------------------------------ what a move did
    def _describe(self, action: int, player: int, audience: int | None) -> Message:
        """What the legal ``action`` does (see :meth:`State.describe_action`); a dealt card is named to its owner."""
        g = self.game
        c = g.content
        if player == CHANCE:
            head = self.draws[0]
            if head < NUM_TILES:
                return M("chance_tile", tile=c.tiles[action].name, pos=head + 1)
            if head == DRAW_MARKET:
                return M("chance_market", card=self._card_message(c.market[action]))
            if head == DRAW_OFFERING:
                return M("chance_offering", card=self._card_message(c.offerings[action]))
            q = head - DRAW_DEAL
            if audience == q:
                return M("chance_deal", player=q + 1, seat=q, card=self._card_message(c.heritage[action]))
            return M("chance_deal_hidden", player=q + 1, seat=q)
        if action == 0:
            return M("pass")
        if action < g.A_CAMP:
            s = action - g.A_BASIC
            tile = c.tiles[g.basic_tile[s]]
            effect = self._effect_message(tile.basics[g.basic_num[s]].effect)
            return M("basic", tile=tile.name, number=g.basic_num[s] + 1, effect=effect)
        if action < g.A_EXPLORE:
            return M("camp", tile=c.tiles[action - g.A_CAMP].name)
        if action < g.A_PYRAMID:
            return M("explore", pos=action - g.A_EXPLORE + 1)
        if action < g.A_OPTION:
            key = ("pyramid", "pituk", "start", "grow")[action - g.A_PYRAMID]
            return M(key)
        if action < g.A_BUY:
            t, k = divmod(action - g.A_OPTION, MAX_OPTIONS)
            return M("option", tile=c.tiles[t].name, option=k + 1, effect=self._effect_message(c.tiles[t].camp[k]))
        if action < g.A_OFFER:
            card = c.market[action - g.A_BUY]
            effect = self._effect_message(card.effect, card.end_points, card.free_camp)
            return M("buy", card=self._card_message(card), effect=effect)
        if action < g.A_HERITAGE:
            o = c.offerings[action - g.A_OFFER]
            cost = self._amounts(o.cost) or [M("nothing")]
            made = self._card_message(o)
            if o.sacrifice:
                return M("offer_sacrifice", card=made, cost=cost, sacrifice=o.sacrifice, points=o.points)
            return M("offer", card=made, cost=cost, points=o.points)
        if action < g.A_FAVOUR:
            h = c.heritage[action - g.A_HERITAGE]
            return M("heritage", card=self._card_message(h), effect=self._effect_message(h.effect, h.end_points,
                                                                                         h.free_camp))  # fmt: skip
        if action < g.A_FREE:
            return M("favour_market" if action == g.A_FAVOUR else "favour_offerings")
        if action < g.A_REVEAL:
            t, k = divmod(action - g.A_FREE, MAX_OPTIONS)
            return M("free", tile=c.tiles[t].name, option=k + 1)
        return M("reveal", pos=action - g.A_REVEAL + 1)

    # ------------------------------------------------------------------ text
    def _draw_kind(self) -> str:
        """What the chance node draws, as its texts begin: tile, market, offering or deal."""
        head = self.draws[0] if self.draws else DRAW_MARKET
        if head < NUM_TILES:
            return "tile"
        return "market" if head == DRAW_MARKET else "offering" if head == DRAW_OFFERING else "deal"

    def _action_text(self, action: int, player: int) -> str:
        g = self.game
        if player == CHANCE:
            c = g.content
            kind = self._draw_kind()
            if kind == "tile":
                return f"tile {c.tiles[action].key}"
            if kind == "market":
                return f"market {c.market[action].id}"
            if kind == "offering":
                return f"offering {c.offerings[action].id}"
            return f"deal {c.heritage[action].id}"
        return g.texts[action]

    def _parse(self, text: str, player: int) -> int:
        g = self.game
        words = text.split()
        if player == CHANCE:
            if len(words) == 2:
                kind, name = words
                table: dict[str, int] | None = {
                    "tile": g.tile_index,
                    "market": g.market_ids,
                    "offering": g.offer_ids,
                    "deal": g.heritage_ids,
                }.get(kind)
                if table is not None and name in table:
                    now = self._draw_kind()
                    if kind != now:
                        # the outcome ids of every draw start at 0: market m6 is not offering o6
                        what = {"tile": "a tile", "market": "a market card", "offering": "an offering",
                                "deal": "a heritage card"}  # fmt: skip
                        raise IllegalActionError(f"chance draws {what[now]} now, not {what[kind]}")
                    return table[name]
            raise ParseActionError(f"{text!r} is not a chance outcome (tile KEY, market ID, offering ID, deal ID)")
        action = g.text_ids.get(text)
        if action is not None:
            return action
        if len(words) == 3 and words[0] == "place" and words[2] == "basic" and words[1] in g.tile_index:
            # "place maizal basic" for a tile with two basic spaces: the one open to you, if only one is
            ids = [g.A_BASIC + s for s in g.tile_basics[g.tile_index[words[1]]]]
            legal = [a for a in ids if a in self.legal_actions(player)]
            if len(legal) == 1:
                return legal[0]
            raise IllegalActionError(M("two_basics", tile=g.tiles[g.tile_index[words[1]]].name, text=text))
        if (
            len(words) > 1
            and words[0] in ("place", "camp", "free")
            and words[1] not in g.tile_index
            and not (words[0] == "place" and words[1] in CENTRAL)
        ):
            keys = ", ".join(t.key for t in g.tiles)
            raise ParseActionError(f"there is no tile {words[1]!r} (tiles: {keys})")
        raise ParseActionError(
            f"{text!r} is not a Nakum action (try: place maizal basic 1, place cazador camp, camp cazador 2, "
            "explore 3, place pyramid, offer o1, buy m3, heritage h2, place pituk, pituk market, "
            "place start, place grow, free maizal 1, reveal 2, pass)"
        )

    # ----------------------------------------------------------------- state
    def _copy(self) -> NakumState:
        new = NakumState.__new__(NakumState)
        new.game = self.game
        new.phase = self.phase
        new.to_move = self.to_move
        new.round = self.round
        new.start = self.start
        new.draws = self.draws.copy()
        new.reveals_left = self.reveals_left
        new.ctx = self.ctx
        new._layout = self._layout.copy()
        new.tile_pos = self.tile_pos.copy()
        new.revealed = self.revealed
        new._explorer = self._explorer.copy()
        new._occ = self._occ.copy()
        new.pyramid = self.pyramid.copy()
        new._cubes = self._cubes.copy()
        new.favours = self.favours
        new._market = self._market.copy()
        new.market_deck = self.market_deck.copy()
        new._offers = self._offers.copy()
        new._offer_cards = self._offer_cards
        new.offer_deck = self.offer_deck.copy()
        new.offer_discard = self.offer_discard.copy()
        # the players' card lists are shared with the copy: a move never changes one in place,
        # it puts a new list in the player's place (so a copy for search costs four short lists)
        new.hands = self.hands.copy()
        new.choice = self.choice.copy()
        new.box = self.box.copy()
        new.res = self.res.copy()
        new.tokens = self.tokens.copy()
        new.workers = self.workers.copy()
        new.hand = self.hand.copy()
        new.reserve = self.reserve.copy()
        new.sacrificed = self.sacrificed.copy()
        new.bought = self.bought.copy()
        new.played = self.played.copy()
        new.made = self.made.copy()
        new.first_offer = self.first_offer.copy()
        new.offer_count = self.offer_count
        new.end_triggered = self.end_triggered
        new.passes = self.passes
        new._full = self._full
        new._mine = self._mine.copy()
        new._active = self._active
        new._on_board = self._on_board
        new._explorable = self._explorable
        new._free_camps = self._free_camps
        new._stale = self._stale
        new._market_cards = self._market_cards
        return new

    def _resample(self, player: int, rng: random.Random) -> NakumState:
        """Redeal what ``player`` can't see: the other players' heritage hands (and hidden setup choices).

        Tiles and decks hold nothing to redraw: a face-down tile is only decided
        when revealed, and the decks are unordered sets known to everyone.
        """
        new = self._copy()
        others = [q for q in range(self.game.num_players) if q != player]
        pool = self.box.copy()
        for q in others:
            pool += self.hands[q]
            if self.choice[q] >= 0:
                pool.append(self.choice[q])
        rng.shuffle(pool)
        for q in others:
            k = len(self.hands[q])
            new.hands[q] = sorted(pool[:k])
            del pool[:k]
            if self.choice[q] >= 0:
                new.choice[q] = pool.pop()
        new.box = sorted(pool)
        return new

    def _dump(self) -> dict[str, Any]:
        return {
            "phase": PHASE_NAMES[self.phase],
            "to_move": self.to_move,
            "round": self.round,
            "start": self.start,
            "draws": list(self.draws),
            "reveals_left": self.reveals_left,
            "ctx": self.ctx,
            "layout": list(self._layout),
            "explorer": list(self._explorer),
            "occ": list(self._occ),
            "pyramid": list(self.pyramid),
            "cubes": list(self._cubes),
            "favours": self.favours,
            "market": list(self._market),
            "market_deck": sorted(self.market_deck),
            "offers": list(self._offers),
            "offer_deck": sorted(self.offer_deck),
            "offer_discard": list(self.offer_discard),
            "hands": [sorted(h) for h in self.hands],
            "choice": list(self.choice),
            "box": sorted(self.box),
            "res": list(self.res),
            "tokens": list(self.tokens),
            "workers": list(self.workers),
            "hand": list(self.hand),
            "reserve": list(self.reserve),
            "sacrificed": list(self.sacrificed),
            "bought": [list(x) for x in self.bought],
            "played": [list(x) for x in self.played],
            "made": [list(x) for x in self.made],
            "first_offer": list(self.first_offer),
            "offer_count": self.offer_count,
            "end_triggered": self.end_triggered,
            "passes": self.passes,
        }

    def _load(self, data: Mapping[str, Any]) -> None:
        g = self.game
        n = g.num_players
        c = g.content
        if not isinstance(data, Mapping):
            raise RecordError("saved Nakum state is not an object")

        def ints(name: str, length: int | None = None, lo: int = -1, hi: int = 10**6) -> list[int]:
            value = data[name]
            if not isinstance(value, list) or (length is not None and len(value) != length):
                raise RecordError(
                    f"saved Nakum state field {name!r} is not a list" + (f" of {length}" if length else "")
                )
            out = []
            for v in value:
                if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
                    raise RecordError(f"saved Nakum state field {name!r} holds an impossible value {v!r}")
                out.append(v)
            return out

        def lists(name: str, hi: int) -> list[list[int]]:
            value = data[name]
            if not isinstance(value, list) or len(value) != n:
                raise RecordError(f"saved Nakum state field {name!r} is not a list of {n}")
            out = []
            for v in value:
                if not isinstance(v, list) or not all(
                    isinstance(x, int) and not isinstance(x, bool) and 0 <= x < hi for x in v
                ):
                    raise RecordError(f"saved Nakum state field {name!r} holds an impossible card list")
                out.append(list(v))
            return out

        def one(name: str, lo: int, hi: int) -> int:
            v = data[name]
            if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
                raise RecordError(f"saved Nakum state field {name!r} holds an impossible value {v!r}")
            return v

        if data.get("phase") not in PHASE_NAMES:
            raise RecordError(f"unknown phase {data.get('phase')!r}")
        self.phase = PHASE_NAMES.index(data["phase"])
        self.to_move = one("to_move", 0, n - 1)
        self.round = one("round", 0, g.max_rounds)
        self.start = one("start", 0, n - 1)
        self.draws = ints("draws", None, 0, DRAW_DEAL + n - 1)
        self.reveals_left = one("reveals_left", 0, 2)
        self.ctx = one("ctx", -1, NUM_TILES - 1)
        self._layout = ints("layout", NUM_TILES, -1, NUM_TILES - 1)
        self._explorer = ints("explorer", NUM_TILES, -1, n - 1)
        self._occ = ints("occ", g.num_spaces, 0, (1 << n) - 1)
        self.pyramid = ints("pyramid", n, 0, 8)
        self._cubes = ints("cubes", NUM_TILES, 0, (1 << MAX_OPTIONS) - 1)
        self.favours = one("favours", 0, 3)
        nm, no, nh = len(c.market), len(c.offerings), len(c.heritage)
        self._market = ints("market", None, 0, nm - 1)
        self.market_deck = ints("market_deck", None, 0, nm - 1)
        self._offers = ints("offers", None, 0, no - 1)
        self.offer_deck = ints("offer_deck", None, 0, no - 1)
        self.offer_discard = ints("offer_discard", None, 0, no - 1)
        self.hands = lists("hands", nh)
        self.choice = ints("choice", n, -1, nh - 1)
        self.box = ints("box", None, 0, nh - 1)
        self.res = ints("res", 3 * n, 0, 99)
        self.tokens = ints("tokens", n, 0, 10**4)
        self.workers = ints("workers", n, 0, g.all_workers)
        self.hand = ints("hand", n, 0, g.all_workers)
        self.reserve = ints("reserve", n, 0, g.all_workers)
        self.sacrificed = ints("sacrificed", n, 0, g.all_workers)
        self.bought = lists("bought", nm)
        self.played = lists("played", nh)
        self.made = lists("made", no)
        self.first_offer = ints("first_offer", n, -1, no)
        self.offer_count = one("offer_count", 0, no)
        if not isinstance(data["end_triggered"], bool):
            raise RecordError("saved Nakum state field 'end_triggered' is not true or false")
        self.end_triggered = data["end_triggered"]
        self.passes = one("passes", 0, n)
        # consistency: every card and tile accounted for once
        tiles = [t for t in self._layout if t >= 0]
        if len(set(tiles)) != len(tiles):
            raise RecordError("saved Nakum state shows a tile twice")
        self.tile_pos = [-1] * NUM_TILES
        for pos, t in enumerate(self._layout):
            if t >= 0:
                self.tile_pos[t] = pos
        self.revealed = len(tiles)
        market = self._market + self.market_deck + [x for b in self.bought for x in b]
        if sorted(market) != list(range(nm)):
            raise RecordError("saved Nakum state does not account for every market card exactly once")
        offers = self._offers + self.offer_deck + self.offer_discard + [x for m in self.made for x in m]
        if sorted(offers) != list(range(no)):
            raise RecordError("saved Nakum state does not account for every offering exactly once")
        heritage = self.box + [x for h in self.hands for x in h] + [x for p in self.played for x in p]
        heritage += [x for x in self.choice if x >= 0]
        if sorted(heritage) != list(range(nh)):
            raise RecordError("saved Nakum state does not account for every heritage card exactly once")
        for p in range(n):
            self.hands[p].sort()
            total = self.workers[p] + self.reserve[p] + self.sacrificed[p]
            if total != g.all_workers or self.hand[p] > self.workers[p]:
                raise RecordError(f"saved Nakum state has an impossible number of workers for player {p + 1}")
            for i, lim in enumerate(g.limits):
                if self.res[3 * p + i] > lim:
                    raise RecordError(f"saved Nakum state stores more than the family card allows for player {p + 1}")
        if len(self._market) > self.game.market_size or len(self._offers) > self.game.offerings_size:
            raise RecordError("saved Nakum state has too many face-up cards")
        if self.phase == CAMP and self.ctx < 0:
            raise RecordError("saved Nakum state is using a camp of no tile")
        for t in range(NUM_TILES):
            if self._cubes[t] & ~g.camp_full[t]:
                raise RecordError("saved Nakum state has a black cube on a camp option that does not exist")
        if not self.draws and self.phase == DAWN:
            raise RecordError("saved Nakum state is waiting for a dawn that has nothing to wait for")
        self._survey()

    # ------------------------------------------------------------------ view
    def view(self, player: int | None = None) -> dict[str, Any]:
        """What ``player`` sees (``None``: a spectator).

        Public: the board (face-up tiles, who is where, black cubes), the market
        and the offerings, deck sizes, every player's resources, workers, points,
        cards bought, heritage cards played and offerings made. Private: each
        player's heritage hand (shown to its owner only; others see how many) and,
        at setup, the card each has chosen before all are in.
        """
        g = self.game
        c = g.content
        n = g.num_players
        occ = self._occ

        def who(mask: int) -> list[int]:
            return [q for q in range(n) if mask >> q & 1]

        tiles: list[dict[str, Any]] = []
        for pos in range(NUM_TILES):
            t = self._layout[pos]
            if t < 0:
                tiles.append(
                    {
                        "position": pos + 1,
                        "tile": None,
                        "explorer": self._explorer[pos] if self._explorer[pos] >= 0 else None,
                    }
                )
                continue
            tile = c.tiles[t]
            basics = [
                {"number": j + 1, "text": tile.basics[j].effect.text(), "double": tile.basics[j].double,
                 "capacity": g.cap[s], "workers": who(occ[s])}
                for j, s in enumerate(g.tile_basics[t])
            ]  # fmt: skip
            options = [
                {"number": k + 1, "text": e.text(), "covered": bool(self._cubes[t] >> k & 1)}
                for k, e in enumerate(tile.camp)
            ]
            tiles.append({
                "position": pos + 1,
                "tile": tile.key,
                "name": tile.name,
                "basics": basics,
                "camp": {
                    "options": options,
                    "workers": who(occ[g.camp_space[t]]),
                    "capacity": g.cap[g.camp_space[t]],
                    "active": any(occ[s] for s in g.tile_basics[t]),
                    "exhausted": self._cubes[t] == g.camp_full[t],
                },
            })  # fmt: skip
        players = []
        for p in range(n):
            b = 3 * p
            entry: dict[str, Any] = {
                "maize": self.res[b],
                "skins": self.res[b + 1],
                "masks": self.res[b + 2],
                "points": self.tokens[p],
                "workers": self.workers[p],
                "in_hand": self.hand[p],
                "reserve": self.reserve[p],
                "sacrificed": self.sacrificed[p],
                "offerings": [c.offerings[x].id for x in self.made[p]],
                "market_cards": [c.market[x].id for x in self.bought[p]],
                "heritage_played": [c.heritage[x].id for x in self.played[p]],
                "heritage_in_hand": len(self.hands[p]) + (1 if self.choice[p] >= 0 else 0),
                "has_chosen": self.choice[p] >= 0,
                "first_offering": self.first_offer[p] if self.first_offer[p] >= 0 else None,
            }
            if p == player:
                entry["heritage_hand"] = [c.heritage[x].to_json() for x in self.hands[p]]
                entry["heritage_choice"] = c.heritage[self.choice[p]].id if self.choice[p] >= 0 else None
            players.append(entry)
        cur = self.current_player()
        out: dict[str, Any] = {
            "game": "nakum",
            "player": player,
            "players": n,
            "round": self.round,
            "max_rounds": g.max_rounds,
            "phase": PHASE_NAMES[self.phase],
            "to_move": list(self.players_to_move()) if cur == SIMULTANEOUS else (cur if cur >= 0 else None),
            "start_player": self.start,
            "camp_in_use": c.tiles[self.ctx].key if self.phase == CAMP else None,
            "tiles": tiles,
            "pyramid": list(self.pyramid),
            "pituk": {
                "available": self.revealed == NUM_TILES,
                "used": [bool(self.favours >> f & 1) for f in range(len(FAVOURS))],
                "workers": who(occ[g.pituk_space]),
            },
            "start_space": who(occ[g.start_space]),
            "grow_space": who(occ[g.grow_space]),
            "market": [c.market[x].to_json() for x in self._market],
            "market_size": g.market_size,
            "market_deck": len(self.market_deck),
            "offerings": [c.offerings[x].to_json() for x in self._offers],
            "offerings_size": g.offerings_size,
            "offering_deck": len(self.offer_deck),
            "offerings_discarded": [c.offerings[x].id for x in self.offer_discard],
            "heritage_unseen": len(self.box),
            "limits": dict(zip(("maize", "skins", "masks"), g.limits, strict=True)),
            "per_point": dict(zip(("maize", "skins", "masks"), g.per_point, strict=True)),
            "players_info": players,
            "end_triggered": self.end_triggered,
        }
        if self.phase == OVER:
            out["end"] = self._end_reason().to_json()
            out["scores"] = list(self._scores())
            out["ranks"] = list(self.outcome().ranks)
        return out

    # --------------------------------------------------------------- scoring
    def score_parts(self, p: int) -> dict[str, int]:
        """A player's final score, part by part."""
        offerings, cards, tokens, storage = self.score_terms(p)
        return {"offerings": offerings, "cards": cards, "tokens": tokens, "storage": storage}

    def score_terms(self, p: int) -> tuple[int, int, int, int]:
        """:meth:`score_parts` as a tuple (offerings, cards, tokens, storage): for evaluations in search."""
        g = self.game
        b = 3 * p
        per = g.per_point
        res = self.res
        storage = res[b] // per[0] + res[b + 1] // per[1] + res[b + 2] // per[2]
        points = g.offer_points
        offerings = 0
        for x in self.made[p]:
            offerings += points[x]
        cards = 0
        points = g.card_points
        for x in self.bought[p]:
            cards += points[x]
        points = g.heritage_points
        for x in self.played[p]:
            cards += points[x]
        return offerings, cards, self.tokens[p], storage

    def _scores(self) -> tuple[float, ...]:
        return tuple(float(sum(self.score_terms(p))) for p in range(self.game.num_players))

    def _end_reason(self) -> EndReason:
        # a second offering in the last round the limit allows is still the rulebook's end
        return ENDS[END_SECOND_OFFERING if self.end_triggered else END_ROUND_LIMIT]

    def _rank_keys(self) -> list[tuple[float, ...]]:
        """Score; then most point tokens; then most masks; then whoever made an offering first."""
        scores = self._scores()
        keys: list[tuple[float, ...]] = []
        for p in range(self.game.num_players):
            first = self.first_offer[p]
            keys.append(
                (scores[p], float(self.tokens[p]), float(self.res[3 * p + 2]), -float(first) if first >= 0 else -1e9)
            )
        return keys

    # ----------------------------------------------------- score breakdown
    def _score_breakdown(self, audience: int | None) -> ScoreBreakdown:
        """Per player: each offering, each card's end points, the point tokens, and each stored resource.

        The terms are :meth:`score_terms` item by item (storage resource by
        resource, each rounded down). Before the end it is the score so far;
        everything in it is public (a heritage card scores only once played).
        """
        g = self.game
        c = g.content
        per = g.per_point
        players = []
        for p in range(g.num_players):
            terms = []
            for x in self.made[p]:
                label = M("score_offering", card=self._card_message(c.offerings[x]))
                terms.append(ScoreTerm(label, float(g.offer_points[x])))
            for x in self.bought[p]:
                if g.card_points[x]:
                    label = M("score_market", card=self._card_message(c.market[x]))
                    terms.append(ScoreTerm(label, float(g.card_points[x])))
            for x in self.played[p]:
                if g.heritage_points[x]:
                    label = M("score_heritage", card=self._card_message(c.heritage[x]))
                    terms.append(ScoreTerm(label, float(g.heritage_points[x])))
            if self.tokens[p]:
                terms.append(ScoreTerm(M("score_tokens", count=self.tokens[p]), float(self.tokens[p])))
            for i, key in enumerate(("score_maize", "score_skins", "score_masks")):
                n = self.res[3 * p + i]
                if n:
                    terms.append(ScoreTerm(M(key, count=n, per=per[i]), float(n // per[i])))
            players.append(PlayerScore.of(p, terms))
        return ScoreBreakdown(self.phase == OVER, tuple(players), (M("note_ties"),))
