"""Lucent compiled (numba): random batches and stepped environments (the ``fast`` extra).

The same rules as :mod:`ziggurat.games.lucent.rules`, which stays the
reference: the setup (with ``wildcards`` gems removed unseen and the Wildcards
shuffled in; with ``geomancers`` one Geomancer in each hand first), the deal
one card at a time from seat 1 (with 2 or 4 players the last card is the Focus
Gem; with ``geomancer-focus`` a Geomancer is the Focus Gem before the deal and
that last card is set aside instead), then turns: the first card is the Focus Gem unless dealt, a base card
goes next to the base, an upper card needs both supports and a colour of one of
them (Wildcards and Geomancers are any colour, placed or supporting); a player
who can't play is out, one without cards skipped, and the game ends when nobody
can play. Scores: 1 for the last placer, and with ``points`` 1 per emptied hand
and 1 for ending on a Geomancer. Every player chooses uniformly among the
legal plays. Action ids (``kind * 45 + slot``) and chance ids (cards) are the
engine's. Written as the step functions of :mod:`ziggurat.core.loops`;
:func:`_encode` writes exactly :func:`ziggurat.games.lucent.encode.tensor` of a
seat's view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ziggurat.core import loops
from ziggurat.core.jit import competition_ranks, jit, jit_inline, jit_leaf
from ziggurat.core.kernel import GameKernel, StepKernel
from ziggurat.core.loops import ACTOR, LEGAL, NLEGAL, RANKS, SCORES, TERMINAL, draw, finish
from ziggurat.games.lucent.encode import tensor_size
from ziggurat.games.lucent.rules import ABOVE, FOCUS, NUM_SLOTS, SUPPORTS, WIDTH

if TYPE_CHECKING:
    from ziggurat.core.game import Game

CHANCE = -1

# cfg fields
_P, _KINDS, _WILD, _GEO, _REMOVALS, _FOCUS_DEALT, _GEOMANCERS, _POINTS, _MAX_LEN, _GEO_FOCUS, _SET_ASIDE = range(11)
_WILDCARDS, _OBS, _ACTIONS, _LAST_PTS, _ALL_PTS, _GEO_PTS = range(11, 17)

Config = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]

SUPPORTS_T = np.asarray(SUPPORTS, np.int32)
ABOVE_T = np.full((NUM_SLOTS, 2, 2), -1, np.int32)  # [slot, i] = (slot above, its other support)
for _s, _pairs in enumerate(ABOVE):
    for _i, (_above, _other) in enumerate(_pairs):
        ABOVE_T[_s, _i, 0] = _above
        ABOVE_T[_s, _i, 1] = _other


def unsupported(game: Game) -> str | None:
    """Every Lucent option, variant and parameter is played by the kernel."""
    return None


def prepare(game: Game) -> Config:
    """The kernel's configuration of a :class:`~ziggurat.games.lucent.rules.LucentGame`."""
    g: Any = game
    cfg = np.zeros(17, np.int64)
    cfg[_P] = g.num_players
    cfg[_KINDS] = g.num_kinds
    cfg[_WILD] = g.wild
    cfg[_GEO] = g.geo
    cfg[_REMOVALS] = g.removals
    cfg[_FOCUS_DEALT] = int(g.focus_from_deal)
    cfg[_GEOMANCERS] = int(g.geomancers)
    cfg[_POINTS] = int(g.points)
    cfg[_MAX_LEN] = g.max_game_length
    cfg[_GEO_FOCUS] = int(g.geo_focus)
    cfg[_SET_ASIDE] = int(g.set_aside)
    cfg[_WILDCARDS] = int(g.wildcards)
    cfg[_OBS] = tensor_size(game)
    cfg[_ACTIONS] = g.num_actions
    cfg[_LAST_PTS] = g.last_points
    cfg[_ALL_PTS] = g.all_played_points
    cfg[_GEO_PTS] = g.geomancer_points
    card_kind = np.asarray(g.card_kind, np.int32)
    gems = np.asarray(g.gem_indices, np.int32)
    wilds = np.asarray(g.wild_indices, np.int32)
    allow = np.asarray(g.allow_pair, np.int64)
    return cfg, card_kind, gems, wilds, allow, SUPPORTS_T, ABOVE_T


@jit_inline
def _plays(
    q: int,
    have: np.ndarray,
    nkinds: int,
    lo: int,
    hi: int,
    pyr: np.ndarray,
    upper: np.ndarray,
    nupper: int,
    allow: np.ndarray,
    supports: np.ndarray,
    all_mask: np.int64,
    slots: np.ndarray,
    masks: np.ndarray,
    out: np.ndarray,
) -> int:
    """Write ``q``'s legal plays into ``out``; return how many."""
    h = have[q]
    n = 0
    if h == 0:
        return 0
    if lo < 0:
        for k in range(nkinds):
            if (h >> k) & 1:
                out[n] = k * NUM_SLOTS + FOCUS
                n += 1
        return n
    ns = _open(lo, hi, pyr, upper, nupper, allow, supports, nkinds, all_mask, slots, masks)
    for k in range(nkinds):
        if (h >> k) & 1:
            for i in range(ns):
                if (masks[i] >> k) & 1:
                    out[n] = k * NUM_SLOTS + slots[i]
                    n += 1
    return n


@jit_inline
def _open(
    lo: int,
    hi: int,
    pyr: np.ndarray,
    upper: np.ndarray,
    nupper: int,
    allow: np.ndarray,
    supports: np.ndarray,
    nkinds: int,
    all_mask: np.int64,
    slots: np.ndarray,
    masks: np.ndarray,
) -> int:
    """The open slots once the Focus Gem is down, each with the kinds that may go there; how many."""
    ns = 0
    if lo > 0:
        slots[ns] = lo - 1
        masks[ns] = all_mask
        ns += 1
    if hi < WIDTH - 1:
        slots[ns] = hi + 1
        masks[ns] = all_mask
        ns += 1
    for i in range(nupper):
        s = upper[i]
        slots[ns] = s
        masks[ns] = allow[pyr[supports[s, 0]] * nkinds + pyr[supports[s, 1]]]
        ns += 1
    return ns


# the arrays of the batch (gs)
_HANDS, _SIZES, _HAVE, _OUT, _LAST_KIND, _PYR, _UPPER, _SLOTS, _MASKS, _DECK, _SC = range(11)
# a game's scalars (gs[_SC])
_LO, _HI, _NUPPER, _LAST_PLACER, _START = range(5)


@jit
def _dims(conf: Config) -> tuple[int, int, int, int, int, int]:
    """(players, legal capacity, observation size, action ids, chance events per step, outcomes per step)."""
    cfg, gems, wilds = conf[0], conf[2], conf[3]
    cards = gems.shape[0] + wilds.shape[0]
    return cfg[_P], cfg[_KINDS] * NUM_SLOTS, cfg[_OBS], cfg[_ACTIONS], cards + 1, (cards + 1) * cards


@jit
def _new(conf: Config, count: int) -> tuple[Any, ...]:
    cfg, gems, wilds = conf[0], conf[2], conf[3]
    p = cfg[_P]
    return (
        np.zeros((count, p, cfg[_KINDS]), np.int32),
        np.zeros((count, p), np.int32),
        np.zeros((count, p), np.int64),
        np.zeros((count, p), np.bool_),
        np.full((count, p), -1, np.int32),
        np.full((count, NUM_SLOTS), -1, np.int32),
        np.zeros((count, NUM_SLOTS), np.int32),
        np.zeros((count, NUM_SLOTS), np.int32),
        np.zeros((count, NUM_SLOTS), np.int64),
        np.zeros((count, gems.shape[0] + wilds.shape[0]), np.int32),
        np.zeros((count, 5), np.int32),
    )


@jit_leaf
def _advance(conf: Config, core: Any, gs: Any, i: int) -> None:
    """The turn goes to the next player from ``start`` who can play; the rest go out or are skipped."""
    cfg, allow, supports = conf[0], conf[4], conf[5]
    nplayers = cfg[_P]
    nkinds = cfg[_KINDS]
    all_mask = np.int64((1 << nkinds) - 1)
    sc = gs[_SC][i]
    out = gs[_OUT][i]
    sizes = gs[_SIZES][i]
    for t in range(nplayers):
        q = (sc[_START] + t) % nplayers
        if out[q] or sizes[q] == 0:
            continue
        n = _plays(
            q, gs[_HAVE][i], nkinds, sc[_LO], sc[_HI], gs[_PYR][i], gs[_UPPER][i], sc[_NUPPER],
            allow, supports, all_mask, gs[_SLOTS][i], gs[_MASKS][i], core[LEGAL][i],
        )  # fmt: skip
        if n > 0:
            core[ACTOR][i] = q
            core[NLEGAL][i] = n
            return
        out[q] = True
    # nobody can play: the game is over. Scores: the last placer; with points, emptied hands and a Geomancer last
    scores = core[SCORES][i]
    last_kind = gs[_LAST_KIND][i]
    for q in range(nplayers):
        scores[q] = 0.0
    if sc[_LAST_PLACER] >= 0:
        scores[sc[_LAST_PLACER]] += cfg[_LAST_PTS]
    if cfg[_POINTS]:
        for q in range(nplayers):
            if sizes[q] == 0:
                scores[q] += cfg[_ALL_PTS]
            if cfg[_GEOMANCERS] and last_kind[q] == cfg[_GEO]:
                scores[q] += cfg[_GEO_PTS]
    competition_ranks(scores, core[RANKS][i])
    finish(core, i, 0)


@jit_leaf
def _reset(conf: Config, core: Any, gs: Any, i: int) -> None:
    """The setup (gems removed unseen with wildcards; a Geomancer in each hand) and the deal from seat 1."""
    cfg, card_kind, gems, wilds = conf[0], conf[1], conf[2], conf[3]
    nplayers = cfg[_P]
    nkinds = cfg[_KINDS]
    geo = cfg[_GEO]
    hands = gs[_HANDS][i]
    sizes = gs[_SIZES][i]
    have = gs[_HAVE][i]
    pyr = gs[_PYR][i]
    deck = gs[_DECK][i]
    sc = gs[_SC][i]
    for q in range(nplayers):
        for k in range(nkinds):
            hands[q, k] = 0
        sizes[q] = 0
        have[q] = 0
        gs[_OUT][i, q] = False
        gs[_LAST_KIND][i, q] = -1
    for s in range(NUM_SLOTS):
        pyr[s] = -1
    if cfg[_GEOMANCERS]:
        for q in range(nplayers):
            hands[q, geo] = 1
            sizes[q] = 1
            have[q] = np.int64(1) << geo

    # setup: gems removed unseen (wildcards), then the deal, one card at a time from seat 1
    deck_n = gems.shape[0]
    for t in range(deck_n):
        deck[t] = gems[t]
    for _ in range(cfg[_REMOVALS]):
        j = draw(core, i, deck, deck_n)
        deck_n -= 1
        deck[j] = deck[deck_n]
    for t in range(wilds.shape[0]):
        deck[deck_n] = wilds[t]
        deck_n += 1
    lo = -1
    hi = -1
    if cfg[_GEO_FOCUS]:
        pyr[FOCUS] = geo
        lo = FOCUS
        hi = FOCUS
    dealt = 0
    while deck_n > 0:
        j = draw(core, i, deck, deck_n)
        card = deck[j]
        deck_n -= 1
        deck[j] = deck[deck_n]
        kind = card_kind[card]
        if cfg[_FOCUS_DEALT] and deck_n == 0:
            pyr[FOCUS] = kind
            lo = FOCUS
            hi = FOCUS
        elif cfg[_SET_ASIDE] and deck_n == 0:
            pass  # set aside face down, out of the game
        else:
            q = dealt % nplayers
            hands[q, kind] += 1
            sizes[q] += 1
            have[q] |= np.int64(1) << kind
        dealt += 1
    sc[_LO] = lo
    sc[_HI] = hi
    sc[_NUPPER] = 0
    sc[_LAST_PLACER] = -1
    sc[_START] = 0
    _advance(conf, core, gs, i)


@jit_leaf
def _step(conf: Config, core: Any, gs: Any, i: int, j: int, action: int) -> None:
    """:func:`_step_at`, called (a batched environment's step)."""
    _step_at(conf, core, gs, i, j, action)


@jit_inline
def _step_at(conf: Config, core: Any, gs: Any, i: int, j: int, action: int) -> None:
    """The player to move plays ``action`` (kind * 45 + slot); the turn passes on."""
    cfg, above = conf[0], conf[6]
    sc = gs[_SC][i]
    pyr = gs[_PYR][i]
    upper = gs[_UPPER][i]
    player = core[ACTOR][i]
    kind = action // NUM_SLOTS
    slot = action % NUM_SLOTS
    gs[_HANDS][i, player, kind] -= 1
    if gs[_HANDS][i, player, kind] == 0:
        gs[_HAVE][i, player] &= ~(np.int64(1) << kind)
    gs[_SIZES][i, player] -= 1
    pyr[slot] = kind
    if slot < WIDTH:
        if sc[_LO] < 0:
            sc[_LO] = slot
            sc[_HI] = slot
        elif slot < sc[_LO]:
            sc[_LO] = slot
        else:
            sc[_HI] = slot
    else:
        for t in range(sc[_NUPPER]):
            if upper[t] == slot:
                sc[_NUPPER] -= 1
                upper[t] = upper[sc[_NUPPER]]
                break
    for t in range(2):
        u = above[slot, t, 0]
        if u >= 0 and pyr[above[slot, t, 1]] >= 0:
            upper[sc[_NUPPER]] = u
            sc[_NUPPER] += 1
    sc[_LAST_PLACER] = player
    gs[_LAST_KIND][i, player] = kind
    sc[_START] = (player + 1) % cfg[_P]
    _advance(conf, core, gs, i)


@jit_leaf
def _encode(conf: Config, core: Any, gs: Any, i: int, seat: int, out: np.ndarray, again: bool) -> None:
    """:func:`ziggurat.games.lucent.encode.tensor` of ``view(seat)`` (at a decision or at the end)."""
    cfg, allow, supports = conf[0], conf[4], conf[5]
    n = cfg[_P]
    k = cfg[_KINDS]
    sc = gs[_SC][i]
    pyr = gs[_PYR][i]
    out[:] = 0.0
    actor = core[ACTOR][i]
    over = actor == TERMINAL
    out[seat] = 1.0
    if not over:
        out[n + actor] = 1.0
    b = 2 * n
    for t in range(k):
        out[b + t] = min(1.0, gs[_HANDS][i, seat, t] / 10.0)
    b += k
    for q in range(n):
        out[b + q] = min(1.0, gs[_SIZES][i, q] / 25.0)
        out[b + n + q] = 1.0 if gs[_OUT][i, q] else 0.0
    b += 2 * n
    if sc[_LAST_PLACER] >= 0:
        out[b + sc[_LAST_PLACER]] = 1.0
    b += n
    for s in range(NUM_SLOTS):
        if pyr[s] >= 0:
            out[b + s * k + pyr[s]] = 1.0
    b += NUM_SLOTS * k
    if not over:
        if sc[_LO] < 0:
            for t in range(k):
                out[b + FOCUS * k + t] = 1.0
        else:
            all_mask = np.int64((1 << k) - 1)
            slots = gs[_SLOTS][i]
            masks = gs[_MASKS][i]
            ns = _open(sc[_LO], sc[_HI], pyr, gs[_UPPER][i], sc[_NUPPER], allow, supports, k, all_mask, slots, masks)
            for u in range(ns):
                for t in range(k):
                    if (masks[u] >> t) & 1:
                        out[b + slots[u] * k + t] = 1.0
    b += NUM_SLOTS * k
    out[b] = 0.0  # every card is dealt before the first decision
    out[b + 1] = min(1.0, cfg[_REMOVALS] / 5.0)
    out[b + (4 if over else 3)] = 1.0  # the phase: deal, play, over
    b += 5
    out[b] = 1.0 if cfg[_WILDCARDS] else 0.0
    out[b + 1] = 1.0 if cfg[_GEOMANCERS] else 0.0
    out[b + 2] = 1.0 if cfg[_GEO_FOCUS] else 0.0
    out[b + 3] = 1.0 if cfg[_POINTS] else 0.0


@jit_leaf
def _play_loop(conf: Config, core: Any, gs: Any, seeds: np.ndarray, out: tuple[np.ndarray, ...]) -> None:
    loops.play_loop(_reset, _step_at, conf, core, gs, seeds, out)


@jit
def _play(conf: Config, seeds: np.ndarray) -> tuple[np.ndarray, ...]:
    return loops.play(_dims, _new, _play_loop, conf, seeds)


@jit
def _trace(conf: Config, seed: np.uint64) -> tuple[Any, ...]:
    return loops.trace(_dims, _new, _reset, _step, conf, seed, conf[0][_MAX_LEN])


@jit
def _vreset(conf: Config, core: Any, gs: Any, base: np.uint64, seat: int, obs: np.ndarray, mask: np.ndarray) -> None:
    loops.vreset(_reset, _step, _encode, conf, core, gs, base, seat, obs, mask)


@jit_leaf
def _vstep(conf: Config, core: Any, gs: Any, base: np.uint64, seat: int, out: tuple[np.ndarray, ...]) -> int:
    return loops.vstep(_reset, _step_at, _encode, conf, core, gs, base, seat, out)


def play(config: Config, seeds: np.ndarray) -> tuple[np.ndarray, ...]:
    """Play one random game per seed: (scores, ranks, decisions, steps, ends); the game has one end, index 0."""
    return _play(config, np.ascontiguousarray(seeds, np.uint64))


def trace(config: Config, seed: int) -> tuple[object, ...]:
    """The game of ``seed`` step by step (see :class:`~ziggurat.core.kernel.Trace`); its one end, index 0."""
    return _trace(config, np.uint64(seed))


KERNEL = GameKernel("lucent", unsupported, prepare, play, trace, StepKernel(_dims, _new, _vreset, _vstep))
