"""What an operator watches: Prometheus metrics and structured (JSON) logs.

**Metrics** (``prometheus-client``): moves and their latency, HTTP requests by route and status, refusals
by error code, open WebSocket connections, jobs done and failed, bots' thinking time, log-ins and how they
went, tables in memory; and the two places a slow move's time goes: waiting for the database (the move
log's commit) and waiting for the event loop (its lag: a busy or blocked process). ``ziggurat serve
--prometheus 127.0.0.1:9100`` serves them on a listener of their own, which an operator keeps private
(loopback by default, never the public port). With several server processes every process writes its
numbers to a shared folder (``PROMETHEUS_MULTIPROC_DIR``, set by ``serve``) and the listener adds them up.

**Logs**: ``ziggurat serve --log-format json`` writes one JSON object per line: one per HTTP request
(method, route, path, status, milliseconds, client address), one per move (table, seq, seat, who moved,
milliseconds) and the server's own messages. Nothing secret or hidden is logged: no header, no query
string, no request body, no secret, no action (a move's choice may be hidden from the other players).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import time
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

from ziggurat.server.limits import client_key

log = logging.getLogger("ziggurat.server")
access = logging.getLogger("ziggurat.access")

# The server's own registry: what ``--prometheus`` serves in one process (the multiprocess collector reads the
# processes' files instead). Not the library's global one, which a second import of this module (a test
# runner's, say) would fill twice.
REGISTRY = CollectorRegistry()
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.08, 0.1, 0.25, 0.5, 1.0, 2.5)
THINKING_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 8.0, 15.0)

MOVES = Counter("ziggurat_moves", "Decisions applied at tables", ["by"], registry=REGISTRY)
MOVE_SECONDS = Histogram(
    "ziggurat_move_seconds",
    "From a move's arrival until every connection of its table that sees it was sent the result",
    buckets=LATENCY_BUCKETS,
    registry=REGISTRY,
)
REQUESTS = Counter("ziggurat_http_requests", "HTTP requests answered", ["method", "route", "status"], registry=REGISTRY)
REQUEST_SECONDS = Histogram(
    "ziggurat_http_request_seconds",
    "Time to answer an HTTP request",
    ["route"],
    buckets=LATENCY_BUCKETS,
    registry=REGISTRY,
)
REFUSALS = Counter("ziggurat_refusals", "Requests and moves refused, by error code", ["code"], registry=REGISTRY)
INTERNAL_ERRORS = Counter(
    "ziggurat_internal_errors", "Unexpected failures (a 500, or an error frame 'internal')", registry=REGISTRY
)
CONNECTIONS = Gauge(
    "ziggurat_websocket_connections", "Open WebSocket connections", multiprocess_mode="livesum", registry=REGISTRY
)
TABLES_CACHED = Gauge("ziggurat_tables_cached", "Tables held in memory", multiprocess_mode="livesum", registry=REGISTRY)
JOBS = Counter(
    "ziggurat_jobs",
    "Jobs done (bots, clocks, mails, ratings), by kind and outcome",
    ["kind", "outcome"],
    registry=REGISTRY,
)
BOT_SECONDS = Histogram(
    "ziggurat_bot_thinking_seconds",
    "A bot's time to decide, in its worker",
    ["bot"],
    buckets=THINKING_BUCKETS,
    registry=REGISTRY,
)
LOG_WAIT_SECONDS = Histogram(
    "ziggurat_log_wait_seconds",
    "A move group's wait for the database: from being handed to the log writer until its commit",
    buckets=LATENCY_BUCKETS,
    registry=REGISTRY,
)
LOOP_LAG_SECONDS = Histogram(
    "ziggurat_event_loop_lag_seconds",
    "How late the event loop ran a timer: the time it spent on other work (or blocked) before it",
    buckets=LATENCY_BUCKETS,
    registry=REGISTRY,
)
LOGINS = Counter(
    "ziggurat_logins", "Log-in attempts, by outcome (ok, wrong, throttled)", ["outcome"], registry=REGISTRY
)


class Percentiles:
    """The last ``keep`` values of a timing, for ``/api/metrics`` (a load test's percentiles); bounded."""

    def __init__(self, keep: int = 200_000):
        self.keep = keep
        self.values: list[float] = []

    def add(self, seconds: float) -> None:
        """Keep one more value (the oldest half goes when full)."""
        self.values.append(seconds)
        if len(self.values) > self.keep:
            del self.values[: self.keep // 2]

    def clear(self) -> None:
        """Forget every value."""
        self.values.clear()

    def summary(self) -> dict[str, float | int | None]:
        """Count, p50, p90, p99 and max in milliseconds (None when empty)."""
        values = sorted(self.values)

        def pct(q: float) -> float | None:
            return round(values[min(len(values) - 1, int(q * len(values)))] * 1000, 3) if values else None

        return {"n": len(values), "p50": pct(0.50), "p90": pct(0.90), "p99": pct(0.99), "max": pct(1.0)}


async def watch_loop_lag(kept: Percentiles, every: float = 0.05) -> None:
    """Measure, every ``every`` seconds, how much later than asked the event loop woke this task.

    Any lateness is time the loop spent elsewhere: on other tasks (a busy process) or blocked (a slow
    call, a collector pass, the interpreter lock held by another thread). A move's latency that the
    database's wait does not explain shows here. Runs until cancelled.
    """
    loop = asyncio.get_running_loop()
    while True:
        asked = loop.time() + every
        await asyncio.sleep(every)
        lag = max(0.0, loop.time() - asked)
        LOOP_LAG_SECONDS.observe(lag)
        kept.add(lag)


def serve_metrics(address: str) -> None:
    """Serve the metrics on ``HOST:PORT`` from a thread of this process (all processes' when multiprocess)."""
    from prometheus_client import multiprocess, start_http_server

    host, _, port = address.rpartition(":")
    registry = REGISTRY
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    start_http_server(int(port), addr=host or "127.0.0.1", registry=registry)


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, and the record's structured fields."""

    FIELDS = ("event", "method", "route", "path", "status", "ms", "client", "table", "seq", "seat", "by", "code")

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in self.FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                out[name] = value
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


def quiet_access_log() -> None:
    """Text logs: uvicorn's own access log says what a request line needs; ours stays silent."""
    logging.getLogger("ziggurat.access").setLevel(logging.WARNING)


def use_json_logs(level: str) -> None:
    """Every log line of this process as JSON (ours, and uvicorn's errors); uvicorn's access log is off."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter())
    for name in ("ziggurat", "uvicorn", "uvicorn.error"):
        logger = logging.getLogger(name)
        logger.handlers = [handler]
        logger.propagate = False
        logger.setLevel(level.upper())
    logging.getLogger("ziggurat.access").setLevel(logging.INFO)  # a line per request and per move, whatever else
    logging.getLogger("uvicorn.access").disabled = True


class RequestLog:
    """ASGI middleware: every HTTP request is counted and timed, and logged as one line (see the module)."""

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def counted(message: Any) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, counted)
        finally:
            seconds = time.perf_counter() - started
            route = scope.get("route")
            template = getattr(route, "path", None) or ("/static" if scope["path"].startswith("/static/") else "other")
            REQUESTS.labels(scope["method"], template, str(status)).inc()
            REQUEST_SECONDS.labels(template).observe(seconds)
            if status >= 500:
                INTERNAL_ERRORS.inc()
            access.info(
                "%s %s %d",
                scope["method"],
                template,
                status,
                extra={
                    "event": "request",
                    "method": scope["method"],
                    "route": template,
                    "path": scope["path"],
                    "status": status,
                    "ms": round(seconds * 1000, 2),
                    "client": client_key(scope["client"][0] if scope.get("client") else None),
                },
            )


def move_logged(table_id: str, seq: int, seat: int, by: str, seconds: float | None = None) -> None:
    """A move was applied: counted, and logged (no action: what was chosen may be hidden from the others)."""
    MOVES.labels(by).inc()
    access.info(
        "move %s #%d seat %d",
        table_id,
        seq,
        seat + 1,
        extra={
            "event": "move",
            "table": table_id,
            "seq": seq,
            "seat": seat,
            "by": by,
            "ms": None if seconds is None else round(seconds * 1000, 2),
        },
    )
