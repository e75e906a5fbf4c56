"""``ziggurat ratings``: the server's leaderboards, and rating the bots before people play them.

``ziggurat ratings calibrate kuhnah --players 2 --bots random,greedy,ismcts:1 --games 200``
plays the bots against each other and stores their ratings in the server's
database (the same ``--db``/``--data`` as ``ziggurat serve``), so that the
leaderboard tells a newcomer what "ismcts level 3" is worth.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from ziggurat.cli.main import app, console, fail
from ziggurat.core import ZigguratError, get_game

ratings_app = typer.Typer(help="Leaderboards of the web app's rated games; ratings for the bots.", no_args_is_help=True)
app.add_typer(ratings_app, name="ratings")

DbOption = Annotated[
    str | None, typer.Option(help="database URL of the server (default: SQLite in --data); postgresql://user@host/name")
]
DataOption = Annotated[Path, typer.Option(help="folder of the server's default SQLite database")]


def _open(db: str | None, data: Path) -> Any:
    """The server's ratings store (the schema brought up to date), or a clear error."""
    import datetime as dt

    from ziggurat.cli.serve import database_url, open_database
    from ziggurat.server.ratings import Ratings

    return Ratings(open_database(database_url(db, data)), lambda: dt.datetime.now(dt.UTC))


def _show(store: Any, board: list[Any], title: str) -> None:
    names = store.names([r.subject for r in board])
    table = Table(title=title, title_justify="left")
    for column in ("#", "player", "rating", "mu", "sigma", "games"):
        table.add_column(column, justify="left" if column == "player" else "right")
    for i, r in enumerate(board, 1):
        table.add_row(str(i), names[r.subject], f"{r.ordinal:.1f}", f"{r.mu:.2f}", f"{r.sigma:.2f}", str(r.games))
    console.print(table)


@ratings_app.command("show")
def show(
    game: Annotated[str, typer.Argument(help="game id or name")],
    players: Annotated[int, typer.Option(help="number of players")] = 2,
    db: DbOption = None,
    data: DataOption = Path("ziggurat-data"),
) -> None:
    """Print the leaderboard of one game at one player count."""
    try:
        spec = get_game(game).game_class.spec
    except ZigguratError as exc:
        raise fail(str(exc)) from None
    store = _open(db, data)
    board = store.leaderboard(spec.id, players)
    if not board:
        console.print(f"Nobody is rated in {spec.name} with {players} players yet.", highlight=False)
        return
    _show(store, board, f"{spec.name}, {players} players (rating = mu - 3 sigma)")


@ratings_app.command("calibrate")
def calibrate_command(
    game: Annotated[str, typer.Argument(help="game id or name")],
    bots: Annotated[str, typer.Option(help="bots to rate, comma-separated as in the lobby: random,greedy,ismcts:2")],
    players: Annotated[int, typer.Option(help="number of players")] = 2,
    games: Annotated[int, typer.Option(help="games to play between them")] = 100,
    seed: Annotated[int, typer.Option(help="seed of the games (the same seed plays the same games)")] = 1,
    db: DbOption = None,
    data: DataOption = Path("ziggurat-data"),
) -> None:
    """Play the bots against each other and store their ratings in the server's database."""
    from ziggurat.server.ratings import calibrate, parse_bot

    try:
        spec = get_game(game).game_class.spec
        if players not in spec.player_counts:
            raise ZigguratError(f"{spec.name} is played by {spec.min_players} to {spec.max_players}, not {players}")
        names = [b.strip() for b in bots.split(",") if b.strip()]
        for name in names:
            parse_bot(name)
        if len(set(names)) < 2:
            raise ZigguratError("--bots needs at least two different bots to compare")
        if not 1 <= games <= 1_000_000:
            raise ZigguratError("--games must be between 1 and 1,000,000")
    except ZigguratError as exc:
        raise fail(str(exc)) from None
    store = _open(db, data)
    with console.status(f"playing {games} games of {spec.name}…"):
        board = calibrate(store, spec.id, players, names, games, seed)
    _show(
        store,
        sorted(board.values(), key=lambda r: -r.ordinal),
        f"{spec.name}, {players} players: the bots after {games} games",
    )
