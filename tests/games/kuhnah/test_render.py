"""The terminal drawing of K'uh Nah: pyramids fit the terminal instead of wrapping."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from ziggurat.core import Match, get_game, make_game


def _draw(view: dict, width: int) -> list[str]:
    console = Console(file=io.StringIO(), width=width, color_system=None)
    console.print(get_game("kuhnah").render(view, view["player"]))
    out = console.file.getvalue()
    assert isinstance(out, str)
    return out.splitlines()


def _finished(seed: int) -> dict:
    m = Match(make_game("kuhnah", 2), seed)
    m.run_bots(["random", "random"])
    return m.state.view(0)


@pytest.mark.parametrize("width", [80, 100, 200])
def test_pyramids_up_to_nine_cards_wide_never_wrap(width: int) -> None:
    checked = 0
    for seed in range(12):
        view = _finished(seed)
        if max(max((c["pos"] for c in p if c["row"] == 1), default=0) for p in view["pyramids"]) > 9:
            continue
        checked += 1
        for line in _draw(view, width):
            assert len(line) <= width
            if line.startswith("│ ") and not line.startswith("│ 1:"):
                inside = line[2:]
                # a row of the wall, or the position ruler; a wrapped line would start with a card
                assert inside.startswith("row ") or inside.startswith(" " * 8), line
    assert checked >= 6


def test_narrow_forms_keep_every_card_value_and_the_legend_names_the_animals() -> None:
    view = _finished(4)  # a game whose narrow drawing needs the numbered legend (#1)
    for p, pyramid in enumerate(view["pyramids"]):
        values = sorted(c["value"] for c in pyramid)
        for width in (200, 80, 66):
            lines = _draw(view, width)
            top = next(i for i, line in enumerate(lines) if f"Player {p + 1}" in line)
            wall = [line[line.index("row ") + 6 :] for line in lines[top + 1 : top + 12] if "│ row " in line]
            wall = wall[: max(c["row"] for c in pyramid)]
            assert sorted(int(v) for line in wall for v in re.findall(r"\d+", line)) == values
    wide = "\n".join(_draw(view, 200))
    assert "[Mo" in wide and "Ba bat" in wide and "Mo monkey" in wide
    narrow = _draw(view, 66)
    assert any("#1" in line for line in narrow)
    assert not any("[" in line for line in narrow if "│ row " in line)
