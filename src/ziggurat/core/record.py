"""Game records: options, seed and actions as a versioned JSON document that replays exactly.

>>> from ziggurat.core.registry import make_game
>>> from ziggurat.core.match import Match
>>> m = Match(make_game("kuhnah", players=2), seed=3)
>>> m.run_bots(["random", "random"])
>>> rec = m.record()
>>> replayed = GameRecord.from_json(rec.to_json()).replay()
>>> replayed == m.state
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ziggurat.core.content import read_limited
from ziggurat.core.documents import check_document, load_json
from ziggurat.core.errors import ActionError, ConfigError, DocumentError, RecordError, ZigguratError
from ziggurat.core.game import CHANCE, State

RECORD_FORMAT = "ziggurat-record"
RECORD_VERSION = 1


@dataclass
class GameRecord:
    """A game as played: enough to replay it action by action.

    ``actions`` holds ``(player, action id)`` pairs (player ``-1`` is chance);
    ``texts`` the matching action texts, checked on replay so that a record
    edited by hand into nonsense is caught.
    """

    game: str
    players: int
    options: dict[str, Any]
    seed: int | None
    actions: list[tuple[int, int]]
    texts: list[str] = field(default_factory=list)
    seats: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None
    allow_paths: bool = field(default=False, compare=False, repr=False)
    """Whether :meth:`replay` may set options that name local files (content paths): only for a trusted record."""

    @classmethod
    def from_state(cls, state: State, seed: int | None, seats: Sequence[str] = ()) -> GameRecord:
        """The record of ``state``'s history (replays from the initial state).

        Raises RecordError for a state whose history does not start at the
        initial state (see :attr:`State.history_from_start`).
        """
        if not state.history_from_start:
            raise RecordError(
                "this game started from a position saved without its history: it has no game record "
                "(save the position instead)"
            )
        replay = state.game.new_initial_state()
        texts = []
        for player, action in state.history:
            texts.append(replay.action_to_text(action, player))
            replay.apply_action(action, None if player == CHANCE else player)
        # from the replay, not ``state``: a record is its history even if ``state`` was cut short mid-move
        result = replay.outcome().to_json() if replay.is_terminal() else None
        params = state.game.params()
        return cls(
            game=state.game.spec.id,
            players=state.num_players,
            options=params["options"],
            seed=seed,
            actions=list(state.history),
            texts=texts,
            seats=list(seats),
            result=result,
        )

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "seed": self.seed,
            "seats": self.seats,
            "actions": [[p, a, t] for (p, a), t in zip(self.actions, self.texts, strict=False)]
            if self.texts
            else [[p, a] for p, a in self.actions],
            "result": self.result,
        }

    def dumps(self) -> str:
        """The record as a JSON string."""
        return json.dumps(self.to_json(), indent=1)

    def save(self, path: str | Path) -> None:
        """Write the record to ``path``."""
        Path(path).write_text(self.dumps() + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path, allow_paths: bool = False) -> GameRecord:
        """Read a record file (a clear RecordError if it is not one).

        Only a regular file of at most :data:`~ziggurat.core.content.MAX_FILE_BYTES` is read.
        """
        raw = read_limited(
            path,
            lambda: RecordError(f"cannot read {path} as a game record (it must be a readable file of at most 1 MiB)"),
        )
        return cls.from_json(raw, source=str(path), allow_paths=allow_paths)

    @classmethod
    def from_json(
        cls, data: Mapping[str, Any] | str | bytes, source: str = "record", allow_paths: bool = False
    ) -> GameRecord:
        """Check and read a record document (``allow_paths``: see the field of that name).

        Text is read by :func:`~ziggurat.core.documents.load_json` (its size, nesting and numbers
        within limits); whatever is wrong with the document is a RecordError.
        """
        try:
            if isinstance(data, str | bytes):
                data = load_json(data, source)
            else:
                check_document(data, source)
        except DocumentError as exc:
            raise RecordError(f"{source} is not a game record: {exc.problem}") from None
        if not isinstance(data, Mapping):
            raise RecordError(f"{source} is not a game record: expected a JSON object")
        if data.get("format") != RECORD_FORMAT:
            raise RecordError(f"{source} is not a Ziggurat game record (format {data.get('format')!r})")
        if data.get("version") != RECORD_VERSION:
            raise RecordError(f"{source}: record version {data.get('version')!r} is not supported")
        try:
            game = data["game"]
            players = data["players"]
            options = data.get("options") or {}
            seed = data.get("seed")
            raw_actions = data["actions"]
        except KeyError as exc:
            raise RecordError(f"{source}: missing field {exc.args[0]!r}") from None
        if not isinstance(game, str) or isinstance(players, bool) or not isinstance(players, int):
            raise RecordError(f"{source}: 'game' must be a text and 'players' a whole number")
        if not isinstance(options, dict) or not isinstance(raw_actions, list):
            raise RecordError(f"{source}: 'options' must be an object and 'actions' a list")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise RecordError(f"{source}: 'seed' must be a whole number")
        actions: list[tuple[int, int]] = []
        texts: list[str] = []
        for i, item in enumerate(raw_actions):
            ok = isinstance(item, list) and len(item) in (2, 3)
            ok = ok and all(isinstance(x, int) and not isinstance(x, bool) for x in item[:2])
            ok = ok and (len(item) == 2 or isinstance(item[2], str))
            if not ok:
                raise RecordError(f"{source}: action {i + 1} must be [player, id] or [player, id, text], not {item!r}")
            actions.append((item[0], item[1]))
            if len(item) == 3:
                texts.append(item[2])
        if texts and len(texts) != len(actions):
            raise RecordError(f"{source}: some actions have texts and some don't")
        seats = data.get("seats") or []
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise RecordError(f"{source}: 'seats' must be a list of names")
        result = data.get("result")
        if result is not None and not isinstance(result, dict):
            raise RecordError(f"{source}: 'result' must be an object")
        return cls(game, players, dict(options), seed, actions, texts, list(seats), result, allow_paths)

    def _refuse_paths(self) -> None:
        refuse_content_paths(self.game, self.options, "the record")

    def replay(self, upto: int | None = None) -> State:
        """Replay the first ``upto`` actions (all by default); a RecordError names a bad step."""
        from ziggurat.core.registry import make_game

        try:
            if not self.allow_paths:
                self._refuse_paths()
            game = make_game(self.game, self.players, self.options)
        except ConfigError as exc:
            raise RecordError(f"record cannot be set up: {exc}") from None
        state = game.new_initial_state()
        n = len(self.actions) if upto is None else upto
        for i, (player, action) in enumerate(self.actions[:n]):
            try:
                mover = None if player == CHANCE else player
                if action not in state.legal_actions(CHANCE if player == CHANCE else player):
                    state.apply_action(action, mover)  # raises the specific error
                if self.texts:
                    expected = self.texts[i]
                    actual = state.action_to_text(action, player)
                    if actual != expected:
                        raise RecordError(
                            f"record step {i + 1}: action {action} is {actual!r} here, but the record says {expected!r}"
                        )
                state.apply_action(action, mover)
            except (ActionError, ZigguratError) as exc:
                if isinstance(exc, RecordError):
                    raise
                raise RecordError(f"record step {i + 1} cannot be replayed: {exc}") from None
        return state


def refuse_content_paths(game: str, options: Mapping[str, Any], source: str) -> None:
    """Raise a RecordError if ``options`` (read from a file) set an option that names a local file."""
    from ziggurat.core.registry import get_game

    spec = get_game(game).game_class.spec
    for name, value in options.items():
        opt = spec.option(str(name))
        if opt.kind == "path" and value not in (None, ""):
            raise RecordError(
                f"{source} sets option {opt.name!r} to a local file; a file read as a record may not make "
                "the program read other files (if you trust it, allow it: --allow-content-paths)"
            )
