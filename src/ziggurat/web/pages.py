"""Server-side rendering: the Jinja2 templates, the board of a game, the side panel and log lines."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup

from ziggurat.core.journal import Entry
from ziggurat.core.registry import GameEntry
from ziggurat.core.spec import GameSpec
from ziggurat.core.svg import esc

env = Environment(
    loader=PackageLoader("ziggurat.web", "templates"),
    autoescape=select_autoescape(["html"]),
    trim_blocks=True,
    lstrip_blocks=True,
    extensions=["jinja2.ext.i18n"],
)
# Page text goes through _() / {% trans %}; until the translation catalogs are wired in, English as written.
env.install_null_translations(newstyle=True)  # type: ignore[attr-defined]


def num(value: float) -> str:
    """A score as people write it: ``12.0`` -> ``12``, ``7.5`` -> ``7.5``."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


env.filters["num"] = num


def script_json(data: object) -> str:
    """JSON safe to put inside a ``<script>`` element (no ``</script>``, no HTML comment)."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def render(template: str, **context: Any) -> str:
    """A whole page or fragment from ``templates/``."""
    return env.get_template(template).render(**context)


def board(
    entry: GameEntry, view: Mapping[str, Any], seat: int | None, legal: Sequence[tuple[int, str]]
) -> tuple[str, Mapping[int, tuple[str, ...]]]:
    """The game's board (SVG) and click paths; a game without a board shows its view as text."""
    if entry.board is None:
        return f'<pre class="zg-view-text">{esc(json.dumps(view, indent=1, ensure_ascii=False))}</pre>', {}
    drawn = entry.board(view, seat, legal)
    return drawn.svg, drawn.paths


def seat_name(seats: Sequence[Mapping[str, Any]], seat: int | None) -> str:
    """How a seat is called on the page: its player's name, the bot, or ``Player N``."""
    if seat is None or not 0 <= seat < len(seats):
        return ""
    s = seats[seat]
    if s.get("name"):
        return str(s["name"])
    if s["kind"] == "bot":
        level = f" {s['level']}" if s.get("level") is not None else ""
        return f"{s['bot']}{level} (bot {seat + 1})"
    return f"Player {seat + 1}"


def render_status(spec: GameSpec, frame: Mapping[str, Any]) -> str:
    """The side panel: the turn banner and the seats."""
    return render("_status.html", spec=spec, f=frame, seat_name=seat_name)


def render_log_entry(entry: Mapping[str, Any], seats: Sequence[Mapping[str, Any]], audience: int | None) -> str:
    """One ``<li>`` of the move log."""
    e = Entry(entry["kind"], entry.get("seat"), entry.get("text", ""), bool(entry.get("private")))
    names = [seat_name(seats, i) for i in range(len(seats))]
    text = e.describe(names)
    if e.private:
        text += " (only you see this until everyone has chosen)"
    cls = f"zg-log-{e.kind}" + (" zg-private" if e.private else "")
    return str(Markup('<li class="{}">{}</li>').format(cls, text))
