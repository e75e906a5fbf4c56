"""Text from content files is drawn as it is: never read as terminal markup."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from tests.fuzz.test_content import FILES, _shipped
from tests.fuzz.toml_out import dumps
from ziggurat.core import Match, ZigguratError, get_game, make_game

MARK = "[/b][bold red]x[/]"


def _marked(doc: Any) -> Any:
    if isinstance(doc, dict):
        return {k: (v + MARK if k in ("name", "text", "label", "title") and isinstance(v, str) else _marked(v))
                for k, v in doc.items()}  # fmt: skip
    if isinstance(doc, list):
        return [_marked(x) for x in doc]
    return doc


@pytest.mark.parametrize(("game_id", "option", "name"), FILES, ids=[f"{g}-{n}" for g, _, n in FILES])
def test_names_from_content_files_are_drawn_literally(game_id: str, option: str, name: str, tmp_path: Path) -> None:
    doc = _marked(_shipped(game_id, name))
    path = tmp_path / name
    path.write_text(dumps(doc))
    spec = get_game(game_id).game_class.spec
    try:
        game = make_game(game_id, spec.min_players, {option: str(path)})
    except ZigguratError as exc:
        pytest.skip(f"this file's names are not free text: {exc}")
    m = Match(game, seed=3)
    m.run_bots(["random"] * game.num_players, max_steps=30)
    out = io.StringIO()
    console = Console(file=out, width=200, color_system=None)  # markup on: the renderables must not rely on it
    for p in [None, 0]:
        console.print(get_game(game_id).render(m.state.view(p), p))
    text = out.getvalue()
    if MARK in json.dumps(m.state.view(None), ensure_ascii=False):
        assert "[/b]" in text, "a name was drawn with its markup eaten"
