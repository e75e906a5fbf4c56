"""The ``ziggurat`` command: list games, print rules, play, replay (and analysis commands)."""

from __future__ import annotations

import json
import os
import secrets
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ziggurat.core import ZigguratError, bot_names, game_ids, get_bot, get_game
from ziggurat.core.game import Game
from ziggurat.core.params import parse_assignments
from ziggurat.core.registry import make_game

if TYPE_CHECKING:
    from ziggurat.core import GameRecord

app = typer.Typer(
    name="ziggurat",
    help="Five pyramid-building tabletop games: play them, simulate them, study them.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
# markup=False: text from users, files and records is printed as it is, never read as markup.
console = Console(markup=False)
err_console = Console(stderr=True, markup=False)


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print a clear error and return the exit to raise."""
    err_console.print(Text.assemble(("error:", "bold red"), " ", message), highlight=False, soft_wrap=True)
    return typer.Exit(code)


def build_game(
    game_name: str,
    players: int | None,
    variants: list[str] | None,
    options: list[str] | None,
    deck: Path | None = None,
    params: list[str] | None = None,
) -> Game:
    """Set up a game from command-line words; every mistake is a clear error.

    ``params`` are ``--param NAME=VALUE`` words: the game's parameters (:mod:`ziggurat.core.params`).
    """
    entry = get_game(game_name)
    spec = entry.game_class.spec
    chosen: dict[str, object] = {}
    for v in variants or []:
        opt = spec.option(v)
        if not opt.variant:
            raise ZigguratError(f"{opt.name!r} is an option, not a variant: use --option {opt.name}=VALUE")
        chosen[opt.name] = True
    for item in options or []:
        if "=" not in item:
            raise ZigguratError(f"--option takes NAME=VALUE, not {item!r}")
        name, value = item.split("=", 1)
        chosen[spec.option(name.strip()).name] = value.strip()
    if deck is not None:
        deck_opt = spec.option("deck")
        chosen[deck_opt.name] = str(deck)
    for pname, pvalue in parse_assignments(spec, params or []).items():
        if pname in chosen:
            raise ZigguratError(f"{pname!r} is set by both --option and --param")
        chosen[pname] = pvalue
    return make_game(spec.id, players, chosen)


PARAM_HELP = "NAME=VALUE: one of the rulebook's numbers changed (repeatable; ziggurat rules GAME lists them)"


@app.command()
def games() -> None:
    """List the games, their player counts, variants and options."""
    table = Table(title="Ziggurat games")
    for col in ("id", "name", "players", "variants", "options", "kind"):
        table.add_column(col)
    for gid in game_ids():
        spec = get_game(gid).game_class.spec
        kinds = []
        if spec.has_chance:
            kinds.append("chance")
        if spec.has_hidden_information:
            kinds.append("hidden info")
        if spec.has_simultaneous_moves:
            kinds.append("simultaneous")
        table.add_row(
            spec.id,
            spec.name,
            f"{spec.min_players}-{spec.max_players}",
            ", ".join(spec.variants) or "-",
            ", ".join(f"{o.name}={o.default}" for o in spec.options if not o.variant and not o.param) or "-",
            ", ".join(kinds) or "perfect information",
        )
    console.print(table)
    console.print("Bots: " + ", ".join(f"{b} ({get_bot(b).description})" for b in bot_names()), highlight=False)


@app.command()
def rules(game: Annotated[str, typer.Argument(help="game id or name, e.g. kuhnah")]) -> None:
    """Print a one-screen rules summary of a game."""
    try:
        entry = get_game(game)
    except ZigguratError as exc:
        raise fail(str(exc)) from None
    spec = entry.game_class.spec
    console.print(Text.assemble((spec.name, "bold"), f" ({spec.id})"), highlight=False)
    console.print(entry.rules, highlight=False, markup=False)
    if any(not o.param for o in spec.options):
        console.print("Options and variants:", style="bold")
        for o in spec.options:
            if o.param:
                continue
            kind = "variant" if o.variant else f"option, default {o.default}"
            console.print(f"  {o.name} ({kind}): {o.help}", highlight=False, markup=False)
    if spec.params:
        console.print("Parameters (--param NAME=VALUE; printed value, range):", style="bold")
        for o in spec.params:
            console.print(
                f"  {o.name} = {o.default} ({o.kind} {o.minimum}..{o.maximum}): {o.help}", highlight=False, markup=False
            )


@app.command()
def play(
    game: Annotated[str | None, typer.Argument(help="game id or name, e.g. kuhnah (not with --resume)")] = None,
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="number of players (default: as many as --seats, else 2)")
    ] = None,
    seats: Annotated[
        str | None, typer.Option(help="comma-separated seats: human or a bot name (default: you against random bots)")
    ] = None,
    seed: Annotated[int | None, typer.Option(help="seed for chance and bots (shown when the game is over)")] = None,
    variant: Annotated[list[str] | None, typer.Option("--variant", "-v", help="a rule variant (repeatable)")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="NAME=VALUE (repeatable)")] = None,
    deck: Annotated[Path | None, typer.Option(help="a card list file of your own (games with a deck option)")] = None,
    param: Annotated[list[str] | None, typer.Option("--param", help=PARAM_HELP)] = None,
    save: Annotated[Path | None, typer.Option(help="write the game record here (JSON), also if the game stops")] = None,
    resume: Annotated[
        Path | None, typer.Option(help="go on with the unfinished game of this record (from play --save)")
    ] = None,
    allow_content_paths: Annotated[
        bool, typer.Option("--allow-content-paths", help="with --resume: let the record name content files to read")
    ] = False,
    watch: Annotated[bool, typer.Option(help="with only bots: draw the table after every move")] = False,
) -> None:
    """Play a game in the terminal against bots or friends (hot seat); stop any time, go on with --resume."""
    from ziggurat.analysis.runfiles import sigint_deferred
    from ziggurat.cli.saves import read_save, write_save
    from ziggurat.cli.session import PlaySession
    from ziggurat.core import Match

    try:
        if save is not None:
            check_output_file(save, "save the record to")
        match = None
        if resume is not None:
            given = (game, players, deck, seed)
            if any(x is not None for x in given) or variant or option or param:
                raise ZigguratError("--resume takes the game, players, options and seed from the record: give none")
            record, _ = read_save(resume, allow_paths=allow_content_paths)
            match = Match.from_record(record)
            if match.state.is_terminal():
                raise ZigguratError(f"the game in {resume} is over: see it with ziggurat replay {resume}")
            if record.seed is None:
                match = Match(match.game, secrets.randbits(63), match.state)
            g = match.game
            names = seats if seats is not None else (",".join(record.seats) if record.seats else None)
            seat_names = _parse_seats(names, g.num_players)
            seed = match.seed
        else:
            if game is None:
                raise ZigguratError("name a game to play (ziggurat games lists them), or --resume a saved one")
            if players is None:
                spec = get_game(game).game_class.spec
                players = len(_split_seats(seats)) if seats else max(spec.min_players, min(2, spec.max_players))
            g = build_game(game, players, variant, option, deck, param)
            seat_names = _parse_seats(seats, g.num_players)
            if seed is None:
                seed = secrets.randbits(63)  # unguessable: the deal must not be found by trying seeds
        session = PlaySession(g, seat_names, seed, console=console, watch=watch, match=match)
    except ZigguratError as exc:
        raise fail(str(exc)) from None
    finished = session.run()
    if finished:
        console.print(Text(f"seed {seed} (use --seed {seed} to play this game again)", style="dim"))
    if save is not None:
        try:
            with sigint_deferred():
                write_save(session.match.record(seat_names), save)
        except OSError as exc:
            raise fail(f"cannot save the record to {save}: {exc.strerror or exc}") from None
        except ZigguratError as exc:
            raise fail(str(exc)) from None
        console.print(Text(f"record saved to {save}", style="dim"))
    if finished:
        return
    if save is not None:
        # never wrapped: the command must paste back whole, however narrow the terminal
        console.print(Text(f"to go on: ziggurat play --resume {save}", style="dim"), soft_wrap=True)
    else:
        console.print(Text("nothing was saved (give --save FILE to keep an unfinished game)", style="dim"))
    raise typer.Exit(130 if session.interrupted else 1)


def check_output_file(path: Path, what: str = "write") -> None:
    """Fail now, before any work, if ``path`` cannot be written (a folder, no such folder, no permission)."""
    if path.is_dir():
        raise ZigguratError(f"cannot {what} {path}: it is a folder")
    if not path.parent.is_dir():
        raise ZigguratError(f"cannot {what} {path}: folder {path.parent} does not exist")
    existed = path.exists()
    try:
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as exc:
        raise ZigguratError(f"cannot {what} {path}: {exc.strerror or exc}") from None
    if not existed:
        path.unlink(missing_ok=True)


def check_output_folder(path: Path, what: str = "write to") -> None:
    """Fail now, before any work, if files cannot be written in folder ``path`` (made if missing)."""
    if path.exists() and not path.is_dir():
        raise ZigguratError(f"cannot {what} {path}: it is a file, not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / f".ziggurat-write-check-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise ZigguratError(f"cannot {what} {path}: {exc.strerror or exc}") from None


def _split_seats(seats: str | None) -> list[str]:
    return [s.strip().lower() for s in (seats or "").split(",") if s.strip()]


def _parse_seats(seats: str | None, players: int) -> list[str]:
    if seats is None:
        return ["human"] + ["random"] * (players - 1)
    names = _split_seats(seats)
    if len(names) != players:
        raise ZigguratError(f"--seats lists {len(names)} seats for {players} player{'s' if players > 1 else ''}")
    for name in names:
        if name != "human":
            get_bot(name)  # raises a clear error for an unknown bot
    return names


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="a record written by play --save")],
    player: Annotated[
        int | None, typer.Option(help="see the game as this player (1-based) saw it, instead of as a spectator")
    ] = None,
    pause: Annotated[bool | None, typer.Option(help="wait for Enter between moves (default: when interactive)")] = None,
    allow_content_paths: Annotated[
        bool, typer.Option("--allow-content-paths", help="let the record name content files to read")
    ] = False,
) -> None:
    """Step through a saved game, showing only what a spectator (or --player N) could see."""
    from ziggurat.cli.session import replay_record

    try:
        record = _open_saved(file, allow_content_paths, player)
        replay_record(record, console, player=None if player is None else player - 1, pause=pause)
    except ZigguratError as exc:
        raise fail(str(exc)) from None


@app.command()
def export(
    file: Annotated[Path, typer.Argument(help="a record written by play --save (the full record: the owner's)")],
    player: Annotated[int, typer.Option(help="the player (1-based) whose record to write")],
    out: Annotated[Path | None, typer.Option(help="write here instead of printing (JSON)")] = None,
    allow_content_paths: Annotated[
        bool, typer.Option("--allow-content-paths", help="let the record name content files to read")
    ] = False,
) -> None:
    """Write what one player saw of a game: their view at every step, no seed, nothing hidden from them."""
    from ziggurat.core.export import player_record

    try:
        if out is not None:
            check_output_file(out, "write the player record to")
        record = _open_saved(file, allow_content_paths, player)
        if not 1 <= player <= record.players:
            raise ZigguratError(f"--player must be between 1 and {record.players}")
        text = json.dumps(player_record(record, player - 1), indent=1, ensure_ascii=False)
    except ZigguratError as exc:
        raise fail(str(exc)) from None
    if out is None:
        sys.stdout.write(text + "\n")
        return
    try:
        out.write_text(text + "\n", encoding="utf-8")
    except OSError as exc:
        raise fail(f"cannot write the player record to {out}: {exc.strerror or exc}") from None
    err_console.print(Text(f"player {player}'s record written to {out}", style="dim"))


def _open_saved(file: Path, allow_content_paths: bool, player: int | None) -> GameRecord:
    """The record of a saved game for ``replay`` and ``export``: an unfinished game (a sealed save) only as a
    spectator or a person who played it saw it, never as a bot's seat (its cards are still in play)."""
    from ziggurat.cli.saves import human_seats, read_save

    record, sealed = read_save(file, allow_paths=allow_content_paths)
    if sealed and player is not None and 1 <= player <= record.players and player - 1 not in human_seats(record):
        people = ", ".join(str(p + 1) for p in human_seats(record)) or "none"
        raise ZigguratError(
            f"{file} is an unfinished game: it can be seen as a spectator or as a player who played it "
            f"(--player {people}), not as player {player} yet"
        )
    return record


# Analysis commands (arena, simulate) register themselves here.
# --- analysis commands ---
from ziggurat.cli import admin as _admin  # noqa: E402,F401
from ziggurat.cli import analysis as _analysis  # noqa: E402,F401
from ziggurat.cli import lab as _lab  # noqa: E402,F401
from ziggurat.cli import ratings as _ratings  # noqa: E402,F401
from ziggurat.cli import serve as _serve  # noqa: E402,F401


def main() -> None:
    """Entry point of the ``ziggurat`` console script."""
    app()


if __name__ == "__main__":
    main()
