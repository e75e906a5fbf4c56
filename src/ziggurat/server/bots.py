"""Bots at tables: they move on the server, off the event loop, at a pace a person can follow.

When a bot's seat is to move, :class:`BotRunner` waits ``delay`` seconds, makes
the bot's determinisation (a state consistent with the bot's view: a bot never
sees the true state of a game with hidden information), and asks a worker
process (or a thread, with ``workers=0``) for the bot's choice. The choice goes
through the same checked path as a person's move, with the message id
``bot:<seat>:<n>`` (``n``: the bot's event number), so a decision is applied at
most once; its random streams are derived from the table's secret root for
that decision, so after a restart the bot decides the same again.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
from typing import Any

from ziggurat.core import State, make_bot
from ziggurat.core.seeds import derive_seed, derived_rng
from ziggurat.server.live import LiveTable
from ziggurat.server.service import BOT_LEVELS, MoveTimer, ServiceError, TableService

log = logging.getLogger("ziggurat.server")


def bot_params(bot: str, params: dict[str, Any]) -> dict[str, Any]:
    """The bot factory's options for a seat (an ismcts level becomes its budget)."""
    if bot == "ismcts":
        return dict(BOT_LEVELS[int(params.get("level", 3))])
    return {}


def choose(state: State, seat: int, bot: str, params: dict[str, Any], seed: int) -> int:
    """One bot decision (runs in a worker): ``state`` is already the bot's determinisation."""
    return make_bot(bot, state.game, seat, seed, **bot_params(bot, params)).choose(state)


class BotRunner:
    """Plays the bot seats of every table of this process."""

    def __init__(self, service: TableService, delay: float = 0.8, workers: int = 1):
        self.service = service
        self.delay = delay
        self.workers = workers
        self._pool: concurrent.futures.Executor | None = None
        self._running: dict[tuple[str, int], asyncio.Task[None]] = {}
        self.decisions = 0
        service.listeners.append(self)

    def pool(self) -> concurrent.futures.Executor:
        """The worker pool (processes, or threads when ``workers`` is 0), started on first use."""
        if self._pool is None:
            if self.workers > 0:
                ctx = multiprocessing.get_context("spawn")
                self._pool = concurrent.futures.ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx)
            else:
                self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=2, thread_name_prefix="ziggurat-bot")
        return self._pool

    def holds(self, table_id: str) -> bool:
        """Whether a bot of this table is thinking (its table must stay in the cache)."""
        return any(key[0] == table_id for key in self._running)

    def changed(self, table: LiveTable, timer: MoveTimer | None) -> None:
        """After any change: start thinking for each bot seat now to move."""
        if table.status != "playing":
            return
        for seat in table.to_move():
            if table.seats[seat].kind == "bot" and (table.id, seat) not in self._running:
                task = asyncio.create_task(self._play(table, seat))
                self._running[(table.id, seat)] = task

    async def _play(self, table: LiveTable, seat: int) -> None:
        key = (table.id, seat)
        try:
            await asyncio.sleep(self.delay)
            n = table.journal.count(seat)
            if table.status != "playing" or seat not in table.to_move():
                return
            state = table.state
            if table.game.spec.has_hidden_information:
                determinisation = state.resample(seat, derived_rng(table.seed, "determinise", seat, n))
            else:
                determinisation = state.clone()
                determinisation.history = []
            record = table.seats[seat]
            seed = derive_seed(table.seed, "bot", seat, n)
            loop = asyncio.get_running_loop()
            action = await loop.run_in_executor(
                self.pool(), choose, determinisation, seat, record.bot or "random", record.bot_params, seed
            )
            self.decisions += 1
            try:
                await self.service.act(table, seat, action=action, expect=n, client_msg_id=f"bot:{seat}:{n}")
            except ServiceError as exc:
                if exc.code not in ("stale", "not_your_turn", "game_over"):
                    log.warning("bot at table %s seat %d: %s", table.id, seat + 1, exc.message)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot at table %s seat %d failed", table.id, seat + 1)
            return
        finally:
            if self._running.get(key) is asyncio.current_task():
                del self._running[key]
        # still to move (a turn of several decisions, or the move was stale): go again
        if table.status == "playing" and seat in table.to_move():
            self.changed(table, None)

    async def close(self) -> None:
        """Stop thinking and shut the workers down."""
        for task in list(self._running.values()):
            task.cancel()
        for task in list(self._running.values()):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
