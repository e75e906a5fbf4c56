"""Tuning: search a game's parameters for a designer's goal with Optuna (the ``lab`` extra).

``ziggurat tune GAME --param NAME=LOW..HIGH ... --objective ...`` asks Optuna's
TPE sampler for settings, plays each on the same seeds (common random numbers,
as a sweep does) in stages, and reports the objective after every stage so that
a setting clearly worse than the others is stopped early (median pruning). The
study lives in a SQLite file: run the command again and it goes on where it
stopped, up to ``--trials`` in all. The best setting is then played again on
fresh seeds and reported with 95% intervals.

Objectives (each a number to make small; several are added, each times its weight):

* ``fairness``: 1 - balance (:mod:`ziggurat.analysis.measures`);
* ``length:T``: how far the mean length is from ``T`` decisions, as a share of ``T``;
* ``p1:B``: how far the first player's advantage goes beyond ``B`` either way (0 within);
* ``decisive``: the share of games with a shared win (an undecided game).

>>> parse_objective("length:60*0.5")
Objective(name='length', arg=60.0, weight=0.5)
>>> parse_range(get_spec("kuhnah"), "start-jade=4..12")
('start-jade', 4, 12)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ziggurat.analysis.measures import result_measures
from ziggurat.analysis.simulate import Setup, Task, run_tasks, seat_lineup
from ziggurat.core.errors import ConfigError, ZigguratError
from ziggurat.core.game import Game
from ziggurat.core.params import find_param
from ziggurat.core.registry import get_game, make_game
from ziggurat.core.spec import GameSpec

INSTALL_HINT = "pip install 'ziggurat[lab]' (or make setup)"
OBJECTIVES = ("fairness", "length", "p1", "decisive")


def get_spec(game: str) -> GameSpec:
    """The spec of the game called ``game``."""
    return get_game(game).game_class.spec


@dataclass(frozen=True)
class Objective:
    """One term of the goal: ``name`` (one of :data:`OBJECTIVES`), its argument and weight."""

    name: str
    arg: float | None = None
    weight: float = 1.0

    def value(self, m: Mapping[str, Mapping[str, float]]) -> float:
        """This term for the measures ``m`` of a run (:func:`~ziggurat.analysis.measures.result_measures`)."""
        if self.name == "fairness":
            return 1.0 - m["balance"]["mean"] if "balance" in m else 0.0
        if self.name == "length":
            assert self.arg is not None
            return abs(m["length"]["mean"] - self.arg) / self.arg
        if self.name == "p1":
            assert self.arg is not None
            adv = m["seat1_advantage"]["mean"] if "seat1_advantage" in m else 0.0
            return max(0.0, abs(adv) - self.arg)
        return m["shared_wins"]["mean"]


def parse_objective(text: str) -> Objective:
    """``NAME[:ARG][*WEIGHT]`` -> an :class:`Objective` (a clear error for anything else)."""
    raw = text.strip()
    weight = 1.0
    if "*" in raw:
        raw, w = raw.rsplit("*", 1)
        try:
            weight = float(w)
        except ValueError:
            raise ZigguratError(f"--objective {text!r}: the weight after * must be a number") from None
        if not weight > 0 or math.isinf(weight):
            raise ZigguratError(f"--objective {text!r}: the weight must be above 0")
    name, _, arg = raw.partition(":")
    name = name.strip()
    if name not in OBJECTIVES:
        raise ZigguratError(f"--objective {text!r}: say one of fairness, length:TARGET, p1:BOUND, decisive")
    if name in ("length", "p1"):
        try:
            value = float(arg)
        except ValueError:
            example = "60" if name == "length" else "0.02"
            raise ZigguratError(f"--objective {name} takes a number: {name}:{example}") from None
        if (name == "length" and not value > 0) or (name == "p1" and not 0 <= value < 1) or math.isinf(value):
            raise ZigguratError(f"--objective {text!r}: {'a length above 0' if name == 'length' else 'a bound 0 to 1'}")
        return Objective(name, value, weight)
    if arg:
        raise ZigguratError(f"--objective {name} takes no argument, not {arg!r}")
    return Objective(name, None, weight)


def parse_range(spec: GameSpec, text: str) -> tuple[str, int | float, int | float]:
    """``NAME=LOW..HIGH`` -> the parameter and its search range (within the parameter's own range)."""
    if "=" not in text or ".." not in text:
        raise ZigguratError(f"--param takes NAME=LOW..HIGH for tuning, not {text!r}")
    name, span = text.split("=", 1)
    opt = find_param(spec, name)
    lo_text, hi_text = span.split("..", 1)
    lo, hi = opt.parse(lo_text), opt.parse(hi_text)
    assert isinstance(lo, int | float) and isinstance(hi, int | float)
    if not lo < hi:
        raise ZigguratError(f"--param {opt.name}={span}: the low end must be below the high end")
    return opt.name, lo, hi


def _rows_from_fast(game: Game, seed: int, start: int, count: int) -> list[dict[str, Any]]:
    from ziggurat.fast import play_random

    batch = play_random(game, games=count, seed=seed, start=start)
    n = game.num_players
    rows = []
    for i in range(len(batch)):
        row: dict[str, Any] = {"players": n, "length": int(batch.decisions[i])}
        for p in range(n):
            row[f"p{p + 1}_score"] = float(batch.scores[i, p])
        row["winners"] = ";".join(str(p + 1) for p in range(n) if batch.ranks[i, p] == 1)
        rows.append(row)
    return rows


def play_rows(
    setup: Setup, bots: Sequence[str], engine: str, seed: int, start: int, count: int, jobs: int = 1
) -> list[dict[str, Any]]:
    """Rows of games ``start .. start + count - 1`` of ``setup`` (game ``g`` seeded from ``(seed, g)``)."""
    if engine == "fast":
        return _rows_from_fast(setup.make(), seed, start, count)
    tasks = [Task(g, 0, seat_lineup(bots, setup.players, g, False), game=g) for g in range(start, start + count)]
    return run_tasks([setup], tasks, seed, jobs=jobs)


@dataclass
class TuneResult:
    """What a study found: the best setting, its confirmation and the study's history."""

    best: dict[str, Any]
    best_value: float
    confirm: dict[str, dict[str, float]]
    confirm_value: float
    history: list[dict[str, Any]]


def tune(
    game: Game,
    ranges: Sequence[tuple[str, int | float, int | float]],
    objectives: Sequence[Objective],
    storage: Path,
    trials: int,
    games: int,
    seed: int = 0,
    bots: Sequence[str] = ("random",),
    engine: str = "python",
    stages: int = 4,
    confirm_games: int | None = None,
    jobs: int = 1,
    study_name: str | None = None,
    progress: Callable[[int, float | None], None] | None = None,
) -> TuneResult:
    """Run (or go on with) the study in ``storage`` until it has ``trials`` trials; confirm the best.

    Each trial plays ``games`` games in ``stages`` stages on the seeds of ``seed``
    and is pruned when its objective after a stage is worse than the median of the
    trials before it at that stage. ``progress(trial number, value or None if pruned)``.
    """
    try:
        import optuna
    except ImportError:
        raise ZigguratError(f"tuning needs Optuna: {INSTALL_HINT}") from None
    if not ranges:
        raise ZigguratError("name at least one parameter to tune: --param NAME=LOW..HIGH")
    if not objectives:
        raise ZigguratError("name an objective: --objective fairness (or length:60, p1:0.02, decisive)")
    if trials < 1 or games < stages or stages < 1:
        raise ZigguratError(f"--trials must be at least 1 and --games at least {stages} (one per stage)")
    lower = game.spec.lower_score_wins
    base = dict(game.options)
    players = game.num_players
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    name = study_name or f"{game.spec.id}-{players}p"
    study = optuna.create_study(
        study_name=name,
        storage=f"sqlite:///{storage}",
        load_if_exists=True,
        direction="minimize",
        pruner=optuna.pruners.MedianPruner(n_startup_trials=5, n_warmup_steps=0),
    )
    # seeded, and differently when the study goes on (else a resumed study would ask for the same settings again)
    study.sampler = optuna.samplers.TPESampler(seed=seed + len(study.trials))
    per_stage = [games // stages + (1 if k < games % stages else 0) for k in range(stages)]

    def score(rows: Sequence[Mapping[str, Any]]) -> float:
        m = result_measures(rows, lower, seed)
        return sum(o.weight * o.value(m) for o in objectives)

    def objective(trial: Any) -> float:
        values: dict[str, Any] = {}
        for pname, lo, hi in ranges:
            if isinstance(lo, int) and isinstance(hi, int):
                values[pname] = trial.suggest_int(pname, lo, hi)
            else:
                values[pname] = trial.suggest_float(pname, float(lo), float(hi))
        options = {**base, **values}
        try:
            make_game(game.spec.id, players, options)
        except ConfigError as exc:
            trial.set_user_attr("refused", str(exc))
            raise optuna.TrialPruned() from None
        setup = Setup(game.spec.id, players, options, "trial")
        rows: list[dict[str, Any]] = []
        start = 0
        value = math.nan
        for k, count in enumerate(per_stage):
            rows += play_rows(setup, bots, engine, seed, start, count, jobs)
            start += count
            value = score(rows)
            trial.report(value, k)
            if trial.should_prune():
                raise optuna.TrialPruned()
        return value

    def callback(_: Any, frozen: Any) -> None:
        if progress is not None:
            progress(frozen.number, frozen.value)

    left = trials - len(study.trials)
    if left > 0:
        study.optimize(objective, n_trials=left, callbacks=[callback])
    complete = [t for t in study.trials if t.state == optuna.trial.TrialState.COMPLETE]
    if not complete:
        raise ZigguratError("no trial finished (every setting was refused or stopped): widen the ranges")
    best = study.best_trial
    best_options = {**base, **best.params}
    setup = Setup(game.spec.id, players, best_options, "best")
    n_confirm = games if confirm_games is None else confirm_games
    fresh = seed + 1_000_003  # other seeds than the study's: the best of many is flattered on its own seeds
    rows = play_rows(setup, bots, engine, fresh, 0, n_confirm, jobs)
    confirm = result_measures(rows, lower, fresh)
    history = [
        {"number": t.number, "state": t.state.name.lower(), "value": t.value, "params": dict(t.params),
         "refused": t.user_attrs.get("refused")}
        for t in study.trials
    ]  # fmt: skip
    assert best.value is not None  # a complete trial has its value
    return TuneResult(dict(best.params), float(best.value), confirm, score(rows), history)


def plot_history(result: TuneResult, ranges: Sequence[tuple[str, Any, Any]], out: Path) -> list[Path]:
    """The study's history: each trial's objective and the best so far; the objective against each parameter."""
    from matplotlib.figure import Figure

    paths = []
    done = [h for h in result.history if h["state"] == "complete"]
    fig = Figure(figsize=(7, 4), dpi=100)
    ax = fig.subplots()
    ax.scatter([h["number"] for h in done], [h["value"] for h in done], s=12, label="trial")
    pruned = [h["number"] for h in result.history if h["state"] == "pruned"]
    if pruned:
        top = max((h["value"] for h in done), default=1.0)
        ax.scatter(pruned, [top] * len(pruned), s=12, marker="x", color="grey", label="stopped early")
    best, line = math.inf, []
    for h in sorted(done, key=lambda h: h["number"]):
        best = min(best, h["value"])
        line.append((h["number"], best))
    if line:
        ax.step([x for x, _ in line], [y for _, y in line], where="post", color="C3", label="best so far")
    ax.set_xlabel("trial")
    ax.set_ylabel("objective (smaller is better)")
    ax.set_title("Tuning history")
    ax.legend(fontsize=8)
    fig.tight_layout()
    paths.append(out / "tune_history.png")
    fig.savefig(paths[-1], format="png")
    for pname, _, _ in ranges:
        fig = Figure(figsize=(7, 4), dpi=100)
        ax = fig.subplots()
        pts = [(h["params"][pname], h["value"]) for h in done if pname in h["params"]]
        ax.scatter([x for x, _ in pts], [y for _, y in pts], s=12)
        ax.axvline(result.best[pname], color="C3", linestyle="--", label="best")
        ax.set_xlabel(pname)
        ax.set_ylabel("objective")
        ax.set_title(f"Objective against {pname}")
        ax.legend(fontsize=8)
        fig.tight_layout()
        paths.append(out / f"tune_{pname}.png")
        fig.savefig(paths[-1], format="png")
    return paths
