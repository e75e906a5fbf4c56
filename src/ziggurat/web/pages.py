"""Server-side rendering: the Jinja2 templates, the board of a game, the side panel and log lines.

Everything here writes in one language: a page or fragment is rendered with the
environment of its language (:func:`environment`), whose ``_``/``gettext``/
``ngettext`` come from that language's catalog (:mod:`ziggurat.web.i18n`), and
the board and log lines get the matching :class:`~ziggurat.core.i18n.Translator`.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup

from ziggurat.core.i18n import ENGLISH, N_, Translator
from ziggurat.core.registry import GameEntry
from ziggurat.core.spec import GameSpec
from ziggurat.core.svg import esc
from ziggurat.web import i18n


def num(value: float) -> str:
    """A score as people write it: ``12.0`` -> ``12``, ``7.5`` -> ``7.5``."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def script_json(data: object) -> str:
    """JSON safe to put inside a ``<script>`` element (no ``</script>``, no HTML comment)."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


# the bots as people read their names (the ids stay in the protocol)
BOT_NAMES = {"random": N_("random"), "greedy": N_("greedy"), "ismcts": N_("IS-MCTS")}
# a table's status in the lists of tables
STATUS_WORDS = {"waiting": N_("waiting for players"), "playing": N_("playing"), "over": N_("over")}


@functools.cache
def environment(lang: str) -> Environment:
    """The templates in ``lang``: the ``i18n`` extension bound to that language's catalog.

    One environment per language (each keeps its compiled templates), so a page
    never sees another request's language.
    """
    tr = i18n.translator(lang)
    env = Environment(
        loader=PackageLoader("ziggurat.web", "templates"),
        autoescape=select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=["jinja2.ext.i18n"],
    )
    env.install_gettext_translations(tr, newstyle=True)  # type: ignore[attr-defined]
    env.filters["num"] = num
    env.globals.update(
        lang=lang,
        site_languages=i18n.LANGUAGES,
        i18n_json=script_json(json.loads(i18n.js_catalog(lang))),
        seat_name=functools.partial(seat_name, tr=tr),
        seat_names=functools.partial(seat_names, tr=tr),
        bot_name=functools.partial(bot_name, tr=tr),
        option_label=functools.partial(option_label, tr=tr),
        rated_name=functools.partial(rated_name, tr=tr),
        status_words={k: tr.gettext(v) for k, v in STATUS_WORDS.items()},
        tr=tr,
    )
    return env


def render(template: str, lang: str = i18n.DEFAULT, **context: Any) -> str:
    """A whole page or fragment from ``templates/``, in ``lang``."""
    return environment(lang).get_template(template).render(**context)


def board(
    entry: GameEntry,
    view: Mapping[str, Any],
    seat: int | None,
    legal: Sequence[tuple[int, str]],
    tr: Translator = ENGLISH,
    standing: Sequence[float | None] | None = None,
) -> tuple[str, Mapping[int, tuple[str, ...]]]:
    """The game's board (SVG) in the language of ``tr`` and its click paths; without a board, the view as text.

    ``standing``: every player's score so far as ``seat`` may see it (``State.score_breakdown``), for a
    board that shows it (one whose drawing takes ``standing``).
    """
    if entry.board is None:
        return f'<pre class="zg-view-text">{esc(json.dumps(view, indent=1, ensure_ascii=False))}</pre>', {}
    if standing is not None and takes_standing(entry.board):
        drawn = entry.board(view, seat, legal, tr=tr, standing=standing)  # type: ignore[call-arg]
    else:
        drawn = entry.board(view, seat, legal, tr=tr)
    return drawn.svg, drawn.paths


def takes_standing(drawing: Any) -> bool:
    """Whether a game's drawing shows the players' scores so far (its ``board`` takes ``standing``)."""
    return _takes_standing(drawing)


@functools.cache
def _takes_standing(drawing: Any) -> bool:
    import inspect

    return "standing" in inspect.signature(drawing).parameters


def bot_name(bot: str, tr: Translator = ENGLISH) -> str:
    """A bot as people call it (``ismcts`` -> ``IS-MCTS``)."""
    return tr.gettext(BOT_NAMES[bot]) if bot in BOT_NAMES else bot


def rated_name(subject: str, names: Mapping[str, str], tr: Translator = ENGLISH) -> str:
    """A rated subject on a page: a player's name, or ``greedy bot``, ``IS-MCTS bot, level 3``."""
    kind, _, rest = subject.partition(":")
    if kind == "user":
        return names.get(subject) or tr.gettext("(gone)")
    bot, _, level = rest.partition(":")
    if level:
        return tr.gettext("{bot} bot, level {level}").format(bot=bot_name(bot, tr), level=level)
    return tr.gettext("{bot} bot").format(bot=bot_name(bot, tr))


def describe_game(game: Any, tr: Translator = ENGLISH) -> str:
    """A table's game in a few words: name, players, the options that differ from the defaults."""
    options = []
    for name, value in game.params()["options"].items():
        if isinstance(value, bool):
            shown = tr.gettext("yes") if value else tr.gettext("no")
        elif isinstance(value, str) and not value.isdigit():
            shown = option_label(value, tr)
        else:
            shown = str(value)
        options.append(tr.gettext("{option}: {value}").format(option=option_label(name, tr), value=shown))
    said = tr.ngettext("{game}, {n} player", "{game}, {n} players", game.num_players).format(
        game=game.spec.name, n=game.num_players
    )
    if options:
        said = tr.gettext("{game} ({options})").format(game=said, options=tr.gettext(", ").join(options))
    if any(game.options[o.name] != o.default for o in game.spec.params):
        said = tr.gettext("{game}, not the printed rules: parameters changed").format(game=said)
    return said


def option_label(name: str, tr: Translator = ENGLISH) -> str:
    """An option's name (or a choice's) as the lobby shows it: translated, the id stays in the protocol."""
    return tr.pgettext(i18n.OPTION_CONTEXT, name)


def seat_name(seats: Sequence[Mapping[str, Any]], seat: int | None, tr: Translator = ENGLISH) -> str:
    """How a seat is called on the page: its player's name, the bot, or ``Player N``."""
    if seat is None or not 0 <= seat < len(seats):
        return ""
    s = seats[seat]
    if s.get("name"):
        return str(s["name"])
    if s["kind"] == "bot":
        bot = bot_name(str(s["bot"]), tr)
        if s.get("level") is not None:
            return tr.gettext("{bot} {level} (bot {seat})").format(bot=bot, level=s["level"], seat=seat + 1)
        return tr.gettext("{bot} (bot {seat})").format(bot=bot, seat=seat + 1)
    return tr.gettext("Player {n}").format(n=seat + 1)


def seat_names(seats: Sequence[Mapping[str, Any]], which: Sequence[int], joiner: str, tr: Translator = ENGLISH) -> str:
    """Several seats named, joined with ``joiner`` (``" and "``, ``", "``, already translated)."""
    return joiner.join(seat_name(seats, p, tr) for p in which)


def render_status(spec: GameSpec, frame: Mapping[str, Any], lang: str = i18n.DEFAULT, breakdown: Any = None) -> str:
    """The side panel: the turn banner and the seats; at the end, each score term by term (``breakdown``)."""
    tr = i18n.translator(lang)
    scores = None
    if breakdown is not None:
        scores = [
            {
                "seat": p.player,
                "total": p.total,
                "terms": [{"label": i18n.engine_text(t.label, tr), "points": t.points} for t in p.terms],
            }
            for p in breakdown.players
        ]
        notes = [i18n.engine_text(n, tr) for n in breakdown.notes]
    ended = None
    outcome = frame.get("status", {}).get("outcome") or {}
    if outcome.get("end"):  # why the game ended, in the game's own words (and whether the rulebook's end)
        ended = {
            "why": i18n.engine_text(outcome["end"]["message"], tr),
            "code": outcome["end"]["code"],
            "printed": outcome["end"].get("printed", True),
        }
    return render("_status.html", lang, spec=spec, f=frame, scores=scores, notes=notes if scores else [], ended=ended)


def describe_entry(
    entry: Mapping[str, Any],
    seats: Sequence[Mapping[str, Any]],
    tr: Translator = ENGLISH,
    outcome: Mapping[str, Any] | None = None,
) -> str:
    """One log entry as a line of text in the language of ``tr`` (the web's twin of ``Entry.describe``)."""
    kind, seat, text = entry["kind"], entry.get("seat"), entry.get("text", "")
    who = seat_name(seats, seat, tr) if seat is not None else ""
    if kind == "move" and entry.get("message"):  # what moved, as the engine names it
        return tr.gettext("{who} {does}").format(who=who, does=i18n.engine_text(entry["message"], tr))
    if kind == "move":
        return tr.gettext("{who}: {move}").format(who=who, move=text)
    if kind == "ready":
        return tr.gettext("{who} is ready").format(who=who)
    if kind == "choosing":
        return tr.gettext("{who} is choosing again").format(who=who)
    if kind == "undo":
        return tr.gettext("{who} took back {move}").format(who=who, move=text)
    if kind == "join":
        return tr.gettext("{name} sits at seat {seat}").format(name=text or who, seat=(seat or 0) + 1)
    if kind == "start":
        return tr.gettext("The game begins")
    if kind == "end" and outcome is not None:
        scores = tr.gettext(", ").join(
            tr.gettext("{who} {score} (rank {rank})").format(who=seat_name(seats, p, tr), score=num(score), rank=rank)
            for p, (score, rank) in enumerate(zip(outcome["scores"], outcome["ranks"], strict=True))
        )
        return tr.gettext("Game over: {scores}").format(scores=scores)
    if kind == "timeout":
        return tr.gettext("{who} ran out of time").format(who=who)
    if kind == "left":
        return tr.gettext("{who} left the table; a bot ({bot}) plays on").format(who=who, bot=bot_name(text, tr))
    if kind == "replaced":
        return tr.gettext("a bot ({bot}) plays for {who} from now on").format(who=who, bot=bot_name(text, tr))
    return tr.gettext("{who}: {move}").format(who=who, move=text) if who and text else (text or who)


def render_log_entry(
    entry: Mapping[str, Any],
    seats: Sequence[Mapping[str, Any]],
    audience: int | None,
    tr: Translator = ENGLISH,
    outcome: Mapping[str, Any] | None = None,
) -> str:
    """One ``<li>`` of the move log, in the language of ``tr``."""
    text = describe_entry(entry, seats, tr, outcome)
    private = bool(entry.get("private"))
    if private:
        text = tr.gettext("{line} (only you see this until everyone has chosen)").format(line=text)
    cls = f"zg-log-{entry['kind']}" + (" zg-private" if private else "")
    return str(Markup('<li class="{}">{}</li>').format(cls, text))
