"""Batched environments (``ziggurat.fast.VectorGame``) against the Python engine, step by step.

Every game of the batch is played again in the engine with the same actions:
the chance outcomes (and, with a learning seat, the random opponents' moves)
the kernel played inside a step come from its log and are applied to the engine
after checking that the engine offers the same set. After every step each game's
acting player, observation (the adapters' encoding of the engine's view, to the
last bit), legal-action mask, rewards and terminated flag must equal the engine's;
at the end, the final observations and returns too. Where several players
choose at once (a simultaneous node: Kukulkán's rounds) the engine's drivers
serialize them, one decision each per pass over ``players_to_move()``, lowest
seat first (``random_playout``, ``Match.run_bots``); the kernel must follow that
sequence, and each seat's observation is the engine's view of that seat (its
own pending choice; of the others' only whether each is complete).
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba")

from ziggurat.core.errors import ZigguratError
from ziggurat.core.game import CHANCE, SIMULTANEOUS, State
from ziggurat.core.registry import make_game
from ziggurat.fast import VectorGame, vector_games
from ziggurat.interop.encoding import encode_view

# (game, players, options, games side by side, steps, learning seat)
CASES: list[tuple[str, int, dict[str, object], int, int, int | None]] = [
    ("kuhnah", 2, {}, 6, 700, None),
    ("kuhnah", 3, {"jade-wild": True, "start-player": "random"}, 6, 500, None),
    ("kuhnah", 4, {"open-jade": True}, 4, 300, None),
    ("kuhnah", 6, {"jade-wild": True}, 2, 200, None),
    ("kuhnah", 3, {}, 6, 250, 1),
    ("pyramix", 2, {}, 6, 400, None),
    ("pyramix", 3, {}, 4, 300, None),
    ("pyramix", 4, {}, 4, 300, None),
    ("pyramix", 2, {}, 6, 200, 0),
    ("lucent", 2, {}, 6, 300, None),
    ("lucent", 3, {"wildcards": True, "geomancers": True, "points": True}, 6, 300, None),
    ("lucent", 4, {"geomancer-focus": True}, 4, 300, None),
    ("lucent", 5, {"wildcards": True}, 4, 300, None),
    ("lucent", 4, {"points": True, "geomancers": True}, 6, 200, 2),
    # parameters away from the printed values (the observation scales with some of them)
    ("kuhnah", 3, {"start-jade": 3, "remove-3": 30}, 6, 300, None),
    ("kuhnah", 4, {"start-jade": 0, "remove-4": 0}, 4, 300, None),
    ("pyramix", 3, {"ankhs": 6, "cranes": 5, "eyes": 2, "cobras": 4, "crane-points": 0}, 4, 300, None),
    ("lucent", 4, {"colours": 7, "gems": 6, "wildcard-count": 3, "wildcards": True}, 4, 300, None),
    ("lucent", 2, {"colours": 3, "gems": 12, "geomancer-count": 2, "geomancers": True, "points": True}, 6, 300, None),
]

# Nakum: every player count, with and without a learning seat (one between opponents at the setup's simultaneous
# heritage choice); rows and decks of other sizes, other workers and ends, other limits (the observation scales)
CASES += [
    ("nakum", 2, {}, 4, 500, None),
    ("nakum", 3, {}, 4, 600, None),
    ("nakum", 4, {}, 3, 800, None),
    ("nakum", 3, {"market-size": 8, "offerings-size": 4, "offerings-to-end": 1}, 4, 400, None),
    ("nakum", 4, {"start-workers": 1, "reserve-workers": 4, "max-rounds": 6}, 4, 400, None),
    ("nakum", 2, {"maize-limit": 12, "skins-limit": 2, "masks-limit": 7, "offering-bonus": 3}, 4, 500, None),
    ("nakum", 2, {}, 4, 250, 1),
    ("nakum", 4, {}, 4, 200, 2),
]


# --- Kukulkán (simultaneous rounds): every player count, the round limit, the scoring parameters, learning seats
KUKULKAN_CASES: list[tuple[str, int, dict[str, object], int, int, int | None]] = [
    ("kukulkan", 1, {}, 4, 700, None),
    ("kukulkan", 2, {}, 4, 1000, None),
    ("kukulkan", 3, {"max-rounds": 12}, 4, 500, None),
    ("kukulkan", 4, {"axis-bonus": 7, "block-points": 2}, 2, 1400, None),
    ("kukulkan", 5, {"max-rounds": 8}, 3, 500, None),
    ("kukulkan", 6, {"max-rounds": 5}, 3, 400, None),
    ("kukulkan", 3, {"max-rounds": 15}, 4, 200, 1),
    ("kukulkan", 6, {"max-rounds": 6}, 3, 150, 5),
    ("kukulkan", 2, {"axis-bonus": 0}, 2, 450, 0),
]
CASES += KUKULKAN_CASES
# --- end of Kukulkán


def _to_decide(state: State, last: int) -> int:
    """Who decides next as the engine's drivers serialize: at a simultaneous node, the first player after
    ``last`` (the previous decider at this node, -1 at its start) still to choose, else the first one."""
    cur = state.current_player()
    if cur != SIMULTANEOUS:
        return cur
    waiting = state.players_to_move()
    return next((q for q in waiting if q > last), waiting[0])


def _apply(state: State, action: int, actor: int) -> int:
    """Apply ``actor``'s ``action``; the ``last`` of :func:`_to_decide` for the next decision."""
    at_node = state.current_player() == SIMULTANEOUS
    state.apply_action(action, None if actor == CHANCE else actor)
    return actor if at_node and state.current_player() == SIMULTANEOUS else -1


def _consume(state: State, log: list[tuple[int, int, list[int]]], at: int, last: list[int]) -> int:
    """Apply the log from ``at`` while the engine does not wait for the caller; the next log index."""
    while at < len(log) and not state.is_terminal():
        actor, choice, choices = log[at]
        cur = state.current_player()
        if actor == CHANCE:
            assert cur == CHANCE, f"the kernel drew chance where the engine has player {cur}"
            assert sorted(a for a, _ in state.chance_outcomes()) == choices
        else:
            cur = _to_decide(state, last[0])
            assert cur == actor, f"the kernel's opponent {actor} moved where the engine has {cur}"
            assert sorted(state.legal_actions(actor)) == choices
        last[0] = _apply(state, choice, actor)
        at += 1
    return at


def _check_decision(env: VectorGame, out: Any, i: int, state: State, last: int) -> None:
    game = env.game
    player = _to_decide(state, last)
    assert player == out.player[i] >= 0
    if env.seat is not None:
        assert player == env.seat
    mask = np.zeros(game.num_actions, np.bool_)
    mask[state.legal_actions(player)] = True
    assert np.array_equal(out.mask[i], mask)
    want = np.asarray(encode_view(game, state.view(player)), np.float32)
    assert np.array_equal(out.obs[i], want), f"observation differs at {np.flatnonzero(out.obs[i] != want)}"


def _drive(game_id: str, players: int, options: dict[str, object], n: int, steps: int, seat: int | None) -> int:
    game = make_game(game_id, players, options)
    env = VectorGame(game, n, seed=players * 7 + 1, seat=seat, record_chance=True)
    out = env.reset()
    states = [game.new_initial_state() for _ in range(n)]
    last = [[-1] for _ in range(n)]  # per game, the previous decider at a simultaneous node (see _to_decide)
    for i in range(n):
        log = env.chance_log(i)
        assert _consume(states[i], log, 0, last[i]) == len(log)
        _check_decision(env, out, i, states[i], last[i][0])
    ended = 0
    for _ in range(steps):
        actions = env.sample_actions()
        before = out.player
        out = env.step(actions)
        for i in range(n):
            state = states[i]
            last[i][0] = _apply(state, int(actions[i]), int(before[i]))
            log = env.chance_log(i)
            at = _consume(state, log, 0, last[i])
            assert bool(out.terminated[i]) == state.is_terminal()
            if state.is_terminal():
                ended += 1
                returns = np.asarray(state.returns())
                assert np.array_equal(out.rewards[i], returns) and np.array_equal(out.final_returns[i], returns)
                seats = [env.seat] if env.seat is not None else list(range(players))
                for k, s in enumerate(seats):
                    want = np.asarray(encode_view(game, state.view(s)), np.float32)
                    assert np.array_equal(out.final_obs[i, k], want)
                state = states[i] = game.new_initial_state()
                last[i][0] = -1
                at = _consume(state, log, at, last[i])
            else:
                assert not out.rewards[i].any()
            assert at == len(log)
            _check_decision(env, out, i, state, last[i][0])
    return ended


@pytest.mark.parametrize(("game_id", "players", "options", "n", "steps", "seat"), CASES)
def test_vector_game_is_the_engine(
    game_id: str, players: int, options: dict[str, object], n: int, steps: int, seat: int | None
) -> None:
    ended = _drive(game_id, players, options, n, steps, seat)
    assert ended >= n  # every game of the batch ended at least once, and started again


def test_every_stepped_game_has_cases() -> None:
    assert set(vector_games()) == {g for g, *_ in CASES}


def _run(env: VectorGame, steps: int) -> list[np.ndarray]:
    seen = []
    for _ in range(steps):
        out = env.step(env.sample_actions())
        seen += [out.obs, out.mask, out.player, out.rewards]
    return seen


def test_same_seed_same_run() -> None:
    a = _run(VectorGame("kuhnah", 16, seed=3, players=3), 150)
    b = _run(VectorGame("kuhnah", 16, seed=3, players=3), 150)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    c = _run(VectorGame("kuhnah", 16, seed=4, players=3), 150)
    assert not all(np.array_equal(x, y) for x, y in zip(a, c, strict=True))
    # reset(seed) starts the same run again
    env = VectorGame("kuhnah", 16, seed=9, players=3)
    _run(env, 40)
    env.reset(seed=3)
    assert all(np.array_equal(x, y) for x, y in zip(a, _run(env, 150), strict=True))


def test_bad_actions_are_refused_and_change_nothing() -> None:
    env = VectorGame("kuhnah", 8, seed=5, players=2)
    twin = VectorGame("kuhnah", 8, seed=5, players=2)
    actions = env.sample_actions()
    illegal = actions.copy()
    row = np.flatnonzero(~env.step(actions).mask[3])[0]
    twin.step(actions)
    good = env.sample_actions()
    illegal = good.copy()
    illegal[3] = row
    with pytest.raises(ZigguratError, match="game 3: action"):
        env.step(illegal)
    with pytest.raises(ZigguratError, match="shape"):
        env.step(good[:5])
    with pytest.raises(ZigguratError, match="shape"):
        env.step(good.reshape(2, 4))
    with pytest.raises(ZigguratError, match="whole numbers"):
        env.step(good.astype(np.float64))
    with pytest.raises(ZigguratError, match="game 0"):
        env.step(np.full(8, -1))
    wrapped = good.astype(np.int64)
    wrapped[5] += 1 << 32  # the same id once cut to 32 bits: still not an action id
    with pytest.raises(ZigguratError, match=r"game 5: action \d+ is not an action id"):
        env.step(wrapped)
    a, b = env.step(good), twin.step(good)
    assert np.array_equal(a.obs, b.obs) and np.array_equal(a.mask, b.mask) and np.array_equal(a.player, b.player)


def test_bad_setups_are_refused() -> None:
    with pytest.raises(ZigguratError, match="number of games"):
        VectorGame("kuhnah", 0)
    with pytest.raises(ZigguratError, match="seat"):
        VectorGame("kuhnah", 2, players=3, seat=3)
    with pytest.raises(ZigguratError, match="seed"):
        VectorGame("kuhnah", 2).reset(seed=-1)
    with pytest.raises(ZigguratError, match="record_chance"):
        VectorGame("kuhnah", 2).chance_log(0)


def test_copies_unless_asked_not_to() -> None:
    env = VectorGame("kuhnah", 4, seed=1)
    first = env.step(env.sample_actions())
    kept = first.obs.copy()
    env.step(env.sample_actions())
    assert np.array_equal(first.obs, kept)
    shared = VectorGame("kuhnah", 4, seed=1, copy=False)
    one = shared.step(shared.sample_actions())
    two = shared.step(shared.sample_actions())
    assert np.shares_memory(one.obs, two.obs) and np.array_equal(one.obs, two.obs)
    with pytest.raises(ValueError, match="read-only"):
        one.obs[0, 0] = 1.0  # the environment's own rows: writing them would corrupt the next observations


def test_learning_seat_always_acts() -> None:
    env = VectorGame("kuhnah", 32, seed=2, players=4, seat=2)
    ends = 0
    for _ in range(300):
        out = env.step(env.sample_actions())
        assert (out.player == 2).all()
        ends += int(out.terminated.sum())
    assert ends > 32


# Nakum: an encoding that is not the engine's (a seat seeing the others' hidden heritage choices as its own hand,
# the pyramid's workers at another scale) fails the side-by-side test
NAKUM_ENCODE_MUTANTS = [
    (
        "a chosen heritage card is hidden until all are in",
        "if holder[c] == seat:",
        "if holder[c] == seat or holder[c] == CHOSEN:",
    ),
    ("the pyramid's workers over 4", "out[b + q] = pl[q, P_PYRAMID] / 4", "out[b + q] = pl[q, P_PYRAMID] / 2"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("rule", "original", "mutant"), NAKUM_ENCODE_MUTANTS, ids=[m[0] for m in NAKUM_ENCODE_MUTANTS])
def test_a_mutated_nakum_encoding_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rule: str, original: str, mutant: str
) -> None:
    from ziggurat.fast import vector
    from ziggurat.games.nakum import kernel as real

    source = inspect.getsource(real)
    assert source.count(original) == 1, f"the kernel no longer says {original!r}: update this mutant"
    path = tmp_path / "nakum_encode_mutant.py"
    path.write_text(source.replace(original, mutant))
    spec = importlib.util.spec_from_file_location(f"nakum_encode_mutant_{abs(hash(original))}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(vector, "kernel_for", lambda game: module.KERNEL)
    with pytest.raises(AssertionError, match="observation differs"):
        _drive("nakum", 3, {}, 4, 300, None)


# --- Kukulkán: the side-by-side test catches an encoding that shows a seat too much or puts it out of place
KUKULKAN_ENCODE_MUTANTS = [
    (
        "a seat sees no other player's pending trail",
        "    trail = gs[_PMASK][i, seat]\n",
        "    trail = gs[_PMASK][i, seat] | gs[_PMASK][i, (seat + 1) % nplayers]\n",
    ),
    ("a seat sees its own pending help", "out[t + 10 + (h - 1 if h != H_NONE else 4)] = 1.0", "pass"),
    ("the viewer's sheet comes first", "q = (seat + k) % nplayers", "q = k"),
]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("rule", "original", "mutant"), KUKULKAN_ENCODE_MUTANTS, ids=[m[0] for m in KUKULKAN_ENCODE_MUTANTS]
)
def test_a_mutated_kukulkan_encoding_fails_the_side_by_side_test(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rule: str, original: str, mutant: str
) -> None:
    import ziggurat.fast.vector as vector

    real = importlib.import_module("ziggurat.games.kukulkan.kernel")
    source = inspect.getsource(real)
    assert source.count(original) == 1, f"the kernel no longer says {original!r}: update this mutant"
    path = tmp_path / "kukulkan_encode_mutant.py"
    path.write_text(source.replace(original, mutant))
    spec = importlib.util.spec_from_file_location(f"kukulkan_encode_mutant_{abs(hash(original))}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(vector, "kernel_for", lambda game: module.KERNEL)
    with pytest.raises(AssertionError, match="observation differs"):
        _drive("kukulkan", 3, {"max-rounds": 12}, 4, 300, None)


# --- end of Kukulkán
