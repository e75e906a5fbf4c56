"""K'uh Nah card lists: the shipped reconstruction and user files, with errors naming entry and field."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tests.games.kuhnah.helpers import deck_file, game_with
from ziggurat.core import ConfigError, ContentError
from ziggurat.games.kuhnah.cards import load_cards


def test_reconstruction_follows_the_rulings() -> None:
    cards = load_cards()
    assert len(cards.cards) == 50
    assert Counter(c.value for c in cards.cards) == {v: 2 for v in range(6, 31)}
    halves = Counter(h for c in cards.cards for h in (c.left, c.right))
    assert halves["jaguar"] == 10 and cards.wild == "jaguar"
    assert sorted(n for a, n in halves.items() if a != "jaguar") == [22, 22, 23, 23]
    assert all(c.left != c.right for c in cards.cards), "no card shows the same animal twice"
    by_value: dict[int, list[tuple[str, str]]] = {}
    for c in cards.cards:
        by_value.setdefault(c.value, []).append((c.left, c.right))
    assert all(a != b for a, b in by_value.values()), "the two copies of a value differ"
    assert "RECONSTRUCTION" in (Path(__file__).parents[3] / "src/ziggurat/games/kuhnah/data/cards.toml").read_text()


def test_a_user_deck_is_used(tmp_path: Path) -> None:
    path = deck_file(tmp_path, {"6a": ("serpent", "quetzal")})
    game = game_with(2, deck=str(path))
    assert game.card(0).left == "serpent"


def _write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "cards.toml"
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda t: t.replace("value = 7\n", 'value = "seven"\n', 1), r"entry #3 \(7a\), field 'value'"),
        (lambda t: t.replace('left = "bat"', 'left = "dragon"', 1), r"field 'left': must be one of"),
        (lambda t: t.replace('id = "6b"', 'id = "6a"', 1), r"entry #2 \(6a\), field 'id': is used by an earlier card"),
        (lambda t: t.replace('wild = "jaguar"', 'wild = "unicorn"'), r"field 'wild'"),
        (lambda t: t + '\n[[card]]\nid = "31a"\nvalue = 31\nleft = "bat"\nright = "monkey"\n', r"has 51 cards"),
        (lambda t: t.replace("[[card]]", "[[card]]\ncolour = 1", 1), r"field 'colour': is not a card field"),
        (lambda t: t + "\n[[[", r"is not valid TOML"),
    ],
)
def test_bad_card_lists_name_the_entry_and_field(tmp_path: Path, edit, message: str) -> None:  # type: ignore[no-untyped-def]
    text = deck_file(tmp_path, {}).read_text()
    path = _write(tmp_path, edit(text))
    with pytest.raises(ContentError, match=message) as info:
        load_cards(path)
    assert str(path) in str(info.value)
    with pytest.raises(ConfigError, match=message):
        game_with(2, deck=path)


def test_missing_deck_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read the card list"):
        game_with(2, deck=str(tmp_path / "nope.toml"))
