"""The one compiled driver of the games' step kernels: random play, traces, batched environments.

A game that is stepped (K'uh Nah, Pyramix, Lucent and Kukulkán; see ``docs/fast.md``) writes only its
own rules, as compiled functions over a batch of games that live side by side in
arrays (game ``i`` is row ``i`` of every array):

* ``dims(cfg)``: ``(players, legal capacity, observation size, number of action
  ids, chance events per step, chance outcomes per step)``, the sizes this driver
  allocates (the last two only bound a trace's buffers);
* ``new(cfg, n)``: the game's own arrays for ``n`` games (a tuple, ``gs``);
* ``reset(cfg, core, gs, i)``: set up game ``i`` (its RNG already seeded), play
  chance up to the first decision and write who decides and the legal actions;
* ``step(cfg, core, gs, i, j, action)``: apply ``action`` (entry ``j`` of the
  legal list: it is legal) for the player to decide, then play chance up to the
  next decision or the end;
* ``encode(cfg, core, gs, i, seat, out, again)``: write the seat's observation
  into the float32 row ``out`` (every entry: the game's adapter encoding of
  ``view(seat)``). ``again`` says that ``out`` is game ``i``'s observation row,
  which holds the last observation written there and nothing else, so a game
  may clear only what it wrote (K'uh Nah's large, sparse pyramids); otherwise
  ``out`` holds anything.

``core`` is this driver's tuple of arrays (indices below): the per-game RNG,
who decides (``TERMINAL`` once the game is over), the legal action ids, the
step counters, and at the end the scores, ranks and end index (and, last, the
game's score bounds, which a one-player game's returns scale from). Chance is drawn
with :func:`draw`, which also records the outcome and the set it was drawn
from when a trace is being taken. At the end a game writes its scores and ranks
and calls :func:`finish`.

Each game's ``kernel.py`` holds five one-line compiled wrappers that hand its
functions to :func:`play` (through the game's leaf of :func:`play_loop`, which
inlines the step: write it as a :func:`~ziggurat.core.jit.jit_inline` function,
``_step_at``, and ``step`` as the leaf that calls it), :func:`trace`,
:func:`vreset` and :func:`vstep` (in a leaf too, given ``_step_at``).
Those are inlined into the wrappers, so a game's functions are only ever called
by name there, never passed on as values: numba then caches the wrappers on disk
(a compiled function handed over as a value pins a process address, and what
holds one is compiled anew in every process).

A game may also write ``greedy(cfg, core, gs, i)``: the index in game ``i``'s
legal list of the move its greedy heuristic makes for the seat to decide, from
what that seat sees only, ties broken with the opponents' RNG (``ORNG``). Its
wrappers then call :func:`vreset_with` and :func:`vstep_with` with it (by name,
as the others), and a learning seat's opponents play it when ``core[OPPONENTS]``
is ``GREEDY`` (``VectorGame(..., opponents="greedy")``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ziggurat.core.jit import GOLDEN, jit, jit_inline, mix64, seed_rng

TERMINAL = -4  # the actor of a game that is over (the core's TERMINAL)

# the core tuple
RNG, ORNG, ACTOR, NLEGAL, LEGAL, STEPS, DECISIONS, ENDS, SCORES, RANKS, EPISODE = range(11)
LOG_N, LOG_OUT, LOG_OFF, LOG_SET, TRACING, LOG_ACTOR = range(11, 17)
OPPONENTS = 17  # how the opponents of a learning seat play: RANDOM or GREEDY (one int32)
RANDOM, GREEDY = 0, 1
BOUNDS = 18  # (lowest, highest) score of a one-player game, for its returns; (0, 0): none (returns 0)

_S11 = np.uint64(11)
_TO_UNIT = 1.0 / 9007199254740992.0
_SEED_MASK = np.uint64((1 << 53) - 1)
_OPPONENTS = np.uint64(0x5851F42D4C957F2D)


@jit
def new_core(n: int, players: int, cap: int, log_events: int, log_set: int, tracing: bool) -> tuple[Any, ...]:
    """The driver's arrays for ``n`` games (trace buffers only when ``tracing``)."""
    le = log_events if tracing else 1
    ls = log_set if tracing else 1
    return (
        np.zeros(n, np.uint64),
        np.zeros(n, np.uint64),
        np.full(n, TERMINAL, np.int32),
        np.zeros(n, np.int32),
        np.zeros((n, cap), np.int32),
        np.zeros(n, np.int32),
        np.zeros(n, np.int32),
        np.zeros(n, np.int8),
        np.zeros((n, players), np.float64),
        np.zeros((n, players), np.int32),
        np.zeros(n, np.int64),
        np.zeros(n, np.int32),
        np.zeros((n, le), np.int32),
        np.zeros((n, le + 1), np.int32),
        np.zeros((n, ls), np.int32),
        np.array([tracing, False]),  # tracing, the log overflowed
        np.zeros((n, le), np.int32),
        np.zeros(1, np.int32),  # the opponents: RANDOM
        np.zeros(2, np.float64),  # the score bounds (none)
    )


@jit_inline
def below_at(rng: np.ndarray, i: int, n: int) -> int:
    """A uniform integer in ``range(n)`` from stream ``rng[i]`` (as :func:`ziggurat.core.jit.below`)."""
    rng[i] += GOLDEN
    u = mix64(rng[i]) >> _S11
    return int(u * _TO_UNIT * n)


@jit_inline
def note(core: tuple[Any, ...], i: int, actor: int, choice: int, choices: np.ndarray, count: int) -> None:
    """Record in game ``i``'s log that ``actor`` chose ``choice`` from ``choices[:count]``."""
    k = core[LOG_N][i]
    start = core[LOG_OFF][i, k]
    if k + 1 >= core[LOG_OFF].shape[1] or start + count > core[LOG_SET].shape[1]:
        core[TRACING][1] = True  # the log is full: the caller finds out, nothing is written past it
        return
    core[LOG_ACTOR][i, k] = actor
    core[LOG_OUT][i, k] = choice
    for t in range(count):
        core[LOG_SET][i, start + t] = choices[t]
    core[LOG_OFF][i, k + 1] = start + count
    core[LOG_N][i] = k + 1


@jit_inline
def draw(core: tuple[Any, ...], i: int, choices: np.ndarray, count: int) -> int:
    """Chance picks an index of ``choices[:count]`` uniformly for game ``i`` (recorded when tracing)."""
    j = below_at(core[RNG], i, count)
    core[STEPS][i] += 1
    if core[TRACING][0]:
        note(core, i, -1, choices[j], choices, count)
    return j


@jit_inline
def drawn(core: tuple[Any, ...], i: int, outcome: int, choices: np.ndarray, count: int) -> None:
    """Count a chance outcome the game drew itself (not uniformly: by weight) from ``choices[:count]``.

    The game draws with :func:`below_at` on ``core[RNG]``; ``choices`` are only
    read when a trace is being taken.
    """
    core[STEPS][i] += 1
    if core[TRACING][0]:
        note(core, i, -1, outcome, choices, count)


@jit_inline
def finish(core: tuple[Any, ...], i: int, end: int) -> None:
    """Game ``i`` is over by end ``end`` (its scores and ranks are written)."""
    core[ACTOR][i] = TERMINAL
    core[NLEGAL][i] = 0
    core[ENDS][i] = end


@jit
def mix64_seed(seed: np.uint64) -> np.uint64:
    """A run's base from a whole-number seed (any size: taken modulo 2**64)."""
    return mix64(np.uint64(seed) ^ GOLDEN)


@jit_inline
def episode_seed(base: np.uint64, i: int, k: int) -> np.uint64:
    """The seed of episode ``k`` of batch slot ``i`` in a run seeded ``base`` (53 bits)."""
    return mix64(mix64(base + np.uint64(i) * GOLDEN) + np.uint64(k) * GOLDEN) & _SEED_MASK


@jit_inline
def _start(reset: Any, cfg: Any, core: tuple[Any, ...], gs: Any, i: int, seed: np.uint64) -> None:
    seed_rng(core[RNG][i : i + 1], seed)
    seed_rng(core[ORNG][i : i + 1], seed ^ _OPPONENTS)
    core[STEPS][i] = 0
    core[DECISIONS][i] = 0
    core[ENDS][i] = 0
    reset(cfg, core, gs, i)


@jit_inline
def play(dims: Any, new: Any, loop: Any, cfg: Any, seeds: np.ndarray) -> tuple[np.ndarray, ...]:
    """One random game per seed (players pick uniformly among the legal actions, from the game's RNG).

    The arrays are made here; the games are played by ``loop``, the game's
    :func:`~ziggurat.core.jit.jit_leaf` wrapper of :func:`play_loop` (compiled
    without reference counting, so its step is called, or inlined, at no cost
    per array).
    """
    players, cap, _, _, _, _ = dims(cfg)
    count = seeds.shape[0]
    core = new_core(1, players, cap, 1, 1, False)
    gs = new(cfg, 1)
    scores = np.zeros((count, players), np.float64)
    ranks = np.zeros((count, players), np.int32)
    decisions = np.zeros(count, np.int32)
    steps = np.zeros(count, np.int32)
    ends = np.zeros(count, np.int8)
    loop(cfg, core, gs, seeds, (scores, ranks, decisions, steps, ends))
    return scores, ranks, decisions, steps, ends


@jit_inline
def play_loop(reset: Any, step: Any, cfg: Any, core: tuple[Any, ...], gs: Any, seeds: np.ndarray, out: Any) -> None:
    """The games of :func:`play` in slot 0 of ``core`` and ``gs``; results into ``out``."""
    scores, ranks, decisions, steps, ends = out
    rng = core[RNG]
    actor = core[ACTOR]
    legal = core[LEGAL]
    nlegal = core[NLEGAL]
    players = scores.shape[1]
    for g in range(seeds.shape[0]):
        _start(reset, cfg, core, gs, 0, seeds[g])
        d = 0
        while actor[0] != TERMINAL:
            j = below_at(rng, 0, nlegal[0])
            d += 1
            step(cfg, core, gs, 0, j, legal[0, j])
        for p in range(players):
            scores[g, p] = core[SCORES][0, p]
            ranks[g, p] = core[RANKS][0, p]
        decisions[g] = d
        steps[g] = core[STEPS][0] + d
        ends[g] = core[ENDS][0]


@jit
def _log(
    core: tuple[Any, ...], actors: np.ndarray, actions: np.ndarray, offsets: np.ndarray, legal: np.ndarray, n: int
) -> tuple[int, np.ndarray]:
    for k in range(core[LOG_N][0]):
        lo = core[LOG_OFF][0, k]
        hi = core[LOG_OFF][0, k + 1]
        need = offsets[n] + hi - lo
        if need > legal.shape[0]:
            bigger = np.empty(max(need, 2 * legal.shape[0]), np.int32)
            bigger[: legal.shape[0]] = legal
            legal = bigger
        actors[n] = -1
        actions[n] = core[LOG_OUT][0, k]
        legal[offsets[n] : need] = core[LOG_SET][0, lo:hi]
        offsets[n + 1] = need
        n += 1
    core[LOG_N][0] = 0
    return n, legal


@jit_inline
def trace(
    dims: Any, new: Any, reset: Any, step: Any, cfg: Any, seed: np.uint64, max_len: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """The game ``play`` plays for ``seed``, step by step (see :class:`~ziggurat.core.kernel.Trace`)."""
    players, cap, _, _, log_events, log_set = dims(cfg)
    core = new_core(1, players, cap, log_events, log_set, True)
    gs = new(cfg, 1)
    actors = np.zeros(max_len, np.int32)
    actions = np.zeros(max_len, np.int32)
    offsets = np.zeros(max_len + 1, np.int32)
    legal = np.zeros(1024, np.int32)
    _start(reset, cfg, core, gs, 0, seed)
    n, legal = _log(core, actors, actions, offsets, legal, 0)
    while core[ACTOR][0] != TERMINAL:
        nl = core[NLEGAL][0]
        j = below_at(core[RNG], 0, nl)
        need = offsets[n] + nl
        if need > legal.shape[0]:
            bigger = np.empty(max(need, 2 * legal.shape[0]), np.int32)
            bigger[: legal.shape[0]] = legal
            legal = bigger
        actors[n] = core[ACTOR][0]
        actions[n] = core[LEGAL][0, j]
        legal[offsets[n] : need] = core[LEGAL][0, :nl]
        offsets[n + 1] = need
        n += 1
        core[DECISIONS][0] += 1
        core[STEPS][0] += 1
        step(cfg, core, gs, 0, j, core[LEGAL][0, j])
        n, legal = _log(core, actors, actions, offsets, legal, n)
    end = int(core[ENDS][0])
    return (
        actors[:n],
        actions[:n],
        offsets[: n + 1],
        legal[: offsets[n]],
        core[SCORES][0].copy(),
        core[RANKS][0].copy(),
        end,
    )


@jit_inline
def _returns(ranks: np.ndarray, scores: np.ndarray, bounds: np.ndarray, out: np.ndarray) -> None:
    """The engine's returns (:meth:`ziggurat.core.game.State.outcome`): zero-sum from ranks, as
    :func:`ziggurat.core.outcome.returns_from_ranks`; alone, the score scaled from ``bounds`` to [-1, 1]."""
    n = ranks.shape[0]
    if n == 1:
        low = bounds[0]
        high = bounds[1]
        out[0] = 0.0 if high <= low else max(-1.0, min(1.0, 2.0 * (scores[0] - low) / (high - low) - 1.0))
        return
    for p in range(n):
        net = 0
        for o in range(n):
            if ranks[o] > ranks[p]:
                net += 1
            elif ranks[o] < ranks[p]:
                net -= 1
        out[p] = net / (n - 1)


@jit_inline
def random_choice(cfg: Any, core: tuple[Any, ...], gs: Any, i: int) -> int:
    """A uniformly random entry of game ``i``'s legal list, from the opponents' RNG (a game without a greedy)."""
    return below_at(core[ORNG], i, core[NLEGAL][i])


@jit_inline
def _opponents(step: Any, greedy: Any, cfg: Any, core: tuple[Any, ...], gs: Any, i: int, seat: int) -> None:
    """The opponents move until ``seat`` decides or the game ends.

    They play uniformly at random (the opponents' RNG), or, when
    ``core[OPPONENTS]`` says ``GREEDY``, by the game's ``greedy(cfg, core, gs, i)``:
    the index of the acting seat's move in the legal list (its ties broken with
    the opponents' RNG).
    """
    actor = core[ACTOR]
    greedy_play = core[OPPONENTS][0] == GREEDY
    while actor[i] != TERMINAL and actor[i] != seat:
        if greedy_play:
            j = greedy(cfg, core, gs, i)
        else:
            j = below_at(core[ORNG], i, core[NLEGAL][i])
        if core[TRACING][0]:
            note(core, i, actor[i], core[LEGAL][i, j], core[LEGAL][i], core[NLEGAL][i])
        core[DECISIONS][i] += 1
        core[STEPS][i] += 1
        step(cfg, core, gs, i, j, core[LEGAL][i, j])


@jit_inline
def _begin(
    reset: Any, step: Any, greedy: Any, cfg: Any, core: tuple[Any, ...], gs: Any, i: int, base: np.uint64, seat: int
) -> None:
    """Start the next episode of slot ``i`` (and let the opponents move up to ``seat``'s first decision)."""
    for _ in range(1000):
        k = core[EPISODE][i]
        core[EPISODE][i] = k + 1
        _start(reset, cfg, core, gs, i, episode_seed(base, i, k))
        if seat < 0:
            return
        _opponents(step, greedy, cfg, core, gs, i, seat)
        if core[ACTOR][i] != TERMINAL:
            return


@jit_inline
def _emit(encode: Any, cfg: Any, core: tuple[Any, ...], gs: Any, i: int, obs: np.ndarray, mask: np.ndarray) -> None:
    actor = core[ACTOR][i]
    encode(cfg, core, gs, i, actor, obs[i], True)
    for a in range(mask.shape[1]):
        mask[i, a] = False
    for t in range(core[NLEGAL][i]):
        mask[i, core[LEGAL][i, t]] = True


@jit_inline
def vreset(
    reset: Any,
    step: Any,
    encode: Any,
    cfg: Any,
    core: tuple[Any, ...],
    gs: Any,
    base: np.uint64,
    seat: int,
    obs: np.ndarray,
    mask: np.ndarray,
) -> None:
    """Start every slot's first episode; write each one's acting observation and mask (random opponents only)."""
    vreset_with(reset, step, encode, random_choice, cfg, core, gs, base, seat, obs, mask)


@jit_inline
def vreset_with(
    reset: Any,
    step: Any,
    encode: Any,
    greedy: Any,
    cfg: Any,
    core: tuple[Any, ...],
    gs: Any,
    base: np.uint64,
    seat: int,
    obs: np.ndarray,
    mask: np.ndarray,
) -> None:
    """:func:`vreset` for a game with a compiled ``greedy`` (see :func:`_opponents`)."""
    for i in range(core[ACTOR].shape[0]):
        core[EPISODE][i] = 0
        _begin(reset, step, greedy, cfg, core, gs, i, base, seat)
        _emit(encode, cfg, core, gs, i, obs, mask)


@jit_inline
def check(core: tuple[Any, ...], actions: np.ndarray, choice: np.ndarray) -> int:
    """The index of every action in its game's legal list (into ``choice``); the first illegal game, or -1."""
    for i in range(actions.shape[0]):
        a = actions[i]
        choice[i] = -1
        for t in range(core[NLEGAL][i]):
            if core[LEGAL][i, t] == a:
                choice[i] = t
                break
        if choice[i] < 0:
            return i
    return -1


@jit
def sample(core: tuple[Any, ...], rng: np.ndarray, out: np.ndarray) -> None:
    """A uniformly random legal action per game into ``out``, from the stream ``rng`` (a uint64[1] array)."""
    for i in range(out.shape[0]):
        out[i] = core[LEGAL][i, below_at(rng, 0, core[NLEGAL][i])]


@jit_inline
def vstep(
    reset: Any,
    step: Any,
    encode: Any,
    cfg: Any,
    core: tuple[Any, ...],
    gs: Any,
    base: np.uint64,
    seat: int,
    out: tuple[np.ndarray, ...],
) -> int:
    """:func:`vstep_with` for a game without a compiled greedy (its opponents play at random)."""
    return vstep_with(reset, step, encode, random_choice, cfg, core, gs, base, seat, out)


@jit_inline
def vstep_with(
    reset: Any,
    step: Any,
    encode: Any,
    greedy: Any,
    cfg: Any,
    core: tuple[Any, ...],
    gs: Any,
    base: np.uint64,
    seat: int,
    out: tuple[np.ndarray, ...],
) -> int:
    """One step of every game; finished games start again. The first game whose action is illegal, or -1.

    Every action is checked before any game moves: with one illegal, nothing
    changes. With ``seat >= 0`` only that seat is stepped by the caller and the
    opponents play the other seats inside (at random, or by ``greedy``: see
    :func:`_opponents`); ``final_obs[i, s]`` is then
    seat ``seat``'s last observation (``s = 0``), else every seat's. The chance
    log (when tracing) starts afresh.
    """
    actions, choice, obs, mask, rewards, terminated, final_obs, final_returns = out
    bad = check(core, actions, choice)
    if bad >= 0:
        return bad
    if core[TRACING][0]:
        for i in range(actions.shape[0]):
            core[LOG_N][i] = 0
    players = rewards.shape[1]
    for i in range(actions.shape[0]):
        core[DECISIONS][i] += 1
        core[STEPS][i] += 1
        step(cfg, core, gs, i, choice[i], actions[i])
        if seat >= 0:
            _opponents(step, greedy, cfg, core, gs, i, seat)
        if core[ACTOR][i] == TERMINAL:
            terminated[i] = True
            _returns(core[RANKS][i], core[SCORES][i], core[BOUNDS], rewards[i])
            for p in range(players):
                final_returns[i, p] = rewards[i, p]
            if seat >= 0:
                encode(cfg, core, gs, i, seat, final_obs[i, 0], False)
            else:
                for s in range(players):
                    encode(cfg, core, gs, i, s, final_obs[i, s], False)
            _begin(reset, step, greedy, cfg, core, gs, i, base, seat)
        else:
            terminated[i] = False
            for p in range(players):
                rewards[i, p] = 0.0
        _emit(encode, cfg, core, gs, i, obs, mask)
    return -1
