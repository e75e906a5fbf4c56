"""The ``arena`` and ``simulate`` commands (registered on import by ``ziggurat.cli.main``)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from ziggurat.analysis.backends import BACKENDS, default_jobs
from ziggurat.analysis.report import arena_summary, write_csv, write_report
from ziggurat.analysis.simulate import Setup, arena, check_bots, simulate, variant_setups
from ziggurat.analysis.stats import fmt_rate
from ziggurat.cli.main import app, build_game, console, fail
from ziggurat.core import ZigguratError
from ziggurat.core.game import Game


def parse_value(raw: str) -> Any:
    """A command-line value: int, float, true/false, or the text itself.

    >>> parse_value("1"), parse_value("0.5"), parse_value("true"), parse_value("heuristic")
    (1, 0.5, True, 'heuristic')
    """
    text = raw.strip()
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_bot_options(items: list[str] | None) -> dict[str, dict[str, Any]]:
    """``["ismcts.seconds=1"]`` -> ``{"ismcts": {"seconds": 1}}`` (clear errors otherwise)."""
    out: dict[str, dict[str, Any]] = {}
    for item in items or []:
        if "=" not in item or "." not in item.split("=", 1)[0]:
            raise ZigguratError(f"--bot-option takes BOT.NAME=VALUE (e.g. ismcts.seconds=1), not {item!r}")
        key, value = item.split("=", 1)
        bot, name = key.split(".", 1)
        bot, name = bot.strip().lower(), name.strip().replace("-", "_")
        if not bot or not name:
            raise ZigguratError(f"--bot-option takes BOT.NAME=VALUE (e.g. ismcts.seconds=1), not {item!r}")
        out.setdefault(bot, {})[name] = parse_value(value)
    return out


def parse_bots(text: str) -> list[str]:
    """Comma-separated bot names (checked later against the registry)."""
    names = [b.strip().lower() for b in text.split(",") if b.strip()]
    if not names:
        raise ZigguratError("--bots names no bot")
    return names


def _setup_of(game: Game, label: str = "base") -> Setup:
    return Setup(game.spec.id, game.num_players, dict(game.options), label)


def _progress() -> Progress:
    return Progress(
        TextColumn("{task.description}", style="bold", markup=False),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=False,
    )


def _check_backend(backend: str, jobs: int | None) -> int:
    if backend not in BACKENDS:
        raise ZigguratError(f"unknown backend {backend!r} (backends: {', '.join(BACKENDS)})")
    if jobs is not None and jobs < 1:
        raise ZigguratError(f"--jobs must be at least 1, not {jobs}")
    return jobs if jobs is not None else default_jobs()


@app.command("arena")
def arena_command(
    game: Annotated[str, typer.Argument(help="game id or name, e.g. kuhnah")],
    bots: Annotated[str, typer.Option(help="comma-separated bots, e.g. ismcts,greedy,random")] = "greedy,random",
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="games per group of bots")] = 100,
    players: Annotated[int, typer.Option("--players", "-p", help="number of players")] = 2,
    seed: Annotated[int, typer.Option(help="seed of the whole run")] = 0,
    bot_option: Annotated[
        list[str] | None, typer.Option("--bot-option", "-b", help="BOT.NAME=VALUE, e.g. ismcts.seconds=1 (repeatable)")
    ] = None,
    variant: Annotated[list[str] | None, typer.Option("--variant", "-v", help="a rule variant (repeatable)")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="NAME=VALUE (repeatable)")] = None,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", help="worker processes (default: every core)")] = None,
    backend: Annotated[str, typer.Option(help="process or ray")] = "process",
    address: Annotated[str | None, typer.Option(help="Ray cluster address, or 'local'")] = None,
    csv: Annotated[Path | None, typer.Option(help="also write one row per game to this CSV file")] = None,
) -> None:
    """Round-robin tournament with rotated seats: win rates (95% Wilson intervals) and ratings."""
    try:
        g = build_game(game, players, variant, option)
        names = parse_bots(bots)
        opts = parse_bot_options(bot_option)
        check_bots(g, names, opts)
        n_jobs = _check_backend(backend, jobs)
        if csv is not None and not csv.parent.exists():
            raise ZigguratError(f"cannot write {csv}: folder {csv.parent} does not exist")
        setup = _setup_of(g)
        from ziggurat.analysis.simulate import arena_tasks

        total = len(arena_tasks(names, g.num_players, games))
        t0 = time.perf_counter()
        with _progress() as bar:
            task = bar.add_task(f"arena {g.spec.id}", total=total)
            result = arena(setup, names, games, seed, n_jobs, opts, backend, address, lambda k: bar.advance(task, k))
    except ZigguratError as exc:
        raise fail(str(exc)) from None
    elapsed = time.perf_counter() - t0
    summary = arena_summary(result)
    table = Table(title=f"Arena: {g.describe()}, {summary['games']} games, seed {seed}")
    for col in ("bot", "games", "win rate [95% CI]", "rating (BT, Elo scale)"):
        table.add_column(col, justify="right" if col != "bot" else "left")
    ranked = sorted(summary["bots"].items(), key=lambda kv: -kv[1]["rating"])
    for name, b in ranked:
        w = b["win"]
        table.add_row(name, str(b["games"]), fmt_rate(w["rate"] * w["n"], w["n"]), f"{b['rating']:.0f}")
    console.print(table)
    if summary["head_to_head"]:
        h2h = Table(title="Head to head (ahead of the other; draws count half)")
        h2h.add_column("pairing")
        h2h.add_column("score [95% CI]", justify="right")
        for k, r in summary["head_to_head"].items():
            h2h.add_row(k, fmt_rate(r["rate"] * r["n"], int(r["n"])))
        console.print(h2h)
    console.print(f"{summary['games']} games in {elapsed:.1f}s", style="dim")
    if csv is not None:
        write_csv(result.rows, csv)
        console.print(f"rows written to {csv}", style="dim")


@app.command("simulate")
def simulate_command(
    game: Annotated[str, typer.Argument(help="game id or name, e.g. kuhnah")],
    players: Annotated[int | None, typer.Option("--players", "-p", help="number of players")] = None,
    bots: Annotated[str, typer.Option(help="comma-separated bots, one per seat (repeated to fill)")] = "random",
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="games per setup")] = 1000,
    seed: Annotated[int, typer.Option(help="seed of the whole run")] = 0,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", help="worker processes (default: every core)")] = None,
    out: Annotated[Path | None, typer.Option(help="folder for games.csv, plots and report.html")] = None,
    variant: Annotated[list[str] | None, typer.Option("--variant", "-v", help="a rule variant (repeatable)")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="NAME=VALUE (repeatable)")] = None,
    compare_variants: Annotated[
        bool, typer.Option("--compare-variants", help="also run with each other variant on; compare (same seeds)")
    ] = False,
    rotate: Annotated[bool, typer.Option(help="rotate the bots round the seats from game to game")] = False,
    bot_option: Annotated[
        list[str] | None, typer.Option("--bot-option", "-b", help="BOT.NAME=VALUE (repeatable)")
    ] = None,
    backend: Annotated[str, typer.Option(help="process or ray")] = "process",
    address: Annotated[str | None, typer.Option(help="Ray cluster address, or 'local' to start one here")] = None,
    engine: Annotated[
        str, typer.Option(help="python, or fast: compiled kernels for random bots (the fast extra)")
    ] = "python",
) -> None:
    """Play many bot games: seat win rates, scores, margins, length; CSV, plots and an HTML report."""
    try:
        g = build_game(game, players, variant, option)
        names = parse_bots(bots)
        opts = parse_bot_options(bot_option)
        check_bots(g, names, opts)
        n_jobs = _check_backend(backend, jobs)
        if backend == "ray" and address is None:
            address = "local"
        setups = variant_setups(g.spec.id, g.num_players, dict(g.options), compare_variants)
        for s in setups:
            s.make()
        if out is not None and out.exists() and not out.is_dir():
            raise ZigguratError(f"--out {out} is a file, not a folder")
        if engine not in ("python", "fast"):
            raise ZigguratError(f"unknown engine {engine!r} (engines: python, fast)")
        if engine == "fast":
            from ziggurat.fast.simulate import check_fast

            check_fast(setups, names)
        t0 = time.perf_counter()
        with _progress() as bar:
            task = bar.add_task(f"simulate {g.spec.id}", total=games * len(setups))
            if engine == "fast":
                from ziggurat.fast.simulate import simulate_fast

                result = simulate_fast(
                    setups, names, games, seed, n_jobs, backend, address, lambda k: bar.advance(task, k)
                )
            else:
                result = simulate(
                    setups, names, games, seed, n_jobs, rotate, opts, backend, address, lambda k: bar.advance(task, k)
                )
    except ZigguratError as exc:
        raise fail(str(exc)) from None
    elapsed = time.perf_counter() - t0
    lower = g.spec.lower_score_wins
    title = f"{g.spec.name}: {games} games per setup, {g.num_players} players, bots {', '.join(names)}"
    if out is not None:
        summary = write_report(result, out, title, lower)
    else:
        from ziggurat.analysis.report import summarise

        summary = summarise(result, lower)
    for label, s in summary["setups"].items():
        table = Table(title=f"{g.spec.name} — {label}: {s['games']} games, {s['players']} players, seed {seed}")
        for col in ("seat", "win rate [95% CI]", "mean score", "sd"):
            table.add_column(col, justify="right")
        for x in s["seats"]:
            w = x["win"]
            table.add_row(str(x["seat"]), fmt_rate(w["rate"] * w["n"], w["n"]), f"{x['score_mean']:.2f}",
                          f"{x['score_sd']:.2f}")  # fmt: skip
        console.print(table)
        if len(s["bots"]) > 1:
            console.print(
                "  by bot: "
                + "; ".join(
                    f"{b} {fmt_rate(v['win']['rate'] * v['win']['n'], v['win']['n'])}" for b, v in s["bots"].items()
                ),
                highlight=False,
            )
        ln, mg = s["length"], s["margin"]
        margin = "" if s["players"] < 2 else f"winning margin {mg['mean']:.2f}; "
        console.print(
            f"  length {ln['mean']:.1f} decisions (sd {ln['sd']:.1f}); {margin}"
            f"shared wins {100 * s['shared_wins']['rate']:.1f}%",
            highlight=False,
        )
    n_games = len(result.rows)
    console.print(f"{n_games} games in {elapsed:.1f}s ({n_games / max(elapsed, 1e-9):.0f} games/s)", style="dim")
    if out is not None:
        console.print(f"report: {out / 'report.html'} (games.csv, summary.json, plots alongside)", style="dim")
