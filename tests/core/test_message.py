"""Messages: ids, parameters and English made from one template; catalogs a translator can use."""

from __future__ import annotations

import importlib
import json
import re
import string
from pathlib import Path

import pytest

from ziggurat.core import IllegalActionError, game_ids, make_game
from ziggurat.core.message import CORE, Catalog, Message, catalogs, english, format_template, join_list, render

DEMO = Catalog(
    "test-demo",
    {
        "drawn": "draws {n} {n:segment|segments}: {segments}",
        "card": "the {value} ({left}|{right})",
        "take": "takes {card} with {jade} jade",
        "why": "{card} can't go there: {reasons}",
    },
)


def test_the_text_is_the_template_filled_with_the_parameters() -> None:
    m = DEMO("drawn", n=1, segments=["s4"])
    assert (m.id, dict(m.params), m.text, str(m)) == (
        "test-demo.drawn",
        {"n": 1, "segments": ["s4"]},
        "draws 1 segment: s4",
        "draws 1 segment: s4",
    )
    assert DEMO("drawn", n=3, segments=["s1", "s2", "s3"]).text == "draws 3 segments: s1, s2 and s3"
    assert DEMO("drawn", n=0, segments=[]).text == "draws 0 segments: "


def test_nested_messages_are_rendered_from_their_own_template() -> None:
    card = DEMO("card", value=17, left="monkey", right="bat")
    m = DEMO("take", card=card, jade=3)
    assert m.text == "takes the 17 (monkey|bat) with 3 jade"
    reasons = [DEMO("drawn", n=1, segments=["s1"]), DEMO("drawn", n=2, segments=["s2", "s3"])]
    assert DEMO("why", card=card, reasons=reasons).text == (
        "the 17 (monkey|bat) can't go there: draws 1 segment: s1 and draws 2 segments: s2 and s3"
    )


def test_a_translation_renders_the_same_id_and_parameters_in_its_own_words() -> None:
    spanish = {
        "test-demo.take": "toma {card} con {jade} jade",
        "test-demo.card": "el {value} ({left}|{right})",
        "test-demo.drawn": "dibuja {n} {n:segmento|segmentos}: {segments}",
    }
    card = DEMO("card", value=17, left="mono", right="murciélago")
    assert render(DEMO("take", card=card, jade=3), spanish.__getitem__) == "toma el 17 (mono|murciélago) con 3 jade"
    drawn = DEMO("drawn", n=2, segments=["s1", "s2"])
    assert render(drawn, spanish.__getitem__, conjunction="y") == "dibuja 2 segmentos: s1 y s2"
    assert render(drawn) == drawn.text, "the default lookup is the English catalogs"


def test_messages_round_trip_through_json() -> None:
    card = DEMO("card", value=17, left="monkey", right="bat")
    m = DEMO("why", card=card, reasons=[DEMO("drawn", n=1, segments=["s1"])])
    data = json.loads(json.dumps(m.to_json()))
    nested = {"value": 17, "left": "monkey", "right": "bat"}
    assert data["params"]["card"] == {"id": "test-demo.card", "params": nested, "text": card.text}
    back = Message.from_json(data)
    assert back == m and back.text == m.text
    assert isinstance(back.params["reasons"][0], Message)


def test_an_unknown_key_or_a_missing_parameter_is_a_programming_error() -> None:
    with pytest.raises(KeyError):
        DEMO("nonesuch")
    with pytest.raises(KeyError):
        DEMO("take", card="x")
    with pytest.raises(KeyError):
        english("test-demo.nonesuch")
    with pytest.raises(KeyError):
        english("nonesuch.drawn")


def test_join_list_and_plural_choices() -> None:
    assert [join_list([]), join_list(["a"]), join_list(["a", "b"]), join_list(["a", "b", "c"], "y")] == [
        "",
        "a",
        "a and b",
        "a, b y c",
    ]
    assert format_template("{n} {n:cube|cubes}", {"n": 1}) == "1 cube"
    assert format_template("{n} {n:cube|cubes}", {"n": 2}) == "2 cubes"
    assert format_template("{n:|s}", {"n": 2}) == "s"


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_catalog_is_listed_with_well_formed_templates() -> None:
    for gid in game_ids():
        make_game(gid, 2)  # importing a game makes its catalog
    found = catalogs()
    assert {"core", "kuhnah", "pyramix", "lucent", "kukulkan", "nakum"} <= set(found)
    for prefix, catalog in found.items():
        for mid in catalog:
            assert mid.startswith(prefix + ".") and re.fullmatch(r"[a-z0-9_-]+\.[a-z0-9_]+", mid), mid
            template = english(mid)
            assert template == template.strip() and template, mid
            for name in _fields(template):
                assert re.fullmatch(r"[a-z_]+", name), f"{mid}: placeholder {name!r}"


def test_the_core_refusals_carry_their_message() -> None:
    state = make_game("pyramix", 2).new_initial_state()
    with pytest.raises(IllegalActionError) as info:
        state.apply_action(0, 0)
    assert info.value.message == CORE("chance_decides")
    assert info.value.message_id == "core.chance_decides" and info.value.params == {}
    assert str(info.value) == "chance decides now, not a player: wait for it"
    plain = IllegalActionError("just words")
    assert plain.message is None and plain.message_id is None and plain.params == {}


def test_each_games_page_lists_its_messages_with_their_templates() -> None:
    """docs/games/<id>.md keeps the web engineer's and the translators' list true: every id, its English."""
    root = Path(__file__).resolve().parents[2]
    for gid in ("kuhnah", "pyramix", "lucent", "kukulkan", "nakum"):
        page = (root / "docs" / "games" / f"{gid}.md").read_text(encoding="utf-8")
        module = importlib.import_module(f"ziggurat.games.{gid}.messages")
        for group in ("NAMES", "REFUSALS", "MOVES", "SCORING", "ENDS"):
            for key, template in getattr(module, group).items():
                assert f"- `{key}`: {template}\n" in page, f"docs/games/{gid}.md does not list {gid}.{key}"
