"""Looking back at a table: replays step by step, a seat's own record, the full record after the end.

A *step* of an audience is a moment at which something new reached it: the
table at rest (after a move and the chance that follows it) with at least one
new log entry for that audience. Replays and seat records walk the log again
from the start and stop at those moments, so a replay shows exactly the frames
the audience was sent, and a seat's record holds only what that seat saw:
its view at every step and the log as it reached it (other seats'
simultaneous choices only once revealed).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

from ziggurat.core import CHANCE, GameRecord
from ziggurat.core.export import audience_steps, player_document
from ziggurat.core.journal import Audience, Entry, Journal
from ziggurat.server import frames
from ziggurat.server.live import LiveTable
from ziggurat.server.service import ServiceError


def _moments(table: LiveTable) -> Iterator[tuple[bool, Journal, LiveTable]]:
    """A fresh replay of ``table``, after each row of its log (at rest unless a chance row follows)."""
    empty = dataclasses.replace(table.record, rows=[], seats=list(table.seats))
    replay = LiveTable(empty)
    rows = list(table.rows)
    for i in range(len(rows) + 1):
        yield i == len(rows) or not (rows[i].seat == CHANCE and rows[i].kind == "action"), replay.journal, replay
        if i < len(rows):
            replay.apply_row(rows[i])


def _steps(table: LiveTable, audience: Audience) -> Iterator[tuple[int, list[Entry], LiveTable]]:
    """``audience``'s steps (:func:`ziggurat.core.export.audience_steps`) as table replays."""
    return audience_steps(_moments(table), audience)


def replay_step(
    table: LiveTable, audience: Audience, step: int | None, lang: str = "en"
) -> tuple[dict[str, Any] | None, int]:
    """The HTML frame (in ``lang``) of ``audience``'s step ``step`` (with the whole log so far), and how many steps."""
    frame = None
    total = 0
    for i, (_, _, replay) in enumerate(_steps(table, audience)):
        if i == step:
            frame = frames.html_frame(replay, audience, 0, lang)
        total = i + 1
    return frame, total


def seat_record(table: LiveTable, seat: int) -> dict[str, Any]:
    """What ``seat`` saw, step by step: its view and the log entries as they reached it."""
    steps = ((n, log, replay.state) for n, log, replay in _steps(table, seat))
    return player_document(table.game, seat, frames.seat_list(table), steps, table.state)


def full_record(table: LiveTable) -> dict[str, Any]:
    """The whole game as a ``ziggurat-record`` (seed and chance included): only once the game is over."""
    if table.record.position is not None:
        raise ServiceError("bad_request", "this table started from a position; only seat records can be downloaded")
    names = [s.name or (s.bot or "human") for s in table.seats]
    return GameRecord.from_state(table.state, table.seed, names).to_json()
