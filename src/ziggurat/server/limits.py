"""Abuse limits: login throttling, and quotas per client address and per account.

A public server must not let one client guess passwords as fast as it can hash them, nor create
tables, start bots or open connections without bound. Every limit here has a documented default
that an operator can change (``ziggurat serve --limit NAME=VALUE``; :class:`Limits`), and a request
over one is refused with HTTP 429 and ``Retry-After`` (seconds), like lichess and Board Game Arena do.

**Login throttling** counts failed passwords per account and per client address. The first few are
free; after that every further try must wait a growing delay (1 s, 2 s, 4 s… at most
``login_max_wait``), and after ``login_lock_after`` failures the account (or address) is locked for
``login_lock_seconds``. A try while blocked is refused before the password is even hashed, so
nothing can be guessed in the meantime, and it does not count. A right password clears the
account's failures. Failures older than ``login_forget_seconds`` are forgotten. Sign-ups are counted
per address (``signups_per_hour``).

The counters live where every server process sees them: the database (table ``limits``), or Redis
when the processes talk over Redis (``--bus redis://…``). A client address is the connection's peer
(or, behind a trusted proxy, the address it forwarded); IPv6 addresses count by their /64 network,
which one client usually has whole.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import ipaddress
import math
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import case, delete, func, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Engine

from ziggurat.core.i18n import Plural
from ziggurat.server.db import limits

LIMIT_KEY_MAX = 160


@dataclass
class Limits:
    """What one client address or one account may do (``ziggurat serve --limit NAME=VALUE``)."""

    login_free: int = 5  # wrong passwords for one account before every further try must wait
    login_lock_after: int = 15  # ... after which the account is locked for login_lock_seconds
    address_login_free: int = 20  # the same for one client address (many accounts, or one)
    address_login_lock_after: int = 100
    login_max_wait: int = 300  # the longest growing wait, in seconds
    login_lock_seconds: int = 900
    login_forget_seconds: int = 3600  # failures older than this are forgotten
    signups_per_hour: int = 5  # accounts made from one address
    tables_per_hour: int = 30  # tables created, per address and per account
    open_tables: int = 20  # tables not over (waiting or playing) created by one address or account
    search_bots: int = 8  # IS-MCTS seats in the open tables one address or account created
    sockets_per_address: int = 50  # WebSocket connections from one address, per server process
    connections_per_address: int = 200  # HTTP connections from one address, per server process
    header_seconds: float = 10.0  # a connection must have sent a request's headers within this
    takebacks_in_a_row: int = 12  # take-backs by one seat with no other seat's decision between
    waiting_table_hours: float = 24.0  # a table whose seats are never all taken is deleted after this

    @classmethod
    def names(cls) -> list[str]:
        """The names an operator can set."""
        return [f.name for f in dataclasses.fields(cls)]

    def with_values(self, values: dict[str, str]) -> Limits:
        """A copy with ``NAME=VALUE`` settings applied (a clear ValueError for a bad name or value)."""
        changes: dict[str, Any] = {}
        kinds = {f.name: f.type for f in dataclasses.fields(self)}
        for name, text in values.items():
            if name not in kinds:
                raise ValueError(f"there is no limit {name!r}; the limits are: {', '.join(self.names())}")
            kind = float if kinds[name] in (float, "float") else int
            try:
                value = kind(text)
            except ValueError:
                raise ValueError(
                    f"limit {name} is a {'number' if kind is float else 'whole number'}, not {text!r}"
                ) from None
            if not (math.isfinite(value) and value > 0):
                raise ValueError(f"limit {name} must be above 0, not {text!r}")
            changes[name] = value
        return dataclasses.replace(self, **changes)


def a_wait(seconds: float) -> Plural:
    """A wait as people say it, in words the catalogs translate (see :func:`say_seconds`)."""
    whole = max(1, math.ceil(seconds))
    if whole <= 60:
        return Plural("{n} second", "{n} seconds", whole)
    return Plural("{n} minute", "{n} minutes", math.ceil(whole / 60))


def say_seconds(seconds: float) -> str:
    """A wait as people say it.

    >>> say_seconds(1), say_seconds(59.2), say_seconds(61), say_seconds(900), say_seconds(5400)
    ('1 second', '60 seconds', '2 minutes', '15 minutes', '90 minutes')
    """
    return str(a_wait(seconds))


def address_of(connection: Any) -> str:
    """The limits' key for a request's or a socket's client (see :func:`client_key`)."""
    client = getattr(connection, "client", None)
    return client_key(client.host if client is not None else None)


def client_key(host: str | None) -> str:
    """The address a limit counts: the IPv4 address, or the IPv6 /64 network it is in.

    >>> client_key("203.0.113.7")
    '203.0.113.7'
    >>> client_key("2001:db8:1:2:3:4:5:6")
    '2001:db8:1:2::/64'
    >>> client_key(None)
    'unknown'
    """
    if not host:
        return "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host[:64]
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class Counters(Protocol):
    """Counts and blocks shared by every server process."""

    def bump(self, key: str, now: dt.datetime, forget: float) -> int:
        """Count one more (a count last touched ``forget`` seconds ago or earlier starts again); the count."""

    def count(self, key: str, now: dt.datetime, forget: float) -> int:
        """The count (0 if it was last touched ``forget`` seconds ago or earlier)."""

    def block(self, key: str, until: dt.datetime) -> None:
        """Refuse ``key`` until ``until``."""

    def blocked_until(self, keys: list[str], now: dt.datetime) -> dt.datetime | None:
        """The latest time any of ``keys`` is refused until (``None``: none is)."""

    def clear(self, key: str) -> None:
        """Forget ``key``."""


class DatabaseCounters:
    """:class:`Counters` in the database (table ``limits``; one atomic upsert per count)."""

    def __init__(self, engine: Engine):
        self.engine = engine
        self._insert = pg_insert if engine.dialect.name == "postgresql" else sqlite_insert

    def bump(self, key: str, now: dt.datetime, forget: float) -> int:
        cutoff = now - dt.timedelta(seconds=forget)
        upsert = self._insert(limits).values(key=key[:LIMIT_KEY_MAX], count=1, updated_at=now)
        stmt = upsert.on_conflict_do_update(
            index_elements=[limits.c.key],
            # a count last touched before the cutoff starts again at 1
            set_={"count": case((limits.c.updated_at < cutoff, 1), else_=limits.c.count + 1), "updated_at": now},
        ).returning(limits.c.count)
        with self.engine.begin() as conn:
            return int(conn.execute(stmt).scalar_one())

    def count(self, key: str, now: dt.datetime, forget: float) -> int:
        with self.engine.connect() as conn:
            row = conn.execute(select(limits.c.count, limits.c.updated_at).where(limits.c.key == key)).first()
        if row is None or _utc(row[1]) < now - dt.timedelta(seconds=forget):
            return 0
        return int(row[0])

    def block(self, key: str, until: dt.datetime) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(limits).where(limits.c.key == key[:LIMIT_KEY_MAX]).values(blocked_until=until))

    def blocked_until(self, keys: list[str], now: dt.datetime) -> dt.datetime | None:
        with self.engine.connect() as conn:
            value = conn.execute(
                select(func.max(limits.c.blocked_until)).where(
                    limits.c.key.in_([k[:LIMIT_KEY_MAX] for k in keys]), limits.c.blocked_until > now
                )
            ).scalar()
        return _utc(value) if value is not None else None

    def clear(self, key: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(limits).where(limits.c.key == key[:LIMIT_KEY_MAX]))

    def purge(self, now: dt.datetime, older_than: float) -> int:
        """Drop counts nobody touched for ``older_than`` seconds and that block nothing now."""
        cutoff = now - dt.timedelta(seconds=older_than)
        with self.engine.begin() as conn:
            result = conn.execute(
                delete(limits).where(
                    limits.c.updated_at < cutoff, (limits.c.blocked_until.is_(None)) | (limits.c.blocked_until < now)
                )
            )
            return int(result.rowcount or 0)


class RedisCounters:
    """:class:`Counters` in Redis (``--bus redis://…``): counts expire by themselves."""

    PREFIX = "ziggurat:limit:"

    def __init__(self, url: str):
        import redis

        self.redis = redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5)

    def bump(self, key: str, now: dt.datetime, forget: float) -> int:
        name = self.PREFIX + "n:" + key
        pipe = self.redis.pipeline()
        pipe.incr(name)
        pipe.expire(name, max(1, math.ceil(forget)))
        count, _ = pipe.execute()
        return int(count)

    def count(self, key: str, now: dt.datetime, forget: float) -> int:
        value = self.redis.get(self.PREFIX + "n:" + key)
        return int(value) if value is not None else 0

    def block(self, key: str, until: dt.datetime) -> None:
        ms = max(1, math.ceil((until - dt.datetime.now(dt.UTC)).total_seconds() * 1000))
        self.redis.set(self.PREFIX + "b:" + key, until.timestamp(), px=ms)

    def blocked_until(self, keys: list[str], now: dt.datetime) -> dt.datetime | None:
        values = [v for v in self.redis.mget([self.PREFIX + "b:" + k for k in keys]) if v is not None]
        latest = max((float(v) for v in values), default=None)
        if latest is None or latest <= now.timestamp():
            return None
        return dt.datetime.fromtimestamp(latest, dt.UTC)

    def clear(self, key: str) -> None:
        self.redis.delete(self.PREFIX + "n:" + key, self.PREFIX + "b:" + key)


def failure_wait(failures: int, free: int, lock_after: int, limits: Limits) -> float:
    """Seconds every try must wait after ``failures`` failures: none while free, then 1, 2, 4… s, then the lock.

    >>> L = Limits()
    >>> [failure_wait(n, 5, 15, L) for n in (4, 5, 6, 7, 8, 14, 15)]
    [0.0, 0.0, 1.0, 2.0, 4.0, 256.0, 900.0]
    """
    if failures >= lock_after:
        return float(limits.login_lock_seconds)
    if failures <= free:
        return 0.0
    return float(min(2 ** (failures - free - 1), limits.login_max_wait))


class Throttle:
    """Login throttling and windowed quotas over shared :class:`Counters`."""

    def __init__(self, counters: Counters, limits: Limits, now: Any):
        self.counters = counters
        self.limits = limits
        self.now = now

    def wait_before_login(self, account: str, address: str) -> float | None:
        """Seconds before this account may try a password from this address (``None``: it may now)."""
        now = self.now()
        until = self.counters.blocked_until([f"login:acct:{account}", f"login:addr:{address}"], now)
        return None if until is None else max(1.0, (until - now).total_seconds())

    def login_failed(self, account: str, address: str) -> None:
        """A wrong password: count it for the account and the address; block them as the policy says."""
        now = self.now()
        forget = self.limits.login_forget_seconds
        for key, free, lock_after in (
            (f"login:acct:{account}", self.limits.login_free, self.limits.login_lock_after),
            (f"login:addr:{address}", self.limits.address_login_free, self.limits.address_login_lock_after),
        ):
            failures = self.counters.bump(key, now, forget)
            wait = failure_wait(failures, free, lock_after, self.limits)
            if wait:
                self.counters.block(key, now + dt.timedelta(seconds=wait))

    def login_succeeded(self, account: str) -> None:
        """The right password: the account's failures are forgotten (the address's stay)."""
        self.counters.clear(f"login:acct:{account}")

    def window_left(self, key: str, per_hour: int) -> float | None:
        """Seconds until ``key`` may act again under ``per_hour`` (``None``: it may now)."""
        now = self.now()
        hour = int(now.timestamp() // 3600)
        if self.counters.count(f"{key}:{hour}", now, 3600) < per_hour:
            return None
        return max(1.0, (hour + 1) * 3600 - now.timestamp())

    def count_in_window(self, key: str) -> None:
        """One more act of ``key`` in this hour."""
        now = self.now()
        self.counters.bump(f"{key}:{int(now.timestamp() // 3600)}", now, 3600)


def _utc(value: dt.datetime) -> dt.datetime:
    return value if value.tzinfo is not None else value.replace(tzinfo=dt.UTC)
