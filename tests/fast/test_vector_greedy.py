"""Greedy opponents in the batched environments: the kernels' compiled greedy against the Python heuristic.

A :class:`~ziggurat.fast.VectorGame` with ``opponents="greedy"`` records every
move its opponents make inside a step; each game is played again in the engine,
and before each opponent's move the Python heuristic's set of best moves is
computed there (its costs evaluated for every legal action, or the heuristic run
with every tie-break): the kernel's move must be in it.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba")

from ziggurat.core.errors import ZigguratError
from ziggurat.core.game import CHANCE, State
from ziggurat.core.registry import make_game
from ziggurat.fast import VectorGame, greedy_games, vector_games
from ziggurat.games.kuhnah.heuristic import BASE_DISCOUNT, _base_neighbour, best_placement, placement_cost
from ziggurat.games.kuhnah.heuristic import heuristic as kuhnah_greedy
from ziggurat.games.kuhnah.rules import BASE_LEFT, BASE_RIGHT, PLACE, TURN, KuhNahState
from ziggurat.games.kukulkan.heuristic import _Look
from ziggurat.games.kukulkan.heuristic import heuristic as kukulkan_greedy
from ziggurat.games.kukulkan.rules import KukulkanState
from ziggurat.games.nakum.heuristic import _best as nakum_search
from ziggurat.games.nakum.heuristic import heuristic as nakum_greedy
from ziggurat.games.nakum.rules import NakumState
from ziggurat.games.pyramix.heuristic import REPLY_WEIGHT, _margin
from ziggurat.games.pyramix.heuristic import heuristic as pyramix_greedy


class _Fixed(random.Random):
    """An rng whose ``random()`` gives the values it is made with, in turn (to walk every tie-break)."""

    def __init__(self, values: tuple[float, ...]):
        super().__init__(0)
        self._values = values
        self._at = 0

    def random(self) -> float:
        v = self._values[self._at % len(self._values)]
        self._at += 1
        return v


def _pyramix_best(state: State, player: int) -> set[int]:
    """The Pyramix heuristic's tied best moves: its value of every legal move (the margin left, less half the
    next player's best reply's gain), checked against the heuristic's own pick."""
    values = {}
    for move in state.legal_actions(player):
        after = state.clone()
        after.apply_action(move)
        value = _margin(after, player)
        if not after.is_terminal():
            nxt = after.current_player()
            base = _margin(after, nxt)
            gain = 0.0
            for reply in after.legal_actions():
                again = after.clone()
                again.apply_action(reply)
                gain = max(gain, _margin(again, nxt) - base)
            value -= REPLY_WEIGHT * gain
        values[move] = value
    top = max(values.values())
    best = {m for m, v in values.items() if abs(v - top) <= 1e-9}
    assert pyramix_greedy(state, player, random.Random(len(values))) in best
    return best


def _kuhnah_place_cost(state: KuhNahState, player: int, card: int, action: int) -> float:
    cost = placement_cost(state, player, card, action)
    if action in (BASE_LEFT, BASE_RIGHT):
        v = state.game.value[card]
        cost -= BASE_DISCOUNT * v + 0.1 * _base_neighbour(state, player, action)
    return cost


def _kuhnah_best(state: State, player: int) -> set[int]:
    """The K'uh Nah heuristic's best moves: placing, every placement as cheap as its best (it takes the
    first in its own order, the kernel any: a tie); the turn, the heuristic under every tie-break."""
    assert isinstance(state, KuhNahState)
    if state.phase == PLACE:
        card = state.quarry[state.taken]
        costs = {
            a: _kuhnah_place_cost(state, player, card, a)
            for a in state._placements(player, card)
            if a < state.game.wild_base
        }
        best = min(costs.values())
        assert best == pytest.approx(best_placement(state, player, card)[0], abs=1e-9)
        return {a for a, c in costs.items() if abs(c - best) <= 1e-9}
    assert state.phase == TURN
    out = set()
    for values in itertools.product((0.25, 0.75), repeat=4):  # the heuristic draws at most four times
        out.add(kuhnah_greedy(state, player, _Fixed(values)))
    return out


def _nakum_best(state: State, player: int) -> set[int]:
    """The Nakum heuristic's tied best moves: every legal action's value (its sub-decisions followed three deep,
    as the heuristic), within 1e-9 of the best; checked against the heuristic's own pick."""
    assert isinstance(state, NakumState)
    values = {}
    for a in state.legal_actions(player):
        child = state.clone()
        assert isinstance(child, NakumState)
        child.apply_trusted(a, player)
        values[a] = nakum_search(child, player, 3)
    top = max(values.values())
    best = {a for a, v in values.items() if v > top - 1e-9}
    assert nakum_greedy(state, player, random.Random(len(values))) in best
    return best


def _kukulkan_best(state: State, player: int) -> set[int]:
    """The Kukulkán heuristic's best moves: it adds a draw in [0, 0.01) to every action's score and takes the
    highest, so every action scored within 0.01 of the best may win; checked against its own pick."""
    assert isinstance(state, KukulkanState)
    legal = state.legal_actions(player)
    if len(legal) == 1:
        return set(legal)
    look = _Look(state, player)
    scores = {a: look.score(a) for a in legal}
    top = max(scores.values())
    best = {a for a, v in scores.items() if v > top - 0.01}
    assert kukulkan_greedy(state, player, random.Random(len(legal))) in best
    return best


BEST: dict[str, Callable[[State, int], set[int]]] = {
    "kuhnah": _kuhnah_best,
    "kukulkan": _kukulkan_best,
    "nakum": _nakum_best,
    "pyramix": _pyramix_best,
}

# (game, players, options, games side by side, steps, learning seat)
CASES: list[tuple[str, int, dict[str, object], int, int, int]] = [
    ("kuhnah", 2, {}, 8, 250, 0),
    ("kuhnah", 3, {"jade-wild": True, "start-player": "random"}, 6, 200, 1),
    ("kuhnah", 5, {"open-jade": True, "start-jade": 3}, 4, 150, 4),
    ("pyramix", 2, {}, 6, 60, 1),
    ("pyramix", 3, {}, 4, 50, 0),
    ("pyramix", 4, {"cobras": 4, "crane-points": 0}, 3, 40, 2),
    ("nakum", 2, {}, 6, 300, 1),
    ("nakum", 3, {"market-size": 8, "offerings-size": 4}, 4, 200, 0),
    ("nakum", 4, {"start-workers": 1, "reserve-workers": 4, "max-rounds": 6}, 3, 150, 3),
    ("kukulkan", 2, {}, 4, 200, 0),
    ("kukulkan", 3, {"max-rounds": 15}, 3, 150, 1),
    ("kukulkan", 5, {"max-rounds": 8}, 2, 120, 4),
]


def _replay(game: Any, state: State, log: list[tuple[int, int, list[int]]], at: int, best: Any) -> Iterator[int]:
    """Apply the log from ``at`` while the engine does not wait for the learning seat, checking each
    opponent's move against the heuristic's best; yields once per opponent move, then the next log index."""
    while at < len(log) and not state.is_terminal():
        actor, choice, choices = log[at]
        if actor == CHANCE:
            assert state.current_player() == CHANCE
        else:
            assert actor in state.players_to_move()  # at a simultaneous node, one of those still choosing
            assert sorted(state.legal_actions(actor)) == choices
            allowed = best(state, actor)
            assert choice in allowed, f"the kernel's greedy played {choice}, the heuristic's best are {allowed}"
            yield -1
        state.apply_action(choice, None if actor == CHANCE else actor)
        at += 1
    yield at


def _drive(game_id: str, players: int, options: dict[str, object], n: int, steps: int, seat: int) -> int:
    """Play the batch with a random learning seat, checking every greedy move in the engine; how many were."""
    game = make_game(game_id, players, options)
    best = BEST[game_id]
    env = VectorGame(game, n, seed=players * 11 + 3, seat=seat, record_chance=True, opponents="greedy")
    out = env.reset()
    states = [game.new_initial_state() for _ in range(n)]
    checked = 0

    def run(state: State, log: list[tuple[int, int, list[int]]], at: int) -> int:
        nonlocal checked
        for k in _replay(game, state, log, at, best):
            if k < 0:
                checked += 1
            else:
                return k
        raise AssertionError("not reached")

    for i in range(n):
        log = env.chance_log(i)
        assert run(states[i], log, 0) == len(log)
    for _ in range(steps):
        actions = env.sample_actions()
        out = env.step(actions)
        for i in range(n):
            state = states[i]
            state.apply_action(int(actions[i]), seat)
            log = env.chance_log(i)
            at = run(state, log, 0)
            assert bool(out.terminated[i]) == state.is_terminal()
            if state.is_terminal():
                assert np.array_equal(out.final_returns[i], np.asarray(state.returns()))
                state = states[i] = game.new_initial_state()
                at = run(state, log, at)
            assert at == len(log)
            assert seat in state.players_to_move() and out.player[i] == seat
    return checked


@pytest.mark.parametrize(("game_id", "players", "options", "n", "steps", "seat"), CASES)
def test_greedy_opponents_play_the_heuristic(
    game_id: str, players: int, options: dict[str, object], n: int, steps: int, seat: int
) -> None:
    checked = _drive(game_id, players, options, n, steps, seat)
    assert checked >= n * steps * (players - 1) // 2  # the opponents moved (and were checked) throughout


@pytest.mark.parametrize(
    ("game_id", "players", "games"),
    [("kuhnah", 3, 30), ("nakum", 3, 6), ("nakum", 4, 4), ("kukulkan", 3, 4), ("kukulkan", 5, 2)],
)
def test_the_heuristics_read_only_the_view(game_id: str, players: int, games: int) -> None:
    """The heuristic (the kernel's greedy follows it) gives the same best moves on any determinisation of
    the acting seat's view: K'uh Nah's reads no hidden card and no other seat's jade; Nakum's no other
    seat's heritage hand or hidden setup choice, nor the box (its decks and face-down tiles are unordered sets);
    Kukulkán's no other player's choice this round."""
    game = make_game(game_id, players, {})
    best = BEST[game_id]
    rng = random.Random(5)
    seen = 0
    for g in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply_action(state.sample_chance(rng))
                continue
            player = state.players_to_move()[0]
            if g % 3 == 0 or rng.random() < 0.3:
                other = state.resample(player, random.Random(rng.random()))
                assert best(other, player) == best(state, player)
                seen += 1
            state.apply_action(rng.choice(state.legal_actions(player)), player)
    assert seen > 200


def _redeal(holder: np.ndarray, pl: np.ndarray, seat: int, rng: random.Random) -> None:
    """Deal the heritage cards ``seat`` can't see afresh in a Nakum kernel's game (its other seats' hands and
    hidden setup choices, and the box), each seat keeping its hand's size."""
    from ziggurat.games.nakum import kernel as nk

    players = pl.shape[0]
    others = [q for q in range(players) if q != seat]
    hidden = [c for c in range(holder.shape[0]) if holder[c] in (nk.BOX, nk.CHOSEN) or holder[c] in others]
    sizes = {q: int((holder == q).sum()) for q in others}
    rng.shuffle(hidden)
    for q in others:
        for _ in range(sizes[q]):
            holder[hidden.pop()] = q
        if pl[q, nk.P_CHOICE] >= 0:
            c = hidden.pop()
            holder[c] = nk.CHOSEN
            pl[q, nk.P_CHOICE] = c
    for c in hidden:
        holder[c] = nk.BOX


@pytest.mark.parametrize("players", [2, 3, 4])
def test_nakum_kernel_greedy_reads_no_hidden_card(players: int) -> None:
    """The compiled greedy's move (its tie-break drawn from the same opponents' RNG) is the same when the
    heritage cards the seat to decide can't see are dealt afresh in the kernel's own arrays."""
    from ziggurat.core import loops
    from ziggurat.games.nakum import kernel as nk

    env = VectorGame("nakum", 6, seed=players, players=players)  # every seat is stepped from here
    rng = random.Random(players)
    checked = changed = 0
    for _ in range(200):
        core, gs, conf = env._core, env._gs, env._config
        for i in range(env.num_envs):
            p = int(core[loops.ACTOR][i])
            if p < 0 or core[loops.NLEGAL][i] < 2:
                continue
            orng = core[loops.ORNG][i]
            j = nk._greedy(conf, core, gs, i)
            other = tuple(a.copy() for a in gs)
            _redeal(other[nk._HOLDER][i], other[nk._PL][i], p, rng)
            changed += not np.array_equal(other[nk._HOLDER][i], gs[nk._HOLDER][i])
            core[loops.ORNG][i] = orng
            assert nk._greedy(conf, core, other, i) == j
            core[loops.ORNG][i] = orng
            checked += 1
        env.step(env.sample_actions())
    assert checked > 300 and changed > 200  # (once every hand is played nothing is hidden)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_kukulkan_kernel_greedy_reads_no_other_choice(players: int) -> None:
    """The compiled greedy's move (its draws from the same opponents' RNG) is the same when the other players'
    choices this round (hidden until all are in) are replaced in the kernel's arrays by other games' ones."""
    from ziggurat.core import loops
    from ziggurat.games.kukulkan import kernel as kk

    env = VectorGame("kukulkan", 6, seed=players, players=players, options={"max-rounds": 12})
    rng = random.Random(players)
    checked = changed = 0
    for _ in range(200):
        core, gs, conf = env._core, env._gs, env._config
        for i in range(env.num_envs):
            p = int(core[loops.ACTOR][i])
            if p < 0 or core[loops.NLEGAL][i] < 2:
                continue
            orng = core[loops.ORNG][i]
            j = kk._greedy(conf, core, gs, i)
            other = tuple(a.copy() for a in gs)
            for q in range(players):
                if q != p:
                    k, r = rng.randrange(env.num_envs), rng.randrange(players)
                    other[kk._PEND][i, q] = gs[kk._PEND][k, r]
                    other[kk._PMASK][i, q] = gs[kk._PMASK][k, r]
            changed += not np.array_equal(other[kk._PEND][i], gs[kk._PEND][i])
            core[loops.ORNG][i] = orng
            assert kk._greedy(conf, core, other, i) == j
            core[loops.ORNG][i] = orng
            checked += 1
        env.step(env.sample_actions())
    assert checked > 300 and changed > checked // 2


def _run(env: VectorGame, steps: int, seed: int | None = None) -> list[np.ndarray]:
    out = env.reset(seed)
    rows = [out.obs, out.mask]
    for _ in range(steps):
        out = env.step(env.sample_actions())
        rows += [out.obs, out.rewards, out.terminated]
    return rows


@pytest.mark.parametrize("game_id", ["kuhnah", "pyramix", "nakum", "kukulkan"])
def test_greedy_runs_repeat(game_id: str) -> None:
    def make(opponents: str, seed: int) -> VectorGame:
        return VectorGame(game_id, 8, seed=seed, players=3, seat=1, opponents=opponents)

    first = _run(make("greedy", 4), 150)
    again = _run(make("greedy", 4), 150)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    other = _run(make("greedy", 5), 150)
    assert not all(np.array_equal(a, b) for a, b in zip(first, other, strict=True))
    randomly = _run(make("random", 4), 150)
    assert not all(np.array_equal(a, b) for a, b in zip(first, randomly, strict=True))
    env = make("greedy", 4)
    env.step(env.sample_actions())
    again = _run(env, 150, seed=4)  # a reset with the seed starts the run over
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))


def _wins(game_id: str, players: int, opponents: str, games: int) -> tuple[float, int]:
    """The share of ``games`` a uniformly random learning seat wins outright against ``opponents``."""
    env = VectorGame(game_id, 64, seed=9, players=players, seat=0, opponents=opponents, copy=False)
    env.reset()
    won = played = 0
    while played < games:
        out = env.step(env.sample_actions())
        done = out.terminated
        if done.any():
            played += int(done.sum())
            won += int((out.final_returns[done, 0] == 1.0).sum())
    return won / played, played


@pytest.mark.parametrize(
    ("game_id", "players"),
    [("kuhnah", 3), ("pyramix", 2), ("pyramix", 3), ("nakum", 2), ("nakum", 3), ("kukulkan", 2), ("kukulkan", 4)],
)
def test_greedy_opponents_are_harder(game_id: str, players: int) -> None:
    random_rate, n1 = _wins(game_id, players, "random", 2000)
    greedy_rate, n2 = _wins(game_id, players, "greedy", 2000)
    # four standard errors of the difference apart (a random seat wins about 1/players against random)
    se = np.sqrt(random_rate * (1 - random_rate) / n1 + greedy_rate * (1 - greedy_rate) / n2)
    assert random_rate - greedy_rate > max(4 * se, 0.05), (random_rate, greedy_rate)


def test_bad_opponents_are_refused() -> None:
    for bad in ("smart", "Greedy", "", 1, None):
        with pytest.raises(ZigguratError, match="opponents must be one of random, greedy"):
            VectorGame("pyramix", 2, seat=0, opponents=bad)  # type: ignore[arg-type]
    with pytest.raises(ZigguratError, match="needs a learning seat"):
        VectorGame("pyramix", 2, opponents="greedy")
    with pytest.raises(
        ZigguratError, match=r"no compiled greedy opponents yet \(games that have: kuhnah, pyramix, kukulkan, nakum\)"
    ):
        VectorGame("lucent", 2, seat=0, opponents="greedy")
    assert VectorGame("lucent", 2, seat=0).opponents == "random"


def test_greedy_games_are_listed() -> None:
    assert greedy_games() == ["kuhnah", "pyramix", "kukulkan", "nakum"]
    assert set(greedy_games()) <= set(vector_games())
    assert set(BEST) == set(greedy_games())  # every compiled greedy is checked against its heuristic here


def test_gymnasium_vector_env_takes_opponents() -> None:
    pytest.importorskip("gymnasium")
    from ziggurat.interop.gymnasium_vector import ZigguratVectorEnv

    env = ZigguratVectorEnv("pyramix", num_envs=4, players=3, seat=2, opponents="greedy")
    assert env._vector.opponents == "greedy"
    obs, _ = env.reset(seed=3)
    same = ZigguratVectorEnv("pyramix", num_envs=4, players=3, seat=2, opponents="greedy")
    assert np.array_equal(obs, same.reset(seed=3)[0])
    for _ in range(60):
        actions = env.sample_actions()
        a = env.step(actions)
        b = same.step(actions)
        assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    with pytest.raises(ZigguratError, match="opponents must be one of"):
        ZigguratVectorEnv("pyramix", num_envs=4, seat=0, opponents="minimax")
