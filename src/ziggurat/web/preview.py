"""Look at a game's web board without the server: a page and screenshots of one position.

For whoever draws a board (``games/<id>/web.py``)::

    python -m ziggurat.web.preview kuhnah --players 3 --seed 4 --steps 25 --seat 1 --out /tmp/kuhnah --lang es

plays ``--steps`` random decisions from ``--seed``, draws the board as seat
``--seat`` sees it (``spectator`` for nobody's) in ``--lang``, and writes ``board.html`` (the
page stylesheet and the click-path script inlined, so clicks can be tried in a
browser) and, with Chromium present, ``board-1280.png`` and ``board-390.png``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from importlib.resources import files
from pathlib import Path

from ziggurat.core import Match, get_game, make_game
from ziggurat.core.game import State
from ziggurat.core.i18n import ENGLISH, Translator
from ziggurat.core.svg import Board, check_paths, esc

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def static_text(name: str) -> str:
    """A file of ``ziggurat/web/static`` as text."""
    return files("ziggurat.web").joinpath("static", name).read_text(encoding="utf-8")


def position(game_id: str, players: int, seed: int, steps: int, options: dict[str, str] | None = None) -> State:
    """The state after ``steps`` random decisions of a seeded game."""
    match = Match(make_game(game_id, players, options), seed=seed)
    rng = random.Random(seed)
    match.resolve_chance()
    done = 0
    while not match.state.is_terminal() and done < steps:
        for p in match.state.players_to_move():
            legal = match.state.legal_actions(p)
            match.state.apply_action(legal[rng.randrange(len(legal))], p)
            done += 1
        match.resolve_chance()
    return match.state


def draw(state: State, seat: int | None, tr: Translator = ENGLISH) -> tuple[Board, list[tuple[int, str]]]:
    """The board of ``state`` as ``seat`` sees it (texts in the language of ``tr``) and that seat's legal actions."""
    entry = get_game(state.game.spec.id)
    if entry.board is None:
        raise SystemExit(f"{entry.game_class.spec.name} has no web board yet")
    legal = state.legal_action_texts(seat) if seat is not None and seat in state.players_to_move() else []
    return entry.board(state.view(seat), seat, legal, tr=tr), legal


def page(board: Board, legal: list[tuple[int, str]], title: str) -> str:
    """A standalone page showing ``board`` with working click paths."""
    actions = [{"id": a, "text": t, "path": list(board.paths.get(a, ()))} for a, t in legal]
    script = static_text("board.js").replace("export class", "class")
    return f"""<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>{esc(title)}</title>
<style>{static_text("style.css")}</style></head><body><main>
<h1>{esc(title)}</h1>
<div class="zg-table"><div class="zg-board-wrap" id="board">{board.svg}</div>
<aside class="zg-panel"><h2>Actions</h2><div class="zg-actions" id="actions"></div>
<p id="picked" class="zg-muted"></p></aside></div></main>
<script>{script}
const actions = {json.dumps(actions)};
const list = document.getElementById("actions");
const clicks = new BoardClicks(document.getElementById("board"), {{
  onAction: (id) => {{ document.getElementById("picked").textContent =
      "would send: " + actions.find((a) => a.id === id).text; }},
  onChange: (candidates) => {{
    list.replaceChildren(...candidates.map((a) => {{
      const b = document.createElement("button"); b.textContent = a.text;
      b.onclick = () => clicks.onAction(a.id); return b; }}));
  }},
}});
clicks.setActions(actions);
</script></body></html>"""


def screenshots(html: Path, out: Path) -> list[Path]:
    """PNGs of ``html`` at 1280x800 and on a 390-px phone (needs Playwright and Chromium)."""
    from playwright.sync_api import sync_playwright

    shots = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for width, height in ((1280, 800), (390, 844)):
            tab = browser.new_page(viewport={"width": width, "height": height})
            tab.goto(html.resolve().as_uri())
            path = out / f"board-{width}.png"
            tab.screenshot(path=str(path), full_page=True)
            shots.append(path)
        browser.close()
    return shots


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--seat", default="auto", help="1-based seat, 'spectator', or 'auto' (the one to move)")
    parser.add_argument("--out", type=Path, default=Path("preview"))
    parser.add_argument("--option", "-o", action="append", default=[], help="NAME=VALUE (repeatable)")
    parser.add_argument("--no-shots", action="store_true")
    parser.add_argument("--lang", default="en", help="the language of the board's texts (en, es)")
    args = parser.parse_args(argv)
    spec = get_game(args.game).game_class.spec
    options = dict(item.split("=", 1) for item in args.option if "=" in item)
    state = position(spec.id, args.players or spec.min_players, args.seed, args.steps, options)
    if args.seat == "spectator":
        seat = None
    elif args.seat == "auto":
        seat = state.players_to_move()[0] if state.players_to_move() else None
    else:
        seat = int(args.seat) - 1
    from ziggurat.web import i18n

    board, legal = draw(state, seat, i18n.translator(args.lang))
    problems = check_paths(board, [a for a, _ in legal])
    for problem in problems:
        print("path problem:", problem, file=sys.stderr)
    args.out.mkdir(parents=True, exist_ok=True)
    who = "spectator" if seat is None else f"seat {seat + 1}"
    html = args.out / "board.html"
    html.write_text(page(board, legal, f"{spec.name} — {who}"), encoding="utf-8")
    print(html)
    if not args.no_shots:
        for shot in screenshots(html, args.out):
            print(shot)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
