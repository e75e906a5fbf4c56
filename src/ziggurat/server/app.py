"""The web app: pages, the JSON API and the WebSocket, on FastAPI (Starlette).

Who acts for a seat is proven by the seat's secret, sent as ``Authorization:
Bearer <secret>`` (API clients), or in the ``zg_<table>`` cookie the invite
page sets (the browser; such requests must also carry the ``X-Ziggurat``
header, which a page of another site cannot add, so a cookie alone never
moves). Without a secret you are a spectator: you see ``view(None)`` and
cannot act. Errors are JSON ``{"error": code, "message": text}`` with a 4xx
status; an unexpected failure is a 500 that says nothing of its cause (it is
logged on the server).

The protocol (the same for the page, tests, bots and other clients):

* ``GET /api/tables/{id}/frame?since=N&format=data|html``: the frame of your
  audience (see :mod:`ziggurat.server.frames`).
* ``POST /api/tables/{id}/act`` ``{"action": id | "text": "take 9a", "n": N,
  "id": "client message id"}``: ``n`` is the event number you chose at.
* ``POST /api/tables/{id}/undo`` ``{"n": N, "id": ...}``.
* WebSocket ``/api/tables/{id}/ws``: first ``{"type": "hello", "token": ...?,
  "since": N, "format": "data"|"html"}``; then ``act``/``undo``/``ping``
  messages as above (with ``"type"``); the server sends ``frame``, ``ack``,
  ``error`` (followed by a fresh frame: a refused move never stays on the
  screen) and ``presence``.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import gc
import json
import logging
import math
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect

import ziggurat
from ziggurat.core import bot_names, game_ids, get_game
from ziggurat.core.documents import DocumentError, load_json
from ziggurat.core.errors import ActionError, IllegalActionError
from ziggurat.core.i18n import N_
from ziggurat.server import community, frames, learn
from ziggurat.server.accounts import SESSION_COOKIE, Accounts, User, check_signup, name_key
from ziggurat.server.admin import Admin
from ziggurat.server.community import current_user, language, translator_of
from ziggurat.server.connections import WRITE_NOW
from ziggurat.server.db import make_engine, migrate
from ziggurat.server.hub import Connection, Hub
from ziggurat.server.jobs import JobRunner
from ziggurat.server.limits import DatabaseCounters, Limits, RedisCounters, Throttle, a_wait, address_of
from ziggurat.server.live import LiveTable
from ziggurat.server.mail import MailSettings, parse_smtp, your_turn
from ziggurat.server.mail import send as send_mail
from ziggurat.server.notify import Listener, RedisPublisher
from ziggurat.server.observe import LOGINS, REFUSALS, RequestLog, watch_loop_lag
from ziggurat.server.ratings import Ratings
from ziggurat.server.records import full_record, replay_step, seat_record
from ziggurat.server.security import SecurityHeaders, same_site
from ziggurat.server.service import (
    BOT_LEVELS,
    LEARNED,
    STATUS_OF,
    CreateRequest,
    MoveTimer,
    SeatProof,
    SeatRequest,
    ServiceError,
    TableService,
    table_summary,
    web_bots,
)
from ziggurat.server.store import LogWriter, Store
from ziggurat.web import i18n, pages

log = logging.getLogger("ziggurat.server")

COOKIE_PREFIX = "zg_"
CSRF_HEADER = "x-ziggurat"
MAX_BODY = 64 * 1024
MAX_WS_MESSAGE = 16 * 1024


@dataclass
class Settings:
    """How a server runs: its database, the bots' pace and workers."""

    db_url: str = "sqlite:///ziggurat-data/ziggurat.db"
    bot_delay: float = 0.8
    bot_workers: int = 1
    metrics: bool = False  # GET /api/metrics and POST /api/metrics/reset (for load tests; off by default)
    cache_idle: float = 300.0  # seconds before an unused table leaves the memory cache
    smtp: str | None = None  # HOST:PORT of the SMTP server for "your turn" mails (None: no mail)
    mail_from: str = "ziggurat@localhost"
    public_url: str = "http://localhost:8000"  # the address people open: links in mails, the site check
    bus: str | None = None  # redis://... carries the news between processes (None: PostgreSQL's LISTEN/NOTIFY)
    limits: dict[str, str] = field(default_factory=dict)  # NAME=VALUE changes to the abuse limits (server/limits.py)
    ws_window_bits: int = 15  # WebSocket frames are compressed with a window of 2**bits bytes (server/connections.py)


class Server:
    """The parts of one server process, wired together."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.engine = make_engine(settings.db_url)
        migrate(self.engine)
        self.publisher = RedisPublisher(settings.bus) if settings.bus else None
        self.store = Store(self.engine, self.publisher)
        self.writer = LogWriter(self.engine, self.publisher)
        self.service = TableService(self.store, self.writer)
        self.hub = Hub(self.service)
        self.accounts = Accounts(self.engine, lambda: self.service.now())
        self.hub.session_open = self._session_open
        self.limits = Limits().with_values(settings.limits)
        counters = RedisCounters(settings.bus) if settings.bus else DatabaseCounters(self.engine)
        self.throttle = Throttle(counters, self.limits, lambda: self.service.now())
        self.service.limits = self.limits
        self.service.throttle = self.throttle
        self.ratings = Ratings(self.engine, lambda: self.service.now())
        self.jobs = JobRunner(self.service, self.store, delay=settings.bot_delay, workers=settings.bot_workers)
        self.jobs.add("rate", self._plan_rating, self._rate)
        self.mail: MailSettings | None = None
        if settings.smtp:
            host, port = parse_smtp(settings.smtp)
            self.mail = MailSettings(host, port, settings.mail_from, settings.public_url)
            self.jobs.add("mail", self._plan_mail, self._mail)
        self.mails_sent = 0

    async def log_in(self, address: str, name: object, password: object) -> tuple[User, str]:
        """Check a password (throttled per account and per client address); a new session's secret."""
        account = name_key(name.strip()) if isinstance(name, str) else ""
        wait = await asyncio.to_thread(self.throttle.wait_before_login, account, address)
        if wait is not None:
            LOGINS.labels("throttled").inc()
            raise ServiceError(
                "too_many", "too many wrong passwords: try again in {wait}", retry_after=wait, wait=a_wait(wait)
            )
        try:
            user, token = await asyncio.to_thread(self.accounts.log_in, name, password)
        except ServiceError as exc:
            if exc.code == "forbidden":
                LOGINS.labels("wrong").inc()
                await asyncio.to_thread(self.throttle.login_failed, account, address)
            raise
        LOGINS.labels("ok").inc()
        await asyncio.to_thread(self.throttle.login_succeeded, account)
        return user, token

    async def sign_up(self, address: str, name: object, password: object, email: object) -> tuple[User, str]:
        """A new account (at most ``signups_per_hour`` from one address) and its first session."""
        key = f"signup:{address}"
        wait = await asyncio.to_thread(self.throttle.window_left, key, self.limits.signups_per_hour)
        if wait is not None:
            raise ServiceError(
                "too_many", "too many new accounts from here: try again in {wait}", retry_after=wait, wait=a_wait(wait)
            )
        check_signup(name, password, email)  # a form filled in wrong costs nothing of the allowance
        await asyncio.to_thread(self.throttle.count_in_window, key)
        await asyncio.to_thread(self.accounts.sign_up, name, password, email)
        return await asyncio.to_thread(self.accounts.log_in, name, password)

    async def watch(self, every: float = 2.0) -> None:
        """Act on what the operators did (``ziggurat admin``, from any machine): tables closed and accounts
        banned since this process last looked. A banned account's sockets lose their seats and its seats at
        unfinished tables are handed to bots (every process tries; the second finds them handed already)."""
        admin = Admin(self.engine)
        closed_since = await asyncio.to_thread(admin.latest)
        banned_since = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)  # bans made while every server was down too
        while True:
            try:
                for table_id, at in await asyncio.to_thread(admin.closed_since, closed_since):
                    closed_since = max(closed_since, at)
                    self.service.close_cached(table_id)
                for user_id, at in await asyncio.to_thread(admin.banned_since, banned_since):
                    banned_since = max(banned_since, at)
                    await self.hub.sessions_changed(user_id)
                    for table_id, seat in await asyncio.to_thread(admin.unfinished_seats, user_id):
                        with contextlib.suppress(ServiceError):
                            table = await self.service.get(table_id)
                            if table.status == "playing" and table.controller(seat) == "human":
                                await self.service.leave(table, seat)
            except Exception:
                log.exception("looking for the operators' changes failed")
            await asyncio.sleep(every)

    async def _session_open(self, token: str) -> bool:
        return await asyncio.to_thread(self.accounts.user_of, token) is not None

    async def log_out(self, session: str | None) -> None:
        """End a login session: every socket whose seat it proved, in every process, holds that seat no more."""
        user_id = await asyncio.to_thread(self.accounts.log_out, session)
        if user_id is not None:
            await self.sessions_changed(user_id)

    async def sessions_changed(self, user_id: int) -> None:
        """An account's sessions ended or it was shut out: its sockets are checked here and in the others."""
        await asyncio.to_thread(self.store.notify, f"u:{user_id}")
        await self.hub.sessions_changed(user_id)

    def _plan_mail(self, table: LiveTable) -> list[tuple[str, str, int, Any]]:
        """Turn-based: a person whose turn begins gets a mail (if their account has an address)."""
        if table.pace != "turn" or table.status != "playing":
            return []
        return [
            (f"mail:{seat}:{table.turn_seq[seat]}", "mail", seat, self.service.now())
            for seat in table.to_move()
            if table.controller(seat) == "human" and table.seats[seat].user_id is not None and seat in table.turn_seq
        ]

    async def _mail(self, job: Any) -> None:
        table = await self.service.get(job.table_id)
        await self.service.refresh(table)
        turn = int(job.key.rsplit(":", 1)[1])
        seat = job.seat
        if table.status != "playing" or seat not in table.to_move() or table.turn_seq.get(seat) != turn:
            return  # they have played already
        user_id = table.seats[seat].user_id
        user = await asyncio.to_thread(self.accounts.by_id, user_id) if user_id is not None else None
        if user is None or not user.email or self.mail is None:
            return
        tr = i18n.translator(user.lang or i18n.DEFAULT)
        message = your_turn(self.mail, user.email, user.name, table.game.spec.name, table.id, tr)
        await asyncio.to_thread(send_mail, self.mail, message)
        self.mails_sent += 1

    def _plan_rating(self, table: LiveTable) -> list[tuple[str, str, int, Any]]:
        """A finished rated table is rated once (a job: after a crash, another process does it)."""
        if table.status == "over" and table.record.rated:
            return [("rate", "rate", -1, self.service.now())]
        return []

    async def _rate(self, job: Any) -> None:
        table = await self.service.get(job.table_id)
        await self.service.refresh(table)
        await asyncio.to_thread(self.ratings.rate_table, table)

    async def close(self) -> None:
        """Stop the bots and the log writer, close the database."""
        await self.jobs.close()
        await asyncio.to_thread(self.writer.close)
        if self.publisher is not None:
            self.publisher.close()
        self.engine.dispose()


# --------------------------------------------------------------------------- helpers
NOT_A_SEAT_SECRET = N_(
    "that secret does not open a seat at this table (an invite only lets you sit down: open its link)"
)


def error(code: str, message: str, retry_after: float | None = None) -> JSONResponse:
    """A JSON error with the status its code calls for (and ``Retry-After`` for a limit)."""
    response = JSONResponse({"error": code, "message": message}, status_code=STATUS_OF.get(code, 400))
    if retry_after is not None:
        response.headers["Retry-After"] = str(max(1, math.ceil(retry_after)))
    return response


def bearer(request: Request | WebSocket) -> str | None:
    """The secret of an ``Authorization: Bearer`` header."""
    header = request.headers.get("authorization", "")
    if header[:7].lower() == "bearer ":
        return header[7:].strip() or None
    return None


def cookie_name(table_id: str) -> str:
    """The cookie that holds this browser's seat secret for a table."""
    return COOKIE_PREFIX + table_id


def set_seat_cookie(response: Response, request: Request, table_id: str, token: str) -> None:
    """Remember the seat secret in an HttpOnly cookie (Secure over HTTPS)."""
    response.set_cookie(
        cookie_name(table_id),
        token,
        max_age=60 * 60 * 24 * 90,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
        path="/",
    )


async def json_body(request: Request) -> dict[str, Any]:
    """The request's JSON object (a clear 400 for anything else).

    A body must say it is JSON (``Content-Type: application/json``): a form of
    another site can send ``text/plain`` that looks like JSON, but not that.
    The body is read only up to :data:`MAX_BODY`.
    """
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        raise ServiceError("bad_request", "the request is too large")
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY:
                raise ServiceError("bad_request", "the request is too large")
            chunks.append(chunk)
    except ClientDisconnect:
        raise ServiceError("bad_request", "the request ended before its body") from None
    raw = b"".join(chunks)
    kind = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if raw.strip() and kind != "application/json":
        raise ServiceError("bad_request", "send the body as JSON, with the header Content-Type: application/json")
    try:  # within limits: no nesting that exhausts the stack, no number that takes seconds to read
        data = load_json(raw or b"{}", "the body", max_bytes=MAX_BODY)
    except DocumentError as exc:
        raise ServiceError("bad_request", "the body is not valid JSON ({reason})", reason=exc.problem) from None
    if not isinstance(data, dict):
        raise ServiceError("bad_request", "the body must be a JSON object")
    return data


def parse_create(data: dict[str, Any]) -> CreateRequest:
    """A table request from JSON (types checked; the service checks the rest)."""
    game = data.get("game")
    if not isinstance(game, str):
        raise ServiceError("bad_request", "'game' must be a game id")
    raw_seats = data.get("seats")
    if not isinstance(raw_seats, list) or not raw_seats or len(raw_seats) > 8:
        raise ServiceError("bad_request", "'seats' must be a list with one entry per player")
    seats = []
    for i, s in enumerate(raw_seats):
        if isinstance(s, str):  # shorthand: "me", "human", "random", "greedy", "ismcts", "ismcts:3"
            s = _seat_shorthand(s)
        if not isinstance(s, dict):
            raise ServiceError("bad_request", "seat {seat} must be an object or a name such as 'random'", seat=i + 1)
        kind, bot, level, name, me = s.get("kind"), s.get("bot"), s.get("level"), s.get("name"), s.get("me", False)
        if not isinstance(kind, str) or (bot is not None and not isinstance(bot, str)) or not isinstance(me, bool):
            raise ServiceError("bad_request", "seat {seat}: 'kind' is 'human' or 'bot', 'me' true or false", seat=i + 1)
        if level is not None and (isinstance(level, bool) or not isinstance(level, int)):
            raise ServiceError("bad_request", "seat {seat}: 'level' must be a whole number", seat=i + 1)
        if name is not None and not isinstance(name, str):
            raise ServiceError("bad_request", "seat {seat}: 'name' must be a text", seat=i + 1)
        seats.append(SeatRequest(kind=kind, bot=bot, level=level, name=name, me=me))
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise ServiceError("bad_request", "'options' must be an object")
    public = data.get("public", False)
    if not isinstance(public, bool):
        raise ServiceError("bad_request", "'public' must be true or false")
    seed = data.get("seed")
    position = data.get("position")
    if position is not None and not isinstance(position, dict):
        raise ServiceError("bad_request", "'position' must be a saved state (a JSON object)")
    me_name = data.get("name")
    if me_name is not None:
        for s in seats:
            if s.me and s.name is None:
                s.name = me_name
    pace = data.get("pace", "live")
    rated = data.get("rated", False)
    if not isinstance(pace, str) or not isinstance(rated, bool):
        raise ServiceError("bad_request", "'pace' is live, realtime or turn; 'rated' true or false")
    return CreateRequest(
        game=game,
        seats=seats,
        options=options,
        public=public,
        seed=seed,
        position=position,
        pace=pace,
        clock_initial=data.get("clock"),
        clock_increment=data.get("increment"),
        turn_seconds=data.get("turn_seconds"),
        rated=rated,
    )


def _seat_shorthand(text: str) -> dict[str, Any]:
    word, _, level = text.partition(":")
    if word == "me":
        return {"kind": "human", "me": True}
    if word == "human":
        return {"kind": "human"}
    out: dict[str, Any] = {"kind": "bot", "bot": word}
    if level:
        if not level.isdigit() or not level.isascii():
            raise ServiceError("bad_request", "{text!r}: a level is a number, as in 'ismcts:3'", text=text)
        out["level"] = int(level)
    return out


def lobby_games() -> list[dict[str, Any]]:
    """What the lobby offers for each game: player counts, and the options a web table may set."""
    out = []
    learned = LEARNED in web_bots()  # the train extra installed and a policy shipped
    for gid in game_ids():
        spec = get_game(gid).game_class.spec
        options = [
            {
                "name": o.name,
                "kind": o.kind,
                "default": o.default,
                "help": o.help,
                "choices": list(o.choices),
                "minimum": o.minimum,
                "maximum": o.maximum,
                "variant": o.variant,
            }
            for o in spec.options
            if o.kind != "path" and not o.param  # the lab's parameters are set from the command line and the API
        ]
        out.append(
            {
                "id": spec.id,
                "name": spec.name,
                "min_players": spec.min_players,
                "max_players": spec.max_players,
                "summary": spec.summary,
                "options": options,
                "simultaneous": spec.has_simultaneous_moves,
                # the player counts the learned bot has a policy for (none without the train extra)
                "learned": learned_players(spec.id, spec.min_players, spec.max_players) if learned else [],
            }
        )
    return out


def learned_players(game_id: str, low: int, high: int) -> list[int]:
    """The player counts of ``game_id`` with a shipped policy for the learned bot."""
    from ziggurat.bots.learned import shipped_policy

    return [n for n in range(low, high + 1) if shipped_policy(game_id, n).is_file()]


# --------------------------------------------------------------------------- the app
def create_app(settings: Settings | None = None) -> FastAPI:
    """The FastAPI application (the database is migrated when it starts)."""
    settings = settings or Settings()
    holder: dict[str, Server] = {}

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        server = await asyncio.to_thread(Server, settings)
        holder["server"] = server
        # What start-up loaded stays for good: keep it out of the collector's full passes. And collect the
        # youngest objects less often, so that the many short-lived frames of a busy server die young
        # instead of filling the older generations: full passes come rarely and stay short (p99 latency).
        gc.collect()
        gc.freeze()
        gc.set_threshold(50_000, 50, 100)
        app.state.server = server
        server.jobs.start()
        listener = None
        if settings.bus:
            listener = Listener(settings.bus, asyncio.get_running_loop(), server.service.on_notice, redis=True)
        elif server.engine.dialect.name == "postgresql":  # other processes may share the database
            dsn = server.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
            listener = Listener(dsn, asyncio.get_running_loop(), server.service.on_notice)
        if listener is not None:
            await asyncio.to_thread(listener.start)
        resume = asyncio.create_task(server.service.resume())
        sweep = asyncio.create_task(_sweep(server.service, settings.cache_idle))
        expire = asyncio.create_task(_expire(server.service))
        watch = asyncio.create_task(server.watch())
        lag = asyncio.create_task(watch_loop_lag(server.service.loop_lag))
        try:
            yield
        finally:
            for task in (resume, sweep, expire, watch, lag):
                task.cancel()
            if listener is not None:
                await asyncio.to_thread(listener.stop)
            await server.close()

    app = FastAPI(title="Ziggurat", version=ziggurat.__version__, lifespan=lifespan, docs_url="/api/docs")
    app.add_middleware(SecurityHeaders, public_https=settings.public_url.lower().startswith("https://"))
    app.add_middleware(RequestLog)  # outermost: every answer counted, timed and logged
    app.mount("/static", StaticFiles(packages=[("ziggurat.web", "static")]), name="static")
    app.include_router(community.router)
    app.include_router(learn.router)

    def server() -> Server:
        return holder["server"]

    def service() -> TableService:
        return holder["server"].service

    @app.exception_handler(ServiceError)
    async def _service_error(request: Request, exc: ServiceError) -> Response:
        REFUSALS.labels(exc.code).inc()
        return error(exc.code, exc.text(translator_of(request)), exc.retry_after)

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> Response:
        return error("bad_request", translator_of(request).gettext("the request is not well formed"))

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> Response:
        code = "not_found" if exc.status_code == 404 else "bad_request"
        message = translator_of(request).gettext("there is nothing here") if exc.status_code == 404 else exc.detail
        return JSONResponse({"error": code, "message": str(message)}, status_code=exc.status_code)

    @app.exception_handler(Exception)
    async def _internal(request: Request, exc: Exception) -> Response:
        ref = uuid.uuid4().hex[:8]
        log.error("internal error %s", ref, exc_info=exc)
        message = translator_of(request).gettext("something went wrong on the server (ref {ref})").format(ref=ref)
        return JSONResponse({"error": "internal", "message": message}, 500)

    async def signed_in(request: Request) -> User | None:
        """The logged-in user of a request that acts (its cookie counts only with the X-Ziggurat header)."""
        if request.cookies.get(SESSION_COOKIE) and request.headers.get(CSRF_HEADER) is None:
            raise ServiceError("forbidden", "a request sent with your session cookie must carry the X-Ziggurat header")
        return await current_user(request)

    async def seat_proof(request: Request, table: LiveTable, need_header: bool) -> tuple[int | None, SeatProof | None]:
        """The seat the request proves (Bearer secret, or cookie + X-Ziggurat header) and its proof, or None.

        Without a seat's secret, a logged-in player is at the one seat of the table their account sits at
        (so they find their seat on any device where they are logged in). An invite proves no seat.
        """
        token = bearer(request)
        if token is not None:
            proof = SeatProof(token)
            seat = service().holder(table, proof)
            if seat is None:
                raise ServiceError(
                    "forbidden",
                    service().lost_seat(table, token) or NOT_A_SEAT_SECRET,
                )
            return seat, proof
        cookie = request.cookies.get(cookie_name(table.id))
        session = request.cookies.get(SESSION_COOKIE)
        if cookie is None and session is None:
            return None, None
        if need_header and request.headers.get(CSRF_HEADER) is None:
            raise ServiceError("forbidden", "a move sent with a cookie must carry the X-Ziggurat header")
        proof = SeatProof(cookie)
        seat = service().holder(table, proof)
        if seat is None and session:  # no seat cookie, or an old one (the seat moved to another device)
            user = await current_user(request)
            if user is not None:
                proof = SeatProof(cookie, session, user.id)
                seat = service().holder(table, proof)
        return seat, proof

    async def audience(request: Request, table: LiveTable, need_header: bool) -> int | None:
        """The seat the request proves (see :func:`seat_proof`), or None for a spectator."""
        return (await seat_proof(request, table, need_header))[0]

    # ----------------------------------------------------------------- pages
    @app.get("/", response_class=HTMLResponse)
    async def lobby_page(request: Request) -> Response:
        tables = await asyncio.to_thread(server().store.list_tables, True, 50)
        for t in tables:
            t["name"] = get_game(t["game"]).game_class.spec.name
        user = await current_user(request)
        games = await community.games_of(request, user.id) if user else []
        games_offered = lobby_games()
        return community.page(
            request,
            "lobby.html",
            user=user,
            your_turn=[g for g in games if g["your_turn"]],
            mine=[g for g in games if g["status"] != "over"][:20],  # an account's tables, on any device
            games=games_offered,
            games_json=json.dumps(games_offered),
            tables=tables,
            bots=[b for b in web_bots() if b in bot_names()],
            levels=sorted(BOT_LEVELS),
        )

    @app.get("/join", response_class=HTMLResponse)
    async def join_page(request: Request) -> Response:
        return community.page(request, "join.html", user=await current_user(request))

    @app.get("/t/{table_id}", response_class=HTMLResponse)
    async def table_page(request: Request, table_id: str) -> Response:
        user = await current_user(request)
        try:
            table = await service().get(table_id)
            seat = await audience(request, table, need_header=False)
        except ServiceError as exc:
            status = STATUS_OF.get(exc.code, 400)
            return community.page(request, "error.html", status, user=user, title=N_("No such table"), message=exc)
        frame = frames.html_frame(table, seat, 0, language(request))
        # the links themselves come in the address's fragment to whoever created the table (seated or not)
        invites = [{"seat": s} for s in table.open_seats()]
        return community.page(
            request,
            "table.html",
            user=user,
            table_id=table.id,
            spec=table.game.spec,
            describe=pages.describe_game(table.game, translator_of(request)),
            seat=seat,
            frame=frame,
            frame_json=pages.script_json(frame),
            invites=invites,
            pace=table.pace,
            rated=table.record.rated,
            seed_chosen=table.record.seed_chosen,
        )

    @app.get("/t/{table_id}/replay", response_class=HTMLResponse)
    async def replay_page(request: Request, table_id: str) -> Response:
        user = await current_user(request)
        try:
            table = await service().get(table_id)
            seat = await audience(request, table, need_header=False)
        except ServiceError as exc:
            status = STATUS_OF.get(exc.code, 400)
            return community.page(request, "error.html", status, user=user, title=N_("No such table"), message=exc)
        return community.page(
            request,
            "replay.html",
            user=user,
            table_id=table.id,
            spec=table.game.spec,
            describe=pages.describe_game(table.game, translator_of(request)),
            over=table.status == "over",
            players=table.game.num_players,
            seats=frames.seat_list(table),
            seat=seat,
        )

    # ------------------------------------------------------------------- API
    @app.get("/api/games")
    async def api_games() -> Any:
        return {"games": lobby_games(), "bots": list(web_bots()), "levels": BOT_LEVELS}

    @app.get("/api/tables")
    async def api_tables() -> Any:
        rows = await asyncio.to_thread(server().store.list_tables, True, 100)
        return {
            "tables": [
                {
                    "id": r["id"],
                    "game": r["game"],
                    "players": r["players"],
                    "options": r["options"],
                    "status": r["status"],
                    "seats": [
                        {
                            "seat": s["seat"],
                            "kind": s["kind"],
                            "bot": s["bot"],
                            "name": s["name"],
                            "taken": s["kind"] == "bot" or s["claimed_at"] is not None,
                        }
                        for s in r["seats"]
                    ],
                }
                for r in rows
            ]
        }

    @app.post("/api/tables")
    async def api_create(request: Request) -> Response:
        user = await signed_in(request)
        wanted = parse_create(await json_body(request))
        wanted.address = address_of(request)
        if user is not None:
            wanted.user_id = user.id
            for s in wanted.seats:
                if s.me and not s.name:
                    s.name = user.name
        created = await service().create(wanted)
        base = str(request.base_url).rstrip("/")
        body: dict[str, Any] = {
            "id": created.table_id,
            "url": f"{base}/t/{created.table_id}",
            "seat": created.seat,
            "token": created.token,
            "invites": [{"seat": s, "token": t, "url": f"{base}/join#{t}"} for s, t in sorted(created.invites.items())],
        }
        response = JSONResponse(body, status_code=201)
        if created.token is not None:
            set_seat_cookie(response, request, created.table_id, created.token)
        return response

    @app.post("/api/seats/lookup")
    async def api_lookup(request: Request) -> Any:
        data = await json_body(request)
        table, seat = await service().find_invite(data.get("token"))  # type: ignore[arg-type]
        record = table.seats[seat]
        return {**table_summary(table), "seat": seat, "taken": record.claimed_at is not None, "name": record.name}

    @app.post("/api/seats/claim")
    async def api_claim(request: Request) -> Response:
        data = await json_body(request)
        token = data.get("token")
        user = await signed_in(request)
        name = data.get("name") or (user.name if user else None)
        table, seat, secret = await service().claim(token, name, user.id if user else None)  # type: ignore[arg-type]
        response = JSONResponse({"table": table.id, "seat": seat, "token": secret, "url": f"/t/{table.id}"})
        set_seat_cookie(response, request, table.id, secret)
        return response

    @app.post("/api/tables/{table_id}/link")
    async def api_link(request: Request, table_id: str) -> Response:
        table = await service().get(table_id)
        seat, proof = await seat_proof(request, table, need_header=True)
        link = await service().relink(table, seat, proof)
        base = str(request.base_url).rstrip("/")
        # an invite for this seat: whoever opens it sits there from then on, and this browser watches
        return JSONResponse({"seat": seat, "token": link, "url": f"{base}/join#{link}"})

    @app.get("/api/tables/{table_id}")
    async def api_table(table_id: str) -> Any:
        return table_summary(await service().get(table_id))

    @app.post("/api/tables/{table_id}/seats/{seat}/claim")
    async def api_claim_open(request: Request, table_id: str, seat: int) -> Response:
        data = await json_body(request)
        user = await signed_in(request)
        name = data.get("name") or (user.name if user else None)
        token = await service().claim_open(table_id, seat, name, user.id if user else None)
        response = JSONResponse({"table": table_id, "seat": seat, "token": token, "url": f"/t/{table_id}"})
        set_seat_cookie(response, request, table_id, token)
        return response

    @app.post("/api/tables/{table_id}/seats/{seat}/invite")
    async def api_invite(request: Request, table_id: str, seat: int) -> Any:
        table = await service().get(table_id)
        by, proof = await seat_proof(request, table, need_header=True)
        token = await service().reissue(table, by, seat, proof)
        base = str(request.base_url).rstrip("/")
        return {"seat": seat, "token": token, "url": f"{base}/join#{token}"}

    @app.get("/api/tables/{table_id}/frame")
    async def api_frame(request: Request, table_id: str, since: int = 0, format: str = "data") -> Any:
        table = await service().get(table_id)
        if format not in ("data", "html"):
            raise ServiceError("bad_request", "format is 'data' or 'html'")
        seat = await audience(request, table, need_header=False)
        await service().refresh(table)
        frame = frames.build(table, seat, since, format, language(request))
        return Response(frames.encode(frame), media_type="application/json")

    @app.post("/api/tables/{table_id}/act")
    async def api_act(request: Request, table_id: str) -> Any:
        timer = MoveTimer(time.perf_counter())
        table = await service().get(table_id)
        data = await json_body(request)
        seat, proof = await seat_proof(request, table, need_header=True)
        return await service().act(
            table, seat, data.get("action"), data.get("text"), data.get("n"), data.get("id"), timer, proof=proof
        )

    @app.get("/api/tables/{table_id}/why")
    async def api_why(request: Request, table_id: str, text: str = "") -> Any:
        """Why the move written ``text`` is not one of your legal moves now, in your language (the engine's own
        explanation, which speaks to your seat only); ``{"legal": true}`` if it is one."""
        table = await service().get(table_id)
        seat = await audience(request, table, need_header=False)
        if seat is None:
            raise ServiceError("forbidden", "only a player at this table can ask why a move is not possible")
        if not text or len(text) > 200:
            raise ServiceError("bad_request", "say which move: ?text=...")
        await service().refresh(table)
        tr = translator_of(request)
        try:
            table.state.action_from_text(text, seat)
        except IllegalActionError as exc:
            why = ServiceError.from_engine("illegal", exc)
            return {"legal": False, "message": why.text(tr), "id": exc.message_id}
        except ActionError as exc:
            raise ServiceError.from_engine("bad_action", exc) from None
        return {"legal": True, "message": tr.gettext("that move can be made now")}

    @app.post("/api/tables/{table_id}/undo")
    async def api_undo(request: Request, table_id: str) -> Any:
        table = await service().get(table_id)
        data = await json_body(request)
        seat, proof = await seat_proof(request, table, need_header=True)
        return await service().undo(table, seat, data.get("n"), data.get("id"), proof=proof)

    @app.post("/api/tables/{table_id}/leave")
    async def api_leave(request: Request, table_id: str) -> Any:
        table = await service().get(table_id)
        seat, proof = await seat_proof(request, table, need_header=True)
        return await service().leave(table, seat, proof)

    @app.post("/api/tables/{table_id}/seats/{seat}/replace")
    async def api_replace(request: Request, table_id: str, seat: int) -> Any:
        table = await service().get(table_id)
        by, proof = await seat_proof(request, table, need_header=True)
        return await service().replace(table, by, seat, proof)

    @app.get("/api/tables/{table_id}/replay")
    async def api_replay(request: Request, table_id: str, step: int | None = None, seat: str = "") -> Any:
        table = await service().get(table_id)
        me = await audience(request, table, need_header=False)
        who = _replay_audience(table, seat, me)
        frame, total = await asyncio.to_thread(replay_step, table, who, step, language(request))
        if step is None:
            return {"steps": total, "seat": who}
        if frame is None:
            raise ServiceError("not_found", "there are {total} steps (0 to {last})", total=total, last=total - 1)
        return Response(frames.encode({**frame, "step": step, "steps": total}), media_type="application/json")

    @app.get("/api/tables/{table_id}/record")
    async def api_record(request: Request, table_id: str, full: bool = False) -> Response:
        table = await service().get(table_id)
        seat = await audience(request, table, need_header=False)
        if full:
            if table.status != "over":
                raise ServiceError("forbidden", "the full record (with the seed) is shown once the game is over")
            body = full_record(table)
            name = f"ziggurat-{table.game.spec.id}-{table.id}.json"
        else:
            if seat is None:
                raise ServiceError("forbidden", "only a seat can download its record (or ?full=true after the end)")
            body = await asyncio.to_thread(seat_record, table, seat)
            name = f"ziggurat-{table.game.spec.id}-{table.id}-seat{seat + 1}.json"
        return Response(
            json.dumps(body, indent=1, ensure_ascii=False),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    @app.get("/api/metrics")
    async def api_metrics() -> Any:
        if not settings.metrics:
            raise ServiceError("not_found", "metrics are off")
        return {**service().metrics(), "bot_decisions": server().jobs.decisions}

    @app.post("/api/metrics/reset")
    async def api_metrics_reset() -> Any:
        if not settings.metrics:
            raise ServiceError("not_found", "metrics are off")
        service().reset_metrics()
        return {"ok": True}

    # ------------------------------------------------------------- WebSocket
    @app.websocket("/api/tables/{table_id}/ws")
    async def table_socket(ws: WebSocket, table_id: str) -> None:
        same = same_site(ws.headers.get("origin"), ws.headers.get("host"), settings.public_url)
        cookie = ws.cookies.get(cookie_name(table_id)) if same else None  # another site's page can't use a seat
        address = address_of(ws)
        lang = language(ws)
        await ws.accept()
        if not server().hub.admits(address, server().limits.sockets_per_address):
            crowded = ServiceError(
                "too_many",
                "too many connections from your address (at most {count})",
                count=server().limits.sockets_per_address,
            )
            await ws.send_text(_ws_error(crowded, lang))
            await ws.close(code=4429)
            return
        try:
            table = await service().get(table_id)
        except ServiceError as exc:
            await ws.send_text(_ws_error(exc, lang))
            await ws.close(code=4404)
            return
        try:
            hello = await _receive(ws)
        except (WebSocketDisconnect, ServiceError):
            await _close(ws)
            return
        if hello.get("type") != "hello":
            await ws.send_text(_ws_error(ServiceError("bad_request", "say hello first"), lang))
            await ws.close(code=4400)
            return
        if hello.get("lang") in i18n.LANGUAGES:  # the page says which language it shows
            lang = hello["lang"]
        token = hello.get("token") or bearer(ws)
        proof: SeatProof | None = SeatProof(token) if isinstance(token, str) else None
        seat = service().holder(table, proof)
        if not token:  # this browser's seat: its cookie (an old one counts for nothing), else its account's
            proof = SeatProof(cookie)
            seat = service().holder(table, proof)
            session = ws.cookies.get(SESSION_COOKIE)
            if seat is None and session and same:
                user = await asyncio.to_thread(server().accounts.user_of, session)
                if user is not None:
                    proof = SeatProof(cookie, session, user.id)
                    seat = service().holder(table, proof)
        if token and seat is None:
            await ws.send_text(_ws_error(ServiceError("forbidden", "that secret does not open a seat"), lang))
            await ws.close(code=4403)
            return
        fmt = hello.get("format", "data")
        since = hello.get("since", 0)
        if fmt not in ("data", "html") or isinstance(since, bool) or not isinstance(since, int):
            await ws.send_text(_ws_error(ServiceError("bad_request", "format is data|html, since a number"), lang))
            await ws.close(code=4400)
            return

        async def close_socket(code: int) -> None:
            with contextlib.suppress(Exception):
                await ws.close(code=code)

        # another process may have moved the table on (and this client may have seen it there): catch up first,
        # so that the first frame continues from the client's event number instead of repeating entries later
        await service().refresh(table)
        seat = service().holder(table, proof)  # checked again: the seat may have moved while we caught up

        async def send(data: bytes) -> None:
            await ws.send_text(data.decode())

        conn = Connection(
            table.id,
            seat,
            fmt,
            send,
            lang=lang,
            close_socket=close_socket,
            proof=proof,
            address=address,
            write_now=ws.scope.get(WRITE_NOW),  # uvicorn with our protocol (ziggurat serve); else None
        )
        conn.proof_version = table.seats_version
        tr = i18n.translator(lang)
        hub = server().hub
        hub.send_message(conn, {"type": "welcome", "seat": seat, "table": table.id})
        hub.send_now(conn, table, since)
        hub.attach(conn)
        try:
            while not conn.closed:
                try:
                    msg = await _receive(ws)
                except ServiceError as exc:
                    hub.send_message(conn, {"type": "error", "code": exc.code, "message": exc.text(tr)})
                    continue
                kind = msg.get("type")
                if kind == "ping":
                    hub.send_message(conn, {"type": "pong"})
                    continue
                if kind not in ("act", "undo", "sync"):
                    unknown = ServiceError("bad_request", "unknown message {kind!r}", kind=kind)
                    hub.send_message(conn, {"type": "error", "code": unknown.code, "message": unknown.text(tr)})
                    continue
                if kind == "sync":
                    await service().refresh(table)
                    hub.send_now(conn, table, msg.get("since", 0) if isinstance(msg.get("since"), int) else 0)
                    continue
                msg_id = msg.get("id")
                timer = MoveTimer(time.perf_counter(), origin=conn, msg_id=msg_id if isinstance(msg_id, str) else None)
                seat = conn.audience  # a seat this socket no longer holds was taken from it (server/hub.py)
                try:
                    if kind == "act":
                        action, text, n = msg.get("action"), msg.get("text"), msg.get("n")
                        ack = await service().act(table, seat, action, text, n, msg_id, timer, proof=conn.proof)
                    else:
                        ack = await service().undo(table, seat, msg.get("n"), msg_id, timer, proof=conn.proof)
                    if not timer.acked:  # a retried message: nothing new to send, so say it was done
                        hub.send_message(conn, {"type": "ack", "id": msg_id, **ack})
                except ServiceError as exc:
                    hub.send_message(
                        conn, {"type": "error", "id": msg.get("id"), "code": exc.code, "message": exc.text(tr)}
                    )
                    hub.send_now(conn, table, conn.sent if conn.sent <= table.journal.count(seat) else 0)
                except Exception:
                    ref = uuid.uuid4().hex[:8]
                    log.exception("internal error %s on table %s", ref, table.id)
                    hub.send_message(
                        conn,
                        {
                            "type": "error",
                            "id": msg_id if isinstance(msg_id, str) else None,
                            "code": "internal",
                            "message": tr.gettext("something went wrong (ref {ref})").format(ref=ref),
                        },
                    )
                    hub.send_now(conn, table, conn.sent if conn.sent <= table.journal.count(seat) else 0)
        except WebSocketDisconnect:
            pass
        finally:
            hub.detach(conn)

    return app


async def _sweep(service: TableService, idle: float) -> None:
    """Every little while, drop tables nobody uses from the cache (and let the memory go)."""
    while True:
        await asyncio.sleep(max(1.0, idle / 10))
        service.evict_idle(idle)


async def _expire(service: TableService, every: float = 60.0) -> None:
    """Every minute, delete the tables that waited too long for their players (``waiting_table_hours``)."""
    while True:
        try:
            gone = await service.expire_waiting()
            if gone:
                log.info("deleted %d tables whose seats were never all taken", len(gone))
        except Exception:
            log.exception("deleting old waiting tables failed")
        await asyncio.sleep(every)


SETTINGS_ENV = "ZIGGURAT_SERVE_SETTINGS"


def app_from_env() -> FastAPI:
    """The app with the settings ``ziggurat serve`` put in the environment (for ``--workers N``)."""
    import os

    from ziggurat.server.connections import CompressingWebSocketProtocol, GuardedHttpProtocol

    settings = Settings(**json.loads(os.environ[SETTINGS_ENV]))
    GuardedHttpProtocol.configure(Limits().with_values(settings.limits))  # this worker's connections
    CompressingWebSocketProtocol.configure(settings.ws_window_bits)
    return create_app(settings)


def _replay_audience(table: LiveTable, seat: str, me: int | None) -> int | None:
    """Whose eyes a replay shows: a seat's only once the game is over; a spectator's during play."""
    if seat in ("", "spectator"):
        return None
    if not seat.isdigit() or not seat.isascii() or not 1 <= int(seat) <= table.game.num_players:
        raise ServiceError("bad_request", "seat is 1 to {top} or 'spectator'", top=table.game.num_players)
    if table.status != "over":
        raise ServiceError("forbidden", "during play a replay shows what a spectator sees")
    return int(seat) - 1


def _ws_error(exc: ServiceError, lang: str) -> str:
    """An error message for a socket, in ``lang``."""
    return frames.encode({"type": "error", "code": exc.code, "message": exc.text(i18n.translator(lang))})


async def _receive(ws: WebSocket) -> dict[str, Any]:
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None:
        raise ServiceError("bad_request", "messages are JSON text, not binary")
    if len(text) > MAX_WS_MESSAGE:
        raise ServiceError("bad_request", "message too large")
    try:
        data = load_json(text, "the message", max_bytes=MAX_WS_MESSAGE)
    except DocumentError as exc:
        raise ServiceError("bad_request", "not valid JSON ({reason})", reason=exc.problem) from None
    if not isinstance(data, dict):
        raise ServiceError("bad_request", "a message is a JSON object")
    return data


async def _close(ws: WebSocket) -> None:
    with contextlib.suppress(Exception):
        await ws.close()
