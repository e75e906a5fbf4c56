"""Every response carries the security headers; the pages run under a policy with no inline code."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.util import create
from ziggurat.server.app import Settings, create_app

PATHS = ["/", "/join", "/login", "/signup", "/ratings", "/static/table.js", "/static/style.css", "/api/games"]


def check_headers(headers: Any, https: bool = False) -> None:
    policy = headers["content-security-policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["frame-ancestors"] == "'none'"
    assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'"
    assert "unsafe" not in policy and "*" not in policy
    assert headers["x-frame-options"] == "DENY"
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "same-origin"
    assert ("strict-transport-security" in headers) is https


@pytest.mark.parametrize("path", PATHS)
def test_every_page_and_file_has_the_headers(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 200, path
    check_headers(r.headers)


def test_tables_errors_and_api_calls_have_them_too(client: TestClient) -> None:
    created = create(client, "kuhnah", ["me", "human"])
    for path in (f"/t/{created['id']}", f"/t/{created['id']}/replay", f"/api/tables/{created['id']}/frame"):
        r = client.get(path)
        assert r.status_code == 200
        check_headers(r.headers)
    for r in (client.get("/t/nosuchtable"), client.get("/nowhere"), client.post("/api/tables", content=b"{")):
        assert r.status_code >= 400
        check_headers(r.headers)


def test_hsts_only_over_https(sqlite_url: str) -> None:
    https = Settings(db_url=sqlite_url, bot_delay=0, bot_workers=0, public_url="https://games.example")
    with TestClient(create_app(https)) as client:
        check_headers(client.get("/").headers, https=True)
    with TestClient(create_app(Settings(db_url=sqlite_url, bot_delay=0, bot_workers=0))) as client:
        check_headers(client.get("/").headers, https=False)
        check_headers(client.get("/", headers={"x-forwarded-proto": "https"}).headers, https=False)  # not trusted


def test_no_page_has_inline_script_or_style(client: TestClient) -> None:
    created = create(client, "lucent", ["me", "random"])
    for path in ["/", "/join", "/login", "/signup", "/ratings", f"/t/{created['id']}", f"/t/{created['id']}/replay"]:
        html = client.get(path).text
        for tag in re.findall(r"<script\b[^>]*>", html):
            assert 'src="/static/' in tag or 'type="application/json"' in tag, (path, tag)
        assert "<style" not in html and " style=" not in html, path
        assert not re.search(r"\son[a-z]+=", html), f"{path}: an inline event handler"
