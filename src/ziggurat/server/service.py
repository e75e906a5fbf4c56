"""The tables service: create tables, seat players, take moves, keep every audience up to date.

One :class:`TableService` per server process. It caches each table as a
:class:`~ziggurat.server.live.LiveTable` and changes it only under the table's
lock, in one order: check the move against the cached state, write its rows to
the log (the database refuses a ``seq`` another process took first: then the
table catches up from the log and the move is checked again), replay the rows
into the cache, tell the connections (:class:`~ziggurat.server.hub.Hub`), and
wake the bots.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import logging
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import ziggurat
from ziggurat.core import ZigguratError, get_bot, get_game
from ziggurat.core.errors import ActionError, ConfigError, GameOverError, IllegalActionError, ParseActionError
from ziggurat.core.i18n import N_, Message, Plural, Translator
from ziggurat.core.params import is_printed
from ziggurat.server.limits import Limits, Throttle, a_wait
from ziggurat.server.live import LiveTable, TableBroken, shared_game
from ziggurat.server.observe import MOVE_SECONDS, TABLES_CACHED, Percentiles, move_logged
from ziggurat.server.security import hash_token, new_seed, new_table_id, new_token, token_matches
from ziggurat.server.store import LogWriter, Row, SeatRecord, Store, TableRecord, now

log = logging.getLogger("ziggurat.server")

NAME_MAX = 40
BOT_LEVELS: dict[int, dict[str, Any]] = {
    1: {"iterations": 100},
    2: {"iterations": 400},
    3: {"iterations": 1500},
    4: {"seconds": 2.0},
    5: {"seconds": 5.0},
}
DEFAULT_LEVEL = 3  # an ismcts seat with no level chosen
WEB_BOTS = ("random", "greedy", "ismcts")
LEARNED = "learned"  # offered too where it can play: the train extra installed, a policy shipped


def web_bots() -> tuple[str, ...]:
    """The bots the lobby offers: :data:`WEB_BOTS`, and ``learned`` where the ``train`` extra is installed and
    a trained policy is shipped (:func:`ziggurat.bots.learned.available`)."""
    from ziggurat.bots.learned import available

    return (*WEB_BOTS, LEARNED) if available() else WEB_BOTS


MAX_TABLE_PLAYERS = 8
INVITE_GONE = N_("this invite link is not valid (it was used, or a newer one replaced it)")


class ServiceError(ZigguratError):
    """A request that cannot be served; ``code`` says why (and picks the HTTP status).

    ``retry_after``: a request refused for now (a limit, code ``too_many``) may come again in so many seconds.

    ``message`` is an English literal (or a text marked with ``N_``) with
    ``{name}`` placeholders filled from ``params``: the catalogs of
    :mod:`ziggurat.web.i18n` find it there, and :meth:`text` writes it in the
    reader's language (a parameter that is itself a marked
    :class:`~ziggurat.core.i18n.Message` or :class:`~ziggurat.core.i18n.Plural`
    is translated too). ``.message`` is the English.

    >>> e = ServiceError("bad_request", "seat {seat} is not open", seat=3)
    >>> e.message
    'seat 3 is not open'
    """

    def __init__(self, code: str, message: str, /, retry_after: float | None = None, **params: object):
        self.code = code
        self.retry_after = retry_after
        self.template = message
        self.params = params
        self.message = message.format(**params) if params else message
        self.translate = True
        self.engine: Any = None  # the engine's message (ziggurat.core.message.Message), if it gave one
        super().__init__(self.message)

    @classmethod
    def from_engine(cls, code: str, exc: Exception) -> ServiceError:
        """An error the engine explained: its message (id and parameters) is written in the reader's language;
        a plain text of the engine's stays English."""
        error = cls(code, str(exc))
        error.engine = getattr(exc, "message", None)
        error.translate = False
        return error

    def text(self, tr: Translator) -> str:
        """The message in the language of ``tr``."""
        if self.engine is not None:
            from ziggurat.web.i18n import engine_text

            return engine_text(self.engine, tr)
        if not self.translate:
            return self.message
        translated = tr.gettext(self.template)
        if not self.params:
            return translated
        params = {
            k: tr.gettext(v) if isinstance(v, Message) else v.text(tr) if isinstance(v, Plural) else v
            for k, v in self.params.items()
        }
        return translated.format(**params)


STATUS_OF = {
    "bad_request": 400,
    "bad_action": 400,
    "forbidden": 403,
    "not_found": 404,
    "illegal": 409,
    "not_your_turn": 409,
    "stale": 409,
    "not_started": 409,
    "game_over": 409,
    "seat_taken": 409,
    "name_taken": 409,
    "undo_refused": 409,
    "too_many": 429,
    "busy": 503,
    "broken": 500,
}


@dataclass
class SeatRequest:
    """One seat of a table being created: a human (``name`` when it is the creator's) or a bot."""

    kind: str
    bot: str | None = None
    level: int | None = None
    name: str | None = None
    me: bool = False


@dataclass
class CreateRequest:
    """What the lobby (or an API client) asks for."""

    game: str
    seats: list[SeatRequest]
    options: dict[str, Any] = field(default_factory=dict)
    public: bool = False
    seed: int | None = None
    position: dict[str, Any] | None = None
    pace: str = "live"  # live | realtime | turn
    clock_initial: int | None = None  # realtime: seconds on each clock
    clock_increment: int | None = None  # realtime: seconds added after each decision
    turn_seconds: int | None = None  # turn-based: seconds for each decision
    rated: bool = False
    user_id: int | None = None  # the creator's account (their seat is linked to it)
    address: str | None = None  # the creator's client address (quotas; see server/limits.py)


PACES = ("live", "realtime", "turn")


def check_pace(request: CreateRequest) -> None:
    """A table's pace and clock settings, checked (a clear error for anything else)."""

    def whole(value: object, low: int, high: int, message: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ServiceError("bad_request", message, low=low, high=high)
        return value

    if request.pace not in PACES:
        raise ServiceError(
            "bad_request", "the pace is one of {paces}, not {pace!r}", paces=", ".join(PACES), pace=request.pace
        )
    if request.pace == "realtime":
        request.clock_initial = whole(
            request.clock_initial, 10, 6 * 3600, "the clock is a whole number of seconds from {low} to {high}"
        )
        request.clock_increment = whole(
            request.clock_increment or 0, 0, 600, "the increment is a whole number of seconds from {low} to {high}"
        )
        request.turn_seconds = None
    elif request.pace == "turn":
        request.turn_seconds = whole(
            request.turn_seconds,
            60,
            14 * 24 * 3600,
            "the time for a move is a whole number of seconds from {low} to {high}",
        )
        request.clock_initial = request.clock_increment = None
    elif any(v is not None for v in (request.clock_initial, request.clock_increment, request.turn_seconds)):
        raise ServiceError("bad_request", "a live table has no clock: choose the pace realtime or turn")
    if request.rated and request.user_id is None:
        raise ServiceError("forbidden", "log in to create a rated table (ratings belong to accounts)")
    if request.rated and request.position is not None:
        raise ServiceError("bad_request", "a table that starts from a position cannot be rated")


@dataclass
class Created:
    """A new table: its id, the creator's seat and secret, and an invite secret per open seat."""

    table_id: str
    seat: int | None
    token: str | None
    invites: dict[int, str]


@dataclass(frozen=True)
class SeatProof:
    """What a request or a socket showed to sit at a seat: the secret of whoever sits there, or a login.

    Only these prove a seat; an invite (or a seated player's link for another device) proves nothing but
    the right to sit down with it. A socket keeps its proof and is checked again whenever what proves its
    seat changes (:meth:`TableService.holder`).
    """

    token: str | None = None  # a seat's secret: Authorization Bearer, the socket's hello, or the seat cookie
    session: str | None = None  # the login session's secret (kept to ask again whether it is still open)
    user_id: int | None = None  # that session's account

    def without_session(self) -> SeatProof:
        """The same proof once its session has ended (a logout, a ban): the seat secret alone."""
        return SeatProof(self.token)


@dataclass
class MoveTimer:
    """A move on its way: when it arrived (to measure it until every connection has been sent the result)
    and, for a move sent on a socket, that connection and the message id, so that the frame it gets
    can carry the acknowledgement (``"ack": id``) instead of a separate message."""

    started: float
    pending: int = 0
    origin: Any = None
    msg_id: str | None = None
    acked: bool = False


def clean_name(name: object) -> str:
    """A display name: trimmed, single-spaced, 1..40 printable characters."""
    if not isinstance(name, str):
        raise ServiceError("bad_request", "a name must be a text")
    text = " ".join(name.split())
    if not text:
        raise ServiceError("bad_request", "say your name (1 to 40 characters)")
    if len(text) > NAME_MAX:
        raise ServiceError("bad_request", "a name has at most {count} characters", count=NAME_MAX)
    if any(not ch.isprintable() for ch in text):
        raise ServiceError("bad_request", "a name cannot hold control characters")
    return text


class TableService:
    """Tables in one process: the cache over the store, and every change to a table."""

    def __init__(self, store: Store, writer: LogWriter):
        self.store = store
        self.writer = writer
        self.tables: dict[str, LiveTable] = {}
        self._loading: dict[str, asyncio.Future[LiveTable]] = {}
        # notices naming a table while it was being loaded: its snapshot may be older than they are
        self._missed: dict[str, list[str]] = {}
        self.listeners: list[Any] = []  # the hub and the bots: changed(table, timer) and holds(table_id)
        self.latencies = Percentiles()  # each move's, from its arrival until every audience was sent it
        self.loop_lag = Percentiles()  # filled by observe.watch_loop_lag while the server runs
        self.moves_applied = 0
        self.conflicts = 0  # appends refused by the database (another process wrote that seq first)
        self.now = now  # the server's clock (UTC); tests replace it to make time pass
        self._tasks: set[asyncio.Task[Any]] = set()
        self.limits = Limits()  # quotas (the server sets its own)
        self.throttle: Throttle | None = None  # windowed counts shared by the processes (None: no quotas)

    # ---------------------------------------------------------------- loading
    async def get(self, table_id: str) -> LiveTable:
        """The table (loaded and replayed on first use)."""
        table = self.tables.get(table_id)
        if table is not None:
            table.last_used = time.monotonic()
            return table
        if not isinstance(table_id, str) or not 1 <= len(table_id) <= 16 or not table_id.isalnum():
            raise ServiceError("not_found", "there is no such table")
        waiting = self._loading.get(table_id)
        if waiting is not None:
            return await asyncio.shield(waiting)
        future: asyncio.Future[LiveTable] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        try:
            record = await asyncio.to_thread(self.store.load_table, table_id)
            if record is None:
                raise ServiceError("not_found", "there is no such table")
            try:
                table = LiveTable(record)
            except TableBroken as exc:
                log.error("%s", exc)
                raise ServiceError("broken", "this table's saved game cannot be replayed") from None
            table.now = lambda: self.now()
            self.tables[table_id] = table
            TABLES_CACHED.set(len(self.tables))
            for payload in self._missed.pop(table_id, ()):
                self.on_notice(payload)  # cached now: caught up like any other
            future.set_result(table)
            return table
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            self._loading.pop(table_id, None)
            self._missed.pop(table_id, None)

    def evict_idle(self, idle: float = 300.0) -> int:
        """Drop tables nobody used for ``idle`` seconds from the cache (the log keeps them); returns how many.

        A table with an open connection or a bot thinking stays (the listeners say so).
        """
        limit = time.monotonic() - idle
        gone = [
            t.id
            for t in self.tables.values()
            if t.last_used < limit and not t.lock.locked() and not any(x.holds(t.id) for x in self.listeners)
        ]
        for table_id in gone:
            del self.tables[table_id]
        TABLES_CACHED.set(len(self.tables))
        return len(gone)

    async def catch_up(self, table: LiveTable) -> int:
        """Replay rows another process appended; returns how many (call it holding ``table.lock``)."""
        rows = await asyncio.to_thread(self.store.rows_after, table.id, table.seq)
        fresh = [row for row in rows if row.seq > table.seq]
        for row in fresh:
            table.apply_row(row)
        if fresh:
            self._changed(table, None)
        return len(fresh)

    async def refresh(self, table: LiveTable, seq: int | None = None) -> None:
        """Catch up with the log before answering from the cache (another process may have moved).

        ``seq``: the newest row is known to be that one (a notice said so); if the
        table has it by the time it is free (this process wrote it), nothing is read.
        """
        async with table.lock:
            if seq is None or table.seq < seq:
                await self.catch_up(table)

    # --------------------------------------------------------------- creating
    async def create(self, request: CreateRequest) -> Created:
        """Check a table request and store the new table (with its setup's chance outcomes)."""
        try:
            entry = get_game(request.game)
        except ConfigError as exc:
            raise ServiceError.from_engine("bad_request", exc) from None
        spec = entry.game_class.spec
        for name in request.options:
            try:
                opt = spec.option(str(name))
            except ConfigError as exc:
                raise ServiceError.from_engine("bad_request", exc) from None
            if opt.kind == "path":
                raise ServiceError(
                    "bad_request",
                    "option {option!r} names a file on the server and cannot be set from the web",
                    option=opt.name,
                )
        if not isinstance(request.seats, list) or not request.seats:
            raise ServiceError("bad_request", "say who sits at each seat")
        check_pace(request)
        try:
            game = shared_game(spec.id, len(request.seats), request.options)
        except ConfigError as exc:
            raise ServiceError.from_engine("bad_request", exc) from None
        if sum(1 for s in request.seats if s.me) > 1:
            raise ServiceError("bad_request", "you can take only one seat")
        seat_records: list[SeatRecord] = []
        created_seat: int | None = None
        creator_token: str | None = None
        invites: dict[int, str] = {}
        for i, s in enumerate(request.seats):
            if s.kind == "bot":
                seat_records.append(self._bot_seat(i, s, game))
            elif s.kind == "human":
                token = new_token()
                if s.me:
                    name = clean_name(s.name if s.name is not None else "")
                    seat_records.append(
                        SeatRecord(
                            i,
                            "human",
                            name=name,
                            token_hash=hash_token(token),
                            claimed_at=self.now(),
                            user_id=request.user_id,
                        )
                    )
                    created_seat, creator_token = i, token
                else:
                    seat_records.append(SeatRecord(i, "human", invite_hash=hash_token(token)))
                    invites[i] = token
            else:
                raise ServiceError(
                    "bad_request", "seat {seat} must be a human or a bot, not {kind!r}", seat=i + 1, kind=s.kind
                )
        await self._check_quotas(request)
        seed = new_seed() if request.seed is None else request.seed
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            raise ServiceError("bad_request", "a seed is a whole number from 0 to 2**63 - 1")
        if request.rated and not is_printed(game):
            raise ServiceError("bad_request", "a table with parameters changed from the printed rules cannot be rated")
        if request.rated and request.seed is not None:
            raise ServiceError(
                "bad_request", "a rated table cannot have a chosen seed (whoever chose it knows the cards)"
            )
        position = request.position
        if position is not None:
            try:
                game.state_from_json(position)
            except ZigguratError as exc:
                raise ServiceError(
                    "bad_request", "the start position cannot be used: {reason}", reason=str(exc)
                ) from None
        record = TableRecord(
            id=new_table_id(),
            game=spec.id,
            players=game.num_players,
            options=game.params()["options"],
            seed=seed,
            engine_version=ziggurat.__version__,
            position=position,
            public=bool(request.public),
            status="waiting",
            created_at=self.now(),
            seats=seat_records,
            rows=[],
            pace=request.pace,
            clock_initial=request.clock_initial,
            clock_increment=request.clock_increment,
            turn_seconds=request.turn_seconds,
            rated=bool(request.rated),
            seed_chosen=request.seed is not None or position is not None,
            creator_addr=request.address,
            creator_user_id=request.user_id,
        )
        table = LiveTable(record)
        table.now = lambda: self.now()
        record.rows = table.setup_rows(self.now())
        for row in record.rows:
            table.apply_row(row)
        record.status = table.status
        await asyncio.to_thread(self.store.create_table, record)
        if self.throttle is not None:
            for key in self._creator_keys(request):
                await asyncio.to_thread(self.throttle.count_in_window, key)
        self.tables[record.id] = table
        self._changed(table, None)
        return Created(record.id, created_seat, creator_token, invites)

    @staticmethod
    def _creator_keys(request: CreateRequest) -> list[str]:
        keys = [f"tables:addr:{request.address}"] if request.address is not None else []
        return keys + ([f"tables:user:{request.user_id}"] if request.user_id is not None else [])

    async def _check_quotas(self, request: CreateRequest) -> None:
        """Refuse a table its creator may not make now (too many this hour, open, or with search bots)."""
        if self.throttle is None or request.address is None:
            return
        limits = self.limits
        for key in self._creator_keys(request):
            wait = await asyncio.to_thread(self.throttle.window_left, key, limits.tables_per_hour)
            if wait is not None:
                raise ServiceError(
                    "too_many",
                    "you have created {count} tables this hour: try again in {wait}",
                    count=limits.tables_per_hour,
                    wait=a_wait(wait),
                    retry_after=wait,
                )
        mine = await asyncio.to_thread(self.store.open_tables_of, request.address, request.user_id)
        if max(mine["addr_tables"], mine["user_tables"]) >= limits.open_tables:
            raise ServiceError(
                "too_many",
                "you have {count} tables that are not over: finish or leave some before you make more",
                count=limits.open_tables,
            )
        searching = sum(1 for s in request.seats if s.kind == "bot" and s.bot == "ismcts")
        if searching and max(mine["addr_search_bots"], mine["user_search_bots"]) + searching > limits.search_bots:
            raise ServiceError(
                "too_many",
                "your tables that are not over may have {count} IS-MCTS bots in all: "
                "choose another bot, or finish a game first",
                count=limits.search_bots,
            )

    async def expire_waiting(self) -> list[str]:
        """Delete the tables whose seats were never all taken within ``waiting_table_hours``; their ids."""
        before = self.now() - dt.timedelta(hours=self.limits.waiting_table_hours)
        gone = await asyncio.to_thread(self.store.expire_waiting, before)
        for table_id in gone:
            await asyncio.to_thread(self.store.notify, f"x:{table_id}")
            self.forget(table_id)
        return gone

    def close_cached(self, table_id: str) -> None:
        """The operators closed a table: if it is cached here, it takes no more moves, and its sockets are told."""
        table = self.tables.get(table_id)
        if table is None or table.closed:
            return
        table.closed = True
        table.version += 1
        for listener in self.listeners:
            if hasattr(listener, "closed"):
                listener.closed(table_id)

    def forget(self, table_id: str) -> None:
        """A table deleted (here or by another process): out of the cache, its connections told and closed."""
        self.tables.pop(table_id, None)
        for listener in self.listeners:
            if hasattr(listener, "gone"):
                listener.gone(table_id)

    @staticmethod
    def _bot_seat(i: int, s: SeatRequest, game: Any) -> SeatRecord:
        offered = web_bots()
        if s.bot not in offered:
            raise ServiceError(
                "bad_request",
                "seat {seat}: the bots are {bots}, not {bot!r}",
                seat=i + 1,
                bots=", ".join(offered),
                bot=s.bot,
            )
        get_bot(s.bot)
        if s.bot == LEARNED:
            from ziggurat.bots.learned import fits

            if not fits(game):
                raise ServiceError(
                    "bad_request",
                    "seat {seat}: the learned bot has no policy for this game and player count",
                    seat=i + 1,
                )
        params: dict[str, Any] = {}
        if s.bot == "ismcts":
            level = DEFAULT_LEVEL if s.level is None else s.level
            if isinstance(level, bool) or not isinstance(level, int) or level not in BOT_LEVELS:
                raise ServiceError(
                    "bad_request", "seat {seat}: an ismcts level is 1 to {top}", seat=i + 1, top=len(BOT_LEVELS)
                )
            params["level"] = level
        elif s.level is not None:
            raise ServiceError("bad_request", "seat {seat}: only ismcts has levels", seat=i + 1)
        return SeatRecord(i, "bot", bot=s.bot, bot_params=params, claimed_at=None)

    # ------------------------------------------------------------------ seats
    def seat_of(self, table: LiveTable, token: str | None) -> int | None:
        """The seat whose secret is ``token``: a seat somebody sits at and plays (``None``: no token, an invite,
        a secret replaced or never this table's, or a seat a bot plays now that its player left)."""
        if not token or not isinstance(token, str) or len(token) > 200:
            return None
        found = None
        for s in table.seats:  # every seat compared, in constant time each
            if token_matches(token, s.token_hash) and s.claimed_at is not None:
                found = s.seat
        return found if found is not None and table.controller(found) == "human" else None

    def seat_of_user(self, table: LiveTable, user_id: int | None) -> int | None:
        """The seat an account sits at and plays (``None``: none, or several: then its seat's secret says which)."""
        if user_id is None:
            return None
        mine = [s.seat for s in table.seats if s.user_id == user_id and s.claimed_at is not None]
        return mine[0] if len(mine) == 1 and table.controller(mine[0]) == "human" else None

    def holder(self, table: LiveTable, proof: SeatProof | None) -> int | None:
        """The seat ``proof`` holds at ``table`` now: its seat secret's, else its account's (``None``: none).

        The answer depends only on the table's seats, so it is remembered until they change
        (``table.seats_version``): a socket's every move doesn't hash its secret again.
        """
        if proof is None:
            return None
        known = table.holders.get(proof)
        if known is not None and known[0] == table.seats_version:
            return known[1]
        seat = self.seat_of(table, proof.token) if proof.token else None
        if seat is None and proof.user_id is not None:
            seat = self.seat_of_user(table, proof.user_id)
        if len(table.holders) >= 64:  # a table has few sockets; forget the old proofs of a busy one
            table.holders.clear()
        table.holders[proof] = (table.seats_version, seat)
        return seat

    def lost_seat(self, table: LiveTable, token: str | None) -> str | None:
        """Why ``token`` holds no seat although it is the secret of the person sitting at one (``None``: it is
        no such secret): their seat is played by a bot now."""
        for s in table.seats:
            if s.claimed_at is not None and token_matches(token or "", s.token_hash):
                if table.seat_state[s.seat] == "left":
                    return N_("you left this table: a bot plays your seat now")
                return N_("a bot plays this seat now (its time ran out)")
        return None

    def _check_holder(self, table: LiveTable, seat: int, proof: SeatProof | None) -> None:
        """Refuse a request for ``seat`` whose proof no longer holds it (checked under the table's lock:
        a secret replaced, or a bot taking over, between reading the request and acting on it)."""
        if proof is not None and self.holder(table, proof) != seat:
            raise ServiceError("forbidden", "you do not hold this seat any more (it was opened elsewhere, or left)")

    async def find_invite(self, token: str) -> tuple[LiveTable, int]:
        """The table and seat an invite opens (or a seat secret: its holder opening the seat again)."""
        if not isinstance(token, str) or not 10 <= len(token) <= 200:
            raise ServiceError("not_found", "this invite link is not valid")
        found = await asyncio.to_thread(self.store.find_invite, hash_token(token))
        if found is None:
            raise ServiceError("not_found", INVITE_GONE)
        table = await self.get(found[0])
        seat = found[1]
        if not self._opens(table, seat, token):  # made by another process a moment ago: look again
            await self.reload_seats(table)
            if not self._opens(table, seat, token):
                raise ServiceError("not_found", "this invite link is not valid")
        return table, seat

    def _opens(self, table: LiveTable, seat: int, token: str) -> bool:
        """Whether ``token`` is ``seat``'s invite, or the secret of the person sitting there."""
        record = table.seats[seat]
        return token_matches(token, record.invite_hash) or self.seat_of(table, token) == seat

    async def claim(self, token: str, name: object, user_id: int | None = None) -> tuple[LiveTable, int, str]:
        """Sit down with an invite; returns the table, the seat and the seat's secret from now on.

        Sitting down gives the seat a new secret, known only to whoever sat down: the invite (which
        its sender also knows) is spent. A taken seat's link for another device moves the seat there:
        it gets a new secret, and whoever held the old one (the other device) holds nothing any more.
        The secret of the person sitting there opens their seat again as it is.
        """
        table, seat = await self.find_invite(token)
        async with table.lock:
            record = table.seats[seat]
            if self.seat_of(table, token) == seat:
                return table, seat, token
            if not token_matches(token, record.invite_hash):  # used or replaced while we waited for the lock
                raise ServiceError("not_found", INVITE_GONE)
            fresh = new_token()
            if record.claimed_at is None:
                await self._sit(table, seat, name, hash_token(fresh), user_id, invite_hash=record.invite_hash)
            else:
                await self._move(table, seat, hash_token(fresh), record)
            return table, seat, fresh

    async def _move(self, table: LiveTable, seat: int, token_hash: str, record: SeatRecord) -> None:
        """A taken seat's link for another device is used (holding the table's lock): the seat's secret is new."""
        if table.controller(seat) != "human":
            raise ServiceError("forbidden", "a bot plays this seat now: its player left the table")
        assert record.invite_hash is not None  # the link that was checked
        stored = await asyncio.to_thread(self.store.move_seat, table.id, seat, token_hash, record.invite_hash)
        if not stored:
            raise ServiceError("not_found", INVITE_GONE)
        table.set_seat(dataclasses.replace(record, token_hash=token_hash, invite_hash=None))
        await asyncio.to_thread(self.store.notify, f"s:{table.id}")
        self._changed(table, None)

    async def relink(self, table: LiveTable, seat: int | None, proof: SeatProof | None = None) -> str:
        """A link that moves ``seat`` to another device (an invite for a taken seat): whoever opens it sits
        there from then on, with a secret of their own. A newer link replaces an older one."""
        if seat is None:
            raise ServiceError("forbidden", "only a player at this table has a seat to open elsewhere")
        async with table.lock:
            self._check_holder(table, seat, proof)
            record = table.seats[seat]
            link = new_token()
            stored = await asyncio.to_thread(self.store.set_invite, table.id, seat, hash_token(link), record.token_hash)
            if not stored:
                raise ServiceError("busy", "the seat changed meanwhile; try again")
            table.set_seat(dataclasses.replace(record, invite_hash=hash_token(link)))
            await asyncio.to_thread(self.store.notify, f"s:{table.id}")
            return link

    async def claim_open(self, table_id: str, seat: int, name: object, user_id: int | None = None) -> str:
        """Take an open seat of a public table from the lobby; returns the seat's new secret (its invite is spent)."""
        table = await self.get(table_id)
        if not table.public:
            raise ServiceError("forbidden", "this table is not public: ask for an invite link")
        self._check_seat_number(table, seat)
        async with table.lock:
            token = new_token()
            await self._sit(table, seat, name, hash_token(token), user_id)
            return token

    async def reissue(self, table: LiveTable, by_seat: int | None, seat: int, proof: SeatProof | None = None) -> str:
        """A new invite for an open seat, asked by a seated player (the old link stops working)."""
        if by_seat is None:
            raise ServiceError("forbidden", "only a player at this table can make invite links")
        self._check_seat_number(table, seat)
        async with table.lock:
            self._check_holder(table, by_seat, proof)
            record = table.seats[seat]
            if record.kind != "human" or record.claimed_at is not None:
                raise ServiceError("seat_taken", "that seat is not open")
            token = new_token()
            if not await asyncio.to_thread(self.store.set_invite, table.id, seat, hash_token(token)):
                raise ServiceError("seat_taken", "that seat is not open")
            table.set_seat(SeatRecord(seat, "human", invite_hash=hash_token(token)))
            await asyncio.to_thread(self.store.notify, f"s:{table.id}")
            return token

    @staticmethod
    def _check_seat_number(table: LiveTable, seat: object) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(table.seats):
            raise ServiceError("not_found", "there is no such seat")

    async def _sit(
        self,
        table: LiveTable,
        seat: int,
        name: object,
        token_hash: str,
        user_id: int | None,
        invite_hash: str | None = None,
    ) -> None:
        """Seat a person at an open seat (holding the table's lock): stored, then shown to everyone.

        ``invite_hash``: only while the seat's invite is still that one (not replaced meanwhile).
        """
        record = table.seats[seat]
        if record.kind != "human" or record.claimed_at is not None:
            raise ServiceError("seat_taken", "that seat is not open")
        if table.record.rated:
            if user_id is None:
                raise ServiceError("forbidden", "this table is rated: log in (or sign up) to sit down")
            if any(s.user_id == user_id for s in table.seats if s.claimed_at is not None):
                raise ServiceError("forbidden", "you sit at this rated table already: one seat each")
        clean = clean_name(name)
        at = self.now()
        rated = table.record.rated
        stored = await asyncio.to_thread(
            self.store.claim_seat, table.id, seat, clean, token_hash, at, user_id, invite_hash, rated
        )
        if not stored:
            if rated and any(
                s.user_id == user_id and s.seat != seat
                for s in await asyncio.to_thread(self.store.load_seats, table.id)
            ):  # sat down through another server process a moment ago
                raise ServiceError("forbidden", "you sit at this rated table already: one seat each")
            raise ServiceError("seat_taken", "somebody sat there a moment ago (or the invite was replaced)")
        table.seat_joined(
            seat, clean, SeatRecord(seat, "human", name=clean, token_hash=token_hash, claimed_at=at, user_id=user_id)
        )
        if table.status == "playing":
            await asyncio.to_thread(self.store.set_status, table.id, "playing")
        await asyncio.to_thread(self.store.notify, f"s:{table.id}")
        self._changed(table, None)

    async def reload_seats(self, table: LiveTable) -> None:
        """Another process seated someone or made a new invite: take the seats from the database."""
        stored = await asyncio.to_thread(self.store.load_seats, table.id)
        async with table.lock:
            changed = False
            for record in sorted(stored, key=lambda r: (r.claimed_at is None, r.claimed_at or now(), r.seat)):
                mine = table.seats[record.seat]
                if record.claimed_at is not None and mine.claimed_at is None:
                    table.seat_joined(record.seat, record.name or "", record)
                    changed = True
                elif (record.token_hash, record.invite_hash) != (mine.token_hash, mine.invite_hash):
                    table.set_seat(record)
                    changed = True  # a secret replaced: the connections that held it are checked again
            if changed:
                self._changed(table, None)

    def on_notice(self, payload: str) -> None:
        """A notice from another process (see :mod:`ziggurat.server.notify`): catch up what it names."""
        kind, _, rest = payload.partition(":")
        if kind == "*":
            for cached in list(self.tables.values()):
                self._spawn(self.refresh(cached))
        elif kind == "m":
            table_id, _, seq = rest.rpartition(":")
            grown = self.tables.get(table_id)
            if grown is not None and seq.isdigit() and grown.seq < int(seq):
                self._spawn(self.refresh(grown, int(seq)))
            elif table_id in self._loading:
                self._missed.setdefault(table_id, []).append(payload)
        elif kind == "s":
            seated = self.tables.get(rest)
            if seated is not None:
                self._spawn(self.reload_seats(seated))
            elif rest in self._loading:
                self._missed.setdefault(rest, []).append(payload)
        elif kind == "j":
            for listener in self.listeners:
                if hasattr(listener, "wake"):
                    listener.wake()
        elif kind == "x":  # a table was deleted (it never started)
            self.forget(rest)
        elif kind == "u" and rest.isdigit():  # an account's sessions changed (a logout): its sockets checked again
            for listener in self.listeners:
                if hasattr(listener, "sessions_changed"):
                    self._spawn(listener.sessions_changed(int(rest)))

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------------ moves
    async def act(
        self,
        table: LiveTable,
        seat: int | None,
        action: object = None,
        text: object = None,
        expect: object = None,
        client_msg_id: object = None,
        timer: MoveTimer | None = None,
        as_bot: bool = False,
        proof: SeatProof | None = None,
    ) -> dict[str, Any]:
        """Play ``action`` (an id) or ``text`` for ``seat``; the answer names the seat's new event number.

        ``expect`` is the event number the move was chosen at: if the table has
        moved on for this seat since, the move is stale and refused.
        A ``client_msg_id`` already in the log is answered as before, not applied again.
        ``as_bot``: the move comes from the bot that plays the seat (only a bot may
        move for a bot seat, or for a seat whose player left or ran out of time).
        ``proof``: what the request showed to hold ``seat``, checked again once the table is locked.
        """
        # a bot's move carries its job's key (with ':'), which no client id can be
        msg_id = client_msg_id if as_bot and isinstance(client_msg_id, str) else _check_msg_id(client_msg_id)
        if seat is None:
            raise ServiceError("forbidden", "spectators cannot play: open your seat's invite link")
        _check_n(expect)
        async with table.lock:
            if not as_bot:
                self._check_holder(table, seat, proof)
            for _attempt in range(5):
                if msg_id is not None and (seat, msg_id) in table.msg_ids:
                    return {"ok": True, "n": table.journal.count(seat), "duplicate": True}
                try:
                    action_id = self._check_move(table, seat, action, text, expect, as_bot)
                except ServiceError as exc:
                    # another process may have moved the game on: look at the log before saying no
                    if exc.code in ("bad_request", "bad_action") or not await self.catch_up(table):
                        raise
                    continue
                rows = table.plan(seat, action_id, msg_id, self.now())
                if await self._append(table, rows):
                    for row in rows:
                        table.apply_row(row)
                    self.moves_applied += 1
                    move_logged(table.id, rows[0].seq, seat, "bot" if as_bot else "person")
                    await self._after_change(table, timer)
                    return {"ok": True, "n": table.journal.count(seat)}
                await self.catch_up(table)  # another process wrote first: look again
            raise ServiceError("busy", "the table is busy; try again")

    def _check_move(
        self, table: LiveTable, seat: int, action: object, text: object, expect: object, as_bot: bool
    ) -> int:
        status = table.status
        if status == "waiting":
            raise ServiceError("not_started", "the game starts when every seat is taken")
        if status == "over":
            raise ServiceError("game_over", "the game is over")
        if status == "closed":
            raise ServiceError("game_over", "this table was closed by the site's operators")
        if expect is not None and table.changed_since(seat, expect):  # type: ignore[arg-type]
            raise ServiceError("stale", "the table has changed since you chose that move; here it is again")
        if seat not in table.to_move():
            if table.state.is_simultaneous_node():
                raise ServiceError("not_your_turn", "you have made your choice for this round; wait for the others")
            raise ServiceError("not_your_turn", "it is not your turn")
        if (table.controller(seat) == "bot") != as_bot:
            if as_bot:
                raise ServiceError("not_your_turn", "a person plays this seat")
            raise ServiceError("forbidden", "a bot plays this seat now")
        if not as_bot and table.seat_state[seat] == "timeout":
            raise ServiceError("forbidden", "you ran out of time: the other players decide whether a bot plays on")
        state = table.state
        try:
            if action is not None and text is not None:
                raise ServiceError("bad_request", "send an action id or an action text, not both")
            if action is not None:
                if isinstance(action, bool) or not isinstance(action, int):
                    raise ParseActionError(f"an action id is a whole number, not {action!r}")
                if action not in state.legal_actions(seat):
                    state._reject(action, seat)
                return action
            if text is not None:
                if not isinstance(text, str) or len(text) > 200:
                    raise ParseActionError("an action text is a short text")
                return state.action_from_text(text, seat)
        except IllegalActionError as exc:
            raise ServiceError.from_engine("illegal", exc) from None
        except GameOverError as exc:
            raise ServiceError.from_engine("game_over", exc) from None
        except ActionError as exc:
            raise ServiceError.from_engine("bad_action", exc) from None
        raise ServiceError("bad_request", "say which action: 'action' (an id) or 'text'")

    async def undo(
        self,
        table: LiveTable,
        seat: int | None,
        expect: object = None,
        client_msg_id: object = None,
        timer: MoveTimer | None = None,
        proof: SeatProof | None = None,
    ) -> dict[str, Any]:
        """Take back ``seat``'s last decision, if BGA's rule allows it (see ``LiveTable.undo_problem``)."""
        msg_id = _check_msg_id(client_msg_id)
        if seat is None:
            raise ServiceError("forbidden", "spectators cannot take moves back")
        _check_n(expect)
        async with table.lock:
            self._check_holder(table, seat, proof)
            for _attempt in range(5):
                if msg_id is not None and (seat, msg_id) in table.msg_ids:
                    return {"ok": True, "n": table.journal.count(seat), "duplicate": True}
                if expect is not None and table.changed_since(seat, expect):  # type: ignore[arg-type]
                    raise ServiceError("stale", "the table has changed since; here it is again")
                problem = table.undo_problem(seat)
                if problem is None and table.takebacks_in_a_row(seat) >= self.limits.takebacks_in_a_row:
                    problem = f"you have taken back {self.limits.takebacks_in_a_row} times in a row: play on"
                if problem is not None:
                    raise ServiceError("undo_refused", "you cannot take that back: {reason}", reason=problem)
                rows = table.plan_undo(seat, msg_id, self.now())
                if await self._append(table, rows):
                    for row in rows:
                        table.apply_row(row)
                    await self._after_change(table, timer)
                    return {"ok": True, "n": table.journal.count(seat)}
                await self.catch_up(table)
            raise ServiceError("busy", "the table is busy; try again")

    # ---------------------------------------------------------- seat events
    async def time_out(self, table: LiveTable, seat: int, turn: int, key: str) -> bool:
        """``seat`` ran out of time on the decision it began at ``turn`` (a job calls this when it is due).

        Fires once (``key`` is the row's message id) and only if the seat is still
        on that decision when its time is really up. If no other person sits at the
        table to decide, a bot plays the seat on at once.
        """
        async with table.lock:
            for _attempt in range(5):
                if (seat, key) in table.msg_ids:
                    return False
                due = table.due(seat)
                if (
                    table.status != "playing"
                    or seat not in table.to_move()
                    or table.turn_seq.get(seat) != turn
                    or due is None
                    or due > self.now()
                ):
                    return False
                at = self.now()
                rows = [Row(table.seq + 1, seat, "timeout", None, key, at)]
                others = [
                    p
                    for p in range(table.game.num_players)
                    if p != seat and table.controller(p) == "human" and table.seat_state[p] == "active"
                ]
                if not others:
                    rows.append(Row(table.seq + 2, seat, "replace", None, None, at))
                if await self._append(table, rows):
                    for row in rows:
                        table.apply_row(row)
                    await self._after_change(table, None)
                    return True
                await self.catch_up(table)
            raise ServiceError("busy", "the table is busy; try again")

    async def replace(
        self, table: LiveTable, by_seat: int | None, seat: object, proof: SeatProof | None = None
    ) -> dict[str, Any]:
        """A player asks for a bot to play on for ``seat``, which ran out of time."""
        if by_seat is None:
            raise ServiceError("forbidden", "only a player at this table can decide that")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < table.game.num_players:
            raise ServiceError("bad_request", "say which seat")
        if by_seat == seat:
            raise ServiceError("forbidden", "the other players decide whether a bot plays for you")
        return await self._seat_event(
            table,
            seat,
            "replace",
            by_seat,
            lambda: table.seat_state[seat] == "timeout",
            N_("that seat has not run out of time"),
            proof,
        )

    async def leave(self, table: LiveTable, seat: int | None, proof: SeatProof | None = None) -> dict[str, Any]:
        """``seat``'s player leaves: a bot plays on for them so that the others can finish (and their
        connections no longer hold the seat)."""
        if seat is None:
            raise ServiceError("forbidden", "spectators have no seat to leave")
        return await self._seat_event(
            table,
            seat,
            "leave",
            seat,
            lambda: table.seat_state[seat] in ("active", "timeout"),
            N_("you have left already"),
            proof,
        )

    async def _seat_event(
        self, table: LiveTable, seat: int, kind: str, by: int, allowed: Any, refusal: str, proof: SeatProof | None
    ) -> dict[str, Any]:
        async with table.lock:
            self._check_holder(table, by, proof)
            for _attempt in range(5):
                if table.status != "playing":
                    raise ServiceError(
                        "game_over" if table.status == "over" else "not_started", "the game is not running"
                    )
                if table.seats[seat].kind != "human" or not allowed():
                    raise ServiceError("bad_request", refusal)
                if by != seat and (table.controller(by) != "human" or table.seat_state[by] != "active"):
                    raise ServiceError("forbidden", "only a player still at the table can decide that")
                rows = [Row(table.seq + 1, seat, kind, None, None, self.now())]
                if await self._append(table, rows):
                    table.apply_row(rows[0])
                    await self._after_change(table, None)
                    return {"ok": True, "n": table.journal.count(by)}
                await self.catch_up(table)
            raise ServiceError("busy", "the table is busy; try again")

    async def _append(self, table: LiveTable, rows: Sequence[Row]) -> bool:
        written = await self.writer.append(table.id, rows)
        if not written:
            self.conflicts += 1
        return written

    async def _after_change(self, table: LiveTable, timer: MoveTimer | None) -> None:
        if table.status == "over":
            await asyncio.to_thread(self.store.set_status, table.id, "over")
        self._changed(table, timer)

    def _changed(self, table: LiveTable, timer: MoveTimer | None) -> None:
        for listener in self.listeners:
            listener.changed(table, timer)

    def record_latency(self, seconds: float) -> None:
        """Keep the time from a move's arrival until every audience was sent its result."""
        MOVE_SECONDS.observe(seconds)
        self.latencies.add(seconds)

    def metrics(self) -> dict[str, Any]:
        """Counters, and percentiles (milliseconds) since the start or the last reset: the moves' latency,
        and where a slow one's time went: its wait for the database (``log_wait_ms``, from the log
        writer's hand-over to the commit) and the event loop's lag (``loop_lag_ms``)."""
        return {
            "moves": self.moves_applied,
            "conflicts": self.conflicts,
            "tables_cached": len(self.tables),
            "log_commits": self.writer.commits,
            "log_groups": self.writer.groups,
            "latency_ms": self.latencies.summary(),
            "log_wait_ms": self.writer.waits.summary(),
            "loop_lag_ms": self.loop_lag.summary(),
        }

    def reset_metrics(self) -> None:
        """Forget the timings measured so far."""
        self.latencies.clear()
        self.writer.waits.clear()
        self.loop_lag.clear()

    # ---------------------------------------------------------------- startup
    async def resume(self) -> int:
        """After a (re)start: plan again the work of every table that may have some (a bot to move, a clock,
        a rating). Jobs already stored stay as they are; one lost with the process is made again."""
        ids = await asyncio.to_thread(self.store.tables_to_resume)
        count = 0
        for table_id in ids:
            try:
                table = await self.get(table_id)
            except ServiceError:
                continue
            self._changed(table, None)
            count += 1
        return count


MSG_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def _check_msg_id(value: object) -> str | None:
    """A client's message id: letters, digits, '-' and '_' (the server's own jobs use ids with ':', so a
    client can never pass for a bot's move or a timeout)."""
    if value is None:
        return None
    if not isinstance(value, str) or not MSG_ID.fullmatch(value):
        raise ServiceError("bad_request", "'id' (the message id) is 1 to 64 letters, digits, '-' or '_'")
    return value


def _check_n(value: object) -> None:
    """The event number a request was made at (or none)."""
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise ServiceError("bad_request", "'n' must be the event number the move was chosen at")


def table_summary(table: LiveTable) -> Mapping[str, Any]:
    """What anyone may know of a table: game, options, seats and status (never the seed)."""
    from ziggurat.server.frames import seat_list

    spec = table.game.spec
    return {
        "id": table.id,
        "game": spec.id,
        "name": spec.name,
        "players": table.game.num_players,
        "options": table.game.params()["options"],
        "public": table.public,
        "rated": table.record.rated,
        "pace": table.pace,
        "seed_chosen": table.record.seed_chosen,
        "status": table.status,
        "seats": seat_list(table),
    }
