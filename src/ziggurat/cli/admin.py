"""``ziggurat admin``: the operators' tools for a server's database (the same ``--db``/``--data`` as
``ziggurat serve``). The running servers see what these do within seconds (:mod:`ziggurat.server.admin`).

    ziggurat admin tables --status playing
    ziggurat admin close TABLE
    ziggurat admin ban NAME --reason "cheating"      ziggurat admin unban NAME
    ziggurat admin rename OLD NEW
    ziggurat admin export TABLE --out table.json
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from ziggurat.cli.main import app, check_output_file, console, err_console, fail
from ziggurat.cli.ratings import DataOption, DbOption
from ziggurat.core import ZigguratError

admin_app = typer.Typer(
    help="Operators' tools: list and close tables, ban, unban and rename accounts, export a table's log.",
    no_args_is_help=True,
)
app.add_typer(admin_app, name="admin")


def _admin(db: str | None, data: Path) -> Any:
    """The operators' tools on the server's database (its schema brought up to date), or a clear error."""
    from ziggurat.cli.serve import database_url, open_database
    from ziggurat.server.admin import Admin

    return Admin(open_database(database_url(db, data)))


def _do(action: Any) -> Any:
    from ziggurat.server.service import ServiceError

    try:
        return action()
    except (ServiceError, ZigguratError) as exc:
        raise fail(str(exc)) from None


@admin_app.command("tables")
def tables_command(
    status: Annotated[
        str | None, typer.Option(help="only tables that are waiting, playing, over, closed or broken")
    ] = None,
    limit: Annotated[int, typer.Option(help="how many, newest first")] = 50,
    db: DbOption = None,
    data: DataOption = Path("ziggurat-data"),
) -> None:
    """List the newest tables: game, status, seats, when, and the address that created them."""
    if not 1 <= limit <= 10_000:
        raise fail("--limit must be between 1 and 10,000")
    rows = _do(lambda: _admin(db, data).tables(status, limit))
    if not rows:
        console.print("No tables.")
        return
    table = Table(title_justify="left")
    for column in ("id", "game", "players", "status", "seats", "public", "rated", "updated", "created by"):
        table.add_column(column, no_wrap=column in ("id", "status", "updated"))
    for r in rows:
        table.add_row(
            r["id"],
            r["game"],
            str(r["players"]),
            r["status"],
            ", ".join(r["seats"]),
            "yes" if r["public"] else "",
            "yes" if r["rated"] else "",
            r["updated_at"].strftime("%Y-%m-%d %H:%M"),
            r["creator_addr"] or "",
        )
    console.print(table)


@admin_app.command("close")
def close_command(
    table: Annotated[str, typer.Argument(help="the table's id")],
    db: DbOption = None,
    data: DataOption = Path("ziggurat-data"),
) -> None:
    """End a table that is not over: it takes no more moves, and everyone at it is told."""
    before = _do(lambda: _admin(db, data).close(table))
    console.print(f"table {table} closed (it was {before})")


@admin_app.command("ban")
def ban_command(
    name: Annotated[str, typer.Argument(help="the account's name")],
    reason: Annotated[str | None, typer.Option(help="said to them when they try to log in")] = None,
    db: DbOption = None,
    data: DataOption = Path("ziggurat-data"),
) -> None:
    """Shut an account out: no log-in, its sessions end now, bots take its seats at unfinished tables."""
    _do(lambda: _admin(db, data).ban(name, reason))
    console.print(f"{name} is banned")


@admin_app.command("unban")
def unban_command(
    name: Annotated[str, typer.Argument(help="the account's name")],
    db: DbOption = None,
    data: DataOption = Path("ziggurat-data"),
) -> None:
    """Let a banned account log in again."""
    _do(lambda: _admin(db, data).unban(name))
    console.print(f"{name} may log in again")


@admin_app.command("rename")
def rename_command(
    old: Annotated[str, typer.Argument(help="the account's name now")],
    new: Annotated[str, typer.Argument(help="its new name")],
    db: DbOption = None,
    data: DataOption = Path("ziggurat-data"),
) -> None:
    """Give an account another name (its games and ratings stay with it)."""
    _do(lambda: _admin(db, data).rename(old, new))
    console.print(f"{old} is now called {new}")


@admin_app.command("export")
def export_command(
    table: Annotated[str, typer.Argument(help="the table's id")],
    out: Annotated[Path | None, typer.Option(help="write here instead of printing (JSON)")] = None,
    db: DbOption = None,
    data: DataOption = Path("ziggurat-data"),
) -> None:
    """Write a table's full log: the table (seed included), its seats, every row of its log, its record."""
    if out is not None:
        _do(lambda: check_output_file(out, "write the table's log to"))
    body = _do(lambda: _admin(db, data).export(table))
    text = json.dumps(body, indent=1, ensure_ascii=False)
    if out is None:
        typer.echo(text)
        return
    try:
        out.write_text(text + "\n", encoding="utf-8")
    except OSError as exc:
        raise fail(f"cannot write the table's log to {out}: {exc.strerror or exc}") from None
    err_console.print(f"table {table}'s log written to {out}")
