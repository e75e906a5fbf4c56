"""Pages and API of the community: sign up, log in and out, a player's page, the leaderboard.

HTML forms carry a CSRF token checked against the ``zg_csrf`` cookie; the JSON
calls that act with the session cookie need the ``X-Ziggurat`` header, which a
page of another site cannot send.
"""

from __future__ import annotations

import asyncio
import dataclasses
import math
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request, WebSocket
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from ziggurat.core import game_ids, get_game
from ziggurat.core.i18n import N_, Translator
from ziggurat.server.accounts import (
    CSRF_COOKIE,
    SESSION_COOKIE,
    SESSION_DAYS,
    User,
    csrf_ok,
    new_csrf,
)
from ziggurat.server.limits import address_of
from ziggurat.server.service import STATUS_OF, ServiceError
from ziggurat.web import i18n, pages

router = APIRouter()


def server(request: Request) -> Any:
    """The process's :class:`~ziggurat.server.app.Server`."""
    return request.app.state.server


async def current_user(request: Request) -> User | None:
    """The logged-in user of a request (its session cookie), or None.

    A language asked for with ``?lang=`` becomes the account's (its mails follow it).
    """
    token = request.cookies.get(SESSION_COOKIE)
    if not token:
        return None
    user = await asyncio.to_thread(server(request).accounts.user_of, token)
    asked = request.query_params.get("lang")
    if user is not None and asked in i18n.LANGUAGES and user.lang != asked:
        await asyncio.to_thread(server(request).accounts.set_language, user.id, asked)
        user = dataclasses.replace(user, lang=asked)
    return user


def csrf_token(request: Request) -> str:
    """The CSRF token of this browser (made if it has none; :func:`with_csrf` sets the cookie)."""
    return request.cookies.get(CSRF_COOKIE) or new_csrf()


def with_csrf(response: Response, request: Request, token: str) -> Response:
    """Give the browser its CSRF cookie (the forms on the page carry the same token)."""
    if request.cookies.get(CSRF_COOKIE) != token:
        response.set_cookie(
            CSRF_COOKIE, token, httponly=True, samesite="lax", secure=request.url.scheme == "https", path="/"
        )
    return response


def set_session(response: Response, request: Request, token: str) -> None:
    """The session cookie: HttpOnly, SameSite=Lax, Secure over HTTPS."""
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=SESSION_DAYS * 24 * 3600,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
        path="/",
    )


def _next(value: object) -> str:
    """Where to go after a form: only a path of this site."""
    if isinstance(value, str) and value.startswith("/") and not value.startswith("//"):
        return value
    return "/"


async def _form(request: Request) -> dict[str, Any]:
    form = await request.form()
    data = {k: v for k, v in form.items() if isinstance(v, str)}
    if not csrf_ok(request.cookies.get(CSRF_COOKIE), data.get("csrf")):
        raise ServiceError("forbidden", "this form is stale or came from another site: reload the page and try again")
    return data


def language(conn: Request | WebSocket) -> str:
    """The language of a request: ``?lang=``, else the ``zg_lang`` cookie, else ``Accept-Language``, else English."""
    return i18n.choose(
        conn.query_params.get("lang"), conn.cookies.get(i18n.COOKIE), conn.headers.get("accept-language")
    )


def translator_of(conn: Request | WebSocket) -> Translator:
    """The catalog of the request's language."""
    return i18n.translator(language(conn))


def remember_language(response: Response, request: Request) -> Response:
    """A language asked for with ``?lang=`` is kept in a cookie for the next pages (a year)."""
    asked = request.query_params.get("lang")
    if asked is not None and asked in i18n.LANGUAGES and request.cookies.get(i18n.COOKIE) != asked:
        response.set_cookie(
            i18n.COOKIE,
            asked,
            max_age=365 * 24 * 3600,
            httponly=True,
            samesite="lax",
            secure=request.url.scheme == "https",
            path="/",
        )
    return response


async def _keep_language(request: Request, user: User) -> None:
    """On logging in: the language the person reads the site in becomes their account's."""
    lang = language(request)
    if user.lang != lang:
        await asyncio.to_thread(server(request).accounts.set_language, user.id, lang)


def language_links(request: Request) -> dict[str, str]:
    """This page in every language: its address with ``?lang=`` set (the other parameters kept)."""
    links = {}
    for code in i18n.LANGUAGES:
        url = request.url.include_query_params(lang=code)
        links[code] = f"{url.path}?{url.query}"
    return links


def page(request: Request, template: str, status: int = 200, **context: Any) -> Response:
    """A page from a template in the request's language, with the CSRF token its forms carry.

    An error in the context (a :class:`ServiceError`) is written in the page's language.
    """
    token = csrf_token(request)
    lang = context.pop("lang", None) or language(request)  # a page may say its language itself
    tr = i18n.translator(lang)
    for key, value in context.items():
        if isinstance(value, ServiceError):
            context[key] = value.text(tr)
    html = pages.render(template, lang, csrf=token, lang_links=language_links(request), **context)
    response = with_csrf(HTMLResponse(html, status_code=status), request, token)
    return remember_language(response, request)


def retry_later(exc: ServiceError, response: Response) -> Response:
    """A form's answer to a refused request, with ``Retry-After`` when a limit refused it."""
    if exc.retry_after is not None:
        response.headers["Retry-After"] = str(max(1, math.ceil(exc.retry_after)))
    return response


# ------------------------------------------------------------------------ pages
@router.get("/signup", response_class=HTMLResponse)
async def signuppage(request: Request, next: str = "/") -> Response:
    """The sign-up form."""
    return page(request, "signup.html", user=await current_user(request), next=_next(next), error=None)


@router.post("/signup")
async def signup_form(request: Request) -> Response:
    """Make an account and log in."""
    data: dict[str, Any] = {}
    try:
        data = await _form(request)
        user, token = await server(request).sign_up(
            address_of(request), data.get("name"), data.get("password"), data.get("email")
        )
        await _keep_language(request, user)
    except ServiceError as exc:
        return retry_later(
            exc,
            page(
                request,
                "signup.html",
                status=STATUS_OF.get(exc.code, 400),
                user=None,
                next=_next(data.get("next")),
                error=exc,
                name=data.get("name", ""),
                email=data.get("email", ""),
            ),
        )
    response = RedirectResponse(
        _next(data.get("next")) if data.get("next") not in (None, "/") else f"/u/{quote(user.name)}", 303
    )
    set_session(response, request, token)
    return response


@router.get("/login", response_class=HTMLResponse)
async def loginpage(request: Request, next: str = "/") -> Response:
    """The log-in form."""
    return page(request, "login.html", user=await current_user(request), next=_next(next), error=None)


@router.post("/login")
async def login_form(request: Request) -> Response:
    """Check the password, open a session."""
    data: dict[str, Any] = {}
    try:
        data = await _form(request)
        user, token = await server(request).log_in(address_of(request), data.get("name"), data.get("password"))
        await _keep_language(request, user)
    except ServiceError as exc:
        return retry_later(
            exc,
            page(
                request,
                "login.html",
                status=STATUS_OF.get(exc.code, 400),
                user=None,
                next=_next(data.get("next")),
                error=exc,
                name=data.get("name", ""),
            ),
        )
    response = RedirectResponse(_next(data.get("next")), 303)
    set_session(response, request, token)
    return response


@router.post("/logout")
async def logout_form(request: Request) -> Response:
    """End the session."""
    await _form(request)
    await server(request).log_out(request.cookies.get(SESSION_COOKIE))
    response = RedirectResponse("/", 303)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


@router.get("/u/{name}", response_class=HTMLResponse)
async def playerpage(request: Request, name: str) -> Response:
    """A player's page: their ratings, their games (whose turn it is), their latest results."""
    srv = server(request)
    player = await asyncio.to_thread(srv.accounts.by_name, name)
    me = await current_user(request)
    if player is None:
        return page(
            request,
            "error.html",
            status=404,
            user=me,
            title=N_("No such player"),
            message=ServiceError("not_found", "nobody is called {name!r}", name=name),
        )
    mine = me is not None and me.id == player.id
    games = await games_of(request, player.id)
    if not mine:  # an unlisted table is for those who were given its address
        games = [g for g in games if g["public"]]
    rated = await asyncio.to_thread(srv.ratings.of, player.subject)
    history = await asyncio.to_thread(srv.ratings.history, player.subject)
    return page(
        request,
        "player.html",
        user=me,
        player=player,
        games=games,
        ratings=rated,
        history=history,
        names={g: get_game(g).game_class.spec.name for g in game_ids()},
        mine=mine,
    )


@router.get("/ratings", response_class=HTMLResponse)
async def ratingspage(request: Request, game: str = "kuhnah", players: int = 2) -> Response:
    """The leaderboard of one game at one player count."""
    srv = server(request)
    if game not in game_ids():
        game = "kuhnah"
    spec = get_game(game).game_class.spec
    players = min(max(players, spec.min_players), spec.max_players)
    board = await asyncio.to_thread(srv.ratings.leaderboard, game, players)
    names = await _subject_names(request, [r.subject for r in board])
    return page(
        request,
        "ratings.html",
        user=await current_user(request),
        board=board,
        names=names,
        game=game,
        players=players,
        games=[get_game(g).game_class.spec for g in game_ids()],
    )


async def _subject_names(request: Request, subjects: list[str]) -> dict[str, str]:
    return await asyncio.to_thread(server(request).ratings.names, subjects)


async def games_of(request: Request, user_id: int) -> list[dict[str, Any]]:
    """A player's tables, newest first, with whether it is their turn."""
    srv = server(request)
    rows = await asyncio.to_thread(srv.store.tables_of_user, user_id)
    for r in rows:
        r["name"] = get_game(r["game"]).game_class.spec.name
        r["your_turn"] = False
        if r["status"] == "playing":
            try:
                table = await srv.service.get(r["id"])
            except ServiceError:
                continue
            r["your_turn"] = r["seat"] in table.to_move() and table.controller(r["seat"]) == "human"
    return rows


# -------------------------------------------------------------------------- API
@router.post("/api/accounts")
async def api_sign_up(request: Request) -> Response:
    """``{"name", "password", "email"?}``: a new account (and a session)."""
    from ziggurat.server.app import json_body

    data = await json_body(request)
    user, token = await server(request).sign_up(
        address_of(request), data.get("name"), data.get("password"), data.get("email")
    )
    await _keep_language(request, user)
    response = JSONResponse({"id": user.id, "name": user.name}, status_code=201)
    set_session(response, request, token)
    return response


@router.post("/api/sessions")
async def api_log_in(request: Request) -> Response:
    """``{"name", "password"}``: log in (the session cookie comes back)."""
    from ziggurat.server.app import json_body

    data = await json_body(request)
    user, token = await server(request).log_in(address_of(request), data.get("name"), data.get("password"))
    await _keep_language(request, user)
    response = JSONResponse({"id": user.id, "name": user.name})
    set_session(response, request, token)
    return response


@router.delete("/api/sessions")
async def api_log_out(request: Request) -> Response:
    """Log out."""
    if request.headers.get("x-ziggurat") is None:
        raise ServiceError("forbidden", "send the X-Ziggurat header")
    await server(request).log_out(request.cookies.get(SESSION_COOKIE))
    response = JSONResponse({"ok": True})
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


@router.get("/api/me")
async def api_me(request: Request) -> Any:
    """Who is logged in, their games (and where it is their turn) and ratings."""
    user = await current_user(request)
    if user is None:
        raise ServiceError("forbidden", "not logged in")
    games = await games_of(request, user.id)
    rated = await asyncio.to_thread(server(request).ratings.of, user.subject)
    return {
        "id": user.id,
        "name": user.name,
        "your_turn": [g["id"] for g in games if g["your_turn"]],
        "games": [{k: g[k] for k in ("id", "game", "status", "seat", "your_turn")} for g in games],
        "ratings": [r.__dict__ | {"ordinal": r.ordinal} for r in rated],
    }


@router.get("/api/ratings")
async def api_ratings(request: Request, game: str, players: int) -> Any:
    """The leaderboard as JSON."""
    if game not in game_ids():
        raise ServiceError("bad_request", "games: {games}", games=", ".join(game_ids()))
    spec = get_game(game).game_class.spec
    if not spec.min_players <= players <= spec.max_players:
        raise ServiceError(
            "bad_request",
            "{game} is played by {low} to {high} players, not {n}",
            game=spec.name,
            low=spec.min_players,
            high=spec.max_players,
            n=players,
        )
    board = await asyncio.to_thread(server(request).ratings.leaderboard, game, players)
    names = await _subject_names(request, [r.subject for r in board])
    return {"ratings": [r.__dict__ | {"ordinal": r.ordinal, "name": names[r.subject]} for r in board]}
