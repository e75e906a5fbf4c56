"""Frames: everything one audience is sent about a table, built from its view only.

A frame for audience ``a`` (a seat, or ``None`` for a spectator) holds:
``n`` (how many log entries ``a`` has seen: its event number), the public status
(phase, who is to move, who is ready in a simultaneous round, the outcome at the
end), the seats, ``state.view(a)``, ``a``'s legal actions with their texts (only
when ``a`` is to move and its person decides: not while a bot plays the seat or
after its time ran out), whether ``a`` may take back their last decision, and the
log entries ``a`` has not had yet. Nothing else about the state goes in: not
the seed, not the whole state, not another seat's pending choice, not the
number of chance events, no server error text.

HTML frames (for the page) add the board drawn by the game from the same view,
the click path of each action and the side panel rendered by the page's
templates, all in the connection's language. Everything in a frame is a
function of what ``a`` may see (and of the language it reads), so two tables
that differ only in what ``a`` cannot see send ``a`` the same bytes.
"""

from __future__ import annotations

from typing import Any

import orjson

from ziggurat.core import SIMULTANEOUS, get_game
from ziggurat.core.journal import Audience
from ziggurat.server.live import LiveTable
from ziggurat.web import i18n, pages


def seat_list(table: LiveTable) -> list[dict[str, Any]]:
    """The seats as everyone sees them: names, humans or bots, taken or open."""
    out = []
    for s in table.seats:
        item: dict[str, Any] = {"seat": s.seat, "kind": s.kind, "name": s.name}
        if s.kind == "bot":
            item["bot"] = s.bot
            if s.bot_params.get("level") is not None:
                item["level"] = s.bot_params["level"]
        else:
            item["taken"] = s.claimed_at is not None
            state = table.seat_state[s.seat]
            if state != "active":
                item["state"] = state  # timeout | left | replaced: a bot may be playing it now
        out.append(item)
    return out


def _ms(when: Any) -> int:
    return int(when.timestamp() * 1000)


def clocks(table: LiveTable) -> dict[str, Any] | None:
    """The clocks (realtime) or deadlines (turn-based) as of now, for the page to count down.

    ``left_ms[s]``: seat ``s``'s time left when its current decision began (or
    now, when it is not deciding); ``running[s]``: when that decision began;
    ``deadline[s]``: when a turn-based decision is due; ``now``: the server's time.
    """
    if table.pace == "live" or table.status != "playing":
        return None
    running = {str(s): _ms(t) for s, t in table.turn_started.items() if table.controller(s) == "human"}
    out: dict[str, Any] = {"pace": table.pace, "now": _ms(table_now(table)), "running": running}
    if table.pace == "realtime":
        out["left_ms"] = list(table.clock_ms)
    else:
        out["deadline"] = {str(s): _ms(due) for s in table.turn_started if (due := table.due(s)) is not None}
    return out


def table_now(table: LiveTable) -> Any:
    """The server's time (the service's clock, which the tests may move)."""
    return table.now()


def status(table: LiveTable) -> dict[str, Any]:
    """The public status of the table."""
    state = table.state
    to_move = list(table.to_move())
    simultaneous = state.current_player() == SIMULTANEOUS and table.started
    out: dict[str, Any] = {
        "phase": table.status,
        "to_move": to_move,
        "simultaneous": simultaneous,
        "ready": [p for p in range(table.game.num_players) if p not in to_move] if simultaneous else [],
    }
    if state.is_terminal():
        outcome = state.outcome()
        out["outcome"] = {
            "scores": list(outcome.scores),
            "ranks": list(outcome.ranks),
            "winners": list(outcome.winners),
            "end": outcome.end.to_json(),  # why the game ended, in the game's words (the code keys translations)
        }
    return out


def public_part(table: LiveTable) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The status and the seats, the same for every audience (built once per change of the table)."""
    cached = table.public_cache
    if cached is None or cached[0] != table.version:
        cached = table.public_cache = (table.version, (status(table), seat_list(table)))
    return cached[1]  # type: ignore[no-any-return]


def data_frame(table: LiveTable, audience: Audience, since: int = 0) -> dict[str, Any]:
    """The frame for ``audience`` with the log entries from number ``since`` on."""
    state = table.state
    public, seats = public_part(table)
    to_move = table.to_move()
    actions = []
    undo = False
    if audience is not None:
        # only the person at the seat, while they may move: not a bot playing it, not after their time ran out
        if audience in to_move and table.controller(audience) == "human" and table.seat_state[audience] == "active":
            actions = [{"id": a, "text": t} for a, t in state.legal_action_texts(audience)]
        undo = table.undo_problem(audience, thorough=False) is None
    timing = clocks(table)
    return {
        "type": "frame",
        "n": table.journal.count(audience),
        "seat": audience,
        "status": public if timing is None else {**public, "clock": timing},
        "seats": seats,
        "view": state.view(audience),
        "actions": actions,
        "undo": undo,
        "log": table.log_json_since(audience, since),
    }


def html_frame(table: LiveTable, audience: Audience, since: int = 0, lang: str = i18n.DEFAULT) -> dict[str, Any]:
    """:func:`data_frame` plus the drawn board, click paths and rendered side panel, in ``lang``."""
    frame = data_frame(table, audience, since)
    legal = [(a["id"], a["text"]) for a in frame["actions"]]
    entry = get_game(table.game.spec.id)
    tr = i18n.translator(lang)
    state = table.state
    # every player's score as this audience may see it (a hidden term leaves that total unknown to it)
    wanted = state.is_terminal() or (entry.board is not None and pages.takes_standing(entry.board))
    breakdown = state.score_breakdown(audience) if table.started and wanted else None
    standing = [p.total for p in breakdown.players] if breakdown is not None else None
    board_svg, paths = pages.board(entry, frame["view"], audience, legal, tr, standing)
    for a in frame["actions"]:
        a["path"] = list(paths.get(a["id"], ()))
        # the button's words: what the move does, in the page's language (``text`` stays the one to type)
        a["label"] = i18n.engine_text(state.describe_action(a["id"], audience, audience=audience), tr)
    outcome = frame["status"].get("outcome")
    frame["html"] = {
        "board": board_svg,
        "status": pages.render_status(table.game.spec, frame, lang, breakdown if state.is_terminal() else None),
        "log": [pages.render_log_entry(e, frame["seats"], audience, tr, outcome) for e in frame["log"]],
    }
    return frame


def encode(frame: Any) -> str:
    """A frame as the JSON text sent on the wire (compact UTF-8, keys in the order built)."""
    return orjson.dumps(frame).decode()


def dump(frame: Any) -> bytes:
    """A frame as the UTF-8 bytes of the JSON text :func:`encode` gives (what a socket writes)."""
    return orjson.dumps(frame)


def build(table: LiveTable, audience: Audience, since: int, fmt: str, lang: str = i18n.DEFAULT) -> dict[str, Any]:
    """The frame in format ``data`` or ``html`` (written in ``lang``)."""
    return html_frame(table, audience, since, lang) if fmt == "html" else data_frame(table, audience, since)
