"""The ``ziggurat`` command: list games, print rules, play, replay (and analysis commands)."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ziggurat.core import ZigguratError, bot_names, game_ids, get_bot, get_game
from ziggurat.core.game import Game
from ziggurat.core.registry import make_game

app = typer.Typer(
    name="ziggurat",
    help="Five pyramid-building tabletop games: play them, simulate them, study them.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console()
err_console = Console(stderr=True)


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print a clear error and return the exit to raise."""
    # escaped: a message may quote brackets (pip extras, user input) that rich would read as markup
    err_console.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    return typer.Exit(code)


def build_game(
    game_name: str,
    players: int | None,
    variants: list[str] | None,
    options: list[str] | None,
    deck: Path | None = None,
) -> Game:
    """Set up a game from command-line words; every mistake is a clear error."""
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
    return make_game(spec.id, players, chosen)


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
            ", ".join(f"{o.name}={o.default}" for o in spec.options if not o.variant) or "-",
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
    console.print(f"[bold]{spec.name}[/] ({spec.id})", highlight=False)
    console.print(entry.rules, highlight=False, markup=False)
    if spec.options:
        console.print("Options and variants:", style="bold")
        for o in spec.options:
            kind = "variant" if o.variant else f"option, default {o.default}"
            console.print(f"  {o.name} ({kind}): {o.help}", highlight=False, markup=False)


@app.command()
def play(
    game: Annotated[str, typer.Argument(help="game id or name, e.g. kuhnah")],
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="number of players (default: as many as --seats, else 2)")
    ] = None,
    seats: Annotated[
        str | None, typer.Option(help="comma-separated seats: human or a bot name (default: you against random bots)")
    ] = None,
    seed: Annotated[int | None, typer.Option(help="seed for chance and bots (printed if not given)")] = None,
    variant: Annotated[list[str] | None, typer.Option("--variant", "-v", help="a rule variant (repeatable)")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="NAME=VALUE (repeatable)")] = None,
    deck: Annotated[Path | None, typer.Option(help="a card list file of your own (games with a deck option)")] = None,
    save: Annotated[Path | None, typer.Option(help="write the game record here (JSON)")] = None,
    watch: Annotated[bool, typer.Option(help="with only bots: draw the table after every move")] = False,
) -> None:
    """Play a game in the terminal against bots or friends (hot seat)."""
    from ziggurat.cli.session import PlaySession

    try:
        if players is None:
            spec = get_game(game).game_class.spec
            players = len(_split_seats(seats)) if seats else max(spec.min_players, min(2, spec.max_players))
        g = build_game(game, players, variant, option, deck)
        seat_names = _parse_seats(seats, g.num_players)
        if save is not None and not save.parent.exists():
            raise ZigguratError(f"cannot save to {save}: folder {save.parent} does not exist")
        if seed is None:
            seed = secrets.randbelow(10**6)
            console.print(f"seed {seed} (use --seed {seed} to play this game again)", style="dim")
        session = PlaySession(g, seat_names, seed, console=console, watch=watch)
    except ZigguratError as exc:
        raise fail(str(exc)) from None
    session.run()
    if save is not None:
        session.match.record(seat_names).save(save)
        console.print(f"record saved to {save}", style="dim")


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
        int | None, typer.Option(help="see the game as this player (1-based) instead of as a spectator")
    ] = None,
    pause: Annotated[bool | None, typer.Option(help="wait for Enter between moves (default: when interactive)")] = None,
) -> None:
    """Step through a saved game."""
    from ziggurat.cli.session import replay_record
    from ziggurat.core import GameRecord

    try:
        record = GameRecord.load(file)
        replay_record(record, console, player=None if player is None else player - 1, pause=pause)
    except ZigguratError as exc:
        raise fail(str(exc)) from None


# Analysis commands (arena, simulate) register themselves here.
# --- analysis commands ---
from ziggurat.cli import analysis as _analysis  # noqa: E402,F401
from ziggurat.cli import ratings as _ratings  # noqa: E402,F401
from ziggurat.cli import serve as _serve  # noqa: E402,F401


def main() -> None:
    """Entry point of the ``ziggurat`` console script."""
    app()


if __name__ == "__main__":
    main()
