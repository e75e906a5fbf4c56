"""The example agent (examples/train_kuhnah.py) learns: a tiny step budget at a fixed seed beats random in the arena.

The check can fail: the arena's 95% Wilson interval of the trained policy's win
rate against the random bot (rotated seats) must lie above one half, and above
the interval of the same network before training (which plays no better than
chance), and the same seed and step budget must give the same policy.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")
pytest.importorskip("numba")

from ziggurat.bots.learned import load_policy

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_kuhnah.py"
BUDGET = "16ksteps"  # four rollouts of 64 games x 64 steps: seconds on one core
GAMES = 200


def example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_kuhnah", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("train_kuhnah", module)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("policy") / "kuhnah-2p.npz"
    done = example().train(out, BUDGET, seed=0)
    assert done["steps"] >= 16_000 and out.is_file()
    return out


def test_tiny_budget_beats_random_and_the_untrained_network(trained: Path, tmp_path: Path) -> None:
    ex = example()
    learned = ex.evaluate(trained, games=GAMES, seed=3)["bots"]["learned"]["win"]
    assert learned["n"] == GAMES
    assert learned["low"] > 0.5, learned  # better than chance, with 95% confidence

    from sb3_contrib import MaskablePPO

    from ziggurat.interop.sb3 import KernelVecEnv, export_policy

    env = KernelVecEnv("kuhnah", num_envs=8, players=2, seed=0)
    untrained = export_policy(MaskablePPO("MlpPolicy", env, seed=0, device="cpu"), tmp_path / "untrained.npz", env.game)
    before = ex.evaluate(untrained, games=GAMES, seed=3)["bots"]["learned"]["win"]
    assert before["high"] < learned["low"], (before, learned)  # it was learned, not the network's shape


def test_same_seed_and_step_budget_give_the_same_policy(trained: Path, tmp_path: Path) -> None:
    again = tmp_path / "again.npz"
    example().train(again, BUDGET, seed=0)
    a, b = load_policy(trained, cache=False), load_policy(again, cache=False)
    assert len(a.weights) == len(b.weights) == 3
    for x, y in zip(a.weights + a.biases, b.weights + b.biases, strict=True):
        assert np.array_equal(x, y)
    assert a.meta["trained"]["steps"] == b.meta["trained"]["steps"]


def test_the_policy_file_says_what_it_was_trained_for(trained: Path) -> None:
    meta = load_policy(trained).meta
    assert (meta["game"], meta["players"], meta["options"]) == ("kuhnah", 2, {})
    assert meta["trained"]["seed"] == 0 and meta["trained"]["budget"] == BUDGET
    assert trained.stat().st_size < 2_000_000


def test_budget_parsing_refuses_what_it_cannot_read() -> None:
    ex = example()
    assert ex.parse_budget("90s") == (90.0, None)
    assert ex.parse_budget("1h") == (3600.0, None)
    assert ex.parse_budget("12000steps") == (None, 12000)
    for bad in ("90", "2 minutes", "0steps", "-5s", "fast"):
        with pytest.raises(ValueError, match="--budget"):
            ex.parse_budget(bad)
