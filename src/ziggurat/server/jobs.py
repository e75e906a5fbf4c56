"""Work due at a time, done by exactly one process: bots' moves, timeouts, "your turn" mails, ratings.

Whenever a table changes, :class:`JobRunner` works out what will be due (a bot
to move after the pace delay; a player's clock or deadline running out; a mail
to a player whose turn it is in a turn-based game; the rating of a finished
game) and stores it as a job keyed by what it is about (``bot:<seat>:<event>``,
``timeout:<seat>:<turn>``...), so that a job is made once however many
processes see the change. Every process claims due jobs from the database
(on PostgreSQL with ``FOR UPDATE SKIP LOCKED``: no two processes take the same
job, none waits for another) and does them; the moves they make go through the
same checked path as a person's, with the job's key as message id, so even a job
done twice (its process died after the move, before marking it done) moves once.
Jobs live in the database, so a restart loses none: a bot that was about to
move moves after the restart, and a deadline that passed while the server was
down fires when it is back.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import datetime as dt
import logging
import multiprocessing
import os
import socket
import uuid
from collections.abc import Callable, Sequence
from typing import Any

from ziggurat.core import State
from ziggurat.core.seeds import derive_seed, derived_rng
from ziggurat.server.bots import choose
from ziggurat.server.live import LiveTable
from ziggurat.server.service import MoveTimer, ServiceError, TableService
from ziggurat.server.store import Job, Store

log = logging.getLogger("ziggurat.server")

LEASE = dt.timedelta(seconds=60)  # a claimed job comes back to the pool if its worker is gone this long
MAX_ATTEMPTS = 8  # a job that failed this often is given up (and logged)
KNOWN_LIMIT = 200_000  # job keys remembered as stored (beyond that, forgotten: memory stays bounded)


def retry_delay(attempts: int) -> dt.timedelta:
    """How long a job that failed ``attempts`` times waits before it is tried again: 1 s, 2 s, 4 s... 5 min.

    >>> [retry_delay(a).seconds for a in (1, 2, 3, 10)]
    [1, 2, 4, 300]
    """
    return dt.timedelta(seconds=min(300, 2 ** (attempts - 1)))


class JobRunner:
    """Schedules and runs the jobs of this process (a listener of the service)."""

    def __init__(
        self,
        service: TableService,
        store: Store,
        delay: float = 0.8,
        workers: int = 1,
        poll: float = 1.0,
        handlers: dict[str, Callable[[Job], Any]] | None = None,
    ):
        self.service = service
        self.store = store
        self.delay = delay
        self.workers = workers
        self.poll = poll
        self.worker = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"
        self._pool: concurrent.futures.Executor | None = None
        self._known: set[tuple[str, str]] = set()  # jobs this process already stored
        self._running: dict[int, tuple[str, asyncio.Task[None]]] = {}
        self._wake: asyncio.Event | None = None
        self._loop_task: asyncio.Task[None] | None = None
        self._pending: set[asyncio.Task[None]] = set()
        self.handlers: dict[str, Callable[[Job], Any]] = {"bot": self._bot, "timeout": self._timeout}
        self.handlers.update(handlers or {})
        self.planners: list[Callable[[LiveTable], list[tuple[str, str, int, dt.datetime]]]] = [self._plan_moves]
        self.decisions = 0
        service.listeners.append(self)

    # ------------------------------------------------------------ scheduling
    def add(
        self,
        kind: str,
        planner: Callable[[LiveTable], list[tuple[str, str, int, dt.datetime]]],
        handler: Callable[[Job], Any],
    ) -> None:
        """Another kind of job: ``planner(table)`` says which are due after a change, ``handler(job)`` does one."""
        self.planners.append(planner)
        self.handlers[kind] = handler

    def holds(self, table_id: str) -> bool:
        """Whether a job of this table is running here (its table must stay in the cache)."""
        return any(t == table_id for t, _ in self._running.values())

    def changed(self, table: LiveTable, timer: MoveTimer | None) -> None:
        """After any change: store the jobs the table's new position makes due."""
        if len(self._known) > KNOWN_LIMIT:  # only saves writes: the database keeps each key once anyway
            self._known.clear()
        new = []
        for planner in self.planners:
            for key, kind, seat, due in planner(table):
                if (table.id, key) not in self._known:
                    self._known.add((table.id, key))
                    new.append((table.id, key, kind, seat, due))
        if new:
            self._spawn(self._store(new))

    def _plan_moves(self, table: LiveTable) -> list[tuple[str, str, int, dt.datetime]]:
        if table.status != "playing":
            return []
        now = self.service.now()
        out = []
        for seat in table.to_move():
            if table.controller(seat) == "bot":
                due = now + dt.timedelta(seconds=self.delay)
                out.append((f"bot:{seat}:{table.journal.count(seat)}", "bot", seat, due))
            else:
                ends = table.due(seat)
                if ends is not None:
                    out.append((f"timeout:{seat}:{table.turn_seq[seat]}", "timeout", seat, ends))
        return out

    async def _store(self, new: Sequence[tuple[str, str, str, int, dt.datetime]]) -> None:
        await asyncio.to_thread(self.store.schedule_jobs, new)
        self.wake()

    def wake(self) -> None:
        """Look for due jobs now."""
        if self._wake is not None:
            self._wake.set()

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    # --------------------------------------------------------------- running
    def start(self) -> None:
        """Start claiming and doing due jobs (in the running event loop)."""
        self._wake = asyncio.Event()
        self._loop_task = asyncio.create_task(self._loop())

    async def _loop(self) -> None:
        assert self._wake is not None
        while True:
            self._wake.clear()
            try:
                jobs = await asyncio.to_thread(self.store.claim_jobs, self.worker, self.service.now(), LEASE)
            except Exception:
                log.exception("claiming jobs failed")
                jobs = []
            for job in jobs:
                task = asyncio.create_task(self._do(job))
                self._running[job.id] = (job.table_id, task)
            wait = self.poll
            if len(jobs) >= 20:
                wait = 0  # more may be due
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), wait)

    async def _do(self, job: Job) -> None:
        """Do a job; one that fails (a database hiccup, a mail server away) is tried again later, by any
        process, until it has failed :data:`MAX_ATTEMPTS` times (its moves are applied at most once)."""
        try:
            handler = self.handlers.get(job.kind)
            if handler is None:
                log.error("job %s of table %s: no handler for %r", job.key, job.table_id, job.kind)
            else:
                await handler(job)
        except asyncio.CancelledError:
            raise
        except Exception:
            attempts = job.attempts + 1
            now = self.service.now()
            retry = now + retry_delay(attempts) if attempts < MAX_ATTEMPTS else None
            if retry is None:
                log.exception("job %s of table %s failed %d times: given up", job.key, job.table_id, attempts)
            else:
                log.exception("job %s of table %s failed (try %d); trying again", job.key, job.table_id, attempts)
            await asyncio.to_thread(self.store.fail_job, job.id, now, retry)
            return
        finally:
            self._running.pop(job.id, None)
        await asyncio.to_thread(self.store.finish_job, job.id, self.service.now())

    def pool(self) -> concurrent.futures.Executor:
        """The bots' worker pool (processes, or threads when ``workers`` is 0), started on first use."""
        if self._pool is None:
            if self.workers > 0:
                ctx = multiprocessing.get_context("spawn")
                self._pool = concurrent.futures.ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx)
            else:
                self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=2, thread_name_prefix="ziggurat-bot")
        return self._pool

    async def _current(self, job: Job) -> LiveTable | None:
        """The job's table, caught up with the log (another process may have moved it on)."""
        try:
            table = await self.service.get(job.table_id)
        except ServiceError:
            return None
        await self.service.refresh(table)
        return table

    async def _bot(self, job: Job) -> None:
        """A bot's decision: its determinisation, its choice in a worker, the move."""
        n = int(job.key.rsplit(":", 1)[1])
        table = await self._current(job)
        seat = job.seat
        if table is None or table.status != "playing" or seat not in table.to_move():
            return
        if table.controller(seat) != "bot" or table.journal.count(seat) != n:
            return  # the table moved on: a newer job covers it
        state: State = table.state
        if table.game.spec.has_hidden_information:
            determinisation = state.resample(seat, derived_rng(table.seed, "determinise", seat, n))
        else:
            determinisation = state.clone()
            determinisation.history = []
        bot, params = table.bot_of(seat)
        seed = derive_seed(table.seed, "bot", seat, n)
        loop = asyncio.get_running_loop()
        action = await loop.run_in_executor(self.pool(), choose, determinisation, seat, bot, params, seed)
        self.decisions += 1
        try:
            await self.service.act(table, seat, action=action, expect=n, client_msg_id=job.key, as_bot=True)
        except ServiceError as exc:
            if exc.code not in ("stale", "not_your_turn", "game_over", "forbidden"):
                raise  # busy, or worse: the job is tried again
            log.info("bot at table %s seat %d: %s", table.id, seat + 1, exc.message)

    async def _timeout(self, job: Job) -> None:
        """A clock or deadline ran out: if the seat is still on that same decision, it is out of time."""
        turn = int(job.key.rsplit(":", 1)[1])
        table = await self._current(job)
        if table is not None:
            await self.service.time_out(table, job.seat, turn, job.key)

    async def close(self) -> None:
        """Stop claiming, stop the running jobs, shut the workers down."""
        if self._loop_task is not None:
            self._loop_task.cancel()
        tasks = [t for _, t in self._running.values()] + list(self._pending)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._loop_task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._loop_task
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
