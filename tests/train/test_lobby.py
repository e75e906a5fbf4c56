"""The web lobby offers the ``learned`` bot only where it can play: the train extra installed, a policy shipped."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from tests.server.util import create, frame
from ziggurat.bots import learned
from ziggurat.core import make_bot, make_game
from ziggurat.core.errors import ConfigError
from ziggurat.server.app import Settings, create_app
from ziggurat.server.service import web_bots

OPTION = '<option value="learned">'


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(db_url=sqlite_url, bot_delay=0, bot_workers=0))) as c:
        yield c


@pytest.fixture
def no_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    """As without the train extra: ``import torch`` fails."""
    monkeypatch.setitem(sys.modules, "torch", None)


def test_without_the_extra_it_is_not_offered_and_asking_is_a_clear_error(client: TestClient, no_extra: None) -> None:
    assert not learned.torch_installed() and not learned.available()
    assert "learned" not in web_bots()
    assert OPTION not in client.get("/").text
    assert "learned" not in client.get("/api/games").json()["bots"]
    r = client.post("/api/tables", json={"game": "kuhnah", "seats": ["me", "learned"], "name": "Ana"})
    assert r.status_code == 400 and "the bots are random, greedy, ismcts, not 'learned'" in r.text
    with pytest.raises(ConfigError, match=r"needs the train extra: pip install 'ziggurat\[train\]'"):
        make_bot("learned", make_game("kuhnah", 2), 0, 0)


def test_without_a_shipped_policy_it_is_not_offered(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(learned, "POLICY_DIR", learned.POLICY_DIR / "none-here")
    assert "learned" not in web_bots()
    assert OPTION not in client.get("/").text


def test_with_the_extra_it_is_offered_and_plays_a_table(client: TestClient) -> None:
    pytest.importorskip("torch")
    assert "learned" in web_bots()
    assert OPTION in client.get("/").text
    assert "learned" in client.get("/api/games").json()["bots"]
    table = create(client, "kuhnah", ["learned", "random"], seed=2)
    f = frame(client, table["id"])
    for _ in range(200):
        if f["status"]["phase"] == "over":
            break
        f = frame(client, table["id"])
    assert f["status"]["phase"] == "over"
    r = client.post("/api/tables", json={"game": "pyramix", "seats": ["me", "learned"], "name": "Ana"})
    assert r.status_code == 400 and "the learned bot has no policy for this game and player count" in r.text
    r = client.post("/api/tables", json={"game": "kuhnah", "seats": ["me", "learned", "random"], "name": "Ana"})
    assert r.status_code == 400 and "no policy for this game" in r.text


def test_the_lobby_knows_where_a_policy_fits(client: TestClient) -> None:
    pytest.importorskip("torch")
    games = {g["id"]: g for g in client.get("/api/games").json()["games"]}
    assert games["kuhnah"]["learned"] == [2]
    assert all(g["learned"] == [] for gid, g in games.items() if gid != "kuhnah")
