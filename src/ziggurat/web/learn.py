"""Rules pages and tutorials: each game's text, figures and tutorial script as data, run here for every game.

A game's folder holds, under ``data/`` (see ``docs/learn.md``):

* ``rules.<lang>.md`` for each of :data:`LANGUAGES`: the whole game in Markdown. A paragraph that is only
  an image whose address is ``figure:NAME`` (``![caption](figure:NAME)``) becomes a figure: the game's
  own web drawing (``board(view, seat, legal)``) of the position ``NAME`` of ``learn.toml``;
* ``learn.toml``: the figures (a position each: a saved state or a new game, moves played on it, whose
  eyes it is seen through, the moves shown as allowed or refused) and the tutorial (a start position,
  the learner's seat, and the steps: what to say, the click expected, the other players' replies);
* the saved states the positions start from (``Game.state_from_json``), beside it.

Every position is built with the engine itself, so a figure or a tutorial step shows only what the
rules allow; :func:`lessons` checks the whole folder when it is first loaded (every move legal where it
is played, every figure used, both languages complete) and a bad entry names its file, entry and field.
The HTTP side (pages and the tutorial's JSON) is ``ziggurat.server.learn``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token
from markupsafe import Markup, escape

from ziggurat.core import get_game, make_game
from ziggurat.core.content import parse_toml, read_content
from ziggurat.core.errors import ContentError, IllegalActionError, ZigguratError
from ziggurat.core.game import CHANCE, State
from ziggurat.core.journal import Entry, Journal
from ziggurat.core.message import Message
from ziggurat.core.registry import GameEntry
from ziggurat.core.svg import Board
from ziggurat.web import i18n

__all__ = [
    "LANGUAGES",
    "Figure",
    "Lessons",
    "Position",
    "Step",
    "Tutorial",
    "TutorialFrame",
    "lessons",
    "load",
    "rules_page",
    "why_not",
]

LANGUAGES = ("en", "es")
"""The languages every rules page and tutorial is written in (the first is the fallback)."""


# --------------------------------------------------------------------------- positions
@dataclass(frozen=True)
class Position:
    """A position of a game built with its engine: a saved state (or a new game), then moves played on it.

    ``moves`` are action texts as the game writes them; ``"chance: reveal 22a"`` is a chance outcome,
    ``"2: jade 9a"`` an action of player 2 (needed when several decide at once), anything else the
    action of whoever decides now.
    """

    players: int
    options: Mapping[str, Any] = field(default_factory=dict)
    state: str | None = None  # a saved state beside learn.toml
    moves: tuple[str, ...] = ()


def _actor(state: State, move: str) -> tuple[int | None, str]:
    """Who makes ``move`` (a text with an optional ``chance:`` or ``N:`` prefix) and its bare text."""
    who, colon, rest = move.partition(":")
    if colon and who.strip() == "chance":
        return CHANCE, rest.strip()
    if colon and who.strip().isdigit():
        return int(who) - 1, rest.strip()
    return None, move.strip()


def play_move(state: State, move: str, journal: Journal | None = None) -> tuple[int, int]:
    """Play one scripted ``move`` on ``state`` (checked by the engine); returns ``(actor, action id)``."""
    actor, text = _actor(state, move)
    if actor is None:
        actor = state.current_player()
        if actor < 0 and actor != CHANCE:
            raise IllegalActionError(f"{text!r}: several players decide here; write it as 'N: {text}'")
    action = state.action_from_text(text, actor)
    if journal is not None:
        journal.play(state, action, actor)
    else:
        state.apply_action(action, None if actor == CHANCE else actor)
    return actor, action


# --------------------------------------------------------------------------- figures, tutorials
@dataclass(frozen=True)
class Figure:
    """A board in a rules page: a position seen by ``seat`` (None: a spectator), some moves marked.

    ``show`` are legal moves of ``seat`` drawn highlighted, as the table highlights what may be clicked;
    ``refuse`` are moves the rules forbid here, drawn where they would go and crossed out. A figure shows
    either its own ``position`` or the tutorial's position before ``step``.
    """

    name: str
    position: Position | None  # None: a position of the tutorial
    seat: int | None
    show: tuple[str, ...] = ()
    refuse: tuple[str, ...] = ()
    step: int | None = None  # the tutorial's position before this step (0-based; its length: after the last)


@dataclass(frozen=True)
class Step:
    """One step of a tutorial.

    ``say``: what the tutorial says first (per language); ``do``: the learner's move expected now (an
    action text; ``None`` for a step read and passed with *Next*); ``hint``: said when the learner makes
    another move; ``after``: said once the move is made; ``then``: the other players' and chance's moves
    that follow (texts as in :class:`Position`).
    """

    say: Mapping[str, str]
    do: str | None = None
    hint: Mapping[str, str] = field(default_factory=dict)
    after: Mapping[str, str] = field(default_factory=dict)
    then: tuple[str, ...] = ()


@dataclass(frozen=True)
class Tutorial:
    """A short guided game from a fixed position: the learner at ``seat``, the script in ``steps``.

    ``scores`` are the final scores the script leads to (checked when it loads), ``bot`` the opponent
    offered for a real game at the end.
    """

    start: Position
    seat: int
    steps: tuple[Step, ...]
    scores: tuple[float, ...] | None = None
    bot: str = "greedy"
    names: Mapping[str, Sequence[str]] = field(default_factory=dict)


# --------------------------------------------------------------------------- loading
def _need(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], source: str, entry: str) -> Any:
    if key not in data:
        raise ContentError(source, "is missing", entry, key)
    value = data[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise ContentError(source, f"has the wrong type ({type(value).__name__})", entry, key)
    return value


def _texts(value: Any, source: str, entry: str, key: str, required: bool) -> dict[str, str]:
    """A text in every language: ``{en = "...", es = "..."}``."""
    if value is None and not required:
        return {}
    if not isinstance(value, Mapping):
        raise ContentError(source, "must be a table with one text per language (en, es)", entry, key)
    missing = [lang for lang in LANGUAGES if not isinstance(value.get(lang), str) or not value[lang].strip()]
    if missing:
        raise ContentError(source, f"has no text in {', '.join(missing)}", entry, key)
    unknown = sorted(set(value) - set(LANGUAGES))
    if unknown:
        raise ContentError(source, f"has texts in unknown languages {unknown}", entry, key)
    return {lang: str(value[lang]).strip() for lang in LANGUAGES}


def _moves(data: Mapping[str, Any], key: str, source: str, entry: str) -> tuple[str, ...]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(m, str) and m.strip() for m in value):
        raise ContentError(source, "must be a list of action texts", entry, key)
    return tuple(value)


def _position(data: Mapping[str, Any], source: str, entry: str) -> Position:
    options = data.get("options", {})
    if not isinstance(options, Mapping):
        raise ContentError(source, "must be a table of options", entry, "options")
    state = data.get("state")
    if state is not None and (not isinstance(state, str) or "/" in state or "\\" in state or ".." in state):
        raise ContentError(source, "must name a saved-state file beside learn.toml", entry, "state")
    return Position(
        players=_need(data, "players", int, source, entry),
        options=dict(options),
        state=state,
        moves=_moves(data, "moves", source, entry),
    )


def _seat(data: Mapping[str, Any], source: str, entry: str, players: int, spectator: bool) -> int | None:
    seat = data.get("seat")
    if seat is None and spectator:
        return None
    if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= players:
        raise ContentError(source, f"must be a player number from 1 to {players}", entry, "seat")
    return seat - 1


@dataclass
class Lessons:
    """Everything a game teaches with: its rules pages, their figures and its tutorial (checked)."""

    game_id: str
    name: str
    package: str
    rules: dict[str, str]
    figures: dict[str, Figure]
    tutorial: Tutorial | None
    folder: Path | None = None  # where the files are read from (None: the game package's data/)
    _states: dict[str, State] = field(default_factory=dict, repr=False)
    _run: TutorialRun | None = field(default=None, repr=False)

    # ---- positions
    def build(self, position: Position, journal: Journal | None = None, source: str = "learn.toml") -> State:
        """The state of ``position`` (a fresh one on every call)."""
        game = make_game(self.game_id, position.players, position.options)
        if position.state is not None:
            raw, where = _read(self.package, self.folder, position.state, "saved state")
            try:
                state = game.state_from_json(raw)  # read within the limits of every document from outside
            except ZigguratError as exc:
                raise ContentError(where, f"is not a saved {self.name} state ({exc})") from None
        else:
            state = game.new_initial_state()
        for move in position.moves:
            try:
                play_move(state, move, journal)
            except ZigguratError as exc:
                raise ContentError(source, f"cannot play {move!r}: {exc}") from None
        return state

    def figure_state(self, name: str) -> State:
        """The position of figure ``name`` (built once)."""
        if name not in self._states:
            figure = self.figures[name]
            if figure.position is None:
                self._states[name] = self.run().frame(figure.step or 0).state.clone()
            else:
                self._states[name] = self.build(figure.position, source=f"learn.toml, figure {name}")
        return self._states[name]

    def figure_board(self, name: str, lang: str = "en") -> str:
        """Figure ``name`` drawn by the game in ``lang``: shown moves highlighted, refused ones crossed out."""
        figure = self.figures[name]
        state = self.figure_state(name)
        seat = figure.seat
        who = state.current_player() if seat is None else seat
        shown = [(state.action_from_text(t, who), t) for t in figure.show]
        refused = [(_action_id(state, t, who), t) for t in figure.refuse]
        drawn = entry_of(self.game_id).board(  # type: ignore[misc]
            state.view(seat), seat, shown + refused, tr=i18n.translator(lang)
        )
        svg = drawn.svg
        for action, _ in shown:
            svg = _mark_path(svg, drawn.paths.get(action, ()), "zg-legal")
        for action, _ in refused:
            svg = _mark_path(svg, drawn.paths.get(action, ()), "zg-refused")
        return svg

    # ---- the tutorial
    def run(self) -> TutorialRun:
        """The tutorial played through (every step's position, computed once)."""
        if self.tutorial is None:
            raise LookupError(f"{self.name} has no tutorial")
        if self._run is None:
            self._run = TutorialRun(self, self.tutorial)
        return self._run


def entry_of(game_id: str) -> GameEntry:
    """The registered game (a board drawing is needed for figures and tutorials)."""
    entry = get_game(game_id)
    if entry.board is None:
        raise LookupError(f"{entry.game_class.spec.name} has no web board to draw figures with")
    return entry


def _action_id(state: State, text: str, player: int) -> int:
    """The id of the action written ``text``, legal or not (refused moves in figures are illegal)."""
    words = " ".join(text.lower().split())
    for action in range(state.game.num_actions):
        try:
            if state.action_to_text(action, player) == words:
                return action
        except (ZigguratError, LookupError, ValueError, TypeError):
            continue
    raise ContentError("learn.toml", f"{text!r} is not an action of {state.game.spec.name}")


_TAG = r"<(?P<tag>[a-z]+)(?P<attrs>[^>]*?\sdata-key=\"{key}\"[^>]*)>"


def _mark_path(svg: str, path: Sequence[str], cls: str) -> str:
    """Add ``cls`` to the element of the path's last key (earlier keys are shown as chosen).

    >>> svg = '<g data-key="hand:red" class="x"></g><rect data-key="slot:0:3"/>'
    >>> _mark_path(svg, ["hand:red", "slot:0:3"], "zg-legal")
    '<g data-key="hand:red" class="zg-selected x"></g><rect data-key="slot:0:3" class="zg-legal"/>'
    """
    for i, key in enumerate(path):
        name = cls if i == len(path) - 1 else "zg-selected"
        pattern = re.compile(_TAG.format(key=re.escape(str(escape(key)))))

        def add(m: re.Match[str], name: str = name) -> str:
            attrs, end = m.group("attrs"), ">"
            if attrs.endswith("/"):  # a self-closing element
                attrs, end = attrs[:-1], "/>"
            if ' class="' in attrs:
                attrs = attrs.replace(' class="', f' class="{name} ', 1)
            else:
                attrs += f' class="{name}"'
            return f"<{m.group('tag')}{attrs}{end}"

        svg = pattern.sub(add, svg, count=1)
    return svg


def why_not(state: State, action: int, player: int) -> Message | None:
    """Why ``player`` may not make ``action`` here, in the engine's words (None: it is legal).

    The message carries an id and parameters, so a front end in another language renders its own text.
    """
    try:
        return state.why_illegal(action, player)
    except ZigguratError:  # not an action of this game at all
        return None


def _read(package: str, folder: Path | None, name: str, what: str) -> tuple[bytes, str]:
    """A learn file: from ``folder`` if given, else the game package's ``data/``."""
    return read_content(package, name, None if folder is None else folder / name, what)


def load(game_id: str, folder: Path | str | None = None) -> Lessons:
    """Read and check a game's rules pages, figures and tutorial (each call reads them again).

    ``folder`` holds the files instead of the game's ``data/`` (to check a draft: every move is played
    by the engine, and a bad entry is a :class:`~ziggurat.core.errors.ContentError` naming it).
    """
    entry = get_game(game_id)
    spec = entry.game_class.spec
    package = entry.game_class.__module__.rsplit(".", 1)[0]
    where_from = None if folder is None else Path(folder)
    rules = {}
    for lang in LANGUAGES:
        raw, where = _read(package, where_from, f"rules.{lang}.md", "rules page")
        try:
            rules[lang] = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ContentError(where, "is not UTF-8 text") from None
    raw, source = _read(package, where_from, "learn.toml", "figures and tutorial")
    data = parse_toml(raw, source)
    tutorial = _tutorial(data["tutorial"], source) if "tutorial" in data else None
    figures = {}
    for name, fig in data.get("figure", {}).items():
        entry_name = f"figure.{name}"
        if not isinstance(fig, Mapping):
            raise ContentError(source, "must be a table", entry_name)
        step = None
        if "step" in fig:  # a position of the tutorial: step N (1-based), or "end"
            if tutorial is None:
                raise ContentError(source, "names a tutorial step, but there is no tutorial", entry_name, "step")
            count = len(tutorial.steps)
            raw_step = fig["step"]
            if raw_step == "end":
                step = count
            elif isinstance(raw_step, int) and not isinstance(raw_step, bool) and 1 <= raw_step <= count:
                step = raw_step - 1
            else:
                raise ContentError(source, f'must be a step from 1 to {count}, or "end"', entry_name, "step")
            position, players = None, tutorial.start.players
        else:
            position = _position(fig, source, entry_name)
            players = position.players
        figures[name] = Figure(
            name=name,
            position=position,
            seat=_seat(fig, source, entry_name, players, spectator=True),
            show=_moves(fig, "show", source, entry_name),
            refuse=_moves(fig, "refuse", source, entry_name),
            step=step,
        )
    lessons = Lessons(
        game_id=spec.id,
        name=spec.name,
        package=package,
        rules=rules,
        figures=figures,
        tutorial=tutorial,
        folder=where_from,
    )
    _check(lessons, source)
    return lessons


def _tutorial(t: Any, source: str) -> Tutorial:
    if not isinstance(t, Mapping):
        raise ContentError(source, "must be a table", "tutorial")
    start = _position(t, source, "tutorial")
    steps = []
    for i, s in enumerate(_need(t, "step", list, source, "tutorial")):
        where = f"tutorial.step {i + 1}"
        if not isinstance(s, Mapping):
            raise ContentError(source, "must be a table", where)
        do = s.get("do")
        if do is not None and not (isinstance(do, str) and do.strip()):
            raise ContentError(source, "must be an action text", where, "do")
        steps.append(
            Step(
                say=_texts(s.get("say"), source, where, "say", required=True),
                do=do,
                hint=_texts(s.get("hint"), source, where, "hint", required=False),
                after=_texts(s.get("after"), source, where, "after", required=False),
                then=_moves(s, "then", source, where),
            )
        )
    if not steps:
        raise ContentError(source, "has no steps", "tutorial", "step")
    scores = t.get("scores")
    if scores is not None and (
        not isinstance(scores, list) or not all(isinstance(x, int | float) and not isinstance(x, bool) for x in scores)
    ):
        raise ContentError(source, "must be a list of numbers, one per player", "tutorial", "scores")
    names = t.get("names", {})
    if not isinstance(names, Mapping):
        raise ContentError(source, "must be a table of name lists per language", "tutorial", "names")
    bot = t.get("bot", "greedy")
    if not isinstance(bot, str):
        raise ContentError(source, "must be the name of a bot", "tutorial", "bot")
    seat = _seat(t, source, "tutorial", start.players, spectator=False)
    return Tutorial(
        start=start,
        seat=seat if seat is not None else 0,
        steps=tuple(steps),
        scores=tuple(float(x) for x in scores) if scores is not None else None,
        bot=bot,
        names={lang: [str(n) for n in names.get(lang, [])] for lang in LANGUAGES},
    )


def _check(lessons: Lessons, source: str) -> None:
    """Refuse a learn folder with a figure that cannot be drawn, or a page naming a figure that is not there."""
    for lang, text in lessons.rules.items():
        named = set(_FIGURE_REF.findall(text))
        missing = sorted(named - set(lessons.figures))
        if missing:
            raise ContentError(f"rules.{lang}.md", f"shows figures that learn.toml does not define: {missing}")
        unused = sorted(set(lessons.figures) - named)
        if unused:
            raise ContentError(f"rules.{lang}.md", f"does not show the figures {unused} of learn.toml")
    for name, figure in lessons.figures.items():
        state = lessons.figure_state(name)
        who = state.current_player() if figure.seat is None else figure.seat
        for text in figure.show:
            try:
                state.action_from_text(text, who)
            except ZigguratError as exc:
                problem = f"shows {text!r}, which is not a legal move there ({exc})"
                raise ContentError(source, problem, f"figure.{name}") from None
        for text in figure.refuse:
            action = _action_id(state, text, who)
            if action in state.legal_actions(who):
                raise ContentError(source, f"refuses {text!r}, which is legal there", f"figure.{name}")
    if lessons.tutorial is not None:
        lessons.run()


_FIGURE_REF = re.compile(r"\]\(figure:([A-Za-z0-9_-]+)\)")


@cache
def lessons(game_id: str) -> Lessons:
    """The checked rules pages, figures and tutorial of a game (loaded once)."""
    return load(get_game(game_id).game_class.spec.id)


# --------------------------------------------------------------------------- the tutorial engine
@dataclass(frozen=True)
class TutorialFrame:
    """What the page shows at one step: the board as the learner sees it and what to do."""

    step: int
    state: State
    log: tuple[Entry, ...]  # what the learner saw happen since the previous step


class TutorialRun:
    """A tutorial played through once: the position before every step, the log lines, the final scores.

    The script fixes every move (the learner's expected click, the replies, chance), so step ``k`` is
    always the same position: the server keeps no tutorial state per visitor, the page says which step
    it is at.
    """

    def __init__(self, lessons: Lessons, tutorial: Tutorial):
        self.lessons = lessons
        self.tutorial = tutorial
        seat = tutorial.seat
        where = "learn.toml, tutorial"
        journal = Journal(tutorial.start.players)
        state = lessons.build(tutorial.start, source=where)
        self.start_log = len(journal.entries(seat))
        self.frames: list[TutorialFrame] = []
        self.expected: list[int | None] = []
        seen = 0
        for i, step in enumerate(tutorial.steps):
            where = f"learn.toml, tutorial.step {i + 1}"
            entries = journal.entries(seat)
            self.frames.append(TutorialFrame(i, state.clone(), tuple(entries[seen:])))
            seen = len(entries)
            if step.do is not None:
                if seat not in state.players_to_move():
                    raise ContentError(where, f"expects {step.do!r}, but player {seat + 1} is not to move")
                try:
                    action = state.action_from_text(step.do, seat)
                except ZigguratError as exc:
                    raise ContentError(where, f"expects {step.do!r}, which is not legal there ({exc})") from None
                self.expected.append(action)
                journal.play(state, action, seat)
            else:
                self.expected.append(None)
            for move in step.then:
                try:
                    play_move(state, move, journal)
                except ZigguratError as exc:
                    raise ContentError(where, f"cannot play {move!r}: {exc}") from None
            if state.is_chance_node():
                raise ContentError(where, "leaves the game at a chance event: script its outcome in 'then'")
        entries = journal.entries(seat)
        self.frames.append(TutorialFrame(len(tutorial.steps), state, tuple(entries[seen:])))
        if tutorial.scores is not None:
            if not state.is_terminal():
                raise ContentError("learn.toml", "gives final scores, but the script does not end the game", "tutorial")
            if tuple(state.scores()) != tutorial.scores:
                raise ContentError(
                    "learn.toml",
                    f"says the game ends {list(tutorial.scores)}, the engine scores {list(state.scores())}",
                    "tutorial",
                    "scores",
                )

    @property
    def steps(self) -> int:
        """How many steps there are (frame ``steps`` is the end)."""
        return len(self.tutorial.steps)

    def frame(self, step: int) -> TutorialFrame:
        """The position before ``step`` (``steps``: after the last)."""
        if not 0 <= step <= self.steps:
            raise LookupError(f"the tutorial has steps 1 to {self.steps}")
        return self.frames[step]

    def legal(self, step: int) -> list[tuple[int, str]]:
        """The learner's legal moves at ``step`` (none on a *Next* step: the page offers only Next)."""
        if step >= self.steps or self.expected[step] is None:
            return []
        state = self.frames[step].state
        return state.legal_action_texts(self.tutorial.seat)

    def board(self, step: int, lang: str = "en") -> Board:
        """The board at ``step`` as the learner sees it (its texts in ``lang``), with each legal move's click path."""
        state = self.frames[step].state
        seat = self.tutorial.seat
        return entry_of(self.lessons.game_id).board(  # type: ignore[misc]
            state.view(seat), seat, self.legal(step), tr=i18n.translator(lang)
        )

    def check(self, step: int, action: int) -> Verdict:
        """The learner made ``action`` at ``step``: is it the move the step asks for, and if not, why not."""
        expected = self.expected[step] if 0 <= step < self.steps else None
        if expected is None:
            return Verdict(False, "nothing")
        if action == expected:
            return Verdict(True, "ok")
        state = self.frames[step].state
        if action in state.legal_actions(self.tutorial.seat):
            return Verdict(False, "other")
        return Verdict(False, "illegal", why_not(state, action, self.tutorial.seat))

    def check_path(self, step: int, path: Sequence[str]) -> Verdict:
        """The learner clicked ``path`` on the board, which makes no legal move: why not, where the engine says.

        The board gives click paths only to legal moves; a part of the board that a game draws as
        clickable for a move that is not legal now is found by asking the drawing for every move.
        """
        if not 0 <= step < self.steps or self.expected[step] is None or not path:
            return Verdict(False, "nothing")
        state = self.frames[step].state
        seat = self.tutorial.seat
        every = []
        for action in range(state.game.num_actions):
            try:
                every.append((action, state.action_to_text(action, seat)))
            except Exception:  # an id that names nothing in this position: no place on the board either
                continue
        try:
            drawn = entry_of(self.lessons.game_id).board(state.view(seat), seat, every)  # type: ignore[misc]
        except Exception:  # a drawing that cannot show every move at once says nothing more
            return Verdict(False, "nothing")
        wanted = tuple(path)
        for action, keys in drawn.paths.items():
            if tuple(keys) == wanted:
                return self.check(step, action)
        return Verdict(False, "nothing")


@dataclass(frozen=True)
class Verdict:
    """The answer to a click: right or not; ``kind`` ``ok``, ``other`` (legal, not asked), ``illegal``, ``nothing``.

    ``why``: for an illegal move, the engine's reason.
    """

    ok: bool
    kind: str
    why: Message | None = None


# --------------------------------------------------------------------------- rules pages
def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9áéíóúñü]+", "-", text.lower()).strip("-") or "section"


@dataclass(frozen=True)
class RulesPage:
    """A rules page rendered: its title, sections (for the contents) and HTML."""

    title: str
    sections: tuple[tuple[str, str], ...]  # (anchor, heading)
    html: Markup


def rules_page(game_id: str, lang: str) -> RulesPage:
    """The rules of a game in ``lang`` as HTML, with its figures drawn."""
    return _rules_page(lessons(game_id).game_id, lang if lang in LANGUAGES else LANGUAGES[0])


@cache
def _rules_page(game_id: str, lang: str) -> RulesPage:
    learn = lessons(game_id)
    md = MarkdownIt("commonmark", {"html": False, "typographer": True}).enable(["table", "replacements"])
    tokens = md.parse(learn.rules[lang])
    title = learn.name
    sections: list[tuple[str, str]] = []
    used: set[str] = set()
    out: list[Token] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.type == "heading_open":
            text = tokens[i + 1].content
            if tok.tag == "h1":
                title = text
                i += 3
                continue
            anchor = _slug(text)
            while anchor in used:
                anchor += "-2"
            used.add(anchor)
            tok.attrSet("id", anchor)
            if tok.tag == "h2":
                sections.append((anchor, text))
        if tok.type == "paragraph_open" and i + 2 < len(tokens):
            inline = tokens[i + 1]
            kids = inline.children or []
            if len(kids) == 1 and kids[0].type == "image" and str(kids[0].attrGet("src") or "").startswith("figure:"):
                name = str(kids[0].attrGet("src"))[len("figure:") :]
                block = Token("html_block", "", 0)
                block.content = _figure_html(learn, name, kids[0].content, lang)
                out.append(block)
                i += 3
                continue
        out.append(tok)
        i += 1
    html = md.renderer.render(out, md.options, {})
    return RulesPage(title=title, sections=tuple(sections), html=Markup(html))


def _figure_html(learn: Lessons, name: str, caption: str, lang: str) -> str:
    cap_id = f"fig-{name}-caption"
    markup = Markup('<figure class="zg-figure" id="fig-{}" aria-labelledby="{}">{}<figcaption id="{}">{}</figcaption>')
    return str(markup.format(name, cap_id, Markup(learn.figure_board(name, lang)), cap_id, caption)) + "</figure>\n"


def render_text(text: str) -> Markup:
    """A tutorial's text (Markdown, no raw HTML) as HTML."""
    md = MarkdownIt("commonmark", {"html": False, "typographer": True})
    return Markup(md.render(text))


def step_texts(step: Step, lang: str) -> dict[str, Markup]:
    """The texts of a step in ``lang`` as HTML: ``say``, ``hint``, ``after``."""
    lang = lang if lang in LANGUAGES else LANGUAGES[0]
    return {key: render_text(getattr(step, key)[lang]) for key in ("say", "hint", "after") if getattr(step, key)}
