"""The site in the reader's language: chosen from the browser, switched with ?lang=, remembered.

Every page, every error a person reads (JSON answers, socket messages, forms) and
every frame drawn for the page comes in the language of the request; the
Spanish pages of every game, from the first move to the end and in the replay,
hold no English.
"""

from __future__ import annotations

import re
import time
from email import message_from_bytes
from email.policy import default
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.test_community import H
from tests.server.test_community import sign_up as api_sign_up
from tests.server.util import bearer, claim_all, create, frame, play_out
from tests.web.untranslated import untranslated
from ziggurat.core import game_ids
from ziggurat.server.app import Settings, create_app
from ziggurat.server.mail import MailSettings, your_turn
from ziggurat.web import i18n

SPANISH = {"Accept-Language": "es-ES,es;q=0.9,en;q=0.5"}
# a move taken back is named by its short text (the engines' own notation, the same in every language)
ENGINE_TEXT = frozenset({"zg-log-undo"})


def receive(ws, kind: str | None = None) -> dict:
    """The next message (of ``kind``), past the presence news."""
    while True:
        m = ws.receive_json()
        if m["type"] != "presence" and (kind is None or m["type"] == kind):
            return m


def html_lang(page: str) -> str:
    found = re.search(r'<html lang="([a-z]+)"', page)
    assert found, page[:200]
    return found.group(1)


def test_the_browsers_language_is_the_sites(client: TestClient) -> None:
    assert html_lang(client.get("/").text) == "en"
    page = client.get("/", headers=SPANISH).text
    assert html_lang(page) == "es"
    assert "Mesa nueva" in page and "Crear la mesa" in page
    assert html_lang(client.get("/", headers={"Accept-Language": "fr-FR,fr;q=0.9"}).text) == "en"
    assert html_lang(client.get("/", headers={"Accept-Language": "fr,es;q=0.4"}).text) == "es"


def test_lang_switches_and_is_remembered(client: TestClient) -> None:
    r = client.get("/ratings?lang=es&game=pyramix")
    assert html_lang(r.text) == "es"
    assert r.cookies.get(i18n.COOKIE) == "es"
    # the switch on the page keeps the page and its other parameters, and offers the other language
    assert 'href="/ratings?lang=en&amp;game=pyramix"' in r.text or 'href="/ratings?game=pyramix&amp;lang=en"' in r.text
    assert html_lang(client.get("/login").text) == "es"  # the cookie, whatever the browser says
    assert html_lang(client.get("/login", headers={"Accept-Language": "en"}).text) == "es"
    r = client.get("/signup?lang=en", headers=SPANISH)
    assert html_lang(r.text) == "en"
    assert html_lang(client.get("/", headers=SPANISH).text) == "en"
    client.cookies.clear()
    assert html_lang(client.get("/?lang=xx", headers=SPANISH).text) == "es"  # an unknown code is ignored


def test_every_page_has_the_language_switch(client: TestClient) -> None:
    created = create(client, "lucent", ["me", "random"], seed=3)
    for path in ["/", "/login", "/signup", "/ratings", "/join", f"/t/{created['id']}", f"/t/{created['id']}/replay"]:
        page = client.get(path, headers=bearer(created["token"])).text
        assert 'id="zg-langs"' in page, path
        assert 'hreflang="es"' in page and "Español" in page, path


@pytest.mark.parametrize("path", ["/", "/login", "/signup", "/ratings", "/join", "/u/nobody", "/t/nosuchtable"])
def test_spanish_pages_hold_no_english(client: TestClient, path: str) -> None:
    page = client.get(path, headers=SPANISH).text
    assert html_lang(page) == "es"
    assert untranslated(page) == []
    english = client.get(path, headers={"Accept-Language": "en"}).text
    assert untranslated(english) != [], "the check finds English when there is some"


def test_errors_come_in_the_readers_language(client: TestClient) -> None:
    r = client.post("/api/tables", json={"game": "kuhnah", "seats": "x"}, headers=SPANISH)
    assert r.status_code == 400
    assert r.json() == {"error": "bad_request", "message": "'seats' debe ser una lista con una entrada por jugador"}
    r = client.post("/api/tables", json={"game": "kuhnah", "seats": [{"kind": 5}] * 2}, headers=SPANISH)
    assert r.json()["message"] == "asiento 1: 'kind' es 'human' o 'bot', 'me' true o false"
    r = client.post("/api/tables", json={"game": "kuhnah", "seats": "x"})
    assert r.json()["message"] == "'seats' must be a list with one entry per player"
    r = client.get("/api/tables/nope/frame", headers=SPANISH)
    assert r.json() == {"error": "not_found", "message": "no existe esa mesa"}
    created = create(client, "kuhnah", ["me", "human"], seed=1)
    r = client.post(
        f"/api/tables/{created['id']}/act", json={"action": 0, "n": 0}, headers={**bearer(created["token"]), **SPANISH}
    )
    assert r.json() == {
        "error": "not_started",
        "message": "la partida empieza cuando todos los asientos están ocupados",
    }
    r = client.post("/login", data={"name": "x", "password": "y", "csrf": "z"}, headers=SPANISH)
    assert "este formulario está caducado" in r.text


def test_a_reason_inside_an_error_is_translated_too(client: TestClient) -> None:
    created = create(client, "kuhnah", ["me", "random"], seed=2)
    n = frame(client, created["id"], created["token"])["n"]
    r = client.post(
        f"/api/tables/{created['id']}/undo", json={"n": n, "id": "u1"}, headers={**bearer(created["token"]), **SPANISH}
    )
    assert r.status_code == 409
    message = r.json()["message"]
    assert message.startswith("no puedes deshacer eso: ")
    assert untranslated(f"<p>{message}</p>") == []


def test_the_socket_speaks_the_pages_language(client: TestClient) -> None:
    created = create(client, "pyramix", ["me", "random"], seed=4)
    table = created["id"]
    with client.websocket_connect(f"/api/tables/{table}/ws") as ws:
        ws.send_json({"type": "hello", "since": 0, "format": "html", "lang": "es", "token": created["token"]})
        assert receive(ws)["type"] == "welcome"
        first = receive(ws)
        assert "Tu turno: toma un cubo resaltado" in first["html"]["board"]
        assert "Es tu turno." in first["html"]["status"]
        assert untranslated(first["html"]["board"] + first["html"]["status"]) == []
        ws.send_json({"type": "act", "action": -5, "n": first["n"], "id": "m1"})
        refused = receive(ws)
        assert refused["type"] == "error" and refused["code"] in ("illegal", "bad_action")
        ws.send_json({"type": "dance"})
        m = receive(ws, "error")
        assert m["message"] == "mensaje desconocido 'dance'"
    with client.websocket_connect(f"/api/tables/{table}/ws", headers=SPANISH) as ws:  # no lang: the browser's
        ws.send_json({"type": "hello", "since": 0, "format": "html"})
        receive(ws, "welcome")
        assert "Turno de J1" in receive(ws, "frame")["html"]["board"]


def test_two_languages_at_one_table_each_get_their_own_frames(client: TestClient) -> None:
    created = create(client, "kuhnah", ["me", "random"], seed=6)
    table = created["id"]
    with (
        client.websocket_connect(f"/api/tables/{table}/ws") as en,
        client.websocket_connect(f"/api/tables/{table}/ws") as es,
    ):
        en.send_json({"type": "hello", "since": 0, "format": "html", "lang": "en"})
        es.send_json({"type": "hello", "since": 0, "format": "html", "lang": "es"})
        for ws in (en, es):
            receive(ws, "welcome")
        english, spanish = receive(en, "frame"), receive(es, "frame")
        assert english["n"] == spanish["n"] and english["view"] == spanish["view"]
        assert "Quarry" in english["html"]["board"] and "Cantera" in spanish["html"]["board"]
        mine = frame(client, table, created["token"])
        r = client.post(
            f"/api/tables/{table}/act",
            json={"action": mine["actions"][0]["id"], "n": mine["n"]},
            headers=bearer(created["token"]),
        )
        assert r.status_code == 200, r.text
        m = receive(es, "frame")
        assert m["n"] > spanish["n"] and untranslated(m["html"]["board"]) == []


@pytest.mark.parametrize("game", game_ids())
def test_the_spanish_table_of_every_game_holds_no_english_to_the_end(client: TestClient, game: str) -> None:
    created = create(client, game, ["me", "random"], seed=7)
    table, token = created["id"], created["token"]
    headers = {**bearer(token), **SPANISH}
    page = client.get(f"/t/{table}", headers=headers).text
    assert html_lang(page) == "es"
    assert untranslated(page, ignore_classes=ENGINE_TEXT) == []
    assert "Es tu turno." in page or "Tu elección en esta ronda" in page
    end = play_out(client, table, {created["seat"]: token}, seed=7)
    assert end["status"]["phase"] == "over"
    page = client.get(f"/t/{table}", headers=headers).text
    assert "Fin de la partida" in page
    assert untranslated(page, ignore_classes=ENGINE_TEXT) == []
    replay = client.get(f"/t/{table}/replay", headers=headers).text
    assert untranslated(replay) == []
    steps = client.get(f"/api/tables/{table}/replay?seat=1", headers=headers).json()["steps"]
    last = client.get(f"/api/tables/{table}/replay?seat=1&step={steps - 1}", headers=headers).json()
    assert untranslated(last["html"]["board"] + last["html"]["status"]) == []


def test_an_account_keeps_its_language_and_its_mails_are_written_in_it(
    sqlite_url: str, smtp_sink: tuple[str, list[Any]]
) -> None:
    """Signed up in Spanish: the "your turn" mail is Spanish; switched to English while logged in: English."""
    address, received = smtp_sink
    settings = Settings(db_url=sqlite_url, bot_delay=0, bot_workers=0, smtp=address, public_url="https://z.example")
    with TestClient(create_app(settings)) as client:
        client.app.state.server.jobs.poll = 0.05
        client.headers.update(SPANISH)
        api_sign_up(client, "Eva", "eva@example.org")
        body = {"game": "lucent", "seats": ["me", "random"], "pace": "turn", "turn_seconds": 86400}
        assert client.post("/api/tables", json=body, headers=H).status_code == 201
        deadline = time.time() + 10
        while not received and time.time() < deadline:
            time.sleep(0.05)
        mail = message_from_bytes(received[0].content, policy=default)
        assert mail["Subject"].startswith("Tu turno en Lucent (mesa ")
        assert "Hola Eva:" in mail.get_content()
        accounts = client.app.state.server.accounts
        assert accounts.by_name("Eva").lang == "es"
        client.get("/?lang=en")  # the switch, while logged in
        assert accounts.by_name("Eva").lang == "en"
    english = your_turn(MailSettings("h", 25, "z@x", "https://z.example"), "e@x", "Eva", "Lucent", "t1")
    assert english["Subject"] == "Your turn in Lucent (table t1)"


def test_a_wait_in_an_error_is_said_in_the_readers_language() -> None:
    from ziggurat.server.limits import a_wait
    from ziggurat.server.service import ServiceError

    error = ServiceError("too_many", "too many wrong passwords: try again in {wait}", retry_after=90, wait=a_wait(90))
    assert error.message == "too many wrong passwords: try again in 2 minutes" and error.retry_after == 90
    spanish = error.text(i18n.translator("es"))
    assert spanish == "demasiadas contraseñas incorrectas: inténtalo de nuevo dentro de 2 minutos"
    assert ServiceError("too_many", "x {wait}", wait=a_wait(1)).text(i18n.translator("es")) == "x 1 segundo"


def test_the_end_shows_every_score_term_by_term_and_nakums_star_counts_every_point(client: TestClient) -> None:
    created = create(client, "nakum", ["me", "random"], seed=9)
    table, token = created["id"], created["token"]
    play_out(client, table, {created["seat"]: token}, seed=9)
    page = client.get(f"/t/{table}", headers={**bearer(token), **SPANISH}).text
    assert 'data-testid="breakdown"' in page and "Cómo se forman las puntuaciones" in page
    assert "fichas de puntos" in page and "1 punto por cada" in page  # Nakum's own terms, in Spanish
    assert untranslated(page, ignore_classes=ENGINE_TEXT) == []
    data = frame(client, table, token)
    totals = [float(s) for s in data["status"]["outcome"]["scores"]]
    for total in totals:
        assert f"{total:g}" in page.split('data-testid="breakdown"')[1]
    # during play the star shows the score so far (offerings and cards included), not the tokens alone
    created = create(client, "nakum", ["me", "random"], seed=9)
    with client.websocket_connect(f"/api/tables/{created['id']}/ws") as ws:
        ws.send_json({"type": "hello", "since": 0, "format": "html", "token": created["token"]})
        receive(ws, "welcome")
        board = receive(ws, "frame")["html"]["board"]
    assert "points so far (if the game ended now)" in board


def test_why_a_part_of_the_board_is_no_move_comes_from_the_engine_in_the_readers_language(client: TestClient) -> None:
    """K'uh Nah: the board marks the places over two cards where the card being placed may not go; asking why
    gives the engine's reason (the support rule), to that seat only, in its language."""
    import random as _random

    created = create(client, "kuhnah", ["me", "human"], seed=3)
    tokens = claim_all(client, created)
    table = created["id"]
    rng = _random.Random(3)
    for _ in range(400):
        f = frame(client, table)
        seat = f["status"]["to_move"][0]
        mine = frame(client, table, tokens[seat], fmt="html")
        blocked = re.findall(r'class="kn-blocked" data-why="([^"]+)"', mine["html"]["board"])
        if blocked:
            break
        action = rng.choice(mine["actions"])["id"]
        client.post(f"/api/tables/{table}/act", json={"action": action, "n": mine["n"]}, headers=bearer(tokens[seat]))
    else:
        raise AssertionError("no place was ever blocked")
    asked = client.get(
        f"/api/tables/{table}/why", params={"text": blocked[0]}, headers={**bearer(tokens[seat]), **SPANISH}
    )
    assert asked.status_code == 200, asked.text
    body = asked.json()
    assert body["legal"] is False and body["id"] == "kuhnah.support"
    assert "no puede ir en" in body["message"] and untranslated(f"<p>{body['message']}</p>") == []
    english = client.get(f"/api/tables/{table}/why", params={"text": blocked[0]}, headers=bearer(tokens[seat])).json()
    assert "can't go at" in english["message"]
    legal = mine["actions"][0]["text"]
    assert client.get(f"/api/tables/{table}/why", params={"text": legal}, headers=bearer(tokens[seat])).json()["legal"]
    spectator = client.get(f"/api/tables/{table}/why", params={"text": blocked[0]})
    assert spectator.status_code == 403


@pytest.mark.parametrize("game", game_ids())
def test_the_rules_and_the_tutorial_of_every_game_hold_no_english_in_spanish(client: TestClient, game: str) -> None:
    """The rules pages and tutorials are written per language; their boards and messages come in it too."""
    for path in (f"/rules/{game}", f"/learn/{game}", "/rules"):
        page = client.get(path, headers=SPANISH)
        assert page.status_code == 200, path
        assert html_lang(page.text) == "es"
        assert untranslated(page.text) == [], path
    english = client.get(f"/rules/{game}", headers={"Accept-Language": "en"}).text
    assert untranslated(english) != []
