"""``ziggurat serve``: the web app (all five games in the browser, against bots or with friends)."""

from __future__ import annotations

import dataclasses
import errno
import json
import os
import socket
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Annotated
from urllib.parse import urlsplit

import typer

from ziggurat.cli.main import app, console, fail

if TYPE_CHECKING:
    from sqlalchemy import Engine


def check_port(host: str, port: int) -> None:
    """Fail early and clearly when the address cannot be listened on."""
    if not 0 < port < 65536:
        raise fail(f"--port must be between 1 and 65535, not {port}")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise fail(f"--host {host!r} is not an address of this machine ({exc.strerror})") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise fail(f"port {port} is in use: stop the other server or pass --port") from None
            raise fail(f"cannot listen on {host}:{port}: {exc.strerror}") from None


def database_url(db: str | None, data: Path) -> str:
    """The database to use: ``--db``, or SQLite in the data folder (created if needed)."""
    if db is not None:
        if "://" not in db:
            raise fail(f"--db takes a URL such as sqlite:///path/to.db or postgresql://user@host/name, not {db!r}")
        return db
    try:
        data.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise fail(f"cannot create the data folder {data}: {exc.strerror}") from None
    return f"sqlite:///{data.resolve() / 'ziggurat.db'}"


def open_database(url: str) -> Engine:
    """The server's database, its schema brought up to date; a bad URL or an unreachable database is a clear
    error, not a traceback."""
    from ziggurat.server.db import make_engine, migrate

    try:
        engine = make_engine(url)
        migrate(engine)
    except Exception as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise fail(f"cannot use the database {url.split('@')[-1]}: {reason}") from None
    return engine


def check_bus(bus: str, db_url: str) -> None:
    """``--bus``: a Redis URL, a PostgreSQL database to share, the redis package, a server that answers."""
    from ziggurat.server.notify import check_bus_url, redis_client

    try:
        check_bus_url(bus)
    except ValueError as exc:
        raise fail(str(exc)) from None
    if not db_url.startswith(("postgresql", "postgres")):
        raise fail("--bus is for processes sharing a PostgreSQL database: --db postgresql://user@host/name")
    try:
        client = redis_client(bus)
    except RuntimeError as exc:
        raise fail(str(exc)) from None
    try:
        client.ping()
    except Exception as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise fail(f"cannot reach Redis at {bus.split('@')[-1]}: {reason}") from None
    finally:
        client.close()


def _whole_address(url: str) -> bool:
    """Whether ``url`` is an http(s) address with a host (a path is allowed: links start with it)."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018  # raises on a port that is not a number in range
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.hostname) and not parts.query and not parts.fragment


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="address to listen on (0.0.0.0: every network)")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on")] = 8000,
    db: Annotated[
        str | None, typer.Option(help="database URL (default: SQLite in --data); postgresql://user@host/name")
    ] = None,
    data: Annotated[Path, typer.Option(help="folder for the default SQLite database")] = Path("ziggurat-data"),
    bot_delay: Annotated[
        float, typer.Option(help="seconds a bot waits before it moves (a pace people can follow)")
    ] = 0.8,
    bot_workers: Annotated[int, typer.Option(help="processes that run the bots (0: threads in the server)")] = 1,
    log_level: Annotated[str, typer.Option(help="debug, info, warning or error")] = "info",
    smtp: Annotated[str | None, typer.Option(help="HOST:PORT of an SMTP server for 'your turn' mails")] = None,
    mail_from: Annotated[str, typer.Option(help="the sender of those mails")] = "ziggurat@localhost",
    public_url: Annotated[
        str | None,
        typer.Option(
            help="the address people open (links in mails, and this site behind a proxy; default http://HOST:PORT)"
        ),
    ] = None,
    workers: Annotated[
        int, typer.Option(help="server processes sharing the port and a PostgreSQL database (--db postgresql://...)")
    ] = 1,
    metrics: Annotated[
        bool, typer.Option(help="serve GET /api/metrics (move latency, counters) and POST /api/metrics/reset")
    ] = False,
    bus: Annotated[
        str | None,
        typer.Option(
            help="redis://HOST:PORT/DB: carry the news between processes over Redis pub/sub"
            " (default: PostgreSQL's LISTEN/NOTIFY)"
        ),
    ] = None,
    ws_compression: Annotated[
        bool,
        typer.Option(
            help="compress WebSocket frames (permessage-deflate: a board 6-37x smaller on the wire for a little"
            " server work; --no-ws-compression turns it off)"
        ),
    ] = True,
    ws_window_bits: Annotated[
        int,
        typer.Option(
            help="the window WebSocket frames are compressed with, in bits (9-15): 15 (32 KB) reaches the frame"
            " before, so frames are smaller and cheaper to write; 12 (4 KB) keeps about 30 KB of memory a socket"
            " instead of 150 KB"
        ),
    ] = 15,
    limit: Annotated[
        list[str] | None,
        typer.Option(
            "--limit",
            help="NAME=VALUE: change an abuse limit (repeatable; see docs/server.md, e.g. tables_per_hour=60)",
        ),
    ] = None,
    prometheus: Annotated[
        str | None,
        typer.Option(
            help="HOST:PORT: serve Prometheus metrics there, apart from the site (keep it private, e.g. 127.0.0.1:9100)"
        ),
    ] = None,
    log_format: Annotated[str, typer.Option(help="text, or json: one JSON object per line")] = "text",
    forwarded_allow_ips: Annotated[
        str,
        typer.Option(
            help="addresses of the reverse proxies whose X-Forwarded-For/-Proto are believed (comma-separated, * all)"
        ),
    ] = "127.0.0.1",
) -> None:
    """Serve the web app: open the printed address in a browser."""
    if prometheus is not None and "PROMETHEUS_MULTIPROC_DIR" not in os.environ:
        # before the metrics are made: every process writes its numbers to this folder, the listener adds them up
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="ziggurat-metrics-")
    import uvicorn

    from ziggurat.server.app import SETTINGS_ENV, Settings, create_app
    from ziggurat.server.connections import (
        DEFLATE_WINDOW_BITS,
        WINDOW_BITS_RANGE,
        raise_open_files_limit,
        uvicorn_options,
    )
    from ziggurat.server.limits import Limits
    from ziggurat.server.mail import parse_smtp
    from ziggurat.server.observe import quiet_access_log, serve_metrics, use_json_logs

    if bot_delay < 0 or bot_delay > 60:
        raise fail("--bot-delay must be between 0 and 60 seconds")
    if not 0 <= bot_workers <= 64:
        raise fail("--bot-workers must be between 0 and 64")
    if log_level not in ("debug", "info", "warning", "error"):
        raise fail("--log-level is debug, info, warning or error")
    if log_format not in ("text", "json"):
        raise fail("--log-format is text or json")
    if prometheus is not None:
        metrics_host, _, metrics_port = prometheus.rpartition(":")
        if not metrics_host or not metrics_port.isdigit() or not 1 <= int(metrics_port) <= 65535:
            raise fail(f"--prometheus takes HOST:PORT, such as 127.0.0.1:9100 (not {prometheus!r})")
        if (metrics_host, int(metrics_port)) == (host, port):
            raise fail("--prometheus needs a port of its own, not the site's")
        check_port(metrics_host, int(metrics_port))
    if not 1 <= workers <= 64:
        raise fail("--workers must be between 1 and 64")
    low, high = WINDOW_BITS_RANGE
    if not low <= ws_window_bits <= high:
        raise fail(f"--ws-window-bits is {low} to {high} (a window of 512 bytes to 32 KB), not {ws_window_bits}")
    if not ws_compression and ws_window_bits != DEFLATE_WINDOW_BITS:
        raise fail("--ws-window-bits is the compression's window: it means nothing with --no-ws-compression")
    url = database_url(db, data)
    if workers > 1 and not url.startswith(("postgresql", "postgres")):
        raise fail("--workers above 1 needs a database all processes share: --db postgresql://user@host/name")
    if bus is not None:
        check_bus(bus, url)
    check_port(host, port)
    if public_url is not None and not _whole_address(public_url):
        raise fail(
            f"--public-url takes the whole address people open, such as https://games.example (not {public_url!r})"
        )
    if smtp is not None:
        try:
            parse_smtp(smtp)
        except ValueError as exc:
            raise fail(str(exc)) from None
    changes: dict[str, str] = {}
    for item in limit or []:
        name, eq, value = item.partition("=")
        if not eq or not name.strip():
            raise fail(f"--limit takes NAME=VALUE, not {item!r}")
        changes[name.strip()] = value.strip()
    try:
        limits = Limits().with_values(changes)
    except ValueError as exc:
        raise fail(f"--limit: {exc}") from None
    shown_host = "localhost" if host in ("127.0.0.1", "::1", "0.0.0.0") else host
    settings = Settings(
        db_url=url,
        bot_delay=bot_delay,
        bot_workers=bot_workers,
        smtp=smtp,
        mail_from=mail_from,
        metrics=metrics,
        public_url=public_url or f"http://{shown_host}:{port}",
        bus=bus,
        limits=changes,
        ws_window_bits=ws_window_bits,
    )
    open_database(url).dispose()  # reach the database (and bring its schema up to date) before listening
    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    safe_db = url.split("@")[-1] if "@" in url else url
    console.print(f"Ziggurat is serving on http://{shown}:{port}  (database: {safe_db}; Ctrl-C stops)", highlight=False)
    options = {
        "host": host,
        "port": port,
        "log_level": log_level,
        "ws_max_size": 64 * 1024,
        "ws_per_message_deflate": ws_compression,
        "forwarded_allow_ips": forwarded_allow_ips,
        **uvicorn_options(limits, ws_window_bits),
    }
    raise_open_files_limit()
    if log_format == "json":
        use_json_logs(log_level)
        options["log_config"] = None
        options["access_log"] = False
    else:
        quiet_access_log()
    if prometheus is not None:
        serve_metrics(prometheus)
    if workers == 1:
        uvicorn.run(create_app(settings), **options)  # type: ignore[arg-type]
    else:  # each worker process builds its own app from the settings in the environment
        os.environ[SETTINGS_ENV] = json.dumps(dataclasses.asdict(settings))
        uvicorn.run("ziggurat.server.app:app_from_env", factory=True, workers=workers, **options)  # type: ignore[arg-type]
