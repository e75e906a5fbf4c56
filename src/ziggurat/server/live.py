"""A table in memory: the game replayed from its move log, and what each audience has seen.

The log is the truth; a :class:`LiveTable` is its replay. Every change goes
through :meth:`LiveTable.apply_row`, whether the row was just written by this
process, read back after a restart, or appended by another process: the same
code replays a table and plays it live.

Seeds: a table has one secret root seed. Chance outcome ``k`` is drawn with
``derive_seed(seed, "chance", k)`` (:mod:`ziggurat.core.seeds`); a bot's decision at event ``n`` uses
``derive_seed(seed, "bot", seat, n)`` and its determinisation ``derive_seed(seed,
"determinise", seat, n)``. The derivation is a one-way hash, so a bot's seed
tells nothing about the chance stream, and a bot asked twice (after a restart)
decides the same.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import time
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, NamedTuple

from ziggurat.core import CHANCE, SIMULTANEOUS, Game, State, make_game
from ziggurat.core.errors import ZigguratError
from ziggurat.core.i18n import N_
from ziggurat.core.journal import Audience, Entry, Journal
from ziggurat.core.outcome import scores_line
from ziggurat.core.seeds import derived_rng
from ziggurat.server.store import Row, SeatRecord, TableRecord

UNDO_SAMPLES = 48  # redrawn hidden states tried when checking that a move revealed nothing
REPLACEMENT_BOT = "greedy"  # who plays a seat whose player left or ran out of time
SEAT_EVENTS = ("timeout", "leave", "replace")


class TableBroken(ZigguratError):
    """The stored log of a table does not replay (corrupt, or from an incompatible engine)."""


GAMES_KEPT = 128  # set-ups of games held for every table that plays them (a few kinds are the norm)
_games: OrderedDict[tuple[str, int, str], Game] = OrderedDict()


def shared_game(game: str, players: int, options: dict[str, Any]) -> Game:
    """The game set up once for every table with the same game, players and options.

    A game's set-up holds its rules' tables (Lucent's plays per slot and hand, a few hundred KB); made per
    table, thousands of waiting tables held as many copies. A ``Game`` is never changed once made (its
    states are), so tables can share it.
    """
    key = (game, players, json.dumps(options, sort_keys=True, default=str))
    made = _games.get(key)
    if made is None:
        made = _games[key] = make_game(game, players, options)
        if len(_games) > GAMES_KEPT:
            _games.popitem(last=False)
    else:
        _games.move_to_end(key)
    return made


class Played(NamedTuple):
    """A row in force (not taken back), with what is needed to take it back."""

    row: Row
    text: str
    simultaneous: bool
    waiting: tuple[int, ...]


class LiveTable:
    """One table: its seats, its state replayed from the log, its journal."""

    def __init__(self, record: TableRecord):
        self.id = record.id
        self.record = record
        self.seats: list[SeatRecord] = record.seats
        self.seed = record.seed
        self.public = record.public
        self.closed = record.status == "closed"  # ended by the site's operators (ziggurat admin close)
        try:
            self.game: Game = shared_game(record.game, record.players, record.options)
            self.state: State = self.start_state()
        except ZigguratError as exc:
            raise TableBroken(f"table {record.id} cannot be set up: {exc}") from None
        self.lock = asyncio.Lock()
        self.journal = Journal(self.game.num_players)
        self.rows: list[Row] = []
        self.played: list[Played] = []
        self.chance_count = 0
        self.msg_ids: dict[tuple[int, str], int] = {}  # (seat, client message id) -> seq
        self.started = False
        self._undo_cache: dict[int, bool] = {}
        self._before: State | None = None  # the state before the last row, when that row is a decision
        self.version = 0  # grows with every change (rows, seats): keys what frames may cache
        # grows whenever what proves a seat may have changed (a secret, who sits, a bot taking over): every
        # connection that holds a seat is checked again when it moves on (server/hub.py)
        self.seats_version = 0
        # the seat each proof held, as of a seats_version (TableService.holder)
        self.holders: dict[Any, tuple[int, int | None]] = {}
        self.last_used = time.monotonic()  # for the cache: tables nobody used for a while are dropped
        self.public_cache: tuple[int, Any] | None = None
        n = self.game.num_players
        self.pace = record.pace
        self.seat_state = ["active"] * n  # active | timeout (ran out of time) | left | replaced (a bot plays)
        self.clock_ms = [1000 * (record.clock_initial or 0)] * n  # realtime: what is left, as of turn_started
        self.turn_started: dict[int, dt.datetime] = {}  # when each seat to move began its decision
        self.turn_seq: dict[int, int] = {}  # the seq at which it began (names a turn: jobs are keyed by it)
        # each seat's last ended turn: (began, seq, clock before), put back if the decision that ended it is taken back
        self._ended_turns: dict[int, tuple[dt.datetime, int, int]] = {}
        self.started_at: dt.datetime | None = None
        self.now: Any = lambda: dt.datetime.now(dt.UTC)  # the service gives every table its own clock
        for seat in sorted((s for s in self.seats if s.claimed_at is not None), key=lambda s: (s.claimed_at, s.seat)):
            self.journal.add(Entry("join", seat.seat, seat.name or ""))
        self._maybe_start()
        try:
            for row in record.rows:
                self.apply_row(row)
        except (ZigguratError, IndexError, KeyError, TypeError, ValueError) as exc:
            raise TableBroken(
                f"table {record.id}: move {len(self.rows) + 1} of its log does not replay: {exc}"
            ) from None

    # ------------------------------------------------------------------ state
    def start_state(self) -> State:
        """The state the log starts from: the game's setup, or the table's start position."""
        if self.record.position is not None:
            return self.game.state_from_json(self.record.position)
        return self.game.new_initial_state()

    @property
    def seq(self) -> int:
        """The newest ``seq`` of the log (0 before any row)."""
        return self.rows[-1].seq if self.rows else 0

    @property
    def status(self) -> str:
        """``waiting`` (for players to sit down), ``playing``, ``over``, or ``closed`` (by the operators)."""
        if self.closed:
            return "closed"
        if self.state.is_terminal():
            return "over"
        return "playing" if self.started else "waiting"

    def open_seats(self) -> list[int]:
        """Human seats nobody has taken yet."""
        return [s.seat for s in self.seats if s.kind == "human" and s.claimed_at is None]

    def _maybe_start(self) -> None:
        if not self.started and not self.open_seats():
            self.started = True
            self.journal.add(Entry("start"))
            times = [self.record.created_at] + [s.claimed_at for s in self.seats if s.claimed_at is not None]
            self.started_at = max(t for t in times if t is not None)
            self._turns(self.started_at)

    def seat_joined(self, seat: int, name: str, claimed: SeatRecord) -> None:
        """A human sat down (the seat row is already stored)."""
        self.set_seat(claimed)
        self.journal.add(Entry("join", seat, name))
        self._maybe_start()

    def set_seat(self, record: SeatRecord) -> None:
        """A seat's stored record changed (its secret, its invite, who sits there)."""
        self.seats[record.seat] = record
        self.version += 1
        self.seats_version += 1

    def to_move(self) -> tuple[int, ...]:
        """Seats that must decide now (none before the start, at the end, or at a closed table)."""
        if not self.started or self.closed:
            return ()
        return self.state.players_to_move()

    # ------------------------------------------------------------------- rows
    def apply_row(self, row: Row) -> None:
        """Replay one log row (checked: an illegal row raises and changes nothing)."""
        if row.seq != self.seq + 1:
            raise TableBroken(f"table {self.id}: log row {row.seq} follows {self.seq}")
        state = self.state
        if row.kind in SEAT_EVENTS:
            self._seat_event(row)
        elif row.kind == "undo":
            self._take_back(row.seat)
        elif row.seat == CHANCE:
            if row.action_id is None:
                raise TableBroken(f"table {self.id}: chance row {row.seq} has no outcome")
            state.apply_action(row.action_id)
            self.chance_count += 1
            self._before = None
            self.played.append(Played(row, "", False, ()))
        else:
            if row.action_id is None:
                raise TableBroken(f"table {self.id}: row {row.seq} has no action")
            simultaneous = state.current_player() == SIMULTANEOUS
            waiting = state.players_to_move()
            text = state.action_to_text(row.action_id, row.seat)
            # what the move did, named as its player saw it (the others read it when they see the move)
            message = state.describe_action(row.action_id, row.seat, audience=row.seat)
            before = state.clone() if self.game.spec.has_hidden_information else None
            state.apply_action(row.action_id, row.seat)
            self._before = before
            self.journal.record(row.seat, text, simultaneous, waiting, state, message)
            self.played.append(Played(row, text, simultaneous, waiting))
        self.rows.append(row)
        self.version += 1
        self._turns(row.at, row.seq, taken_back=row.seat if row.kind == "undo" else None)
        if row.client_msg_id is not None:
            self.msg_ids[(row.seat, row.client_msg_id)] = row.seq
        if self.state.is_terminal() and row.kind == "action" and not self._ended():
            outcome = self.state.outcome()
            self.journal.add(Entry("end", None, "Game over: " + scores_line(outcome.scores, outcome.ranks)))

    def _ended(self) -> bool:
        log = self.journal.entries(None)
        return bool(log) and log[-1].kind == "end"

    def plan(self, seat: int, action: int, client_msg_id: str | None, at: dt.datetime | None = None) -> list[Row]:
        """The rows that ``seat`` playing ``action`` appends: the move, then the chance that follows.

        ``action`` must be legal (checked again, on a copy: the live state is not touched).
        """
        state = self.state.clone()
        state.apply_action(action, seat)
        head = Row(self.seq + 1, seat, "action", action, client_msg_id, at)
        return [head, *self._chance_rows(state, self.seq + 1, at)]

    def setup_rows(self, at: dt.datetime | None = None) -> list[Row]:
        """The chance rows of the setup (before the first decision)."""
        return self._chance_rows(self.state.clone(), self.seq, at)

    def _chance_rows(self, state: State, seq: int, at: dt.datetime | None) -> list[Row]:
        """Draw the chance that follows in ``state`` (a copy), as the rows after ``seq``."""
        rows: list[Row] = []
        k = self.chance_count
        while state.current_player() == CHANCE:
            outcome = state.sample_chance(derived_rng(self.seed, "chance", k))
            state.apply_action(outcome)
            rows.append(Row(seq + len(rows) + 1, CHANCE, "action", outcome, None, at))
            k += 1
        return rows

    # ------------------------------------------------------------------- undo
    def undo_problem(self, seat: int, thorough: bool = True) -> str | None:
        """Why ``seat`` may not take back their last decision now (``None``: they may).

        BGA's rule: only your own last decision, only while no other player has
        acted since, and nothing hidden was revealed and no chance happened since.
        In a simultaneous round the others' choices are their own business: a
        choice may be taken back until the round is over, whatever the others
        did meanwhile (so the answer tells nothing about them). Only the person
        at the seat may take back, never for the bot that plays it now.
        ``thorough=False`` skips the costly check that the decision revealed
        nothing to its player (the frames use it to offer the button; the request
        itself is always checked in full).
        """
        if self.status != "playing":
            return N_("the game is not running")
        if self.seats[seat].kind != "human" or self.controller(seat) != "human" or self.seat_state[seat] != "active":
            return N_("a bot plays this seat now")
        found = self._last_own(seat)
        if isinstance(found, str):
            return found
        last = self.played[found]
        if not last.simultaneous and found != len(self.played) - 1:
            return N_("another player has acted since")
        if last.simultaneous:
            now = self.state.players_to_move() if self.state.current_player() == SIMULTANEOUS else None
            if now is None or not set(now) <= set(last.waiting):
                return N_("the round is over and every choice has been shown")
            return None
        if self._revealed(last, redraw=thorough):
            return N_("that move showed you something that was hidden before")
        return None

    def continues_turn(self, seat: int) -> bool:
        """Whether ``seat``'s next decision goes on with its last one (a card then its place, a trail segment
        by segment, a run of workers while the others wait): its own decision came last, with no chance
        since (in a simultaneous round, the others' choices of the same round between do not count)."""
        for p in reversed(self.played):
            if p.row.seat == seat:
                return True
            if p.row.seat == CHANCE or not p.simultaneous:
                return False  # chance since, or another seat's turn
        return False

    def has_person(self) -> bool:
        """Whether a person plays at this table now (a seat of a human not replaced by a bot)."""
        return any(self.controller(s.seat) == "human" for s in self.seats)

    def takebacks_in_a_row(self, seat: int) -> int:
        """How many decisions ``seat`` has taken back since another seat last decided (or chance happened):
        a move and its take-back over and over would flood the others' screens and records."""
        count = 0
        for row in reversed(self.rows):
            if row.kind == "undo" and row.seat == seat:
                count += 1
            elif row.seat != seat and row.kind in ("action", "undo"):
                break
        return count

    def _last_own(self, seat: int) -> int | str:
        """The index in ``played`` of ``seat``'s decision to take back, or why there is none.

        After it may come only other seats' choices of the same simultaneous round.
        """
        for i in range(len(self.played) - 1, -1, -1):
            p = self.played[i]
            if p.row.seat == seat:
                return i
            if p.row.seat == CHANCE:
                return N_("chance has happened since (a card, a tile or a die was revealed)")
            if not p.simultaneous:
                return N_("another player has acted since")
        return N_("there is nothing to take back")

    def _revealed(self, last: Played, redraw: bool = True) -> bool:
        """Did ``last`` show its player something they could not see before?

        The game may know exactly (``State.reveals_hidden``: Lucent does). Else
        what the player could not see is redrawn (``resample``) in the state
        before the move, the move is made there too, and their view compared: if
        what they see after the move depends on what was hidden before, taking it
        back would let them choose again knowing more. ``redraw=False`` (the
        frames' cheap check) asks only the game, and only when the state before
        the move is at hand.
        """
        if not self.game.spec.has_hidden_information:
            return False
        key = len(self.rows)
        if key not in self._undo_cache:
            seat, action = last.row.seat, last.row.action_id
            if not redraw and self._before is None:
                return False
            before = self._before if self._before is not None else self._replay(self.played[:-1])
            said = before.reveals_hidden(action, seat)  # type: ignore[arg-type]
            if said is not None:  # the game knows exactly
                self._undo_cache[key] = said
                return said
            if not redraw:
                return False
            seen = self.state.view(seat)
            rng = derived_rng(self.seed, "undo-check", last.row.seq)
            revealed = False
            for _ in range(UNDO_SAMPLES):
                sample = before.resample(seat, rng)
                sample.apply_action(action, seat)  # type: ignore[arg-type]
                if sample.view(seat) != seen:
                    revealed = True
                    break
            self._undo_cache[key] = revealed
        return self._undo_cache[key]

    def plan_undo(self, seat: int, client_msg_id: str | None, at: dt.datetime | None = None) -> list[Row]:
        """The row that takes back ``seat``'s last decision (check :meth:`undo_problem` first)."""
        return [Row(self.seq + 1, seat, "undo", None, client_msg_id, at)]

    # ------------------------------------------------------- seats and clocks
    def controller(self, seat: int) -> str:
        """Who decides for ``seat`` now: ``human`` or ``bot`` (a bot seat, or one whose player left)."""
        if self.seats[seat].kind == "bot" or self.seat_state[seat] in ("left", "replaced"):
            return "bot"
        return "human"

    def bot_of(self, seat: int) -> tuple[str, dict[str, Any]]:
        """The bot playing ``seat`` and its options."""
        record = self.seats[seat]
        if record.kind == "bot":
            return record.bot or "random", record.bot_params
        return REPLACEMENT_BOT, {}

    def _seat_event(self, row: Row) -> None:
        seat = row.seat
        if not 0 <= seat < self.game.num_players:
            raise TableBroken(f"table {self.id}: a {row.kind} row for seat {seat + 1}")
        self.seats_version += 1
        if row.kind == "timeout":
            self.seat_state[seat] = "timeout"
            self.journal.add(Entry("timeout", seat))
        elif row.kind == "leave":
            self.seat_state[seat] = "left"
            self.journal.add(Entry("left", seat, REPLACEMENT_BOT))
        else:
            self.seat_state[seat] = "replaced"
            self.journal.add(Entry("replaced", seat, REPLACEMENT_BOT))

    def _turns(self, at: dt.datetime | None, seq: int | None = None, taken_back: int | None = None) -> None:
        """Begin and end turns: a seat's turn (its clock, its deadline) runs from when it is asked to decide
        until it is not any more; its own decisions in between (a trail segment by segment, a card then its
        place) do not start a new one. So the clocks change only with what everyone sees (a turn passing on,
        a seat becoming ready), never with another seat's private choices.

        Realtime: a turn that ends pays the time it took from the seat's clock and earns the increment. A
        turn ended by a decision that is then taken back goes on as it was (same start, same clock).
        """
        if at is None or not self.started:
            return
        to_move = self.to_move()
        for seat in [s for s in self.turn_started if s not in to_move]:
            began = self.turn_started.pop(seat)
            self._ended_turns[seat] = (began, self.turn_seq.pop(seat), self.clock_ms[seat])
            if self.pace == "realtime":
                used = int((at - began).total_seconds() * 1000)
                self.clock_ms[seat] += 1000 * (self.record.clock_increment or 0) - used
        for seat in to_move:
            if seat in self.turn_started:
                continue
            ended = self._ended_turns.pop(seat, None) if seat == taken_back else None
            if ended is not None:
                self.turn_started[seat], self.turn_seq[seat], self.clock_ms[seat] = ended
            else:
                self.turn_started[seat] = at
                self.turn_seq[seat] = self.seq if seq is None else seq

    def clock_left_ms(self, seat: int, now: dt.datetime) -> int:
        """Realtime: the time ``seat`` has left at ``now`` (its clock runs while it is to move)."""
        left = self.clock_ms[seat]
        started = self.turn_started.get(seat)
        if started is not None:
            left -= int((now - started).total_seconds() * 1000)
        return left

    def due(self, seat: int) -> dt.datetime | None:
        """When ``seat`` runs out of time for its current decision (None: no clock, or not to move)."""
        started = self.turn_started.get(seat)
        if started is None or self.controller(seat) != "human" or self.seat_state[seat] != "active":
            return None
        if self.pace == "realtime":
            return started + dt.timedelta(milliseconds=self.clock_ms[seat])
        if self.pace == "turn" and self.record.turn_seconds:
            return started + dt.timedelta(seconds=self.record.turn_seconds)
        return None

    def _take_back(self, seat: int) -> None:
        found = self._last_own(seat)
        if isinstance(found, str):
            raise TableBroken(f"table {self.id}: an undo by seat {seat + 1} that has nothing of theirs to take back")
        last = self.played[found]
        choosing_again = (
            last.simultaneous
            and self.state.current_player() == SIMULTANEOUS
            and seat not in self.state.players_to_move()
        )
        newest = found == len(self.played) - 1
        del self.played[found]
        # the others' choices made since in the same round do not depend on it: replay them without it
        self.state = self._before if newest and self._before is not None else self._replay(self.played)
        self._before = None
        self.journal.undo(seat, last.text, last.simultaneous, choosing_again)

    def _replay(self, played: Sequence[Played]) -> State:
        state = self.start_state()
        for p in played:
            state.apply_action(p.row.action_id, None if p.row.seat == CHANCE else p.row.seat)  # type: ignore[arg-type]
        return state

    def changed_since(self, seat: int, n: int) -> bool:
        """Whether ``seat`` has seen a change since its event number ``n`` that could change its move.

        Another seat becoming ready (or choosing again) in a simultaneous round
        changes nothing of one's own choice, so it does not make a move stale.
        """
        entries = self.journal.entries(seat)
        if not 0 <= n <= len(entries):
            return True
        return any(e.kind not in ("ready", "choosing", "join", "timeout", "left", "replaced") for e in entries[n:])

    # ------------------------------------------------------------------ views
    def log_json_since(self, audience: Audience, start: int) -> list[dict[str, Any]]:
        """``audience``'s log entries from number ``start`` on, as JSON (each made once for all audiences:
        do not mutate)."""
        return self.journal.json_since(audience, start)
