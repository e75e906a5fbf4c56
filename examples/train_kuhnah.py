"""Train an agent for K'uh Nah on the batched kernel environment, save its policy, and seat it in the arena.

    python examples/train_kuhnah.py --budget 2m --seed 1 --out kuhnah-2p.npz
    ziggurat arena kuhnah --bots learned,random --bot-option learned.path=kuhnah-2p.npz

Needs the ``fast`` and ``train`` extras (``pip install -e '.[fast,train]'``).
The agent is sb3-contrib's MaskablePPO (PPO that samples and learns only over
the legal actions) with a small MLP, trained on
:class:`ziggurat.interop.sb3.KernelVecEnv`: ``--envs`` K'uh Nah games stepped
at once in compiled code, the agent in seat 1 of half of them and seat 2 of the
others, kernel random players in the other seats. ``--budget`` is a time
(``90s``, ``2m``) or a number of environment steps (``50000steps``, ``50ksteps``);
with a step budget and the same ``--seed`` (and ``--threads``) the saved policy
is the same, byte for byte. The policy (only the actor, as a ``.npz`` file the
``learned`` bot reads) is then played by the project's own arena against the
``random`` bot with rotated seats, and its win rate printed with a 95% Wilson
interval (:func:`ziggurat.analysis.report.arena_summary`).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

DEFAULT_OUT = Path("kuhnah-2p.npz")


def parse_budget(text: str) -> tuple[float | None, int | None]:
    """``"90s"``/``"2m"``/``"1h"`` -> (seconds, None); ``"50000steps"``/``"50ksteps"`` -> (None, steps).

    >>> parse_budget("2m"), parse_budget("50ksteps")
    ((120.0, None), (None, 50000))
    """
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(s|m|h|k?steps)\s*", text.lower())
    if m is None:
        raise ValueError(f"--budget is a time (90s, 2m, 1h) or a number of steps (50000steps, 50ksteps), not {text!r}")
    value, unit = float(m.group(1)), m.group(2)
    if unit.endswith("steps"):
        steps = int(value * (1000 if unit == "ksteps" else 1))
        if steps < 1:
            raise ValueError(f"--budget needs at least one step, not {text!r}")
        return None, steps
    seconds = value * {"s": 1, "m": 60, "h": 3600}[unit]
    if seconds <= 0:
        raise ValueError(f"--budget needs some time, not {text!r}")
    return seconds, None


def train(
    out: Path,
    budget: str = "2m",
    seed: int = 0,
    players: int = 2,
    envs: int = 64,
    threads: int = 1,
    verbose: bool = False,
) -> dict[str, Any]:
    """Train MaskablePPO within ``budget`` and save its policy to ``out``; what was done (steps, seconds)."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    from ziggurat.interop.sb3 import KernelVecEnv, export_policy

    seconds, steps = parse_budget(budget)
    torch.set_num_threads(threads)
    env = KernelVecEnv("kuhnah", num_envs=envs, players=players, seed=seed)

    class TimeBudget(BaseCallback):
        """Stops learning once ``seconds`` have passed (checked every environment step)."""

        def _on_training_start(self) -> None:
            self.start = time.perf_counter()

        def _on_step(self) -> bool:
            return seconds is None or time.perf_counter() - self.start < seconds

    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=64,
        batch_size=1024,
        n_epochs=4,
        learning_rate=1e-3,
        ent_coef=0.01,
        gamma=0.99,
        seed=seed,
        device="cpu",
        verbose=1 if verbose else 0,
    )
    t0 = time.perf_counter()
    model.learn(total_timesteps=steps if steps is not None else 10**12, callback=TimeBudget())
    elapsed = time.perf_counter() - t0
    done = int(model.num_timesteps)
    meta = {
        "trained": {
            "algorithm": "MaskablePPO (sb3-contrib)",
            "steps": done,
            "seconds": round(elapsed, 1),
            "seed": seed,
            "envs": envs,
            "budget": budget,
        }
    }
    export_policy(model, out, env.game, meta)
    env.close()
    return {"steps": done, "seconds": elapsed, "path": str(out)}


def evaluate(path: Path, players: int = 2, games: int = 400, seed: int = 0, jobs: int = 1) -> dict[str, Any]:
    """Arena: the ``learned`` bot (policy at ``path``) against ``random``, rotated seats; the arena's summary."""
    from ziggurat.analysis.report import arena_summary
    from ziggurat.analysis.simulate import Setup, arena

    result = arena(Setup("kuhnah", players), ["learned", "random"], games, seed, jobs, {"learned": {"path": str(path)}})
    return arena_summary(result)


def main(argv: Sequence[str] | None = None) -> int:
    """Command line (see the module docstring); prints the training and the arena's win rate with its interval."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--budget", default="2m", help="time (90s, 2m) or steps (50000steps, 50ksteps) [2m]")
    ap.add_argument("--seed", type=int, default=0, help="seed of the training and the arena [0]")
    ap.add_argument("--players", type=int, default=2, help="players at the table [2]")
    ap.add_argument("--envs", type=int, default=64, help="games stepped at once [64]")
    ap.add_argument("--threads", type=int, default=1, help="torch threads [1]")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"policy file to write [{DEFAULT_OUT}]")
    ap.add_argument("--games", type=int, default=400, help="arena games against the random bot [400]")
    ap.add_argument("--jobs", type=int, default=1, help="arena worker processes [1]")
    ap.add_argument("--json", type=Path, default=None, help="also write the figures to this JSON file")
    ap.add_argument("--verbose", action="store_true", help="print Stable-Baselines3's training log")
    args = ap.parse_args(argv)
    try:
        parse_budget(args.budget)
    except ValueError as exc:
        ap.error(str(exc))
    from ziggurat.analysis.stats import fmt_rate

    done = train(args.out, args.budget, args.seed, args.players, args.envs, args.threads, args.verbose)
    print(
        f"trained {done['steps']} steps in {done['seconds']:.1f}s "
        f"({done['steps'] / max(done['seconds'], 1e-9):.0f} steps/s); policy saved to {done['path']}"
    )
    t0 = time.perf_counter()
    summary = evaluate(args.out, args.players, args.games, args.seed, args.jobs)
    win = summary["bots"]["learned"]["win"]
    h2h = summary["head_to_head"]["learned vs random"]
    print(
        f"arena, {summary['games']} games of K'uh Nah ({args.players} players), learned vs random, "
        f"seats rotated ({time.perf_counter() - t0:.1f}s):"
    )
    print(f"  learned win rate {fmt_rate(win['rate'] * win['n'], win['n'])} (95% Wilson interval)")
    print(f"  ahead of random  {fmt_rate(h2h['rate'] * h2h['n'], int(h2h['n']))}")
    if args.json is not None:
        args.json.write_text(json.dumps({"training": done, "arena": summary}, indent=2, default=float))
    return 0


if __name__ == "__main__":
    sys.exit(main())
