"""The replay check is not vacuous: a kernel with one rule changed fails it.

Each mutant is K'uh Nah's kernel source with one rule edited, compiled afresh
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
from ziggurat.fast.driver import ReplayMismatch

# (what the rule says, the source text, its mutant)
SOURCE_MUTANTS = [
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
]

CASES: list[tuple[int, dict[str, object]]] = [(2, {}), (3, {"jade-wild": True}), (5, {})]


def _fails(kernel: GameKernel, games: int = 60) -> bool:
    for players, options in CASES:
        try:
            replay_many("kuhnah", players, options, games, kernel=kernel)
        except (ReplayMismatch, AssertionError) as exc:
            assert str(exc)
            return True
    return False


@pytest.mark.slow
@pytest.mark.parametrize(("rule", "original", "mutant"), SOURCE_MUTANTS, ids=[m[0] for m in SOURCE_MUTANTS])
def test_a_mutated_rule_fails_the_replay(tmp_path: Path, rule: str, original: str, mutant: str) -> None:
    real = importlib.import_module("ziggurat.games.kuhnah.kernel")
    source = inspect.getsource(real)
    assert source.count(original) == 1, f"the kernel no longer says {original!r}: update this mutant"
    path = tmp_path / "kuhnah_mutant.py"
    path.write_text(source.replace(original, mutant))
    spec = importlib.util.spec_from_file_location(f"kuhnah_mutant_{abs(hash(rule))}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert _fails(module.KERNEL), f"a kernel where {rule!r} is broken passed the replay"


def _with_config(change: Any) -> GameKernel:
    from ziggurat.games.kuhnah.kernel import KERNEL, prepare

    def mutated(game: Any) -> Any:
        config = prepare(game)
        change(config[0])
        return config

    return dataclasses.replace(KERNEL, prepare=mutated)


@pytest.mark.parametrize(
    ("rule", "change"),
    [
        ("cards removed by player count", lambda cfg: cfg.__setitem__(2, cfg[2] - 1)),
        ("the chosen start player", lambda cfg: cfg.__setitem__(5, (cfg[5] + 1) % cfg[0])),
        ("the jaguar is wild", lambda cfg: cfg.__setitem__(3, -1)),
    ],
)
def test_a_mutated_setup_fails_the_replay(rule: str, change: Any) -> None:
    assert _fails(_with_config(change)), f"a kernel where {rule!r} is broken passed the replay"


def test_the_real_kernel_passes_the_same_replay() -> None:
    from ziggurat.games.kuhnah.kernel import KERNEL

    assert not _fails(KERNEL)
