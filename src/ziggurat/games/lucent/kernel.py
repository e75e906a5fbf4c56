"""Lucent compiled (numba) for batches of random games: the ``fast`` extra.

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
engine's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ziggurat.core.jit import below, competition_ranks, jit, record_step, seed_rng
from ziggurat.core.kernel import GameKernel
from ziggurat.games.lucent.rules import ABOVE, FOCUS, NUM_SLOTS, SUPPORTS, WIDTH

if TYPE_CHECKING:
    from ziggurat.core.game import Game

CHANCE = -1

# cfg fields
(_P, _KINDS, _WILD, _GEO, _REMOVALS, _FOCUS_DEALT, _GEOMANCERS, _POINTS, _MAX_LEN, _GEO_FOCUS, _SET_ASIDE, _LAST_PTS,
 _ALL_PTS, _GEO_PTS) = range(14)  # fmt: skip

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
    cfg = np.zeros(14, np.int64)
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
    cfg[_LAST_PTS] = g.last_points
    cfg[_ALL_PTS] = g.all_played_points
    cfg[_GEO_PTS] = g.geomancer_points
    card_kind = np.asarray(g.card_kind, np.int32)
    gems = np.asarray(g.gem_indices, np.int32)
    wilds = np.asarray(g.wild_indices, np.int32)
    allow = np.asarray(g.allow_pair, np.int64)
    return cfg, card_kind, gems, wilds, allow, SUPPORTS_T, ABOVE_T


@jit
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
    for k in range(nkinds):
        if (h >> k) & 1:
            for i in range(ns):
                if (masks[i] >> k) & 1:
                    out[n] = k * NUM_SLOTS + slots[i]
                    n += 1
    return n


@jit
def _game(
    cfg: np.ndarray,
    card_kind: np.ndarray,
    gems: np.ndarray,
    wilds: np.ndarray,
    allow: np.ndarray,
    supports: np.ndarray,
    above: np.ndarray,
    seed: np.uint64,
    scores: np.ndarray,
    ranks: np.ndarray,
    tracing: bool,
    tr_actor: np.ndarray,
    tr_action: np.ndarray,
    tr_off: np.ndarray,
    tr_legal: np.ndarray,
) -> tuple[int, int, np.ndarray]:
    """Play one game from ``seed``; fill ``scores`` and ``ranks``; return (decisions, steps, trace legal buffer)."""
    nplayers = cfg[_P]
    nkinds = cfg[_KINDS]
    geo = cfg[_GEO]
    all_mask = np.int64((1 << nkinds) - 1)
    rng = np.zeros(1, np.uint64)
    seed_rng(rng, seed)
    hands = np.zeros((nplayers, nkinds), np.int32)
    sizes = np.zeros(nplayers, np.int32)
    have = np.zeros(nplayers, np.int64)
    out = np.zeros(nplayers, np.bool_)
    last_kind = np.full(nplayers, -1, np.int32)
    pyr = np.full(NUM_SLOTS, -1, np.int32)
    upper = np.zeros(NUM_SLOTS, np.int32)
    slots = np.zeros(NUM_SLOTS, np.int32)
    masks = np.zeros(NUM_SLOTS, np.int64)
    legal = np.zeros(nkinds * NUM_SLOTS, np.int32)
    deck = np.zeros(gems.shape[0] + wilds.shape[0], np.int32)
    steps = 0
    decisions = 0
    if cfg[_GEOMANCERS]:
        for q in range(nplayers):
            hands[q, geo] = 1
            sizes[q] = 1
            have[q] = np.int64(1) << geo

    # setup: gems removed unseen (wildcards), then the deal, one card at a time from seat 1
    deck_n = gems.shape[0]
    deck[:deck_n] = gems
    for _ in range(cfg[_REMOVALS]):
        j = below(rng, deck_n)
        if tracing:
            tr_legal = record_step(tr_actor, tr_action, tr_off, tr_legal, steps, CHANCE, deck[j], deck, deck_n)
        steps += 1
        deck_n -= 1
        deck[j] = deck[deck_n]
    for i in range(wilds.shape[0]):
        deck[deck_n] = wilds[i]
        deck_n += 1
    lo = -1
    hi = -1
    if cfg[_GEO_FOCUS]:
        pyr[FOCUS] = geo
        lo = FOCUS
        hi = FOCUS
    dealt = 0
    while deck_n > 0:
        j = below(rng, deck_n)
        card = deck[j]
        if tracing:
            tr_legal = record_step(tr_actor, tr_action, tr_off, tr_legal, steps, CHANCE, card, deck, deck_n)
        steps += 1
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

    # play: from seat 1; whoever can't play is out, whoever has no card is skipped
    nupper = 0
    last_placer = -1
    start = 0
    while True:
        player = -1
        n = 0
        for i in range(nplayers):
            q = (start + i) % nplayers
            if out[q] or sizes[q] == 0:
                continue
            n = _plays(q, have, nkinds, lo, hi, pyr, upper, nupper, allow, supports, all_mask, slots, masks, legal)
            if n > 0:
                player = q
                break
            out[q] = True
        if player < 0:
            break  # nobody can play: the game is over
        action = legal[below(rng, n)]
        if tracing:
            tr_legal = record_step(tr_actor, tr_action, tr_off, tr_legal, steps, player, action, legal, n)
        steps += 1
        decisions += 1
        kind = action // NUM_SLOTS
        slot = action % NUM_SLOTS
        hands[player, kind] -= 1
        if hands[player, kind] == 0:
            have[player] &= ~(np.int64(1) << kind)
        sizes[player] -= 1
        pyr[slot] = kind
        if slot < WIDTH:
            if lo < 0:
                lo = slot
                hi = slot
            elif slot < lo:
                lo = slot
            else:
                hi = slot
        else:
            for i in range(nupper):
                if upper[i] == slot:
                    nupper -= 1
                    upper[i] = upper[nupper]
                    break
        for i in range(2):
            u = above[slot, i, 0]
            if u >= 0 and pyr[above[slot, i, 1]] >= 0:
                upper[nupper] = u
                nupper += 1
        last_placer = player
        last_kind[player] = kind
        start = (player + 1) % nplayers

    # scores: the last placer; with points, emptied hands and ending on a Geomancer
    for q in range(nplayers):
        scores[q] = 0.0
    if last_placer >= 0:
        scores[last_placer] += cfg[_LAST_PTS]
    if cfg[_POINTS]:
        for q in range(nplayers):
            if sizes[q] == 0:
                scores[q] += cfg[_ALL_PTS]
            if cfg[_GEOMANCERS] and last_kind[q] == geo:
                scores[q] += cfg[_GEO_PTS]
    competition_ranks(scores, ranks)
    return decisions, steps, tr_legal


@jit
def _play(
    cfg: np.ndarray,
    card_kind: np.ndarray,
    gems: np.ndarray,
    wilds: np.ndarray,
    allow: np.ndarray,
    supports: np.ndarray,
    above: np.ndarray,
    seeds: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    count = seeds.shape[0]
    nplayers = cfg[_P]
    scores = np.zeros((count, nplayers), np.float64)
    ranks = np.zeros((count, nplayers), np.int32)
    decisions = np.zeros(count, np.int32)
    steps = np.zeros(count, np.int32)
    dummy = np.zeros(1, np.int32)
    for g in range(count):
        d, s, _ = _game(
            cfg, card_kind, gems, wilds, allow, supports, above, seeds[g], scores[g], ranks[g],
            False, dummy, dummy, dummy, dummy,
        )  # fmt: skip
        decisions[g] = d
        steps[g] = s
    return scores, ranks, decisions, steps


@jit
def _trace(
    cfg: np.ndarray,
    card_kind: np.ndarray,
    gems: np.ndarray,
    wilds: np.ndarray,
    allow: np.ndarray,
    supports: np.ndarray,
    above: np.ndarray,
    seed: np.uint64,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    max_len = cfg[_MAX_LEN]
    tr_actor = np.zeros(max_len, np.int32)
    tr_action = np.zeros(max_len, np.int32)
    tr_off = np.zeros(max_len + 1, np.int32)
    tr_legal = np.zeros(1024, np.int32)
    scores = np.zeros(cfg[_P], np.float64)
    ranks = np.zeros(cfg[_P], np.int32)
    _, steps, tr_legal = _game(
        cfg, card_kind, gems, wilds, allow, supports, above, seed, scores, ranks,
        True, tr_actor, tr_action, tr_off, tr_legal,
    )  # fmt: skip
    return tr_actor[:steps], tr_action[:steps], tr_off[: steps + 1], tr_legal[: tr_off[steps]], scores, ranks


def play(config: Config, seeds: np.ndarray) -> tuple[np.ndarray, ...]:
    """Play one random game per seed: (scores, ranks, decisions, steps, ends); the game has one end, index 0."""
    seeds = np.ascontiguousarray(seeds, np.uint64)
    return (*_play(*config, seeds), np.zeros(seeds.shape[0], np.int8))


def trace(config: Config, seed: int) -> tuple[object, ...]:
    """The game of ``seed`` step by step (see :class:`~ziggurat.core.kernel.Trace`); its one end, index 0."""
    return (*_trace(*config, np.uint64(seed)), 0)


KERNEL = GameKernel("lucent", unsupported, prepare, play, trace)
