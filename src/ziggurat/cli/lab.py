"""The ``tune`` command: search parameters for a goal with Optuna (registered on import by ``ziggurat.cli.main``)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from ziggurat.analysis.measures import RESULT_MEASURES, fmt_interval
from ziggurat.cli.main import app, build_game, check_output_folder, console, fail
from ziggurat.core import ZigguratError


@app.command("tune")
def tune_command(
    game: Annotated[str, typer.Argument(help="game id or name, e.g. kuhnah")],
    param: Annotated[list[str], typer.Option("--param", help="NAME=LOW..HIGH: a parameter to search (repeatable)")],
    objective: Annotated[
        list[str],
        typer.Option(
            "--objective",
            help="fairness, length:TARGET, p1:BOUND or decisive, each optionally *WEIGHT (repeatable: summed)",
        ),
    ],
    study: Annotated[Path, typer.Option(help="the study's SQLite file (made, or gone on with)")],
    trials: Annotated[int, typer.Option(help="trials the study should have in all")] = 100,
    games: Annotated[int, typer.Option("--games", "-n", help="games per trial, played in stages")] = 2000,
    stages: Annotated[int, typer.Option(help="stages of a trial (a clearly worse one stops after one)")] = 4,
    confirm_games: Annotated[
        int | None, typer.Option(help="games of the best setting on fresh seeds [default: --games]")
    ] = None,
    players: Annotated[int | None, typer.Option("--players", "-p", help="number of players")] = None,
    bots: Annotated[str, typer.Option(help="comma-separated bots, one per seat (repeated to fill)")] = "random",
    variant: Annotated[list[str] | None, typer.Option("--variant", "-v", help="a rule variant (repeatable)")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="NAME=VALUE (repeatable)")] = None,
    engine: Annotated[str, typer.Option(help="python, or fast (compiled kernels, random bots)")] = "python",
    seed: Annotated[int, typer.Option(help="seed of the games and the sampler")] = 0,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="worker processes per trial (python engine)")] = 1,
    out: Annotated[Path | None, typer.Option(help="folder for tune.json and the history plots")] = None,
) -> None:
    """Search parameters for a goal (Optuna: a study in SQLite that resumes; worse settings stopped early)."""
    from ziggurat.analysis.simulate import check_bots
    from ziggurat.analysis.tune import parse_objective, parse_range, plot_history, tune
    from ziggurat.cli.analysis import parse_bots

    try:
        g = build_game(game, players, variant, option)
        ranges = [parse_range(g.spec, p) for p in param]
        if len({n for n, _, _ in ranges}) != len(ranges):
            raise ZigguratError("--param names a parameter twice")
        goals = [parse_objective(o) for o in objective]
        names = parse_bots(bots)
        check_bots(g, names)
        if engine not in ("python", "fast"):
            raise ZigguratError(f"unknown engine {engine!r} (engines: python, fast)")
        if engine == "fast":
            from ziggurat.analysis.simulate import Setup
            from ziggurat.fast.simulate import check_fast

            check_fast([Setup(g.spec.id, g.num_players, dict(g.options))], names)
        if jobs < 1:
            raise ZigguratError(f"--jobs must be at least 1, not {jobs}")
        if confirm_games is not None and confirm_games < 1:
            raise ZigguratError(f"--confirm-games must be at least 1, not {confirm_games}")
        if not study.parent.is_dir():
            raise ZigguratError(f"cannot keep the study in {study}: folder {study.parent} does not exist")
        if out is not None:
            check_output_folder(out, "write the study's report to")
    except ZigguratError as exc:
        raise fail(str(exc)) from None

    t0 = time.perf_counter()

    def progress(number: int, value: float | None) -> None:
        words = "stopped early" if value is None else f"{value:.4f}"
        console.print(Text(f"trial {number}: {words}", style="dim"))

    try:
        result = tune(g, ranges, goals, study, trials, games, seed, names, engine, stages, confirm_games, jobs,
                      progress=progress)  # fmt: skip
    except KeyboardInterrupt:
        console.print(Text(f"stopped: the finished trials are kept in {study}; run the same command to go on"))
        raise typer.Exit(130) from None
    except ZigguratError as exc:
        raise fail(str(exc)) from None
    elapsed = time.perf_counter() - t0
    states = [h["state"] for h in result.history]
    console.print(
        Text(
            f"{len(states)} trials ({states.count('complete')} complete, {states.count('pruned')} stopped early) "
            f"in {elapsed:.1f}s this run; study {study}",
            style="dim",
        )
    )
    best = ", ".join(f"{k}={v}" for k, v in result.best.items())
    console.print(Text(f"best: {best} (objective {result.best_value:.4f} on the study's seeds)", style="bold"))
    table = Table(title=f"The best setting again on fresh seeds: objective {result.confirm_value:.4f}")
    table.add_column("measure")
    table.add_column("value [95% CI]", justify="right")
    for name, m in result.confirm.items():
        percent = name in ("seat1_advantage", "shared_wins")
        table.add_row(RESULT_MEASURES.get(name, name), fmt_interval(m, 1 if percent else 2, percent))
    console.print(table)
    if out is not None:
        try:
            plots = plot_history(result, ranges, out)
            doc = {"game": g.spec.id, "players": g.num_players, "options": g.params()["options"],
                   "objectives": objective, "ranges": [[n, lo, hi] for n, lo, hi in ranges], "best": result.best,
                   "best_value": result.best_value, "confirm": result.confirm,
                   "confirm_value": result.confirm_value, "history": result.history}  # fmt: skip
            (out / "tune.json").write_text(json.dumps(doc, indent=1))
        except OSError as exc:
            raise fail(f"cannot write to {out}: {exc.strerror or exc}") from None
        console.print(Text(f"tune.json and {', '.join(p.name for p in plots)} in {out}", style="dim"))
