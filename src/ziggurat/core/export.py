"""What one player saw of a game: their view at every step and the log as it reached them.

A full :class:`~ziggurat.core.record.GameRecord` holds everything (the seed, every
chance outcome, every choice): it is the owner's. A *player record* holds only
what one seat could see while the game was played: at every *step* (the game at
rest after a move and the chance that follows it, with something new in that
seat's log) the seat's ``view`` and the new log entries, other players'
simultaneous choices only once the round revealed them (:class:`Journal`). The
terminal replay (``ziggurat replay --player N``), ``ziggurat export`` and the
web server's seat records are all built here.

>>> from ziggurat.core.registry import make_game
>>> from ziggurat.core.match import Match
>>> m = Match(make_game("kukulkan", 2), seed=1); m.resolve_chance()
>>> while 0 in m.state.players_to_move():  # player 1 chooses; player 2 has not yet
...     m.apply(m.state.legal_actions(0)[0], 0)
>>> doc = player_record(m.record(), 1)
>>> [e["kind"] for step in doc["steps"] for e in step["log"]]  # player 2 sees only that player 1 is ready
['start', 'ready']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, TypeVar

from ziggurat.core.errors import ZigguratError
from ziggurat.core.game import CHANCE, SIMULTANEOUS, Game, State
from ziggurat.core.journal import Audience, Entry, Journal
from ziggurat.core.outcome import scores_line
from ziggurat.core.record import GameRecord

PLAYER_RECORD_FORMAT = "ziggurat-player-record"
PLAYER_RECORD_VERSION = 1

T = TypeVar("T")
Step = tuple[int, list[Entry], State]


def audience_steps(
    moments: Iterable[tuple[bool, Journal, T]], audience: Audience
) -> Iterator[tuple[int, list[Entry], T]]:
    """The steps of ``audience`` among ``moments`` (``(at_rest, journal, state)`` after each row).

    Yields ``(event number, new log entries, state)`` each time the game is at
    rest with at least one entry ``audience`` has not seen yet. The state may
    be changed by the next moment: use it before asking for the next step.
    """
    seen = -1
    for at_rest, journal, state in moments:
        if not at_rest:
            continue
        count = journal.count(audience)
        if count > seen:
            entries = list(journal.entries(audience)[max(seen, 0) :])
            seen = count
            yield count, entries, state


def record_moments(record: GameRecord, start: str = "") -> Iterator[tuple[bool, Journal, State]]:
    """Replay ``record`` with a journal, giving the moment after each action (and the start)."""
    final = record.replay()  # checks the whole record before anything is shown
    game = final.game
    state = game.new_initial_state()
    journal = Journal(game.num_players)
    journal.add(Entry("start", None, start))
    actions = record.actions
    for i in range(len(actions) + 1):
        yield i == len(actions) or actions[i][0] != CHANCE, journal, state
        if i == len(actions):
            return
        actor, action = actions[i]
        if actor == CHANCE:
            state.apply_action(action)
            continue
        simultaneous = state.current_player() == SIMULTANEOUS
        waiting = state.players_to_move()
        text = state.action_to_text(action, actor)
        message = state.describe_action(action, actor, audience=actor)
        state.apply_action(action, actor)
        journal.record(actor, text, simultaneous, waiting, state, message)
        if state.is_terminal():
            outcome = state.outcome()
            journal.add(Entry("end", None, "Game over: " + scores_line(outcome.scores, outcome.ranks)))


def result_json(state: State) -> dict[str, Any] | None:
    """Scores, ranks and winners of a finished game (``None`` before the end)."""
    if not state.is_terminal():
        return None
    outcome = state.outcome()
    return {"scores": list(outcome.scores), "ranks": list(outcome.ranks), "winners": list(outcome.winners)}


def player_document(game: Game, player: int, seats: Sequence[Any], steps: Iterable[Step], final: State) -> dict:
    """The ``ziggurat-player-record`` document of ``player`` from their ``steps`` (see :func:`audience_steps`)."""
    return {
        "format": PLAYER_RECORD_FORMAT,
        "version": PLAYER_RECORD_VERSION,
        "game": game.spec.id,
        "players": game.num_players,
        "options": game.params()["options"],
        "player": player,
        "seats": list(seats),
        "steps": [{"n": n, "log": [e.to_json() for e in log], "view": s.view(player)} for n, log, s in steps],
        "result": result_json(final),
    }


def player_record(record: GameRecord, player: int) -> dict[str, Any]:
    """What ``player`` (0-based) saw of the game in ``record``: no seed, no hidden card, no unrevealed choice.

    Raises a ZigguratError for a player who is not at the table (and a
    RecordError for a record that does not replay).
    """
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < record.players:
        raise ZigguratError(f"the player must be 1 to {record.players}, not {player!r} (0-based: {player!r})")
    final = record.replay()
    names = record.seats if len(record.seats) == record.players else [""] * record.players
    seats = [{"seat": i, "name": name} for i, name in enumerate(names)]
    steps = audience_steps(record_moments(record), player)
    return player_document(final.game, player, seats, steps, final)
