"""Browser tests: Playwright driving Debian's Chromium against a real server on loopback.

Screenshots of every board land in ``test-artifacts/screenshots/`` (or
``$ZIGGURAT_ARTIFACTS``) so a person can look at them after a run.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.util import ThreadedServer
from ziggurat.server.app import Settings, create_app
from ziggurat.web.preview import CHROMIUM, CHROMIUM_ARGS

ARTIFACTS = Path(os.environ.get("ZIGGURAT_ARTIFACTS", "test-artifacts")) / "screenshots"


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """One headless Chromium per test module.

    Not per session: Playwright's sync API keeps an event loop running in the
    thread while it is open, and a later test of the same xdist worker that
    calls ``asyncio.run`` (the server's leak and scale-out tests) would fail.
    """
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        raise RuntimeError(f"{CHROMIUM} is missing: run `make system` (Debian package chromium)")
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def web(tmp_path) -> Iterator[ThreadedServer]:
    """The app on loopback (SQLite), bots quick but not instant."""
    app = create_app(Settings(db_url=f"sqlite:///{tmp_path / 'web.db'}", bot_delay=0.02, bot_workers=0))
    server = ThreadedServer(app)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def shots(request) -> Path:
    """Where this test keeps its screenshots."""
    folder = ARTIFACTS
    folder.mkdir(parents=True, exist_ok=True)
    return folder
