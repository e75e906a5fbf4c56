"""Nakum compiled (numba): random batches and stepped environments (the ``fast`` extra).

The same rules as :mod:`ziggurat.games.nakum.rules`, which stays the
reference, on the content the game was set up with (the shipped reconstruction
or a user's files: tiles, market, offerings, heritage cards, the family card),
handed to the compiled code as tables by :func:`prepare`.

Setup: two offerings, five market cards and three heritage cards a player are
drawn (chance, one card at a time, from unordered decks); everyone plays a
heritage card at the same time (a simultaneous node: the players choose in
seat order, as the engine's drivers ask them); the start player (and with 3–4
players the next one) chooses a face-down position, whose tile chance then
picks among the tiles not yet revealed. A Day: from the start player, one
placement at a time (a basic space, a camp while a worker is on a basic space
of its tile, exploring, the pyramid, Pituk, the start token, growing the clan),
each followed by its own decisions (the camp option, the market card, the
offering, the heritage card, Pituk's favour, the black cube to remove); a
player with workers but no legal space passes, and the Day ends when everyone
has placed all their workers or all who still have some passed in a row. The
Night: workers back (sacrificed ones to the reserve), explored tiles revealed,
the market refilled to five and the offerings to two. The game ends after the
Day in which someone completes a second offering, or after round
``max-rounds`` (the safeguard; the end is reported as its index in the engine's
``ENDS``). Scores: offerings, card points, point tokens and stored
resources; ties broken by point tokens, then masks, then the earlier first
offering.

Chance is the engine's queue of draws (tile reveals, market and offering
refills, the deal), skipped exactly where the engine skips them (a full market
or offering row, an empty deck). Every player chooses uniformly among the
engine's legal actions; chance draws uniformly from the pool the engine names.
Action and chance ids are the engine's.

Written as the step functions of :mod:`ziggurat.core.loops` (a step is one
decision, then the chance draws up to the next one). The setup's simultaneous
heritage choice is asked one seat at a time, lowest seat first (the engine's
``players_to_move()[0]``, as its adapters serialise it); a choice stays hidden
(the card leaves its owner's hand, the others see only that it was made) until
the last one is in. :func:`_encode` writes exactly
:func:`ziggurat.games.nakum.encode.tensor` of a seat's view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ziggurat.core import loops
from ziggurat.core.jit import jit, jit_inline, jit_leaf
from ziggurat.core.kernel import GameKernel, StepKernel
from ziggurat.core.loops import ACTOR, LEGAL, NLEGAL, ORNG, RANKS, SCORES, below_at, draw, finish
from ziggurat.games.nakum.content import HERITAGE_ACTION, MARKET_ACTION, MAX_BASICS, MAX_OPTIONS, NUM_TILES
from ziggurat.games.nakum.encode import P as SLOTS
from ziggurat.games.nakum.encode import tensor_size
from ziggurat.games.nakum.heuristic import (
    CRIPPLED,
    HAND_VALUE,
    HERITAGE_VALUE,
    OFFER_WEIGHT,
    START_VALUE,
    WORKER_VALUE,
)
from ziggurat.games.nakum.rules import (
    BUY,
    CAMP,
    DAWN,
    DAY,
    DRAW_DEAL,
    DRAW_MARKET,
    DRAW_OFFERING,
    END_ROUND_LIMIT,
    END_SECOND_OFFERING,
    FAVOUR,
    FAVOURS,
    FREE,
    HAND_SIZE,
    HERITAGE_SETUP,
    OFFER,
    OVER,
    PHASE_NAMES,
    PLAY,
    REVEAL,
)

if TYPE_CHECKING:
    from ziggurat.core.game import Game

CHANCE = -1
QUEUE = 64  # draws pending at once: a Night's 8 reveals and 7 refills, a favour's 5, the deal

# cfg fields: counts, the storage limits and resources per point (three each), then one field each
_P, _NB, _M, _O, _H = range(5)
_LIM = 5
_PER = 8
(_MAX_ROUNDS, _A_BASIC, _A_CAMP, _A_EXPLORE, _A_PYRAMID, _A_PITUK, _A_START, _A_GROW, _A_OPTION, _A_BUY, _A_OFFER,
 _A_HERITAGE, _A_FAVOUR, _A_FREE, _A_REVEAL, _PITUK, _START, _GROW, _E_CAMP, _E_MARKET, _E_HERITAGE, _MAX_LEN,
 _SPACES, _START_WORKERS, _RESERVE_WORKERS, _TO_END, _MARKET_SIZE, _OFFERS_SIZE,
 _ACTIONS, _OBS) = range(11, 41)  # fmt: skip
_CFG = 41

# effect table columns: cost (3), gain (maize, skins, masks, points), action, free a camp, end points
_COST, _GAIN, _ACTION, _FREE_CAMP, _END_POINTS = 0, 3, 7, 8, 9
# offering table columns: cost (3), sacrifice, points
_SACRIFICE, _POINTS = 3, 4

# the state vector
(S_PHASE, S_TO_MOVE, S_ROUND, S_START, S_REVEALS_LEFT, S_CTX, S_REVEALED, S_FAVOURS, S_OFFER_COUNT, S_END,
 S_PASSES, S_Q_HEAD, S_Q_LEN, S_MARKET_UP, S_MARKET_DECK, S_OFFERS_UP, S_OFFER_DECK, S_BOX) = range(18)  # fmt: skip
_STATE = 18

# per player: resources (3), then these
(P_TOKENS, P_WORKERS, P_HAND, P_RESERVE, P_SACRIFICED, P_FIRST, P_MADE, P_OFFER_POINTS, P_CARD_POINTS,
 P_CHOICE, P_PYRAMID) = range(3, 14)  # fmt: skip
_PLAYER = 14

# where a market card or offering is: in its deck, face up, gone (bought, made, discarded; who took it: its owner)
IN_DECK, UP, GONE = 0, 1, 2
# where a heritage card is (its holder): a player's hand (the seat), the box, chosen at setup (hidden until all
# are in), or played by seat p (PLAYED - p)
BOX, CHOSEN, PLAYED = -2, -1, -3

Config = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def unsupported(game: Game) -> str | None:
    """Every Nakum option, parameter and content file is played by the kernel."""
    return None


def prepare(game: Game) -> Config:
    """The kernel's configuration of a :class:`~ziggurat.games.nakum.rules.NakumGame` and its content."""
    g: Any = game
    c = g.content
    nb = g.num_basics
    cfg = np.zeros(_CFG, np.int64)
    cfg[_P] = g.num_players
    cfg[_NB] = nb
    cfg[_M] = len(c.market)
    cfg[_O] = len(c.offerings)
    cfg[_H] = len(c.heritage)
    cfg[_LIM : _LIM + 3] = g.limits
    cfg[_PER : _PER + 3] = g.per_point
    cfg[_MAX_ROUNDS] = g.max_rounds
    cfg[_START_WORKERS] = g.start_workers
    cfg[_RESERVE_WORKERS] = g.reserve_workers
    cfg[_TO_END] = g.offerings_to_end
    cfg[_MARKET_SIZE] = g.market_size
    cfg[_OFFERS_SIZE] = g.offerings_size
    cfg[_ACTIONS] = g.num_actions
    cfg[_OBS] = tensor_size(game)
    for field, value in (
        (_A_BASIC, g.A_BASIC), (_A_CAMP, g.A_CAMP), (_A_EXPLORE, g.A_EXPLORE), (_A_PYRAMID, g.A_PYRAMID),
        (_A_PITUK, g.A_PITUK), (_A_START, g.A_START), (_A_GROW, g.A_GROW), (_A_OPTION, g.A_OPTION),
        (_A_BUY, g.A_BUY), (_A_OFFER, g.A_OFFER), (_A_HERITAGE, g.A_HERITAGE), (_A_FAVOUR, g.A_FAVOUR),
        (_A_FREE, g.A_FREE), (_A_REVEAL, g.A_REVEAL), (_PITUK, g.pituk_space), (_START, g.start_space),
        (_GROW, g.grow_space), (_MAX_LEN, g.max_game_length), (_SPACES, g.num_spaces),
    ):  # fmt: skip
        cfg[field] = value
    # one table of effects: basic spaces, camp options (tile * 3 + option), market cards, heritage cards
    e_camp = nb
    e_market = e_camp + NUM_TILES * MAX_OPTIONS
    e_heritage = e_market + len(c.market)
    cfg[_E_CAMP] = e_camp
    cfg[_E_MARKET] = e_market
    cfg[_E_HERITAGE] = e_heritage
    eff = np.zeros((e_heritage + len(c.heritage), 10), np.int32)
    for s in range(nb):
        eff[s, :8] = g.basic_effect[s]
    for t in range(NUM_TILES):
        for k, e in enumerate(g.camp_effects[t]):
            eff[e_camp + t * MAX_OPTIONS + k, :8] = e
    for i in range(len(c.market)):
        eff[e_market + i, :8] = g.market_effect[i]
        eff[e_market + i, _FREE_CAMP] = int(g.market_free[i])
        eff[e_market + i, _END_POINTS] = g.card_points[i]
    for i in range(len(c.heritage)):
        eff[e_heritage + i, :8] = g.heritage_effect[i]
        eff[e_heritage + i, _FREE_CAMP] = int(g.heritage_free[i])
        eff[e_heritage + i, _END_POINTS] = g.heritage_points[i]
    offers = np.zeros((len(c.offerings), 5), np.int32)
    for i in range(len(c.offerings)):
        offers[i, :3] = g.offer_cost[i]
        offers[i, _SACRIFICE] = g.offer_sacrifice[i]
        offers[i, _POINTS] = g.offer_points[i]
    basics = np.full((NUM_TILES, 2), -1, np.int32)
    for t in range(NUM_TILES):
        basics[t, : len(g.tile_basics[t])] = g.tile_basics[t]
    options = np.asarray([len(opts) for opts in g.camp_effects], np.int32)
    cap = np.asarray(g.cap, np.int32)
    return cfg, eff, offers, basics, options, cap


@jit_inline
def _pop(mask: int) -> int:
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


@jit_inline
def _affords(pl: np.ndarray, p: int, row: np.ndarray) -> bool:
    return pl[p, 0] >= row[0] and pl[p, 1] >= row[1] and pl[p, 2] >= row[2]


@jit_leaf
def _market_ok(cfg: np.ndarray, eff: np.ndarray, mstate: np.ndarray, pl: np.ndarray, p: int) -> bool:
    """Some face-up market card is affordable for ``p``."""
    e0 = cfg[_E_MARKET]
    for c in range(cfg[_M]):  # noqa: SIM110 (numba compiles loops, not generator expressions)
        if mstate[c] == UP and _affords(pl, p, eff[e0 + c]):
            return True
    return False


@jit_leaf
def _can(
    cfg: np.ndarray, eff: np.ndarray, row: int, mstate: np.ndarray, holder: np.ndarray, pl: np.ndarray, p: int
) -> bool:
    """``p`` can take effect ``row`` now: pay its cost, and buy or play a card if it asks for one."""
    if not _affords(pl, p, eff[row]):
        return False
    action = eff[row, _ACTION]
    if action == MARKET_ACTION:
        return _market_ok(cfg, eff, mstate, pl, p)
    if action == HERITAGE_ACTION:
        for c in range(cfg[_H]):  # noqa: SIM110
            if holder[c] == p:
                return True
        return False
    return True


@jit_leaf
def _placements(
    cfg: np.ndarray,
    eff: np.ndarray,
    offers: np.ndarray,
    basics: np.ndarray,
    options: np.ndarray,
    cap: np.ndarray,
    sv: np.ndarray,
    pl: np.ndarray,
    occ: np.ndarray,
    cubes: np.ndarray,
    tile_pos: np.ndarray,
    layout: np.ndarray,
    explorer: np.ndarray,
    mstate: np.ndarray,
    ostate: np.ndarray,
    holder: np.ndarray,
    p: int,
    out: np.ndarray,
) -> int:
    """``p``'s legal worker placements into ``out`` (pass if none); how many."""
    bit = 1 << p
    n = 0
    for t in range(NUM_TILES):
        if tile_pos[t] < 0:
            continue
        active = False
        for j in range(2):
            s = basics[t, j]
            if s < 0:
                continue
            o = occ[s]
            if o:
                active = True  # a camp opens while anyone's worker is on a basic space of its tile
                if cap[s] == 1 or o & bit or _pop(o) >= 2:
                    continue
            if _can(cfg, eff, s, mstate, holder, pl, p):
                out[n] = cfg[_A_BASIC] + s
                n += 1
        full = (1 << options[t]) - 1
        if active and cubes[t] != full:
            space = cfg[_NB] + t
            o = occ[space]
            if o and (cap[space] == 1 or o & bit or _pop(o) >= 2):
                continue
            for k in range(options[t]):
                if not (cubes[t] >> k) & 1 and _can(
                    cfg, eff, cfg[_E_CAMP] + t * MAX_OPTIONS + k, mstate, holder, pl, p
                ):
                    out[n] = cfg[_A_CAMP] + t
                    n += 1
                    break
    if sv[S_REVEALED] < NUM_TILES:
        for pos in range(NUM_TILES):
            if layout[pos] < 0 and explorer[pos] < 0:
                out[n] = cfg[_A_EXPLORE] + pos
                n += 1
    hand = pl[p, P_HAND]
    if hand >= 2:
        for c in range(cfg[_O]):
            if ostate[c] == UP and _affords(pl, p, offers[c]):
                out[n] = cfg[_A_PYRAMID]
                n += 1
                break
    if sv[S_REVEALED] == NUM_TILES and sv[S_FAVOURS] != 3 and not occ[cfg[_PITUK]]:
        out[n] = cfg[_A_PITUK]
        n += 1
    if sv[S_START] != p and not occ[cfg[_START]]:
        out[n] = cfg[_A_START]
        n += 1
    grow = cfg[_GROW]
    o = occ[grow]
    open_ = not o or (cap[grow] == 2 and not o & bit and _pop(o) < 2)
    if sv[S_ROUND] > 1 and hand >= 2 and pl[p, P_RESERVE] > 0 and open_:
        out[n] = cfg[_A_GROW]
        n += 1
    if n == 0:
        out[0] = 0
        n = 1
    return n


@jit_leaf
def _legal(
    cfg: np.ndarray,
    eff: np.ndarray,
    offers: np.ndarray,
    basics: np.ndarray,
    options: np.ndarray,
    cap: np.ndarray,
    sv: np.ndarray,
    pl: np.ndarray,
    occ: np.ndarray,
    cubes: np.ndarray,
    tile_pos: np.ndarray,
    layout: np.ndarray,
    explorer: np.ndarray,
    mstate: np.ndarray,
    ostate: np.ndarray,
    holder: np.ndarray,
    p: int,
    out: np.ndarray,
) -> int:
    """``p``'s legal actions (the engine's ids) into ``out``; how many."""
    phase = sv[S_PHASE]
    n = 0
    if phase == DAY:
        return _placements(cfg, eff, offers, basics, options, cap, sv, pl, occ, cubes, tile_pos, layout, explorer,
                           mstate, ostate, holder, p, out)  # fmt: skip
    if phase == HERITAGE_SETUP or phase == PLAY:
        for c in range(cfg[_H]):
            if holder[c] == p:
                out[n] = cfg[_A_HERITAGE] + c
                n += 1
    elif phase == CAMP:
        t = sv[S_CTX]
        for k in range(options[t]):
            if not (cubes[t] >> k) & 1 and _can(cfg, eff, cfg[_E_CAMP] + t * MAX_OPTIONS + k, mstate, holder, pl, p):
                out[n] = cfg[_A_OPTION] + t * MAX_OPTIONS + k
                n += 1
    elif phase == BUY:
        for c in range(cfg[_M]):
            if mstate[c] == UP and _affords(pl, p, eff[cfg[_E_MARKET] + c]):
                out[n] = cfg[_A_BUY] + c
                n += 1
    elif phase == OFFER:
        for c in range(cfg[_O]):
            if ostate[c] == UP and _affords(pl, p, offers[c]):
                out[n] = cfg[_A_OFFER] + c
                n += 1
    elif phase == FAVOUR:
        for f in range(len(FAVOURS)):
            if not (sv[S_FAVOURS] >> f) & 1:
                out[n] = cfg[_A_FAVOUR] + f
                n += 1
    elif phase == FREE:
        for t in range(NUM_TILES):
            for k in range(MAX_OPTIONS):
                if (cubes[t] >> k) & 1:
                    out[n] = cfg[_A_FREE] + t * MAX_OPTIONS + k
                    n += 1
    elif phase == REVEAL:
        for pos in range(NUM_TILES):
            if layout[pos] < 0:
                out[n] = cfg[_A_REVEAL] + pos
                n += 1
    return n


@jit_inline
def _push(sv: np.ndarray, queue: np.ndarray, token: int) -> None:
    queue[(sv[S_Q_HEAD] + sv[S_Q_LEN]) % QUEUE] = token
    sv[S_Q_LEN] += 1


@jit_inline
def _gain(cfg: np.ndarray, eff: np.ndarray, row: int, pl: np.ndarray, p: int) -> None:
    """Pay the cost and take the gain of effect ``row``; resources beyond the storage limit are lost."""
    for r in range(3):
        pl[p, r] = min(pl[p, r] - eff[row, _COST + r] + eff[row, _GAIN + r], cfg[_LIM + r])
    pl[p, P_TOKENS] += eff[row, _GAIN + 3]


@jit_leaf
def _start_day(cfg: np.ndarray, sv: np.ndarray, pl: np.ndarray) -> None:
    """Rounds begin: every clan worker to hand; the first from the start player with a worker places."""
    n = cfg[_P]
    while True:
        sv[S_ROUND] += 1
        for q in range(n):
            pl[q, P_HAND] = pl[q, P_WORKERS]
        for i in range(n):
            q = (sv[S_START] + i) % n
            if pl[q, P_HAND] > 0:
                sv[S_PHASE] = DAY
                sv[S_TO_MOVE] = q
                sv[S_PASSES] = 0
                return
        if sv[S_ROUND] >= cfg[_MAX_ROUNDS]:  # nobody has a worker: the remaining rounds are empty
            sv[S_PHASE] = OVER
            return


@jit_leaf
def _normalize(cfg: np.ndarray, sv: np.ndarray, pl: np.ndarray, queue: np.ndarray) -> None:
    """Drop draws with nothing to do (a full row, an empty deck); start the Day once the Night's draws are done."""
    while sv[S_Q_LEN] > 0:
        head = queue[sv[S_Q_HEAD]]
        if head == DRAW_MARKET:
            if sv[S_MARKET_UP] < cfg[_MARKET_SIZE] and sv[S_MARKET_DECK] > 0:
                return
        elif head == DRAW_OFFERING:
            if sv[S_OFFERS_UP] < cfg[_OFFERS_SIZE] and sv[S_OFFER_DECK] > 0:
                return
        else:
            return
        sv[S_Q_HEAD] = (sv[S_Q_HEAD] + 1) % QUEUE
        sv[S_Q_LEN] -= 1
    if sv[S_PHASE] == DAWN:
        _start_day(cfg, sv, pl)


@jit_leaf
def _end_day(
    cfg: np.ndarray, sv: np.ndarray, pl: np.ndarray, occ: np.ndarray, explorer: np.ndarray, queue: np.ndarray
) -> None:
    """The Night (or the end: after the Day of a second offering, or of the last round)."""
    sv[S_PASSES] = 0
    if sv[S_END] or sv[S_ROUND] >= cfg[_MAX_ROUNDS]:
        sv[S_PHASE] = OVER
        sv[S_Q_LEN] = 0
        return
    for q in range(cfg[_P]):
        pl[q, P_RESERVE] += pl[q, P_SACRIFICED]
        pl[q, P_SACRIFICED] = 0
        pl[q, P_PYRAMID] = 0
    for s in range(cfg[_SPACES]):
        occ[s] = 0
    for pos in range(NUM_TILES):
        if explorer[pos] >= 0:
            explorer[pos] = -1
            _push(sv, queue, pos)
    for _ in range(cfg[_MARKET_SIZE]):
        _push(sv, queue, DRAW_MARKET)
    for _ in range(cfg[_OFFERS_SIZE]):
        _push(sv, queue, DRAW_OFFERING)
    sv[S_PHASE] = DAWN
    sv[S_TO_MOVE] = sv[S_START]
    _normalize(cfg, sv, pl, queue)


@jit_leaf
def _end_turn(
    cfg: np.ndarray, sv: np.ndarray, pl: np.ndarray, occ: np.ndarray, explorer: np.ndarray, queue: np.ndarray, p: int
) -> None:
    """The next player with workers in hand places one; if nobody has any, the Day ends."""
    sv[S_PASSES] = 0
    n = cfg[_P]
    for i in range(1, n + 1):
        q = (p + i) % n
        if pl[q, P_HAND] > 0:
            sv[S_PHASE] = DAY
            sv[S_TO_MOVE] = q
            return
    _end_day(cfg, sv, pl, occ, explorer, queue)


@jit_leaf
def _card(
    cfg: np.ndarray,
    eff: np.ndarray,
    row: int,
    sv: np.ndarray,
    pl: np.ndarray,
    occ: np.ndarray,
    cubes: np.ndarray,
    explorer: np.ndarray,
    queue: np.ndarray,
    p: int,
) -> None:
    """A market or heritage card's gain, then the black cube it frees (if any is out), or the turn ends."""
    _gain(cfg, eff, row, pl, p)
    covered = False
    for t in range(NUM_TILES):
        if cubes[t]:
            covered = True
    if eff[row, _FREE_CAMP] and covered:
        sv[S_PHASE] = FREE
    else:
        _end_turn(cfg, sv, pl, occ, explorer, queue, p)


@jit_leaf
def _effect(
    cfg: np.ndarray,
    eff: np.ndarray,
    row: int,
    sv: np.ndarray,
    pl: np.ndarray,
    occ: np.ndarray,
    explorer: np.ndarray,
    queue: np.ndarray,
    p: int,
) -> None:
    """A space's or camp option's gain, then the card it asks for, or the turn ends."""
    _gain(cfg, eff, row, pl, p)
    action = eff[row, _ACTION]
    if action == MARKET_ACTION:
        sv[S_PHASE] = BUY
    elif action == HERITAGE_ACTION:
        sv[S_PHASE] = PLAY
    else:
        _end_turn(cfg, sv, pl, occ, explorer, queue, p)


@jit_inline
def _apply_at(
    cfg: np.ndarray,
    eff: np.ndarray,
    offers: np.ndarray,
    sv: np.ndarray,
    pl: np.ndarray,
    occ: np.ndarray,
    cubes: np.ndarray,
    explorer: np.ndarray,
    mstate: np.ndarray,
    ostate: np.ndarray,
    holder: np.ndarray,
    buyer: np.ndarray,
    maker: np.ndarray,
    queue: np.ndarray,
    p: int,
    action: int,
) -> None:
    """Apply ``p``'s legal ``action`` (not the setup's heritage choice: see :func:`_choose`).

    Inlined into random play's loop (:func:`_step_at`); called as :func:`_apply` elsewhere (compiled once).
    """
    n = cfg[_P]
    phase = sv[S_PHASE]
    if phase == DAY:
        if action == 0:  # no legal space: the turn goes on; everyone with workers passing in a row ends the Day
            sv[S_PASSES] += 1
            holding = 0
            for q in range(n):
                if pl[q, P_HAND] > 0:
                    holding += 1
            if sv[S_PASSES] >= holding:
                _end_day(cfg, sv, pl, occ, explorer, queue)
                return
            for i in range(1, n + 1):
                q = (p + i) % n
                if pl[q, P_HAND] > 0:
                    sv[S_TO_MOVE] = q
                    return
        elif action < cfg[_A_CAMP]:
            s = action - cfg[_A_BASIC]
            pl[p, P_HAND] -= 1
            occ[s] |= 1 << p
            sv[S_PASSES] = 0
            _effect(cfg, eff, s, sv, pl, occ, explorer, queue, p)
        elif action < cfg[_A_EXPLORE]:
            t = action - cfg[_A_CAMP]
            pl[p, P_HAND] -= 1
            occ[cfg[_NB] + t] |= 1 << p
            sv[S_PASSES] = 0
            sv[S_CTX] = t
            sv[S_PHASE] = CAMP
        elif action < cfg[_A_PYRAMID]:
            pl[p, P_HAND] -= 1
            explorer[action - cfg[_A_EXPLORE]] = p
            pl[p, P_TOKENS] += 1
            _end_turn(cfg, sv, pl, occ, explorer, queue, p)
        elif action == cfg[_A_PYRAMID]:
            pl[p, P_HAND] -= 2
            pl[p, P_PYRAMID] += 2
            sv[S_PASSES] = 0
            sv[S_PHASE] = OFFER
        elif action == cfg[_A_PITUK]:
            pl[p, P_HAND] -= 1
            occ[cfg[_PITUK]] |= 1 << p
            sv[S_PASSES] = 0
            sv[S_PHASE] = FAVOUR
        elif action == cfg[_A_START]:
            pl[p, P_HAND] -= 1
            occ[cfg[_START]] |= 1 << p
            sv[S_START] = p
            _end_turn(cfg, sv, pl, occ, explorer, queue, p)
        else:  # grow the clan: two workers and one from the reserve
            pl[p, P_HAND] -= 2
            pl[p, P_RESERVE] -= 1
            pl[p, P_WORKERS] += 1
            occ[cfg[_GROW]] |= 1 << p
            _end_turn(cfg, sv, pl, occ, explorer, queue, p)
    elif phase == CAMP:
        t = sv[S_CTX]
        k = action - cfg[_A_OPTION] - t * MAX_OPTIONS
        cubes[t] |= 1 << k
        sv[S_CTX] = -1
        _effect(cfg, eff, cfg[_E_CAMP] + t * MAX_OPTIONS + k, sv, pl, occ, explorer, queue, p)
    elif phase == BUY:
        c = action - cfg[_A_BUY]
        mstate[c] = GONE
        buyer[c] = p
        sv[S_MARKET_UP] -= 1
        row = cfg[_E_MARKET] + c
        pl[p, P_CARD_POINTS] += eff[row, _END_POINTS]
        _card(cfg, eff, row, sv, pl, occ, cubes, explorer, queue, p)
    elif phase == OFFER:
        c = action - cfg[_A_OFFER]
        for r in range(3):
            pl[p, r] -= offers[c, r]
        sac = offers[c, _SACRIFICE]
        pl[p, P_WORKERS] -= sac
        pl[p, P_SACRIFICED] += sac
        ostate[c] = GONE
        maker[c] = p
        sv[S_OFFERS_UP] -= 1
        pl[p, P_OFFER_POINTS] += offers[c, _POINTS]
        pl[p, P_MADE] += 1
        if pl[p, P_FIRST] < 0:
            pl[p, P_FIRST] = sv[S_OFFER_COUNT]
        sv[S_OFFER_COUNT] += 1
        if pl[p, P_MADE] >= cfg[_TO_END]:
            sv[S_END] = 1
        _end_turn(cfg, sv, pl, occ, explorer, queue, p)
    elif phase == PLAY:
        c = action - cfg[_A_HERITAGE]
        holder[c] = PLAYED - p
        row = cfg[_E_HERITAGE] + c
        pl[p, P_CARD_POINTS] += eff[row, _END_POINTS]
        _card(cfg, eff, row, sv, pl, occ, cubes, explorer, queue, p)
    elif phase == FAVOUR:
        f = action - cfg[_A_FAVOUR]
        sv[S_FAVOURS] |= 1 << f
        pl[p, P_TOKENS] += 1
        if f == 0:  # every market card shuffled together, five new ones
            for c in range(cfg[_M]):
                if mstate[c] == UP:
                    mstate[c] = IN_DECK
            sv[S_MARKET_DECK] += sv[S_MARKET_UP]
            sv[S_MARKET_UP] = 0
            for _ in range(cfg[_MARKET_SIZE]):
                _push(sv, queue, DRAW_MARKET)
        else:  # the active offerings discarded, two new ones
            for c in range(cfg[_O]):
                if ostate[c] == UP:
                    ostate[c] = GONE
            sv[S_OFFERS_UP] = 0
            for _ in range(cfg[_OFFERS_SIZE]):
                _push(sv, queue, DRAW_OFFERING)
        _end_turn(cfg, sv, pl, occ, explorer, queue, p)
        _normalize(cfg, sv, pl, queue)
    elif phase == FREE:
        t = (action - cfg[_A_FREE]) // MAX_OPTIONS
        k = (action - cfg[_A_FREE]) % MAX_OPTIONS
        cubes[t] &= ~(1 << k)
        _end_turn(cfg, sv, pl, occ, explorer, queue, p)
    elif phase == REVEAL:
        _push(sv, queue, action - cfg[_A_REVEAL])
        sv[S_REVEALS_LEFT] -= 1
        if sv[S_REVEALS_LEFT]:
            sv[S_TO_MOVE] = (sv[S_TO_MOVE] + 1) % n
        else:
            sv[S_PHASE] = DAWN


@jit_leaf
def _apply(
    cfg: np.ndarray,
    eff: np.ndarray,
    offers: np.ndarray,
    sv: np.ndarray,
    pl: np.ndarray,
    occ: np.ndarray,
    cubes: np.ndarray,
    explorer: np.ndarray,
    mstate: np.ndarray,
    ostate: np.ndarray,
    holder: np.ndarray,
    buyer: np.ndarray,
    maker: np.ndarray,
    queue: np.ndarray,
    p: int,
    action: int,
) -> None:
    """:func:`_apply_at`, called."""
    _apply_at(cfg, eff, offers, sv, pl, occ, cubes, explorer, mstate, ostate, holder, buyer, maker, queue, p, action)


# the arrays of the batch (gs), one row per game
(_SV, _PL, _OCC, _CUBES, _TILE_POS, _LAYOUT, _EXPLORER, _MSTATE, _OSTATE, _HOLDER, _BUYER, _MAKER, _QUEUE, _POOL,
 _KEYS) = range(15)  # fmt: skip
# the greedy's scratch (one set for the batch): a copy of the position per level of its search (the move, then
# up to three sub-decisions), each level's legal actions, the tied best moves; the tiles never change in a search
(_G_SV, _G_PL, _G_OCC, _G_CUBES, _G_EXPLORER, _G_MSTATE, _G_OSTATE, _G_HOLDER, _G_QUEUE, _G_LEGAL, _G_BUYER,
 _G_MAKER, _G_BEST) = range(15, 28)  # fmt: skip
LEVELS = 4
_PHASES = len(PHASE_NAMES)


@jit
def _dims(conf: Config) -> tuple[int, int, int, int, int, int]:
    """(players, legal capacity, observation size, action ids, chance events per step, outcomes per step)."""
    cfg = conf[0]
    pool = max(NUM_TILES, cfg[_M], cfg[_O], cfg[_H])
    return cfg[_P], cfg[_ACTIONS], cfg[_OBS], cfg[_ACTIONS], QUEUE, QUEUE * pool


@jit
def _new(conf: Config, count: int) -> tuple[Any, ...]:
    cfg = conf[0]
    p = cfg[_P]
    pool = max(NUM_TILES, cfg[_M], cfg[_O], cfg[_H])
    return (
        np.zeros((count, _STATE), np.int64),
        np.zeros((count, p, _PLAYER), np.int64),
        np.zeros((count, cfg[_SPACES]), np.int64),
        np.zeros((count, NUM_TILES), np.int64),
        np.zeros((count, NUM_TILES), np.int64),
        np.zeros((count, NUM_TILES), np.int64),
        np.zeros((count, NUM_TILES), np.int64),
        np.zeros((count, cfg[_M]), np.int64),
        np.zeros((count, cfg[_O]), np.int64),
        np.zeros((count, cfg[_H]), np.int64),
        np.zeros((count, cfg[_M]), np.int64),
        np.zeros((count, cfg[_O]), np.int64),
        np.zeros((count, QUEUE), np.int64),
        np.zeros((count, pool), np.int32),
        np.zeros((count, p, 4), np.float64),
        np.zeros((LEVELS, _STATE), np.int64),
        np.zeros((LEVELS, p, _PLAYER), np.int64),
        np.zeros((LEVELS, cfg[_SPACES]), np.int64),
        np.zeros((LEVELS, NUM_TILES), np.int64),
        np.zeros((LEVELS, NUM_TILES), np.int64),
        np.zeros((LEVELS, cfg[_M]), np.int64),
        np.zeros((LEVELS, cfg[_O]), np.int64),
        np.zeros((LEVELS, cfg[_H]), np.int64),
        np.zeros((LEVELS, QUEUE), np.int64),
        np.zeros((LEVELS, cfg[_ACTIONS]), np.int32),
        np.zeros(cfg[_M], np.int64),  # who bought, who made: written by a search, never read
        np.zeros(cfg[_O], np.int64),
        np.zeros(cfg[_ACTIONS], np.int32),
    )


@jit_leaf
def _score(conf: Config, core: Any, gs: Any, i: int) -> None:
    """The game is over: scores, ranks and the end."""
    cfg = conf[0]
    nplayers = cfg[_P]
    sv = gs[_SV][i]
    pl = gs[_PL][i]
    keys = gs[_KEYS][i]
    scores = core[SCORES][i]
    ranks = core[RANKS][i]
    # scores: offerings, card points, point tokens, stored resources;
    # ties: point tokens, then masks, then whoever made an offering first
    for q in range(nplayers):
        storage = 0
        for r in range(3):
            storage += pl[q, r] // cfg[_PER + r]
        scores[q] = pl[q, P_OFFER_POINTS] + pl[q, P_CARD_POINTS] + pl[q, P_TOKENS] + storage
        keys[q, 0] = scores[q]
        keys[q, 1] = pl[q, P_TOKENS]
        keys[q, 2] = pl[q, 2]
        keys[q, 3] = -pl[q, P_FIRST] if pl[q, P_FIRST] >= 0 else -1e9
    for q in range(nplayers):
        r = 1
        for o in range(nplayers):
            for k in range(4):
                if keys[o, k] != keys[q, k]:
                    if keys[o, k] > keys[q, k]:
                        r += 1
                    break
        ranks[q] = r
    # the second offering is the end even when it comes in the last round the limit allows
    end = END_SECOND_OFFERING if sv[S_END] else END_ROUND_LIMIT
    finish(core, i, end)


@jit_inline
def _settle(conf: Config, core: Any, gs: Any, i: int) -> None:
    """Chance up to the next decision (the queue of draws, uniform over each one's pool); who decides and the
    legal actions, or the end."""
    cfg, eff, offers, basics, options, cap = conf
    sv = gs[_SV][i]
    pl = gs[_PL][i]
    tile_pos = gs[_TILE_POS][i]
    layout = gs[_LAYOUT][i]
    mstate = gs[_MSTATE][i]
    ostate = gs[_OSTATE][i]
    holder = gs[_HOLDER][i]
    queue = gs[_QUEUE][i]
    pool = gs[_POOL][i]
    while sv[S_Q_LEN] > 0:
        head = queue[sv[S_Q_HEAD]]
        n = 0
        if head < NUM_TILES:
            for t in range(NUM_TILES):
                if tile_pos[t] < 0:
                    pool[n] = t
                    n += 1
        elif head == DRAW_MARKET:
            for c in range(cfg[_M]):
                if mstate[c] == IN_DECK:
                    pool[n] = c
                    n += 1
        elif head == DRAW_OFFERING:
            for c in range(cfg[_O]):
                if ostate[c] == IN_DECK:
                    pool[n] = c
                    n += 1
        else:
            for c in range(cfg[_H]):
                if holder[c] == BOX:
                    pool[n] = c
                    n += 1
        a = pool[draw(core, i, pool, n)]
        sv[S_Q_HEAD] = (sv[S_Q_HEAD] + 1) % QUEUE
        sv[S_Q_LEN] -= 1
        if head < NUM_TILES:
            layout[head] = a
            tile_pos[a] = head
            sv[S_REVEALED] += 1
        elif head == DRAW_MARKET:
            mstate[a] = UP
            sv[S_MARKET_UP] += 1
            sv[S_MARKET_DECK] -= 1
        elif head == DRAW_OFFERING:
            ostate[a] = UP
            sv[S_OFFERS_UP] += 1
            sv[S_OFFER_DECK] -= 1
        else:
            holder[a] = head - DRAW_DEAL
            sv[S_BOX] -= 1
        _normalize(cfg, sv, pl, queue)
    phase = sv[S_PHASE]
    if phase == OVER:
        _score(conf, core, gs, i)
        return
    p = sv[S_TO_MOVE]
    if phase == HERITAGE_SETUP:  # everyone at once: the engine asks them in seat order, the lowest first
        p = 0
        while pl[p, P_CHOICE] >= 0:
            p += 1
    core[ACTOR][i] = p
    core[NLEGAL][i] = _legal(cfg, eff, offers, basics, options, cap, sv, pl, gs[_OCC][i], gs[_CUBES][i], tile_pos,
                             layout, gs[_EXPLORER][i], mstate, ostate, holder, p, core[LEGAL][i])  # fmt: skip


@jit_leaf
def _reset(conf: Config, core: Any, gs: Any, i: int) -> None:
    """The setup: two offerings, five market cards, three heritage cards each, one at a time round the table."""
    cfg = conf[0]
    nplayers = cfg[_P]
    sv = gs[_SV][i]
    pl = gs[_PL][i]
    queue = gs[_QUEUE][i]
    for k in range(_STATE):
        sv[k] = 0
    sv[S_CTX] = -1
    sv[S_MARKET_DECK] = cfg[_M]
    sv[S_OFFER_DECK] = cfg[_O]
    sv[S_BOX] = cfg[_H]
    sv[S_PHASE] = HERITAGE_SETUP
    for q in range(nplayers):
        for f in range(_PLAYER):
            pl[q, f] = 0
        pl[q, P_WORKERS] = cfg[_START_WORKERS]
        pl[q, P_HAND] = cfg[_START_WORKERS]
        pl[q, P_RESERVE] = cfg[_RESERVE_WORKERS]
        pl[q, P_FIRST] = -1
        pl[q, P_CHOICE] = -1
    for s in range(cfg[_SPACES]):
        gs[_OCC][i, s] = 0
    for t in range(NUM_TILES):
        gs[_CUBES][i, t] = 0
        gs[_TILE_POS][i, t] = -1
        gs[_LAYOUT][i, t] = -1
        gs[_EXPLORER][i, t] = -1
    for c in range(cfg[_M]):
        gs[_MSTATE][i, c] = IN_DECK
        gs[_BUYER][i, c] = -1
    for c in range(cfg[_O]):
        gs[_OSTATE][i, c] = IN_DECK
        gs[_MAKER][i, c] = -1
    for c in range(cfg[_H]):
        gs[_HOLDER][i, c] = BOX
    for _ in range(cfg[_OFFERS_SIZE]):
        _push(sv, queue, DRAW_OFFERING)
    for _ in range(cfg[_MARKET_SIZE]):
        _push(sv, queue, DRAW_MARKET)
    for _ in range(HAND_SIZE):
        for q in range(nplayers):
            _push(sv, queue, DRAW_DEAL + q)
    _settle(conf, core, gs, i)


@jit_leaf
def _choose(
    cfg: np.ndarray, eff: np.ndarray, sv: np.ndarray, pl: np.ndarray, holder: np.ndarray, p: int, c: int
) -> None:
    """``p`` chooses heritage card ``c`` at setup (hidden); once all are in, they are shown and taken."""
    nplayers = cfg[_P]
    holder[c] = CHOSEN
    pl[p, P_CHOICE] = c
    for q in range(nplayers):
        if pl[q, P_CHOICE] < 0:
            return
    for q in range(nplayers):
        c = pl[q, P_CHOICE]
        row = cfg[_E_HERITAGE] + c
        pl[q, P_CARD_POINTS] += eff[row, _END_POINTS]
        _gain(cfg, eff, row, pl, q)
        holder[c] = PLAYED - q
        pl[q, P_CHOICE] = -1
    sv[S_PHASE] = REVEAL
    sv[S_TO_MOVE] = sv[S_START]
    sv[S_REVEALS_LEFT] = 1 if nplayers == 2 else 2


@jit_inline
def _turn(apply: Any, conf: Config, core: Any, gs: Any, i: int, action: int) -> None:
    """The player to decide takes ``action`` (an engine id, applied by ``apply``); chance up to the next decision."""
    cfg, eff, offers = conf[0], conf[1], conf[2]
    p = core[ACTOR][i]
    sv = gs[_SV][i]
    if sv[S_PHASE] == HERITAGE_SETUP:
        _choose(cfg, eff, sv, gs[_PL][i], gs[_HOLDER][i], p, action - cfg[_A_HERITAGE])
    else:
        apply(cfg, eff, offers, sv, gs[_PL][i], gs[_OCC][i], gs[_CUBES][i], gs[_EXPLORER][i], gs[_MSTATE][i],
              gs[_OSTATE][i], gs[_HOLDER][i], gs[_BUYER][i], gs[_MAKER][i], gs[_QUEUE][i], p, action)  # fmt: skip
    _settle(conf, core, gs, i)


@jit_inline
def _step_at(conf: Config, core: Any, gs: Any, i: int, j: int, action: int) -> None:
    """A step, all inlined (random play's loop: the fastest, and the longest to compile)."""
    _turn(_apply_at, conf, core, gs, i, action)


@jit_leaf
def _step(conf: Config, core: Any, gs: Any, i: int, j: int, action: int) -> None:
    """A step, called (traces and batched environments: quicker to compile)."""
    _turn(_apply, conf, core, gs, i, action)


@jit_inline
def _value(cfg: np.ndarray, offers: np.ndarray, sv: np.ndarray, pl: np.ndarray, holder: np.ndarray,
           ostate: np.ndarray, p: int) -> float:  # fmt: skip
    """:func:`ziggurat.games.nakum.heuristic.value` for ``p`` (the same terms, summed in the same order)."""
    m, s, k = pl[p, 0], pl[p, 1], pl[p, 2]
    per0, per1, per2 = cfg[_PER], cfg[_PER + 1], cfg[_PER + 2]
    storage = m // per0 + s // per1 + k // per2
    score = float(pl[p, P_OFFER_POINTS] + pl[p, P_CARD_POINTS] + pl[p, P_TOKENS] + storage)
    if sv[S_PHASE] == OVER:
        return score
    v = score - storage + m / per0 + s / per1 + k / per2
    hand = pl[p, P_HAND]
    if sv[S_END]:
        return v + HAND_VALUE * hand
    premium = 0.0
    workers = pl[p, P_WORKERS]
    if workers >= 2:  # no offering without two workers
        for c in range(cfg[_O]):
            if ostate[c] != UP:
                continue
            c0, c1, c2 = offers[c, 0], offers[c, 1], offers[c, 2]
            gain = offers[c, _POINTS] - c0 / per0 - c1 / per1 - c2 / per2 - WORKER_VALUE * offers[c, _SACRIFICE]
            total = c0 + c1 + c2
            if gain > 0 and total:
                covered = min(m, c0) + min(s, c1) + min(k, c2)
                r = covered / total
                bonus = OFFER_WEIGHT * gain * (r * r)
                if bonus > premium:
                    premium = bonus
    v += premium
    v += WORKER_VALUE * workers + HAND_VALUE * hand
    if workers < 2:
        v -= CRIPPLED
    heritage = 0
    for c in range(cfg[_H]):
        if holder[c] == p:
            heritage += 1
    v += HERITAGE_VALUE * heritage
    if sv[S_START] == p:
        v += START_VALUE
    return v


@jit_leaf
def _relative(conf: Config, gs: Any, lv: int, p: int) -> float:
    """:func:`ziggurat.games.nakum.heuristic.relative_value` of search level ``lv`` for ``p``."""
    cfg, offers = conf[0], conf[2]
    sv, pl, holder, ostate = gs[_G_SV][lv], gs[_G_PL][lv], gs[_G_HOLDER][lv], gs[_G_OSTATE][lv]
    best = -np.inf
    for q in range(cfg[_P]):
        if q != p:
            best = max(best, _value(cfg, offers, sv, pl, holder, ostate, q))
    return _value(cfg, offers, sv, pl, holder, ostate, p) - best


@jit_inline
def _copy(src: np.ndarray, dst: np.ndarray) -> None:
    """``src`` into ``dst``, element by element (a leaf allocates nothing)."""
    for k in range(src.shape[0]):
        dst[k] = src[k]


@jit_leaf
def _child(conf: Config, gs: Any, i: int, src: int, lv: int, p: int, action: int) -> None:
    """Search level ``lv``: the position of level ``src`` (game ``i`` itself when ``src < 0``), ``p``'s ``action``
    applied (no chance: a draw left pending makes the position one to value)."""
    cfg, eff, offers = conf[0], conf[1], conf[2]
    if src < 0:
        sv0, pl0, occ0, cubes0, explorer0 = gs[_SV][i], gs[_PL][i], gs[_OCC][i], gs[_CUBES][i], gs[_EXPLORER][i]
        mstate0, ostate0, holder0, queue0 = gs[_MSTATE][i], gs[_OSTATE][i], gs[_HOLDER][i], gs[_QUEUE][i]
    else:
        sv0, pl0, occ0, cubes0, explorer0 = (
            gs[_G_SV][src],
            gs[_G_PL][src],
            gs[_G_OCC][src],
            gs[_G_CUBES][src],
            gs[_G_EXPLORER][src],
        )
        mstate0, ostate0, holder0, queue0 = (
            gs[_G_MSTATE][src],
            gs[_G_OSTATE][src],
            gs[_G_HOLDER][src],
            gs[_G_QUEUE][src],
        )
    sv, pl, occ, cubes, explorer = gs[_G_SV][lv], gs[_G_PL][lv], gs[_G_OCC][lv], gs[_G_CUBES][lv], gs[_G_EXPLORER][lv]
    mstate, ostate, holder, queue = gs[_G_MSTATE][lv], gs[_G_OSTATE][lv], gs[_G_HOLDER][lv], gs[_G_QUEUE][lv]
    _copy(sv0, sv)
    for q in range(cfg[_P]):
        _copy(pl0[q], pl[q])
    _copy(occ0, occ)
    _copy(cubes0, cubes)
    _copy(explorer0, explorer)
    _copy(mstate0, mstate)
    _copy(ostate0, ostate)
    _copy(holder0, holder)
    _copy(queue0, queue)
    if sv[S_PHASE] == HERITAGE_SETUP:
        _choose(cfg, eff, sv, pl, holder, p, action - cfg[_A_HERITAGE])
    else:
        _apply(cfg, eff, offers, sv, pl, occ, cubes, explorer, mstate, ostate, holder, gs[_G_BUYER], gs[_G_MAKER],
               queue, p, action)  # fmt: skip


@jit_leaf
def _expand(conf: Config, gs: Any, i: int, lv: int, p: int) -> int:
    """``p``'s choices at search level ``lv`` into its legal row, if it is ``p``'s sub-decision (how many); -1:
    a position to value (another player's turn, a draw, a placement, the end)."""
    cfg, eff, offers, basics, options, cap = conf
    sv = gs[_G_SV][lv]
    phase = sv[S_PHASE]
    sub = phase == CAMP or phase == BUY or phase == OFFER or phase == PLAY or phase == FAVOUR or phase == FREE
    if not sub or sv[S_Q_LEN] > 0 or sv[S_TO_MOVE] != p:
        return -1
    return _legal(cfg, eff, offers, basics, options, cap, sv, gs[_G_PL][lv], gs[_G_OCC][lv], gs[_G_CUBES][lv],
                  gs[_TILE_POS][i], gs[_LAYOUT][i], gs[_G_EXPLORER][lv], gs[_G_MSTATE][lv], gs[_G_OSTATE][lv],
                  gs[_G_HOLDER][lv], p, gs[_G_LEGAL][lv])  # fmt: skip


@jit_leaf
def _best(conf: Config, gs: Any, i: int, p: int) -> float:
    """:func:`ziggurat.games.nakum.heuristic._best` of search level 0 at depth 3 (its recursion unrolled)."""
    n1 = _expand(conf, gs, i, 0, p)
    if n1 < 0:
        return _relative(conf, gs, 0, p)
    v1 = -np.inf
    for j1 in range(n1):
        _child(conf, gs, i, 0, 1, p, gs[_G_LEGAL][0, j1])
        n2 = _expand(conf, gs, i, 1, p)
        if n2 < 0:
            v1 = max(v1, _relative(conf, gs, 1, p))
            continue
        for j2 in range(n2):
            _child(conf, gs, i, 1, 2, p, gs[_G_LEGAL][1, j2])
            n3 = _expand(conf, gs, i, 2, p)
            if n3 < 0:
                v1 = max(v1, _relative(conf, gs, 2, p))
                continue
            for j3 in range(n3):
                _child(conf, gs, i, 2, 3, p, gs[_G_LEGAL][2, j3])
                v1 = max(v1, _relative(conf, gs, 3, p))
    return v1


@jit_leaf
def _greedy(conf: Config, core: Any, gs: Any, i: int) -> int:
    """:func:`ziggurat.games.nakum.heuristic.heuristic` for the player to decide: the legal index it plays.

    Each legal action is applied to a copy and its sub-decisions are followed
    (up to three deep) to the best :func:`_relative` value; ties (within 1e-9,
    as the heuristic) are broken with the opponents' RNG. What it reads is
    public but for the acting seat's own heritage hand: a search plays no
    chance, so no deck is looked into; the other seats' hands count only by
    their size. The last seat to choose at setup reveals everyone's hidden
    choice in its copy, as the heuristic does, but another seat's card changes
    only that seat's value, the same for every move compared.
    """
    n = core[NLEGAL][i]
    if n == 1:
        return 0
    p = core[ACTOR][i]
    legal = core[LEGAL][i]
    best = gs[_G_BEST]
    nbest = 0
    best_value = -np.inf
    for j in range(n):
        _child(conf, gs, i, -1, 0, p, legal[j])
        v = _best(conf, gs, i, p)
        if v > best_value + 1e-9:
            best_value = v
            best[0] = j
            nbest = 1
        elif v > best_value - 1e-9:
            best[nbest] = j
            nbest += 1
    return best[0] if nbest == 1 else best[below_at(core[ORNG], i, nbest)]


@jit_inline
def _who(out: np.ndarray, at: int, mask: int, nplayers: int) -> None:
    """The players of the bit set ``mask`` as flags at ``out[at:]``."""
    for q in range(nplayers):
        if (mask >> q) & 1:
            out[at + q] = 1.0


@jit_leaf
def _encode(conf: Config, core: Any, gs: Any, i: int, seat: int, out: np.ndarray, again: bool) -> None:
    """:func:`ziggurat.games.nakum.encode.tensor` of ``view(seat)`` (at a decision or at the end)."""
    cfg, basics, options = conf[0], conf[3], conf[4]
    n = cfg[_P]
    nm = cfg[_M]
    no = cfg[_O]
    nh = cfg[_H]
    sv = gs[_SV][i]
    pl = gs[_PL][i]
    occ = gs[_OCC][i]
    cubes = gs[_CUBES][i]
    tile_pos = gs[_TILE_POS][i]
    layout = gs[_LAYOUT][i]
    explorer = gs[_EXPLORER][i]
    mstate = gs[_MSTATE][i]
    ostate = gs[_OSTATE][i]
    holder = gs[_HOLDER][i]
    buyer = gs[_BUYER][i]
    maker = gs[_MAKER][i]
    out[:] = 0.0
    phase = sv[S_PHASE]
    out[phase] = 1.0
    b = _PHASES
    out[b] = sv[S_ROUND] / max(1, cfg[_MAX_ROUNDS])
    b += 1
    out[b + seat] = 1.0
    b += SLOTS
    actor = core[ACTOR][i]
    if phase == HERITAGE_SETUP:  # everyone who has not chosen yet (what they chose stays hidden)
        for q in range(n):
            if pl[q, P_CHOICE] < 0:
                out[b + q] = 1.0
    elif actor >= 0:
        out[b + actor] = 1.0
    b += SLOTS
    out[b + sv[S_START]] = 1.0
    b += SLOTS
    out[b] = 1.0 if sv[S_END] else 0.0
    b += 1
    for pos in range(NUM_TILES):  # face down (and who explores it), or its tile
        if layout[pos] < 0:
            out[b] = 1.0
            if explorer[pos] >= 0:
                out[b + 1 + explorer[pos]] = 1.0
        else:
            out[b + 1 + SLOTS + layout[pos]] = 1.0
        b += 1 + SLOTS + NUM_TILES
    for t in range(NUM_TILES):  # the face-up tiles' spaces
        if tile_pos[t] >= 0:
            active = False
            for k in range(MAX_BASICS):
                s = basics[t, k]
                if s >= 0:
                    if occ[s]:
                        active = True
                    _who(out, b + k * SLOTS, occ[s], n)
            c = b + MAX_BASICS * SLOTS
            _who(out, c, occ[cfg[_NB] + t], n)
            out[c + SLOTS] = 1.0 if active else 0.0
            for k in range(options[t]):
                if (cubes[t] >> k) & 1:
                    out[c + SLOTS + 1 + k] = 1.0
        b += MAX_BASICS * SLOTS + SLOTS + 1 + MAX_OPTIONS
    for q in range(n):
        out[b + q] = pl[q, P_PYRAMID] / 4
    b += SLOTS
    _who(out, b, occ[cfg[_PITUK]], n)
    b += SLOTS
    out[b] = 1.0 if sv[S_FAVOURS] & 1 else 0.0
    out[b + 1] = 1.0 if sv[S_FAVOURS] & 2 else 0.0
    b += 2
    _who(out, b, occ[cfg[_START]], n)
    b += SLOTS
    _who(out, b, occ[cfg[_GROW]], n)
    b += SLOTS
    for c in range(nm):
        if mstate[c] == UP:
            out[b + c] = 1.0
    b += nm
    for c in range(no):
        if ostate[c] == UP:
            out[b + c] = 1.0
    b += no
    out[b] = sv[S_MARKET_DECK] / max(1, nm)
    out[b + 1] = sv[S_OFFER_DECK] / max(1, no)
    b += 2
    for q in range(n):
        in_hand = 1 if pl[q, P_CHOICE] >= 0 else 0
        for c in range(nh):
            if holder[c] == q:
                in_hand += 1
        out[b] = pl[q, 0] / cfg[_LIM]
        out[b + 1] = pl[q, 1] / cfg[_LIM + 1]
        out[b + 2] = pl[q, 2] / cfg[_LIM + 2]
        out[b + 3] = min(1.0, pl[q, P_TOKENS] / 60)
        out[b + 4] = pl[q, P_WORKERS] / 4
        out[b + 5] = pl[q, P_HAND] / 4
        out[b + 6] = pl[q, P_RESERVE] / 4
        out[b + 7] = pl[q, P_SACRIFICED] / 4
        out[b + 8] = min(1.0, in_hand / 6)
        b += 9
        for c in range(no):
            if maker[c] == q:
                out[b + c] = 1.0
        b += no
        for c in range(nm):
            if buyer[c] == q:
                out[b + c] = 1.0
        b += nm
        for c in range(nh):
            if holder[c] == PLAYED - q:
                out[b + c] = 1.0
        b += nh
    b += (SLOTS - n) * (9 + no + nm + nh)
    for c in range(nh):  # the seat's own heritage hand
        if holder[c] == seat:
            out[b + c] = 1.0


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
    loops.vreset_with(_reset, _step, _encode, _greedy, conf, core, gs, base, seat, obs, mask)


@jit_leaf
def _vstep(conf: Config, core: Any, gs: Any, base: np.uint64, seat: int, out: tuple[np.ndarray, ...]) -> int:
    return loops.vstep_with(_reset, _step, _encode, _greedy, conf, core, gs, base, seat, out)


def play(config: Config, seeds: np.ndarray) -> tuple[np.ndarray, ...]:
    """Play one random game per seed: (scores, ranks, decisions, steps, ends)."""
    return _play(config, np.ascontiguousarray(seeds, np.uint64))


def trace(config: Config, seed: int) -> tuple[object, ...]:
    """The game of ``seed`` step by step (see :class:`~ziggurat.core.kernel.Trace`)."""
    return _trace(config, np.uint64(seed))


KERNEL = GameKernel("nakum", unsupported, prepare, play, trace, StepKernel(_dims, _new, _vreset, _vstep, greedy=True))
