"""The contract every game meets: a configured :class:`Game` and its :class:`State`.

A state says who decides next (``current_player()``; the core itself reads the
same answer from ``state.current``, which a game keeps as a field or works out):

* one player (``current_player() >= 0``),
* several players at once (``current_player() == SIMULTANEOUS``; each of
  ``players_to_move()`` submits an action with ``apply_action(a, player=p)``; the
  choices stay hidden until the last one is in, then they resolve together),
* chance (``current_player() == CHANCE``; ``chance_outcomes()`` lists explicit
  outcomes with probabilities; a driver samples one with a seeded RNG),
* nobody (``TERMINAL``).

Every action is an integer id in ``range(game.num_actions)`` (chance outcomes
in ``range(game.max_chance_outcomes)``) with a short text that parses back.
Applying an action checks it first: a malformed one raises
:class:`~ziggurat.core.errors.ParseActionError`, a well-formed but illegal one
:class:`~ziggurat.core.errors.IllegalActionError`; either way nothing changes.

A game subclasses :class:`State` and fills in the hooks (``current`` and the
underscored methods); the public methods here do the checking, the history and
the caching once for all games.
"""

from __future__ import annotations

import json
import operator
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ziggurat.core.documents import check_document, load_json
from ziggurat.core.errors import (
    ConfigError,
    ContentError,
    DocumentError,
    GameOverError,
    IllegalActionError,
    NotOverError,
    ParseActionError,
    RecordError,
    ZigguratError,
)
from ziggurat.core.message import CORE, Message
from ziggurat.core.outcome import (
    EndReason,
    Outcome,
    PlayerScore,
    ScoreBreakdown,
    ScoreTerm,
    ranks_from_keys,
    returns_from_ranks,
)
from ziggurat.core.spec import GameSpec, OptionValue

CHANCE = -1
SIMULTANEOUS = -2
TERMINAL = -4

# ``State._mover`` of legal actions cached for a player at a simultaneous node: _SIM_MOVER - player
_SIM_MOVER = -8

# the end of a game whose spec declares none (a game from another package, written before ends)
GAME_OVER = EndReason("over", CORE("end_over"))

STATE_FORMAT = "ziggurat-state"
STATE_VERSION = 1


class Game(ABC):
    """A game set up for a number of players with checked options.

    Subclasses set ``spec`` and implement the abstract members. Construction
    validates the player count and every option, so an impossible setup fails
    here with a clear error rather than somewhere in play.
    """

    spec: ClassVar[GameSpec]

    def __init__(self, players: int, options: Mapping[str, object] | None = None):
        self.num_players = self.spec.check_players(players)
        self.options: dict[str, OptionValue] = self.spec.resolve_options(options)
        try:
            self._configure()
        except ContentError as exc:  # a bad content file is a bad setup
            raise ConfigError(str(exc)) from None

    def _configure(self) -> None:
        """Hook: load content, derive constants from options (may raise ConfigError or ContentError)."""

    @property
    @abstractmethod
    def num_actions(self) -> int:
        """Size of the players' action space: every player action id is below it."""

    @property
    def max_chance_outcomes(self) -> int:
        """Size of the chance outcome space (0 for games without chance)."""
        return 0

    @property
    @abstractmethod
    def max_game_length(self) -> int:
        """An upper bound on the number of actions (chance included) in one game."""

    @property
    def score_bounds(self) -> tuple[float, float] | None:
        """The lowest and highest final score, where a game knows them.

        A solo game (one player) has no opponent to be ranked against, so its
        return is its score mapped onto [-1, 1] with these bounds (0 without them).
        """
        return None

    @abstractmethod
    def new_initial_state(self) -> State:
        """The state before the first action (often a chance node for the setup)."""

    def params(self) -> dict[str, Any]:
        """Players and the options that differ from their defaults: enough to rebuild the game."""
        defaults = {o.name: o.default for o in self.spec.options}
        changed = {k: v for k, v in self.options.items() if defaults.get(k) != v}
        return {"players": self.num_players, "options": changed}

    def describe(self) -> str:
        """Short human text: name, players, non-default options (and a mark if a parameter is not the printed one)."""
        p = self.params()
        opts = ", ".join(f"{k}={v}" for k, v in p["options"].items())
        changed = any(self.options[o.name] != o.default for o in self.spec.options if o.param)
        mark = " [not the printed rules: parameters changed]" if changed else ""
        return f"{self.spec.name}, {self.num_players} players" + (f" ({opts})" if opts else "") + mark

    def state_from_json(self, data: Mapping[str, Any] | str | bytes) -> State:
        """Rebuild a state written by :meth:`State.to_json` (checked).

        Text is read by :func:`~ziggurat.core.documents.load_json`; whatever is wrong is a RecordError.
        """
        try:
            if isinstance(data, str | bytes):
                data = load_json(data, "saved state")
            else:
                check_document(data, "saved state")
        except DocumentError as exc:
            raise RecordError(f"not a saved state: {exc.problem}") from None
        if not isinstance(data, Mapping):
            raise RecordError("not a saved state: expected a JSON object")
        if data.get("format") != STATE_FORMAT:
            raise RecordError(f"not a saved state: format is {data.get('format')!r}, expected {STATE_FORMAT!r}")
        if data.get("version") != STATE_VERSION:
            raise RecordError(
                f"saved state version {data.get('version')!r} is not supported (expected {STATE_VERSION})"
            )
        if data.get("game") != self.spec.id:
            raise RecordError(f"saved state is for game {data.get('game')!r}, not {self.spec.id!r}")
        if data.get("players") != self.num_players:
            raise RecordError(f"saved state is for {data.get('players')!r} players, not {self.num_players}")
        history = data.get("history", [])
        if not isinstance(history, list) or not all(
            isinstance(h, list) and len(h) == 2 and all(type(x) is int for x in h) for h in history
        ):
            raise RecordError("saved state: 'history' must be a list of [player, action id] pairs")
        state = self.new_initial_state()
        try:
            state._load(data["state"])
        except RecordError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError) as exc:
            raise RecordError(f"saved {self.spec.id} state is corrupt: {exc!r}") from None
        state._legal = None
        # without a history the position stands alone (unless it is the initial state): moves made from it
        # are kept for undo, but a save of it carries no history and it has no record
        state._from_start = bool(history) or state == self.new_initial_state()
        if history:
            # a history must be the one that leads to this position: records and undo are built from it
            replay = self.new_initial_state()
            try:
                for p, a in history:
                    replay.apply_action(a, None if p == CHANCE else p)
            except ZigguratError as exc:
                raise RecordError(f"saved state: its history does not replay ({exc})") from None
            if not state._reached_by(replay):
                raise RecordError("saved state: its history does not lead to its position")
            state.history = [(p, a) for p, a in history]
        return state


class State(ABC):
    """One position of a game. See the module docstring for the protocol."""

    __slots__ = ("_from_start", "_legal", "_mover", "game", "history")

    def __init__(self, game: Game):
        self.game = game
        self.history: list[tuple[int, int]] = []
        # whether ``history`` starts at the game's initial state (not so for a position loaded without its
        # history, or a determinisation): see :attr:`history_from_start`
        self._from_start = True
        # the legal actions of the player to move, ``_mover``, while the position does not change
        # (at a simultaneous node: of the player last asked, ``_SIM_MOVER - _mover``)
        self._legal: list[int] | None = None
        self._mover = -1

    # ----------------------------------------------------------------- hooks
    @property
    @abstractmethod
    def current(self) -> int:
        """Hook: who decides now, a player or CHANCE, SIMULTANEOUS or TERMINAL (what ``current_player()`` says).

        The public calls read it at every step, so a game keeps it as a field
        that each change of turn updates (a slot named ``current``: the cheapest
        read), or works it out in a property. This, not ``current_player()``, is
        what a game overrides: the core reads ``current`` itself.
        """

    def current_player(self) -> int:
        """The player to decide, or CHANCE, SIMULTANEOUS or TERMINAL."""
        return self.current

    @abstractmethod
    def _legal_actions(self, player: int) -> list[int]:
        """Legal action ids for ``player`` (the current one, or one of a simultaneous node), sorted."""

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        raise NotImplementedError

    def _chance_legal(self, outcome: int) -> bool:
        """Hook: whether ``outcome`` is possible at this chance node.

        The default lists every outcome; a game overrides it with a direct test
        (a card still in the deck, a kind still in the box) so that checking a
        drawn outcome does not cost a whole outcome list.
        """
        return any(a == outcome for a, _ in self._chance_outcomes())

    @abstractmethod
    def _apply(self, action: int, player: int) -> None:
        """Apply a legal action (no checks needed; ``player`` is CHANCE for chance)."""

    @abstractmethod
    def _action_text(self, action: int, player: int) -> str:
        """Text of an action id in this position."""

    @abstractmethod
    def _parse(self, text: str, player: int) -> int:
        """Id of the action written ``text``; raise ParseActionError if it names none."""

    @abstractmethod
    def _copy(self) -> State:
        """A copy sharing nothing mutable with this state (history is copied by the caller)."""

    @abstractmethod
    def _dump(self) -> dict[str, Any]:
        """The whole state (hidden parts too) as JSON-ready data."""

    @abstractmethod
    def _load(self, data: Mapping[str, Any]) -> None:
        """Fill this state from :meth:`_dump` output (raise on anything inconsistent)."""

    @abstractmethod
    def view(self, player: int | None = None) -> dict[str, Any]:
        """Everything ``player`` may see, as JSON-ready data; ``None`` is a spectator."""

    @abstractmethod
    def _scores(self) -> tuple[float, ...]:
        """The game's own final scores (only called on terminal states)."""

    def _reached_by(self, replay: State) -> bool:
        """Hook: whether ``replay``, this loaded state's saved history played again, is this very position.

        The default compares the whole states. A game whose end rule was revised
        may also accept a game saved as over under the earlier rule that its
        history, played by today's rules, leaves going on (the state keeps the
        end it was saved with).
        """
        return replay._dump() == self._dump()

    def _end_reason(self) -> EndReason:
        """Hook: why this finished game ended, one of ``spec.ends`` (only called on terminal states).

        The default serves a game with one end (and, as "the game is over", one
        that declares none); a game that can end in several ways says which one
        ended this game.
        """
        ends = self.game.spec.ends
        if len(ends) == 1:
            return ends[0]
        if not ends:
            return GAME_OVER
        raise NotImplementedError(f"{self.game.spec.name} declares {len(ends)} ends: its state must say which one")

    def _rank_keys(self) -> list[tuple[float, ...]]:
        """Per-player keys, larger is better; ties on the whole key share a place."""
        sign = -1.0 if self.game.spec.lower_score_wins else 1.0
        return [(sign * s,) for s in self._scores()]

    def _why_illegal(self, action: int, player: int) -> Message:
        """Hook: why ``action``, in the action space but not legal for ``player`` now, is refused.

        Called only for an action that is not legal, with ``player`` the one who
        acts here (a player to move, or CHANCE at a chance node); the message
        speaks to that player in the rulebook's words. The default says only
        that it is not legal; every built-in game names the rule.
        """
        if player == CHANCE:
            return CORE("chance_impossible", outcome=action)
        return CORE("not_legal", action=self._action_text_safe(action, player))

    def _describe(self, action: int, player: int, audience: int | None) -> Message:
        """Hook: what the legal ``action`` of ``player`` (CHANCE for chance) does, as ``audience`` may see it.

        Called on the position before the action. A move's description is a
        clause without its subject (the front end names the player: "Player 2:
        takes the 17 ..."); a chance outcome's is a whole clause. The default is
        the action's short text.
        """
        return CORE("action", action=self._action_text_safe(action, player))

    def _score_breakdown(self, audience: int | None) -> ScoreBreakdown:
        """Hook: every player's score term by term, as ``audience`` may see it (see :meth:`score_breakdown`).

        The default has one term, the score, and only once the game is over.
        """
        if not self.is_terminal():
            raise NotOverError(f"{self.game.spec.name} gives its score breakdown only once the game is over")
        return ScoreBreakdown(
            True, tuple(PlayerScore.of(p, [ScoreTerm(CORE("score"), s)]) for p, s in enumerate(self._scores()))
        )

    def resample(self, player: int, rng: random.Random) -> State:
        """A full state consistent with ``player``'s view, hidden parts redrawn (a determinisation).

        Its history is empty: the true history may hold what ``player`` never saw
        (cards removed unseen, choices not yet revealed), and a determinisation's
        past is invented anyway.
        """
        new = self._resample(player, rng)
        new.history = []
        new._from_start = False
        new._legal = None
        return new

    def _resample(self, player: int, rng: random.Random) -> State:
        """Hook: a copy with what ``player`` can't see redrawn (no hidden information: a copy)."""
        return self.clone()

    def reveals_hidden(self, action: int, player: int) -> bool | None:
        """Hook: could ``player`` making the legal ``action`` here show them something hidden, chance aside?

        (Lucent: the next player goes out or plays, which tells something of their
        hand.) ``True``: it may; ``False``: it cannot; ``None`` (the default): the
        game does not say, and whoever asks (the server's undo rule) tests it by
        redrawing what ``player`` cannot see. An answer must depend only on what
        ``player`` sees, and ``True`` is always safe.
        """
        return None

    # ------------------------------------------------------------ the contract
    @property
    def num_players(self) -> int:
        """Number of players in this game."""
        return self.game.num_players

    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self.current == TERMINAL

    def is_chance_node(self) -> bool:
        """True when chance decides next."""
        return self.current == CHANCE

    def is_simultaneous_node(self) -> bool:
        """True when several players decide at once."""
        return self.current == SIMULTANEOUS

    def players_to_move(self) -> tuple[int, ...]:
        """Players who still have to decide at this node (empty at chance and terminal)."""
        p = self.current
        return (p,) if p >= 0 else ()

    def legal_actions(self, player: int | None = None) -> list[int]:
        """Legal action ids, sorted; empty for a player who is not to move. Do not mutate."""
        cur = self.current
        if cur >= 0:
            if player is None or player == cur:
                legal = self._legal
                if legal is None or self._mover != cur:
                    legal = self._legal = self._legal_actions(cur)
                    self._mover = cur
                return legal
            return []
        if cur == SIMULTANEOUS:
            if player is None or player not in self.players_to_move():
                return []
            legal = self._legal = self._legal_actions(player)
            self._mover = _SIM_MOVER - player
            return legal
        if cur == CHANCE and player in (None, CHANCE):
            return [a for a, _ in self._chance_outcomes()]
        return []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(outcome id, probability) pairs at a chance node, probabilities summing to 1."""
        if self.current != CHANCE:
            return []
        return self._chance_outcomes()

    def sample_chance(self, rng: random.Random) -> int:
        """Draw one chance outcome using exactly one ``rng.random()`` call."""
        u = rng.random()
        outcomes = self._chance_outcomes()
        acc = 0.0
        for action, prob in outcomes:
            acc += prob
            if u < acc:
                return action
        return outcomes[-1][0]

    def _actor(self, player: int | None) -> int:
        """Who acts when ``player`` (None: whoever is to move) gives an action now; else the error saying why not."""
        who = self._who_acts(player)
        if isinstance(who, Message):
            raise (GameOverError if who.id == "core.game_over" else IllegalActionError)(who)
        return who

    def _who_acts(self, player: int | None) -> int | Message:
        """:meth:`_actor`'s answer: the one who acts, or why ``player`` may not act at all now."""
        cur = self.current
        if cur == TERMINAL:
            return CORE("game_over")
        if cur >= 0:
            if player is not None and player != cur:
                return CORE("not_your_turn", current=cur + 1, player=player + 1, seat=player, current_seat=cur)
            return cur
        if cur == CHANCE:
            if player not in (None, CHANCE):
                return CORE("chance_decides")
            return CHANCE
        to_move = self.players_to_move()
        if player is None:
            return CORE("say_who", waiting=[p + 1 for p in to_move])
        if player not in to_move:
            return CORE("already_chosen", player=player + 1, seat=player)
        return player

    # -------------------------------------------------- explaining to people
    def why_illegal(self, action: int, player: int | None = None) -> Message | None:
        """Why ``action`` is not a legal move of ``player`` now, in the rulebook's words; ``None`` if it is legal.

        Any id of the action space may be asked about, at any position: a move
        that breaks a rule ("the 24 is heavier and its halves don't match: monkey
        against bat"), a player who is not to move, a finished game, a chance
        node. ``player`` defaults to the one to move; ``CHANCE`` asks about a
        chance outcome. The message is the one :meth:`apply_action` raises
        (``IllegalActionError.message``) and speaks to ``player``: it may name
        what only they see (their hand), so show it to them alone. Explanations
        are built only when asked: the checked path of :meth:`apply_action`
        never builds one for a legal action.

        Raises ParseActionError for an id outside the action space.

        >>> from ziggurat.core.registry import make_game
        >>> state = make_game("pyramix", 2).new_initial_state()
        >>> state.why_illegal(0, 0).id
        'core.chance_decides'
        """
        if type(action) is not int:
            action = self._as_id(action)
        if player is not None and type(player) is not int:
            player = self._as_player(player)
        cur = self.current
        if player == CHANCE or (player is None and cur == CHANCE):
            self._check_range(action, CHANCE)
            if cur != CHANCE:
                return CORE("game_over") if cur == TERMINAL else CORE("not_chance")
            return None if self._chance_legal(action) else self._why_illegal(action, CHANCE)
        self._check_range(action, 0)
        who = self._who_acts(player)
        if isinstance(who, Message):
            return who
        if action in self.legal_actions(who):
            return None
        return self._why_illegal(action, who)

    def _check_range(self, action: int, actor: int) -> None:
        limit = self._limit(actor)
        if not 0 <= action < limit:
            raise ParseActionError(f"{action!r} is not an action id of {self.game.spec.name} (ids 0..{limit - 1})")

    def describe_action(self, action: int, player: int | None = None, *, audience: int | None = None) -> Message:
        """What the legal ``action`` of ``player`` does, named as ``audience`` may see it (None: a spectator).

        Ask on the position *before* the action (as for :meth:`action_to_text`).
        A move reads as a clause without its subject, naming what moved ("takes
        the 17 (monkey|bat) with 3 jade"); a chance outcome (``player=CHANCE``)
        as a whole clause ("the die shows 4"). Only what ``audience`` may see now
        is named: another player's choice in a simultaneous round reads "makes a
        choice" until the round is revealed (a log that reveals it later, like
        :class:`~ziggurat.core.journal.Journal`, keeps the description the actor
        was given), a card dealt to a hand is named to its owner only. The short
        action text (:meth:`action_to_text`) stays the one for parsing and records.

        Raises ParseActionError / IllegalActionError (with the reason) when the
        action is not legal here.
        """
        reason = self.why_illegal(action, player)
        if reason is not None:
            raise (GameOverError if reason.id == "core.game_over" else IllegalActionError)(reason)
        action = int(action)
        cur = self.current
        if cur == CHANCE:
            return self._describe(action, CHANCE, audience)
        actor = cur if cur >= 0 else int(player)  # type: ignore[arg-type]  # why_illegal needs it at a simultaneous node
        if cur == SIMULTANEOUS and audience != actor:
            return CORE("choice_hidden", player=actor + 1, seat=actor)
        return self._describe(action, actor, audience)

    def score_breakdown(self, audience: int | None = None) -> ScoreBreakdown:
        """Every player's score split into the game's own scoring terms, as ``audience`` (None: a spectator) sees it.

        Once the game is over (``final``) the totals are :meth:`scores`. Before,
        the built-in games give the standing now, as they would score it if the
        game ended here, from what ``audience`` may see: a term hidden from it
        (another player's secret jade) has ``points=None`` and that player's
        total is ``None``. Every term has a message label (id, params, English).
        """
        return self._score_breakdown(audience)

    def apply_action(self, action: int, player: int | None = None) -> None:
        """Check and apply one action (see the module docstring).

        An id that is not an integer (a float, a bool, a text) is refused
        before anything else, so ``1.0`` or ``True`` never pass for ``1``.
        """
        if type(action) is int:
            # the common cases, kept short: every checked playout and every move from a person runs through here
            legal = self._legal
            if legal is not None:
                # the legal actions of the one who acts are listed already: the player to move (who may go
                # unnamed), or the player last asked at a simultaneous node (who must be named)
                mover = self._mover
                if player is None:
                    if mover >= 0 and action in legal:
                        self._apply(action, mover)
                        self.history.append((mover, action))
                        self._legal = None
                        return
                elif (
                    type(player) is int and player == (mover if mover >= 0 else _SIM_MOVER - mover) and action in legal
                ):
                    self._apply(action, player)
                    self.history.append((player, action))
                    self._legal = None
                    return
            elif player is None and self.current == CHANCE:
                try:
                    possible = self._chance_legal(action)
                except (TypeError, IndexError):  # not a usable index: malformed, as the checked case says
                    possible = False
                if possible:
                    self._apply(action, CHANCE)
                    self.history.append((CHANCE, action))
                    return
        self._apply_checked(action, player)

    def _apply_checked(self, action: int, player: int | None) -> None:
        """:meth:`apply_action` when its short cases do not hold, or to refuse the action with the reason.

        That is: an id or player of another type (a numpy integer), legal actions
        not listed yet, chance named as the actor, or an action that is not legal
        or not the actor's to make.
        """
        if type(action) is not int:
            action = self._as_id(action)
        if player is not None and type(player) is not int:
            player = self._as_player(player)
        if self.current == CHANCE and (player is None or player == CHANCE):
            try:
                possible = self._chance_legal(action)
            except (TypeError, IndexError):  # not a usable index: malformed, said by _reject
                possible = False
            if not possible:
                self._reject(action, CHANCE)
            actor = CHANCE
        else:
            actor = self._actor(player)  # or an error that says why not
            if action not in self._legal_actions(actor):
                self._reject(action, actor)
        self._apply(action, actor)
        self.history.append((actor, action))
        self._legal = None

    def _as_id(self, action: object) -> int:
        """``action`` as a plain int if it is an integer of another type (numpy's), else ParseActionError."""
        if not isinstance(action, bool):
            try:
                return int(operator.index(action))  # type: ignore[arg-type]
            except TypeError:
                pass
        raise ParseActionError(f"{action!r} is not an action id of {self.game.spec.name}: ids are whole numbers")

    def _as_player(self, player: object) -> int:
        if not isinstance(player, bool):
            try:
                return int(operator.index(player))  # type: ignore[arg-type]
            except TypeError:
                pass
        raise ParseActionError(f"{player!r} is not a player number")

    def apply_trusted(self, action: int, player: int | None = None) -> None:
        """Apply an action known to be legal here, without checking it: the fast path for search and playouts.

        ``action`` must come from this very position: an id from
        ``legal_actions(player)``, or a chance outcome from ``sample_chance`` or
        ``chance_outcomes``. ``player`` defaults to the one to move (CHANCE at a
        chance node); at a simultaneous node it must be given. Nothing is checked,
        so anything else corrupts the state without a word: input from people,
        files or other programs goes through :meth:`apply_action`.

        >>> from ziggurat.core.registry import make_game
        >>> import random
        >>> a = make_game("kuhnah", 2).new_initial_state(); b = a.clone()
        >>> rng = random.Random(1)
        >>> for _ in range(40):
        ...     x = a.sample_chance(rng) if a.is_chance_node() else a.legal_actions()[0]
        ...     a.apply_action(x); b.apply_trusted(x)
        >>> a == b and a.history == b.history
        True
        """
        if player is None:
            player = self.current
            if player == SIMULTANEOUS:
                raise IllegalActionError("players choose at the same time here: say which player acts")
        self._apply(action, player)
        self.history.append((player, action))
        self._legal = None

    def _reject(self, action: object, actor: int) -> None:
        """Raise the error refusing ``action`` of ``actor``: ParseActionError, or IllegalActionError with the reason."""
        limit = self.game.max_chance_outcomes if actor == CHANCE else self.game.num_actions
        if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < limit:
            raise ParseActionError(f"{action!r} is not an action id of {self.game.spec.name} (ids 0..{limit - 1})")
        reason = self.why_illegal(action, actor)
        if reason is None:  # asked about a legal action: refused all the same, as the caller wants
            reason = CORE("not_legal", action=self._action_text_safe(action, actor))
        raise (GameOverError if reason.id == "core.game_over" else IllegalActionError)(reason)

    def action_to_text(self, action: int, player: int | None = None) -> str:
        """Readable text of ``action`` for ``player`` (default: the one to move)."""
        p = self._text_player(player)
        limit = self.game.max_chance_outcomes if p == CHANCE else self.game.num_actions
        if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < limit:
            raise ParseActionError(f"{action!r} is not an action id of {self.game.spec.name} (ids 0..{limit - 1})")
        return self._action_text(action, p)

    def _action_text_safe(self, action: int, player: int) -> str:
        try:
            return self._action_text(action, player)
        except Exception:
            return f"action {action}"

    def _text_player(self, player: int | None) -> int:
        if player is not None:
            return player
        cur = self.current
        if cur == SIMULTANEOUS:
            to_move = self.players_to_move()
            return to_move[0] if to_move else 0
        return cur

    def action_from_text(self, text: str, player: int | None = None) -> int:
        """The legal action written ``text``.

        Raises ParseActionError when the text names no action of this game and
        IllegalActionError when it names one that is not legal now.
        """
        if not isinstance(text, str) or not text.strip():
            raise ParseActionError("an empty text is not an action")
        if player is not None and type(player) is not int:
            player = self._as_player(player)
        actor = self._actor(player)
        words = " ".join(text.strip().lower().split())
        shown = text if len(text) <= 60 else text[:57] + "..."
        if any(ch.isnumeric() and not "0" <= ch <= "9" for ch in words):
            raise ParseActionError(f"{shown!r} is not an action: write numbers with the digits 0-9")
        try:
            action = self._parse(words, actor)
        except ZigguratError:
            raise
        except (ValueError, LookupError, TypeError, ArithmeticError):
            # a game's parser tripping over a malformed text is still just a malformed text
            raise ParseActionError(f"{shown!r} is not an action of {self.game.spec.name}") from None
        if type(action) is not int or not 0 <= action < self._limit(actor):
            raise ParseActionError(f"{shown!r} is not an action of {self.game.spec.name}")
        if action not in self.legal_actions(actor):
            self._reject(action, actor)
        return action

    def _limit(self, actor: int) -> int:
        return self.game.max_chance_outcomes if actor == CHANCE else self.game.num_actions

    def apply_text(self, text: str, player: int | None = None) -> int:
        """Parse and apply an action text; return its id."""
        action = self.action_from_text(text, player)
        self.apply_action(action, player)
        return action

    def clone(self) -> State:
        """An independent copy (cheap: no deepcopy).

        The cached legal actions are not carried over: a copy may be changed by
        ``resample`` before use, and a stale list would leak the true state.
        """
        other = self._copy()
        other.history = self.history.copy()
        other._from_start = self._from_start
        other._legal = None
        return other

    @property
    def history_from_start(self) -> bool:
        """True when :attr:`history` holds every action since the game's initial state.

        False for a position loaded without its history (a puzzle, a lesson's
        start) and for a determinisation: ``history`` then holds only the actions
        made since, :meth:`to_json` saves the position with no history, and it
        has no game record.
        """
        return self._from_start

    def scores(self) -> tuple[float, ...]:
        """The game's own final scores; raises NotOverError before the end."""
        if not self.is_terminal():
            raise NotOverError("scores exist only once the game is over")
        return self._scores()

    def end_reason(self) -> EndReason:
        """Why the game ended, in the game's own words (one of ``spec.ends``); raises NotOverError before the end.

        >>> from ziggurat.core.registry import make_game
        >>> from ziggurat.core.match import random_playout
        >>> import random
        >>> random_playout(make_game("pyramix", 2).new_initial_state(), random.Random(1)).end_reason().code
        'no-removal'
        """
        if not self.is_terminal():
            raise NotOverError("the game is not over: it has no end reason yet")
        return self._end_reason()

    def outcome(self) -> Outcome:
        """Why the finished game ended, its scores, ranks and returns."""
        scores = self.scores()
        ranks = ranks_from_keys(self._rank_keys())
        returns = returns_from_ranks(ranks)
        bounds = self.game.score_bounds
        if self.num_players == 1 and bounds is not None:
            low, high = bounds
            returns = (max(-1.0, min(1.0, 2.0 * (scores[0] - low) / (high - low) - 1.0)),)
        return Outcome(scores=tuple(scores), ranks=ranks, returns=returns, end=self._end_reason())

    def returns(self) -> list[float]:
        """Returns for learning: zeros until the end, then the outcome's returns."""
        if not self.is_terminal():
            return [0.0] * self.num_players
        return list(self.outcome().returns)

    def to_json(self) -> dict[str, Any]:
        """The whole state as versioned JSON-ready data (includes hidden information)."""
        return {
            "format": STATE_FORMAT,
            "version": STATE_VERSION,
            "game": self.game.spec.id,
            "players": self.num_players,
            "options": self.game.params()["options"],
            "state": self._dump(),
            # only a whole history: one that began at a position loaded without its own would not replay
            "history": [list(h) for h in self.history] if self.history_from_start else [],
        }

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State) or other.game.spec.id != self.game.spec.id:
            return NotImplemented
        return self._dump() == other._dump()

    __hash__ = None  # type: ignore[assignment]

    def legal_action_texts(self, player: int | None = None) -> list[tuple[int, str]]:
        """(id, text) for every legal action of ``player``."""
        p = self._text_player(player)
        return [(a, self._action_text(a, p)) for a in self.legal_actions(player)]

    def __str__(self) -> str:
        return json.dumps(self.view(None), indent=1)


def check_sequence(name: str, value: object, length: int | None = None) -> Sequence[Any]:
    """Helper for ``_load``: ``value`` must be a list (of ``length`` items)."""
    if not isinstance(value, list) or (length is not None and len(value) != length):
        raise RecordError(f"saved state field {name!r} is not a list" + (f" of {length}" if length else ""))
    return value
