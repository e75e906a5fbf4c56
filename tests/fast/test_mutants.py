"""The replay check is not vacuous: a kernel with one rule changed fails it.

Each mutant is a game's kernel source with one rule edited, compiled afresh
(in a temporary folder); replaying its games through the engine must find a
step where the legal sets, the actor or the final scores differ. Mutants of the
configuration (what ``prepare`` hands the compiled code) reuse the real kernel.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import inspect
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numba")

from tests.fast.helpers import replay_many
from ziggurat.core.kernel import GameKernel
from ziggurat.core.registry import make_game
from ziggurat.fast.driver import ReplayMismatch, kernel_for

# per game: (what the rule says, the source text, its mutant)
SOURCE_MUTANTS: dict[str, list[tuple[str, str, str]]] = {
    "kuhnah": [
        ("a lighter or equal support needs a match", "value[a] > v or", "value[a] >= v or"),
        ("the jaguar on the left support matches", "or rsym[a] == wild or", "or"),
        (
            "a card supporting one from its left scores nothing",
            "if grid[q, r + 1, c] < 0 and grid[q, r + 1, c - 1] < 0:",
            "if grid[q, r + 1, c] < 0:",
        ),
        (
            "a wild half costs a jade one must have",
            "if jade_wild and wild_used[player] == 0 and jade[player] > 0:",
            "if jade_wild and wild_used[player] == 0:",
        ),
        ("the game ends when the deck is empty", "if deck_n == 0:", "if deck_n <= 1:"),
    ],
    "kukulkan": [
        ("a write must be lower than its supports", "if t > n:  # a write", "if t >= n:  # a write"),
        ("a trail must be completable to exactly n", "if left == 1 or _trail_find(", "if left >= 1 or _trail_find("),
        (
            "a pass only when nothing is possible without a help",
            "    if count == 0:\n        out[0] = cfg[_PASS]\n        count = 1",
            "    if count <= 1:\n        out[count] = cfg[_PASS]\n        count += 1",
        ),
        (
            "a first-to-claim bonus closes once claimed",
            "if ac_open and m & (a_bit | c_bit)",
            "if not c & AC and m & (a_bit | c_bit)",
        ),
        ("an unmarked numbered block keeps the game going", "    if num & ~marked[p]:\n        return True\n", ""),
        ("the round limit ends its last round", "elif rounds >= cfg[_MAX_ROUNDS]:", "elif rounds > cfg[_MAX_ROUNDS]:"),
        ("the bonuses' end is reported as such", "            end = END_BONUSES\n", "            end = END_NO_ROLL\n"),
    ],
    "nakum": [
        ("a camp opens only beside a worker on its tile", "if active and cubes[t] != full:", "if cubes[t] != full:"),
        (
            "nobody takes both places of a double space",
            "if cap[s] == 1 or o & bit or _pop(o) >= 2:",
            "if cap[s] == 1 or _pop(o) >= 2:",
        ),
        (
            "a second offering ends the game",
            "if pl[p, P_MADE] >= cfg[_TO_END]:",
            "if pl[p, P_MADE] >= cfg[_TO_END] + 1:",
        ),
        (
            "the round limit is its own end",
            "end = END_SECOND_OFFERING if sv[S_END] else END_ROUND_LIMIT",
            "end = END_SECOND_OFFERING",
        ),
    ],
}

# per game: the setups replayed, then how many games of each
CASES: dict[str, tuple[list[tuple[int, dict[str, object]]], int]] = {
    "kuhnah": ([(2, {}), (3, {"jade-wild": True}), (5, {})], 60),
    "kukulkan": ([(1, {}), (3, {}), (6, {}), (2, {"max-rounds": 40})], 60),
    "nakum": ([(2, {}), (4, {}), (3, {"max-rounds": 40})], 60),
}


def _fails(game_id: str, kernel: GameKernel) -> bool:
    setups, games = CASES[game_id]
    for players, options in setups:
        try:
            replay_many(game_id, players, options, games, kernel=kernel)
        except (ReplayMismatch, AssertionError) as exc:
            assert str(exc)
            return True
    return False


def _source_cases() -> list[Any]:
    return [
        pytest.param(game_id, original, mutant, id=f"{game_id}: {rule}")
        for game_id, mutants in SOURCE_MUTANTS.items()
        for rule, original, mutant in mutants
    ]


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "original", "mutant"), _source_cases())
def test_a_mutated_rule_fails_the_replay(tmp_path: Path, game_id: str, original: str, mutant: str) -> None:
    real = importlib.import_module(f"ziggurat.games.{game_id}.kernel")
    source = inspect.getsource(real)
    assert source.count(original) == 1, f"the kernel no longer says {original!r}: update this mutant"
    path = tmp_path / f"{game_id}_mutant.py"
    path.write_text(source.replace(original, mutant))
    spec = importlib.util.spec_from_file_location(f"{game_id}_mutant_{abs(hash(original))}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert _fails(game_id, module.KERNEL), f"a kernel where {original!r} became {mutant!r} passed the replay"


def _with_config(game_id: str, change: Any) -> GameKernel:
    real = importlib.import_module(f"ziggurat.games.{game_id}.kernel")

    def mutated(game: Any) -> Any:
        config = real.prepare(game)
        change(config)
        return config

    return dataclasses.replace(real.KERNEL, prepare=mutated)


def _swap(cfg: Any, i: int, j: int) -> None:
    cfg[i], cfg[j] = cfg[j], cfg[i]


@pytest.mark.parametrize(
    ("game_id", "rule", "change"),
    [
        ("kuhnah", "cards removed by player count", lambda c: c[0].__setitem__(2, c[0][2] - 1)),
        ("kuhnah", "the chosen start player", lambda c: c[0].__setitem__(5, (c[0][5] + 1) % c[0][0])),
        ("kuhnah", "the jaguar is wild", lambda c: c[0].__setitem__(3, -1)),
        ("kukulkan", "the base is printed 4 5 6 5 4", lambda c: c[6].__setitem__(2, 5)),
        ("kukulkan", "A and B are different blocks", lambda c: _swap(c[0], 9, 10)),
        ("kukulkan", "the axis is five blocks", lambda c: c[0].__setitem__(15, c[0][15] & ~(1 << 16))),
        ("kukulkan", "b9 rests on two blocks", lambda c: c[5].__setitem__((9, 1), -1)),
        ("nakum", "the storage limit of maize", lambda c: c[0].__setitem__(5, c[0][5] - 1)),
        ("nakum", "two skins make a point", lambda c: c[0].__setitem__(9, 3)),
        ("nakum", "the safeguard's round", lambda c: c[0].__setitem__(11, c[0][11] - 1)),
        ("nakum", "a marked space holds two with 4 players", lambda c: c[5].__setitem__(slice(None), 1)),
    ],
    ids=lambda x: x if isinstance(x, str) else None,
)
def test_a_mutated_setup_fails_the_replay(game_id: str, rule: str, change: Any) -> None:
    assert _fails(game_id, _with_config(game_id, change)), f"a kernel where {rule!r} is broken passed the replay"


@pytest.mark.parametrize("game_id", sorted(CASES))
def test_the_real_kernel_passes_the_same_replay(game_id: str) -> None:
    players, options = CASES[game_id][0][0]
    assert not _fails(game_id, kernel_for(make_game(game_id, players, options)))
