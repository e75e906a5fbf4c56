"""News between server processes that share one PostgreSQL database.

When a process changes a table it commits and sends a notice on the
``ziggurat`` channel carrying only *what* changed, never how:
``m:<table>:<seq>`` (the log of a table grew to ``seq``), ``s:<table>`` (its
seats changed: someone sat down, a secret or an invite was replaced), ``u:<user>``
(an account's login sessions changed: its sockets are checked again) or ``j``
(new jobs). Every other process listens; if it holds
that table in its cache it catches up from the database (the log stays the one
truth) and sends its own connections their frames. A process with SQLite is
alone and needs none of this.

Two carriers (``ziggurat serve --bus``):

* PostgreSQL's LISTEN/NOTIFY (the default): the notice is sent in the same
  transaction as the change, and PostgreSQL delivers it only once that has
  committed. Nothing else to run.
* Redis pub/sub (``--bus redis://host:port/0``): the notice is published right
  after the commit. It takes the fan-out off the database, which then only
  stores. A notice lost while Redis is unreachable costs nothing lasting: on
  reconnecting, a listener has every cached table catch up (``*``).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from typing import Any, Protocol

log = logging.getLogger("ziggurat.server")

CHANNEL = "ziggurat"


def notice_sql(paramstyle: str) -> str:
    """The statement that sends one notice (in the caller's transaction)."""
    mark = "%s" if paramstyle != "qmark" else "?"
    return f"SELECT pg_notify('{CHANNEL}', {mark})"


def notices_sql() -> str:
    """The statement that sends one notice per text of a list (psycopg; in the caller's transaction)."""
    return f"SELECT pg_notify('{CHANNEL}', n) FROM unnest(%s::text[]) AS n"


class Publisher(Protocol):
    """Sends notices to the other processes once the change they name is committed."""

    def publish(self, payloads: list[str]) -> None:
        """Send ``payloads`` in order (never raises: a lost notice is caught up later)."""


class Listener:
    """A thread that hears the notices and hands each to ``on_notice`` in the event loop.

    ``source`` is a PostgreSQL DSN (LISTEN) or, with ``redis=True``, a Redis URL
    (SUBSCRIBE). Whenever it starts hearing, again after losing the connection,
    it first hands over ``*``: anything may have been missed, every cached
    table catches up.
    """

    def __init__(
        self, source: str, loop: asyncio.AbstractEventLoop, on_notice: Callable[[str], None], redis: bool = False
    ):
        self.source = source
        self.loop = loop
        self.on_notice = on_notice
        self._listen = self._subscribe if redis else self._listen_postgres
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="ziggurat-listen", daemon=True)

    def start(self, timeout: float = 10.0) -> None:
        """Start listening (returns once it hears, or after ``timeout`` if the carrier is not there yet)."""
        self._thread.start()
        self._ready.wait(timeout)

    def stop(self) -> None:
        """Stop listening."""
        self._stop.set()
        self._thread.join(timeout=5)

    def _hearing(self) -> None:
        self._ready.set()
        self.loop.call_soon_threadsafe(self.on_notice, "*")

    def _heard(self, payload: str) -> None:
        self.loop.call_soon_threadsafe(self.on_notice, payload)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._listen()
            except Exception:  # the carrier went away: try again shortly
                log.exception("listening for table changes failed; retrying")
                self._ready.set()
                self._stop.wait(1.0)

    def _listen_postgres(self) -> None:
        import psycopg

        with psycopg.connect(self.source, autocommit=True) as conn:
            conn.execute(f"LISTEN {CHANNEL}")
            self._hearing()
            while not self._stop.is_set():
                for notice in conn.notifies(timeout=0.5):
                    self._heard(notice.payload)

    def _subscribe(self) -> None:
        client = redis_client(self.source)
        try:
            pubsub = client.pubsub()
            pubsub.subscribe(CHANNEL)
            while not self._stop.is_set():
                message = pubsub.get_message(timeout=0.5)
                if message is None:
                    continue
                if message["type"] == "subscribe":  # confirmed: from now on nothing is missed
                    self._hearing()
                elif message["type"] == "message":
                    data = message["data"]
                    self._heard(data.decode() if isinstance(data, bytes) else str(data))
        finally:
            client.close()


BUS_SCHEMES = ("redis://", "rediss://", "unix://")


def check_bus_url(url: str) -> str:
    """``url`` if it names a Redis server, else a ValueError saying what is expected."""
    if not url.startswith(BUS_SCHEMES):
        raise ValueError(f"--bus takes a Redis URL such as redis://127.0.0.1:6379/0, not {url!r}")
    return url


def redis_client(url: str) -> Any:
    """A Redis client for ``url`` (the ``redis`` package: ``pip install 'ziggurat[redis]'``)."""
    try:
        import redis
    except ImportError:
        raise RuntimeError("--bus redis://... needs the redis package: pip install 'ziggurat[redis]'") from None
    return redis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=5)


class RedisPublisher:
    """Redis: sends notices after the change committed (called from worker threads; never raises)."""

    def __init__(self, url: str):
        self.client = redis_client(url)

    def publish(self, payloads: list[str]) -> None:
        """Publish ``payloads`` in order, in one round trip."""
        if not payloads:
            return
        try:
            pipe = self.client.pipeline(transaction=False)
            for payload in payloads:
                pipe.publish(CHANNEL, payload)
            pipe.execute()
        except Exception as exc:  # the change is committed all the same; listeners catch up when Redis is back
            log.warning("publishing %d notices to Redis failed: %s", len(payloads), exc)

    def close(self) -> None:
        """Drop the connections."""
        self.client.close()
