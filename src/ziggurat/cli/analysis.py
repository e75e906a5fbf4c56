"""The ``arena`` and ``simulate`` commands (registered on import by ``ziggurat.cli.main``)."""

from __future__ import annotations

import html
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from ziggurat.analysis.backends import BACKENDS, default_jobs
from ziggurat.analysis.measures import fmt_interval, measure_setups, measures_html, result_measures
from ziggurat.analysis.report import arena_summary, ends_line, write_report
from ziggurat.analysis.runfiles import RowLog, check_done, load_spec, read_rows, save_spec, write_rows
from ziggurat.analysis.simulate import (
    Setup,
    arena,
    arena_tasks,
    check_bots,
    expected_seeds,
    simulate,
    simulate_tasks,
    variant_setups,
)
from ziggurat.analysis.stats import fmt_rate
from ziggurat.analysis.sweep import plot_sweep, setting_values, sweep_html, sweep_rows, sweep_setups
from ziggurat.cli.main import PARAM_HELP, app, build_game, check_output_file, check_output_folder, console, fail
from ziggurat.core import ZigguratError, make_game
from ziggurat.core.game import Game
from ziggurat.core.params import non_printed_note, parse_assignments, parse_sweep
from ziggurat.core.record import refuse_content_paths


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


def _interrupted(done: int, total: int, where: Path | None, resume: str) -> typer.Exit:
    """Ctrl-C: say what was kept and how to go on; the exit to raise."""
    if where is None:
        console.print(Text(f"stopped after {done} of {total} games; nothing was kept (give an output to keep games)"))
    else:
        console.print(Text(f"stopped: {done} of {total} games kept in {where}"))
        console.print(Text(f"to go on: {resume}", style="bold"))
    return typer.Exit(130)


DEFAULT_MEASURE_GAMES = 200
CHEAP_BOTS = frozenset({"random", "greedy"})
"""Bots whose games are followed move by move by default (a search bot's game would be played again at its cost)."""


def default_measure_games(bots: list[str]) -> int:
    """Games followed move by move when ``--measure-games`` is not given: 200 with cheap bots, else none."""
    return DEFAULT_MEASURE_GAMES if set(bots) <= CHEAP_BOTS else 0


def _no_run_options(given: dict[str, Any]) -> None:
    named = [name for name, value in given.items() if value not in (None, [], False)]
    if named:
        raise ZigguratError(
            "--resume takes the run from its description: give none of " + ", ".join(f"--{n}" for n in named)
        )


def _game_from_spec(spec: dict[str, Any], allow_paths: bool) -> Game:
    try:
        if not allow_paths:
            refuse_content_paths(str(spec["game"]), dict(spec["options"]), "the run description")
        return make_game(str(spec["game"]), int(spec["players"]), dict(spec["options"]))
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, ZigguratError):
            raise
        raise ZigguratError(f"the run description is incomplete or corrupt ({exc!r})") from None


@app.command("arena")
def arena_command(
    game: Annotated[str | None, typer.Argument(help="game id or name, e.g. kuhnah (not with --resume)")] = None,
    bots: Annotated[
        str | None, typer.Option(help="comma-separated bots, e.g. ismcts,greedy,random [default: greedy,random]")
    ] = None,
    games: Annotated[int | None, typer.Option("--games", "-n", help="games per group of bots [default: 100]")] = None,
    players: Annotated[int | None, typer.Option("--players", "-p", help="number of players [default: 2]")] = None,
    seed: Annotated[int | None, typer.Option(help="seed of the whole run [default: 0]")] = None,
    bot_option: Annotated[
        list[str] | None, typer.Option("--bot-option", "-b", help="BOT.NAME=VALUE, e.g. ismcts.seconds=1 (repeatable)")
    ] = None,
    variant: Annotated[list[str] | None, typer.Option("--variant", "-v", help="a rule variant (repeatable)")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="NAME=VALUE (repeatable)")] = None,
    param: Annotated[list[str] | None, typer.Option("--param", help=PARAM_HELP)] = None,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", help="worker processes (default: every core)")] = None,
    backend: Annotated[str, typer.Option(help="process or ray")] = "process",
    address: Annotated[str | None, typer.Option(help="Ray cluster address, or 'local'")] = None,
    csv: Annotated[Path | None, typer.Option(help="write one row per game to this CSV file, as games finish")] = None,
    resume: Annotated[Path | None, typer.Option(help="finish a stopped arena: the CSV it was writing (--csv)")] = None,
    allow_content_paths: Annotated[
        bool, typer.Option("--allow-content-paths", help="with --resume: let the run name content files to read")
    ] = False,
) -> None:
    """Round-robin tournament with rotated seats: win rates (95% Wilson intervals) and ratings."""
    previous: list[dict[str, Any]] = []
    try:
        n_jobs = _check_backend(backend, jobs)
        if resume is not None:
            _no_run_options({"game": game, "bots": bots, "games": games, "players": players, "seed": seed,
                             "bot-option": bot_option, "variant": variant, "option": option, "param": param,
                             "csv": csv})  # fmt: skip
            csv = resume
            spec = load_spec(_arena_spec_path(csv), "arena")
            g = _game_from_spec(spec, allow_content_paths)
            names, games, seed, opts = list(spec["bots"]), int(spec["games"]), int(spec["seed"]), spec["bot_options"]
        else:
            if game is None:
                raise ZigguratError("name a game (ziggurat games lists them), or --resume a stopped arena")
            g = build_game(game, 2 if players is None else players, variant, option, params=param)
            names = parse_bots("greedy,random" if bots is None else bots)
            games = 100 if games is None else games
            seed = 0 if seed is None else seed
            opts = parse_bot_options(bot_option)
        if games < 1:
            raise ZigguratError(f"--games must be at least 1, not {games}")
        if csv is not None:
            check_output_file(csv, "write")
        check_bots(g, names, opts)
        setup = _setup_of(g)
        tasks = arena_tasks(names, g.num_players, games)
        if csv is not None:
            if resume is not None:
                previous = read_rows(csv)
                check_done(previous, expected_seeds(tasks, seed), csv)
            else:
                save_spec(_arena_spec_path(csv), {"command": "arena", "game": g.spec.id, "players": g.num_players,
                                                  "options": g.params()["options"], "bots": names, "games": games,
                                                  "seed": seed, "bot_options": opts})  # fmt: skip
    except ZigguratError as exc:
        raise fail(str(exc)) from None
    log = RowLog(csv, previous) if csv is not None else None
    t0 = time.perf_counter()
    try:
        with _progress() as bar:
            task = bar.add_task(f"arena {g.spec.id}", total=len(tasks), completed=len(previous))
            result = arena(setup, names, games, seed, n_jobs, opts, backend, address,
                           lambda k: bar.advance(task, k), previous, log.add if log is not None else None)  # fmt: skip
    except KeyboardInterrupt:
        done = len(previous) + (log.count if log is not None else 0)
        raise _interrupted(done, len(tasks), csv, f"ziggurat arena --resume {csv}") from None
    except ZigguratError as exc:
        raise fail(str(exc)) from None
    finally:
        if log is not None:
            log.close()
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
    note = non_printed_note(g)
    if note is not None:
        console.print(Text(f"{note}: not the rulebook's game", style="bold yellow"))
    console.print(Text(f"{summary['games']} games in {elapsed:.1f}s", style="dim"))
    if csv is not None:
        write_rows(csv, result.rows)  # in index order: the same file as an uninterrupted run
        console.print(Text(f"rows written to {csv}", style="dim"))


def _print_setup(g: Game, label: str, s: dict[str, Any], seed: int) -> None:
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
    if s["ends"]:
        console.print(f"  ends: {ends_line(s['ends'])}", highlight=False)


def _arena_spec_path(csv: Path) -> Path:
    return csv.with_name(csv.name + ".run.json")


@app.command("simulate")
def simulate_command(
    game: Annotated[str | None, typer.Argument(help="game id or name, e.g. kuhnah (not with --resume)")] = None,
    players: Annotated[int | None, typer.Option("--players", "-p", help="number of players")] = None,
    bots: Annotated[
        str | None, typer.Option(help="comma-separated bots, one per seat (repeated to fill) [default: random]")
    ] = None,
    games: Annotated[int | None, typer.Option("--games", "-n", help="games per setup [default: 1000]")] = None,
    seed: Annotated[int | None, typer.Option(help="seed of the whole run [default: 0]")] = None,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", help="worker processes (default: every core)")] = None,
    out: Annotated[
        Path | None, typer.Option(help="folder for games.csv (written as games finish), plots and report.html")
    ] = None,
    variant: Annotated[list[str] | None, typer.Option("--variant", "-v", help="a rule variant (repeatable)")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="NAME=VALUE (repeatable)")] = None,
    param: Annotated[list[str] | None, typer.Option("--param", help=PARAM_HELP)] = None,
    sweep: Annotated[
        list[str] | None,
        typer.Option(
            "--sweep", help="NAME=a,b,c: play every combination of swept parameters on the same seeds (repeatable)"
        ),
    ] = None,
    measure_games: Annotated[
        int | None,
        typer.Option(
            help="games per setup followed move by move for the quality measures, played again with the same bots "
            "(0: none) [default: 200 with random and greedy bots, else 0]"
        ),
    ] = None,
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
        str | None, typer.Option(help="python, or fast: compiled kernels for random bots (the fast extra)")
    ] = None,
    resume: Annotated[Path | None, typer.Option(help="finish a stopped run: its --out folder")] = None,
    allow_content_paths: Annotated[
        bool, typer.Option("--allow-content-paths", help="with --resume: let the run name content files to read")
    ] = False,
) -> None:
    """Play many bot games: seat win rates, scores, margins, length; CSV, plots and an HTML report."""
    previous: list[dict[str, Any]] = []
    try:
        n_jobs = _check_backend(backend, jobs)
        if backend == "ray" and address is None:
            address = "local"
        if resume is not None:
            _no_run_options({"game": game, "players": players, "bots": bots, "games": games, "seed": seed,
                             "out": out, "variant": variant, "option": option, "compare-variants": compare_variants,
                             "rotate": rotate, "bot-option": bot_option, "engine": engine, "param": param,
                             "sweep": sweep, "measure-games": measure_games})  # fmt: skip
            out = resume
            spec = load_spec(out / "run.json", "simulate")
            g = _game_from_spec(spec, allow_content_paths)
            names, games, seed, opts = list(spec["bots"]), int(spec["games"]), int(spec["seed"]), spec["bot_options"]
            rotate, compare_variants = bool(spec["rotate"]), bool(spec["compare_variants"])
            engine = str(spec.get("engine", "python"))
            sweeps = parse_sweep(g.spec, [f"{n}={','.join(map(str, v))}" for n, v in spec.get("sweep", [])])
            n_measure = int(spec.get("measure_games", default_measure_games(names)))
        else:
            if game is None:
                raise ZigguratError("name a game (ziggurat games lists them), or --resume a stopped run")
            g = build_game(game, players, variant, option, params=param)
            sweeps = parse_sweep(g.spec, sweep or [])
            names = parse_bots("random" if bots is None else bots)
            n_measure = default_measure_games(names) if measure_games is None else measure_games
            games = 1000 if games is None else games
            seed = 0 if seed is None else seed
            opts = parse_bot_options(bot_option)
            engine = "python" if engine is None else engine
        if games < 1:
            raise ZigguratError(f"--games must be at least 1, not {games}")
        if engine not in ("python", "fast"):
            raise ZigguratError(f"unknown engine {engine!r} (engines: python, fast)")
        if out is not None:
            check_output_folder(out, "write the run to")
        check_bots(g, names, opts)
        if n_measure < 0:
            raise ZigguratError(f"--measure-games must be 0 or more, not {n_measure}")
        if sweeps and compare_variants:
            raise ZigguratError("--sweep and --compare-variants each compare setups: give one of them")
        if sweeps:
            fixed = parse_assignments(g.spec, param or [])
            for name, _ in sweeps:
                if name in fixed:
                    raise ZigguratError(f"{name!r} is both set (--param) and swept (--sweep)")
            setups = sweep_setups(g, sweeps)
        else:
            setups = variant_setups(g.spec.id, g.num_players, dict(g.options), compare_variants)
        for s in setups:
            s.make()
        if engine == "fast":
            from ziggurat.fast.simulate import check_fast

            check_fast(setups, names)
        tasks = simulate_tasks(setups, names, games, rotate)
        if out is not None:
            if resume is not None:
                previous = read_rows(out / "games.csv")
                check_done(previous, expected_seeds(tasks, seed), out / "games.csv")
            else:
                save_spec(out / "run.json", {"command": "simulate", "game": g.spec.id, "players": g.num_players,
                                             "options": g.params()["options"], "bots": names, "games": games,
                                             "seed": seed, "bot_options": opts, "rotate": rotate,
                                             "compare_variants": compare_variants, "engine": engine,
                                             "sweep": [[n, list(v)] for n, v in sweeps],
                                             "measure_games": n_measure})  # fmt: skip
    except ZigguratError as exc:
        raise fail(str(exc)) from None
    if engine == "fast":
        previous = []  # the kernels play whole batches: a stopped fast run is played again
    log = RowLog(out / "games.csv", previous) if out is not None else None
    t0 = time.perf_counter()
    try:
        with _progress() as bar:
            task = bar.add_task(f"simulate {g.spec.id}", total=len(tasks), completed=len(previous))
            if engine == "fast":  # compiled batches: rows at the end (a stopped run starts again, in seconds)
                from ziggurat.fast.simulate import simulate_fast

                result = simulate_fast(setups, names, games, seed, n_jobs, backend, address,
                                       lambda k: bar.advance(task, k))  # fmt: skip
                if log is not None:
                    log.add(result.rows)
            else:
                result = simulate(setups, names, games, seed, n_jobs, rotate, opts, backend, address,
                                  lambda k: bar.advance(task, k), previous,
                                  log.add if log is not None else None)  # fmt: skip
    except KeyboardInterrupt:
        done = len(previous) + (log.count if log is not None else 0)
        raise _interrupted(done, len(tasks), out, f"ziggurat simulate --resume {out}") from None
    except ZigguratError as exc:
        raise fail(str(exc)) from None
    finally:
        if log is not None:
            log.close()
    elapsed = time.perf_counter() - t0
    lower = g.spec.lower_score_wins
    title = f"{g.spec.name}: {games} games per setup, {g.num_players} players, bots {', '.join(names)}"
    note = non_printed_note(g)
    if note is not None:
        title += f" [{note}]"
    by_setup: dict[str, list[dict[str, Any]]] = {st.label: [] for st in setups}
    for r in result.rows:
        by_setup[r["setup"]].append(r)
    measured = {label: result_measures(rows, lower, seed) for label, rows in by_setup.items()}
    play: dict[str, dict[str, dict[str, float]]] = {}
    n_follow = min(n_measure, games)
    play_note = ""
    if n_follow:
        try:
            with _progress() as bar:
                task = bar.add_task("measures (move by move)", total=n_follow * len(setups))
                play = measure_setups(setups, names, n_follow, seed, rotate, opts, n_jobs,
                                      lambda k: bar.advance(task, k))  # fmt: skip
        except KeyboardInterrupt:
            console.print(Text("measures stopped: the report has the results' measures only", style="dim"))
        except ZigguratError as exc:
            raise fail(str(exc)) from None
        engine_words = "the Python engine (the same seeds as the games above)" if engine == "python" else (
            "the Python engine (a sample of its own: the kernels' games are not followed)")  # fmt: skip
        play_note = f"Move-by-move measures: the first {n_follow} games of each setup, followed in {engine_words}."
    else:
        play_note = ("Move-by-move measures (lead changes, drama, decisiveness, branching): give --measure-games N "
                     "to follow N games of each setup, played again with the same bots.")  # fmt: skip
    extra: dict[str, Any] = {"measures": {"results": measured, "play": play, "play_games": n_follow}}
    sections = [measures_html(measured, play, play_note)]
    if note is not None:
        sections.insert(0, f"<p><strong>{html.escape(note)}</strong>: not the rulebook's game, never rated.</p>")
    if sweeps:
        extra["sweep"] = {"parameters": [[n, list(v)] for n, v in sweeps],
                          "settings": [{"label": st.label, **setting_values(st, sweeps)} for st in setups]}  # fmt: skip
        sections.insert(0, sweep_html(setups, sweeps, measured, play))
    if out is not None:
        try:
            more = plot_sweep(setups, sweeps, measured, play, out) if sweeps else []
            summary = write_report(result, out, title, lower, extra, sections, more)
        except OSError as exc:
            raise fail(f"cannot write the report to {out}: {exc.strerror or exc}") from None
    else:
        from ziggurat.analysis.report import summarise

        summary = summarise(result, lower)
    if note is not None:
        console.print(Text(f"{note}: not the rulebook's game", style="bold yellow"))
    if sweeps:
        head, body = sweep_rows(setups, sweeps, measured, play, compact=True)
        table = Table(
            title=f"{g.spec.name} sweep: {games} games per setting on the same seeds, seed {seed} "
            "(mean ± half the 95% interval; % for shares; every measure in the report)"
        )
        for col in head:
            table.add_column(col, justify="right")
        for row in body:
            table.add_row(*row)
        console.print(table)
    else:
        for label, s in summary["setups"].items():
            _print_setup(g, label, s, seed)
            m = {**measured.get(label, {}), **{k: v for k, v in play.get(label, {}).items() if k != "length"}}
            if m:
                console.print("  measures: " + "; ".join(f"{k} {fmt_interval(v)}" for k, v in m.items()),
                              highlight=False)  # fmt: skip
    n_games = len(result.rows) - len(previous)
    console.print(Text(f"{n_games} games in {elapsed:.1f}s ({n_games / max(elapsed, 1e-9):.0f} games/s)", style="dim"))
    if out is not None:
        console.print(Text(f"report: {out / 'report.html'} (games.csv, summary.json, plots alongside)", style="dim"))
