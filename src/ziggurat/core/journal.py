"""The move log as each audience may read it: what every seat and a spectator have seen happen.

At the table, everyone sees each move as it is made, except the choices of a
simultaneous round (Kukulkán's die round, Nakum's heritage setup): a player
sees their own choices at once, the others only that the player is *ready*,
and every choice appears for everyone once the round is over. Chance is never
written here (a card removed unseen has no public text; what chance shows is in
the views).

A :class:`Journal` keeps one append-only list of :class:`Entry` per audience
(each seat, and ``None`` for a spectator). The length of an audience's list is
its event number: every change an audience can see comes with at least one new
entry for it, and the entries are a function of what it saw, so the count
leaks nothing either.

A simultaneous round is a run of simultaneous nodes whose players-to-move only
shrink; it ends when the node after an action is not simultaneous or a new set
of players is to move.

>>> from ziggurat.core.registry import make_game
>>> from ziggurat.core.match import Match
>>> m = Match(make_game("kukulkan", 2), seed=1); m.resolve_chance()
>>> j = Journal(2)
>>> while 0 in m.state.players_to_move():  # player 1 makes their whole choice for the round
...     j.play(m.state, m.state.legal_actions(0)[0], 0)
>>> j.entries(0)[0].private, [e.kind for e in j.entries(1)]  # their lines for them; "ready" for the rest
(True, ['ready'])
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any, NamedTuple

from ziggurat.core.game import CHANCE, SIMULTANEOUS, State
from ziggurat.core.message import Message

Audience = int | None

KINDS = ("move", "ready", "choosing", "undo", "join", "start", "end", "note", "timeout", "left", "replaced")


class Entry(NamedTuple):
    """One line of the log.

    ``kind``: ``move`` (``seat`` played ``text``), ``ready`` (``seat`` has made
    their choice for the round), ``choosing`` (``seat`` took their choice back and
    chooses again), ``undo`` (``seat`` took back ``text``), ``join``, ``start``,
    ``end`` and ``note`` (table events with a ``text``), ``timeout`` (``seat`` ran
    out of time), ``left`` and ``replaced`` (a bot, named by ``text``, plays the
    seat from now on). ``private``: seen only by
    ``seat`` so far (a choice of a simultaneous round not yet revealed).
    ``message``: for a move, its readable description
    (:meth:`State.describe_action`, naming what moved), when the log was given
    one; ``text`` stays the short action text.
    """

    kind: str
    seat: int | None = None
    text: str = ""
    private: bool = False
    message: Message | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form (``private`` only when true, ``message`` only when there is one)."""
        out: dict[str, Any] = {"kind": self.kind, "seat": self.seat, "text": self.text}
        if self.private:
            out["private"] = True
        if self.message is not None:
            out["message"] = self.message.to_json()
        return out

    def describe(self, names: Collection[str] | None = None) -> str:
        """One readable line, naming seats ``Player N`` or by ``names``."""
        seats = list(names) if names is not None else []
        who = ""
        if self.seat is not None:
            who = seats[self.seat] if self.seat < len(seats) else f"Player {self.seat + 1}"
        if self.kind == "move":
            return f"{who}: {self.message.text if self.message is not None else self.text}"
        if self.kind == "ready":
            return f"{who} is ready"
        if self.kind == "choosing":
            return f"{who} is choosing again"
        if self.kind == "undo":
            return f"{who} took back {self.text}"
        if self.kind == "join":
            return f"{self.text or who} sits at seat {(self.seat or 0) + 1}"
        if self.kind == "start":
            return self.text or "The game begins"
        if self.kind == "timeout":
            return f"{who} ran out of time"
        if self.kind == "left":
            return f"{who} left the table; a bot ({self.text}) plays on"
        if self.kind == "replaced":
            return f"a bot ({self.text}) plays for {who} from now on"
        return f"{who}: {self.text}" if who and self.text else (self.text or who)


class Journal:
    """Per-audience logs, fed with every player action as it is applied."""

    def __init__(self, players: int):
        self.players = players
        self._logs: dict[Audience, list[Entry]] = {a: [] for a in self.audiences()}
        self._held: list[Entry] = []  # choices of the running simultaneous round, not yet shown to others
        # each logged entry with its to_json, by the entry's id (the entry is kept, so the id stays its own)
        self._json: dict[int, tuple[Entry, dict[str, Any]]] = {}

    def audiences(self) -> list[Audience]:
        """Every seat, then the spectator (``None``)."""
        return [*range(self.players), None]

    def entries(self, audience: Audience) -> list[Entry]:
        """The whole log as ``audience`` has seen it (do not mutate)."""
        return self._logs[audience]

    def json_since(self, audience: Audience, start: int) -> list[dict[str, Any]]:
        """``audience``'s entries from number ``start`` on, as :meth:`Entry.to_json` (do not mutate).

        An entry that several audiences see is made JSON once (a server sends
        every move to each seat and the spectators).
        """
        out = []
        cache = self._json
        for e in self._logs[audience][max(0, start) :]:
            hit = cache.get(id(e))
            if hit is None or hit[0] is not e:
                hit = cache[id(e)] = (e, e.to_json())
            out.append(hit[1])
        return out

    def count(self, audience: Audience) -> int:
        """``audience``'s event number: how many entries it has seen."""
        return len(self._logs[audience])

    def add(self, entry: Entry, audiences: Iterable[Audience] | None = None) -> None:
        """Append ``entry`` for ``audiences`` (all by default)."""
        for a in self.audiences() if audiences is None else audiences:
            self._logs[a].append(entry)

    def record(
        self,
        actor: int,
        text: str,
        simultaneous: bool,
        waiting: Collection[int],
        after: State,
        message: Message | None = None,
    ) -> None:
        """Log ``actor``'s action ``text``.

        ``simultaneous`` and ``waiting`` (the players to move) describe the node
        the action was taken at; ``after`` is the state right after it, before
        any chance that follows. ``message``: the action's description as the
        actor was given it (``describe_action(action, actor, audience=actor)``);
        the others see it when they see the move (a simultaneous choice once the
        round is revealed).
        """
        if actor == CHANCE:
            return
        if not simultaneous:
            self.add(Entry("move", actor, text, message=message))
            return
        self.add(Entry("move", actor, text, private=True, message=message), [actor])
        self._held.append(Entry("move", actor, text, message=message))
        still = after.players_to_move() if after.current_player() == SIMULTANEOUS else None
        if still is None or not set(still) <= set(waiting):
            self._reveal()
        elif actor not in still:
            self.add(Entry("ready", actor))

    def _reveal(self) -> None:
        for a in self.audiences():
            self._logs[a].extend(e for e in self._held if e.seat != a)
        self._held.clear()

    def undo(self, actor: int, text: str, private: bool, choosing_again: bool) -> None:
        """Log that ``actor`` took back ``text``.

        ``private``: the move was an unrevealed simultaneous choice (only
        ``actor`` saw it, and now nobody else ever will); ``choosing_again``: the
        move had made ``actor`` ready, and now they are choosing again.
        """
        if private:
            for i in range(len(self._held) - 1, -1, -1):
                if self._held[i].seat == actor:
                    del self._held[i]
                    break
            self.add(Entry("undo", actor, text, private=True), [actor])
        else:
            self.add(Entry("undo", actor, text))
        if choosing_again:
            self.add(Entry("choosing", actor))

    def play(self, state: State, action: int, player: int | None = None) -> None:
        """Apply ``action`` to ``state`` and log it (a convenience for replays)."""
        actor = state.current_player() if player is None else player
        simultaneous = state.current_player() == SIMULTANEOUS
        waiting = state.players_to_move()
        text = state.action_to_text(action, actor)
        message = state.describe_action(action, actor, audience=actor) if actor != CHANCE else None
        state.apply_action(action, None if actor == CHANCE else actor)
        self.record(actor, text, simultaneous, waiting, state, message)
