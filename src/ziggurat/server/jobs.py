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
import time
import uuid
from collections.abc import Callable, Sequence
from typing import Any

from ziggurat.core import State
from ziggurat.core.seeds import derive_seed, derived_rng
from ziggurat.server.bots import choose
from ziggurat.server.live import LiveTable
from ziggurat.server.observe import BOT_SECONDS, JOBS
from ziggurat.server.service import MoveTimer, ServiceError, TableService
from ziggurat.server.store import Job, Store

log = logging.getLogger("ziggurat.server")

# A claimed job comes back to the pool if its worker has not renewed its claim for this long (a worker renews
# the claims of the jobs it is doing every RENEW): the jobs of a process that died are done by another, or by
# the same one restarted, within seconds.
LEASE = dt.timedelta(seconds=8)
RENEW = 2.0
MAX_ATTEMPTS = 8  # a job that failed this often is given up (and logged)
KNOWN_LIMIT = 200_000  # job keys remembered as stored (beyond that, forgotten: memory stays bounded)
FOLLOW_UP_DELAY = 0.15  # seconds before a bot's next decision of the same turn (a trail segment by segment)


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
        self._background: concurrent.futures.Executor | None = None  # bots of tables where nobody plays
        self._known: set[tuple[str, str]] = set()  # jobs this process already stored
        self._running: dict[int, tuple[str, asyncio.Task[None]]] = {}
        self._wake: asyncio.Event | None = None
        self._loop_task: asyncio.Task[None] | None = None
        self._renew_task: asyncio.Task[None] | None = None
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
                # the table's pace for a turn; the rest of the same turn (its next segment, its next worker)
                # follows quickly, so that a person watching is not kept waiting a second per atomic step
                pace = min(self.delay, FOLLOW_UP_DELAY) if table.continues_turn(seat) else self.delay
                due = now + dt.timedelta(seconds=pace)
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
        self._renew_task = asyncio.create_task(self._renew())

    async def _loop(self) -> None:
        """Claim what is due, then sleep until the next job can be claimed (or a change wakes us):
        a bot's delay is kept to within a few milliseconds, not to the next poll."""
        assert self._wake is not None
        while True:
            self._wake.clear()
            wait = self.poll
            try:
                jobs = await asyncio.to_thread(self.store.claim_jobs, self.worker, self.service.now(), LEASE)
                if len(jobs) >= 20:
                    wait = 0  # more may be due
                else:
                    next_at = await asyncio.to_thread(self.store.next_claimable)
                    if next_at is not None:
                        until = (next_at - self.service.now()).total_seconds()
                        wait = min(self.poll, max(0.002, until))
            except Exception:
                log.exception("claiming jobs failed")
                jobs = []
            for job in jobs:
                task = asyncio.create_task(self._do(job))
                self._running[job.id] = (job.table_id, task)
            # asyncio.timeout, not wait_for: Python 3.11's wait_for can swallow a cancellation that arrives as the
            # event is set, and the loop then never ends (a server's shutdown hung on it, about once in 30 runs)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(wait):
                    await self._wake.wait()

    async def _renew(self) -> None:
        """Keep the claims of the jobs this process is doing (a bot thinking for seconds) from running out."""
        while True:
            await asyncio.sleep(RENEW)
            ids = list(self._running)
            if ids:
                try:
                    await asyncio.to_thread(self.store.renew_jobs, self.worker, ids, self.service.now() + LEASE)
                except Exception:
                    log.exception("renewing the claims of running jobs failed")

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
            JOBS.labels(job.kind, "failed").inc()
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
        JOBS.labels(job.kind, "done").inc()
        await asyncio.to_thread(self.store.finish_job, job.id, self.service.now())

    def pool(self, background: bool = False) -> concurrent.futures.Executor:
        """The bots' worker pool (processes, or threads when ``workers`` is 0), started on first use.

        Bots of a table where a person plays think in the main pool; bots of tables where nobody plays
        (bots only, or every person left) in a pool of their own, of one worker, at a lower priority: a
        flood of bot-only tables gets what is left of the machine and never keeps a person waiting.
        Worker processes die with the server process that started them (even if it is killed).
        """
        if background:
            if self._background is None:
                self._background = self._make_pool(1, nice=10)
            return self._background
        if self._pool is None:
            self._pool = self._make_pool(self.workers, nice=0)
        return self._pool

    def _make_pool(self, size: int, nice: int) -> concurrent.futures.Executor:
        if self.workers > 0:
            ctx = multiprocessing.get_context("spawn")
            return concurrent.futures.ProcessPoolExecutor(
                max_workers=size, mp_context=ctx, initializer=worker_setup, initargs=(os.getpid(), nice)
            )
        return concurrent.futures.ThreadPoolExecutor(max_workers=max(1, size), thread_name_prefix="ziggurat-bot")

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
        pool = self.pool(background=not table.has_person())
        started = time.perf_counter()
        action = await loop.run_in_executor(pool, choose, determinisation, seat, bot, params, seed)
        BOT_SECONDS.labels(bot).observe(time.perf_counter() - started)
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
        for loop_task in (self._loop_task, self._renew_task):
            if loop_task is not None:
                loop_task.cancel()
        tasks = [t for _, t in self._running.values()] + list(self._pending)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for loop_task in (self._loop_task, self._renew_task):
            if loop_task is not None:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await loop_task
        for pool in (self._pool, self._background):
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)


def worker_setup(parent: int, nice: int) -> None:
    """In a bot worker process: die with the server process ``parent`` (Linux: the kernel kills us when it
    dies, however it dies; elsewhere a watchdog thread sees it gone), and run at priority ``nice``."""
    import signal
    import threading
    import time

    if nice:
        with contextlib.suppress(OSError):
            os.nice(nice)
    with contextlib.suppress(Exception):
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # it died before we could ask
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="ziggurat-parent-watch", daemon=True).start()
