"""News between server processes that share one PostgreSQL database: LISTEN/NOTIFY.

When a process changes a table it commits, and in the same transaction sends a
notice on the ``ziggurat`` channel carrying only *what* changed, never how:
``m:<table>:<seq>`` (the log of a table grew to ``seq``), ``s:<table>`` (its
seats changed) or ``j`` (new jobs). PostgreSQL delivers a notice only once its
transaction has committed. Every other process listens; if it holds that table
in its cache it catches up from the database (the log stays the one truth) and
sends its own connections their frames. A process with SQLite is alone and needs
none of this.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable

log = logging.getLogger("ziggurat.server")

CHANNEL = "ziggurat"


def notice_sql(paramstyle: str) -> str:
    """The statement that sends one notice (in the caller's transaction)."""
    mark = "%s" if paramstyle != "qmark" else "?"
    return f"SELECT pg_notify('{CHANNEL}', {mark})"


def notices_sql() -> str:
    """The statement that sends one notice per text of a list (psycopg; in the caller's transaction)."""
    return f"SELECT pg_notify('{CHANNEL}', n) FROM unnest(%s::text[]) AS n"


class Listener:
    """A thread that LISTENs on the channel and hands each notice to ``on_notice`` in the event loop."""

    def __init__(self, dsn: str, loop: asyncio.AbstractEventLoop, on_notice: Callable[[str], None]):
        self.dsn = dsn
        self.loop = loop
        self.on_notice = on_notice
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="ziggurat-listen", daemon=True)

    def start(self, timeout: float = 10.0) -> None:
        """Start listening (returns once the LISTEN is in place)."""
        self._thread.start()
        self._ready.wait(timeout)

    def stop(self) -> None:
        """Stop listening."""
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        import psycopg

        while not self._stop.is_set():
            try:
                with psycopg.connect(self.dsn, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self._ready.set()
                    # after a reconnection anything may have been missed: say so, every table catches up
                    self.loop.call_soon_threadsafe(self.on_notice, "*")
                    while not self._stop.is_set():
                        for notice in conn.notifies(timeout=0.5):
                            self.loop.call_soon_threadsafe(self.on_notice, notice.payload)
            except Exception:  # the database went away: try again shortly
                log.exception("listening for table changes failed; retrying")
                self._ready.set()
                self._stop.wait(1.0)
