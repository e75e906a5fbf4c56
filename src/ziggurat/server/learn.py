"""Pages and API of the rules pages and the tutorials (the content and the tutorial engine: ``ziggurat.web.learn``).

* ``GET /rules``: every game, with its rules and its tutorial;
* ``GET /rules/{game}``: the whole game, with boards drawn from real positions;
  ``GET /rules/{game}/panel``: the same text alone, for the drawer beside a table's board;
* ``GET /learn/{game}``: the tutorial (``?step=K`` opens it at step K);
* ``GET /api/learn/{game}/{step}``: the tutorial at a step as JSON (the board drawn for the learner,
  the click path of each legal move, what to say);
* ``POST /api/learn/{game}/{step}`` ``{"action": id}`` or ``{"path": [keys]}``: the learner's click,
  checked against the step: ``{"ok": true, "after": html, "frame": {...next step}}`` or
  ``{"ok": false, "kind": "other" | "illegal" | "nothing", "why": text}``.

A tutorial keeps nothing on the server: its script fixes every move, so a step number is the whole
position, and the page says which step it is at. The language is the site's (``?lang=``, the
remembered choice, the browser's ``Accept-Language``: :func:`ziggurat.server.community.language`).
"""

from __future__ import annotations

import asyncio
import functools
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from ziggurat.core import game_ids, get_game
from ziggurat.core.errors import UnknownGameError
from ziggurat.server.community import current_user, language, page
from ziggurat.server.service import STATUS_OF, ServiceError
from ziggurat.web import i18n, learn, pages

router = APIRouter()


def _lessons(game: str) -> learn.Lessons:
    try:
        return learn.lessons(game)
    except UnknownGameError:
        raise ServiceError("not_found", "there is no game called {game!r}", game=game) from None


async def _error_page(request: Request, exc: ServiceError) -> Response:
    return page(
        request,
        "error.html",
        STATUS_OF.get(exc.code, 400),
        user=await current_user(request),
        title="Not found",
        message=exc.message,
    )


def _games() -> list[dict[str, Any]]:
    out = []
    for gid in game_ids():
        spec = get_game(gid).game_class.spec
        lessons = learn.lessons(gid)
        out.append({"id": gid, "name": spec.name, "summary": spec.summary, "tutorial": lessons.tutorial is not None})
        # (the summary is written in the reader's language by the template: it is a catalog message)
    return out


# ------------------------------------------------------------------ rules pages
@router.get("/rules", response_class=HTMLResponse)
async def rules_index(request: Request) -> Response:
    """Every game: its rules and its tutorial."""
    lang = language(request)
    games = await asyncio.to_thread(_games)
    return page(request, "rules_index.html", user=await current_user(request), games=games, lang=lang)


@router.get("/rules/{game}", response_class=HTMLResponse)
async def rules_page(request: Request, game: str) -> Response:
    """The whole game, for someone who never saw it."""
    lang = language(request)
    try:
        lessons = _lessons(game)
    except ServiceError as exc:
        return await _error_page(request, exc)
    rules = await asyncio.to_thread(learn.rules_page, lessons.game_id, lang)
    return page(
        request,
        "rules.html",
        user=await current_user(request),
        game=lessons.game_id,
        name=lessons.name,
        rules=rules,
        lang=lang,
        tutorial=lessons.tutorial is not None,
        languages=learn.LANGUAGES,
    )


@router.get("/rules/{game}/panel", response_class=HTMLResponse)
async def rules_panel(request: Request, game: str) -> Response:
    """The rules text alone (the drawer at a table)."""
    lang = language(request)
    lessons = _lessons(game)
    rules = await asyncio.to_thread(learn.rules_page, lessons.game_id, lang)
    html = pages.render("_rules_article.html", game=lessons.game_id, rules=rules, lang=lang, panel=True)
    return HTMLResponse(html)


# ------------------------------------------------------------------ tutorials
def tutorial_frame(lessons: learn.Lessons, step: int, lang: str, with_history: bool = False) -> dict[str, Any]:
    """The tutorial at ``step`` as the page draws it (the same for everyone: made once, then kept; do not change it)."""
    return _tutorial_frame(lessons.game_id, step, lang, with_history)


@functools.lru_cache(maxsize=512)
def _tutorial_frame(game_id: str, step: int, lang: str, with_history: bool) -> dict[str, Any]:
    lessons = learn.lessons(game_id)
    run = lessons.run()
    tutorial = run.tutorial
    frame = run.frame(step)
    seat = tutorial.seat
    board = run.board(step, lang)
    tr = i18n.translator(lang)
    legal = run.legal(step)
    expected = run.expected[step] if step < run.steps else None
    seats = _seats(tutorial, lang)
    shown = range(0, step + 1) if with_history else range(step, step + 1)
    log = [pages.render_log_entry(e.to_json(), seats, seat, tr) for k in shown for e in run.frame(k).log]
    out: dict[str, Any] = {
        "step": step,
        "steps": run.steps,
        "board": board.svg,
        "actions": [{"id": a, "text": t, "path": list(board.paths.get(a, ()))} for a, t in legal],
        "expect": list(board.paths.get(expected, ())) if expected is not None else [],
        "expect_id": expected,
        "log": log,
        "end": step == run.steps,
        "over": frame.state.is_terminal(),
    }
    if step < run.steps:
        texts = learn.step_texts(tutorial.steps[step], lang)
        out["say"] = str(texts["say"])
        out["hint"] = str(texts.get("hint", ""))
        out["next"] = expected is None
    elif tutorial.steps[-1].do is None:  # the end keeps the last words on screen (often the scoring)
        out["say"] = str(learn.step_texts(tutorial.steps[-1], lang)["say"])
    if frame.state.is_terminal():
        # how each score comes about, in the game's own scoring terms
        outcome = frame.state.outcome()
        breakdown = frame.state.score_breakdown(seat)
        out["scores"] = [
            {
                "name": pages.seat_name(seats, p.player, tr),
                "score": pages.num(outcome.scores[p.player]),
                "rank": outcome.ranks[p.player],
                "terms": [
                    {
                        "label": i18n.engine_text(t.label, tr),
                        "points": None if t.points is None else pages.num(t.points),
                    }
                    for t in p.terms
                ],
            }
            for p in breakdown.players
        ]
        out["notes"] = [i18n.engine_text(n, tr) for n in breakdown.notes]
    return out


def _seats(tutorial: learn.Tutorial, lang: str) -> list[dict[str, Any]]:
    names = list(tutorial.names.get(lang, []))
    return [
        {"seat": p, "kind": "human", "name": names[p] if p < len(names) else None}
        for p in range(tutorial.start.players)
    ]


def _step(lessons: learn.Lessons, step: int) -> int:
    if lessons.tutorial is None:
        raise ServiceError("not_found", "{game} has no tutorial yet", game=lessons.name)
    if not 0 <= step <= lessons.run().steps:
        raise ServiceError("not_found", "the tutorial has steps 0 to {last}", last=lessons.run().steps)
    return step


@router.get("/learn/{game}", response_class=HTMLResponse)
async def tutorial_page(request: Request, game: str, step: int = 0) -> Response:
    """The tutorial: a short guided game, then a real one against a bot."""
    lang = language(request)
    try:
        lessons = _lessons(game)
        step = _step(lessons, step)
    except ServiceError as exc:
        return await _error_page(request, exc)
    frame = await asyncio.to_thread(tutorial_frame, lessons, step, lang, True)
    return page(
        request,
        "learn.html",
        user=await current_user(request),
        game=lessons.game_id,
        name=lessons.name,
        frame=frame,
        frame_json=pages.script_json(frame),
        bot=lessons.run().tutorial.bot,
        players=lessons.run().tutorial.start.players,
        lang=lang,
    )


@router.get("/api/learn/{game}/{step}")
async def api_tutorial_step(request: Request, game: str, step: int) -> Any:
    """The tutorial at ``step``."""
    lessons = _lessons(game)
    return await asyncio.to_thread(tutorial_frame, lessons, _step(lessons, step), language(request))


@router.post("/api/learn/{game}/{step}")
async def api_tutorial_check(request: Request, game: str, step: int) -> Any:
    """Check the learner's click at ``step``; the next step when it is the one asked for."""
    from ziggurat.server.app import json_body  # the app's body reader (size, type and JSON checks)

    lessons = _lessons(game)
    step = _step(lessons, step)
    data = await json_body(request)
    run = lessons.run()
    action, path = data.get("action"), data.get("path")
    if action is not None:
        if isinstance(action, bool) or not isinstance(action, int):
            raise ServiceError("bad_request", "'action' must be an action id (a whole number)")
        verdict = run.check(step, action)
    elif isinstance(path, list) and path and all(isinstance(k, str) and len(k) <= 64 for k in path) and len(path) <= 8:
        verdict = await asyncio.to_thread(run.check_path, step, path)
    else:
        raise ServiceError("bad_request", "send {'action': id} or {'path': [the keys clicked]}")
    lang = language(request)
    if not verdict.ok:
        why = verdict.why
        said = (
            i18n.engine_text(why, i18n.translator(lang)) if why else ""
        )  # the engine's reason, in the page's language
        return {"ok": False, "kind": verdict.kind, "why": said, "why_id": why.id if why else None}
    texts = learn.step_texts(run.tutorial.steps[step], lang)
    return {
        "ok": True,
        "after": str(texts.get("after", "")),
        "frame": await asyncio.to_thread(tutorial_frame, lessons, step + 1, lang),
    }
