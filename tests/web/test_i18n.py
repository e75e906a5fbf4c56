"""The web app's two languages: complete catalogs, messages the catalogs can find, Spanish boards.

A string shown in one language without a translation in the other fails here:
the catalogs are checked against what Babel extracts from the templates, the
Python code and the ES modules; every message must be a literal (an f-string
cannot be found, so it would never be translated); and every game's board,
drawn in Spanish at positions along whole games for every audience, must hold
no English text.
"""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

from tests.web.untranslated import untranslated
from ziggurat.core import Match, game_ids, get_game, make_game
from ziggurat.core.i18n import ENGLISH
from ziggurat.web import i18n, pages

SRC = Path(i18n.__file__).parent.parent  # src/ziggurat
GETTEXT_NAMES = {"gettext": (0,), "ngettext": (0, 1), "pgettext": (0, 1), "_": (0,), "N_": (0,), "ServiceError": (1,)}


def test_every_message_is_translated_in_every_language() -> None:
    problems = i18n.problems()
    assert problems == [], "\n".join(problems[:40])


def test_a_missing_or_fuzzy_translation_is_reported(tmp_path, monkeypatch) -> None:
    source = i18n.po_path("es").read_text(encoding="utf-8")
    broken = source.replace('msgstr "Es tu turno."', 'msgstr ""', 1)
    broken = broken.replace('msgid "Connected."', '#, fuzzy\nmsgid "Connected."', 1)
    assert broken != source
    (tmp_path / "es" / "LC_MESSAGES").mkdir(parents=True)
    (tmp_path / "es" / "LC_MESSAGES" / "messages.po").write_text(broken, encoding="utf-8")
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    problems = i18n.problems(["es"])
    assert "es: 'Your turn.' has no translation" in problems
    assert any("'Connected.' is fuzzy" in p for p in problems)


def _python_sources() -> list[Path]:
    files = [*(SRC / "web").rglob("*.py"), *(SRC / "server").rglob("*.py")]
    files += [p for p in (SRC / "games").rglob("web.py")]
    return [f for f in files if "migrations" not in f.parts and f.name != "admin.py"]  # admin: the terminal's


def _name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def test_messages_are_literals_the_catalogs_can_find() -> None:
    """No f-string, concatenation or formatted text where a message goes: Babel could not extract it."""
    wrong = []
    for path in _python_sources():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = _name(node.func)
            if name not in GETTEXT_NAMES or (name == "_" and not node.args):
                continue
            for index in GETTEXT_NAMES[name]:
                if index < len(node.args):
                    arg = node.args[index]
                    built = isinstance(arg, ast.JoinedStr | ast.BinOp) or (
                        isinstance(arg, ast.Call) and _name(arg.func) in ("format", "join", "str")
                    )
                    if built:
                        wrong.append(f"{path.relative_to(SRC)}:{node.lineno}")
    assert wrong == []


def test_messages_kept_in_constants_are_marked() -> None:
    """A module-level text handed to ``ServiceError`` is marked with ``N_`` (else Babel never sees it)."""
    wrong = []
    for path in _python_sources():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        plain = {
            target.id
            for node in tree.body
            if isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
            for target in node.targets
            if isinstance(target, ast.Name)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _name(node.func) == "ServiceError" and len(node.args) > 1:
                used = {n.id for n in ast.walk(node.args[1]) if isinstance(n, ast.Name)}
                wrong += [f"{path.relative_to(SRC)}:{node.lineno} {name}" for name in sorted(used & plain)]
    assert wrong == []


def test_scripts_show_only_catalog_messages() -> None:
    """The ES modules pass literals to ``_``/``ngettext`` (never a template literal) and set no English text."""
    for path in (SRC / "web" / "static").glob("*.js"):
        if path.name == "i18n.js":
            continue
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"\b(?:_|ngettext)\(\s*[^\"'\s)]", text), path.name
        # a text shown to a person is set from a message, not from an English literal
        assert not re.search(r"textContent\s*=\s*[`\"'](?!\$\{)[^`\"']*[A-Za-z]", text), path.name
        assert not re.search(r"\bconfirm\(\s*[`\"']", text), path.name


def test_the_scripts_catalog_holds_only_their_messages_translated() -> None:
    import json

    data = json.loads(i18n.js_catalog("es"))
    assert data["lang"] == "es"
    assert data["messages"]["Connected."] == "Conectado."
    assert data["plurals"]["{n} player. Seat {seat}."] == [
        "{n} jugador. Asiento {seat}.",
        "{n} jugadores. Asiento {seat}.",
    ]
    assert "Your turn." not in data["messages"]  # a template's message, not a script's
    assert json.loads(i18n.js_catalog("en"))["messages"]["Connected."] == "Connected."


def positions(game_id: str, players: int, seed: int, every: int):
    """States along one random game, every ``every`` decisions, and the end."""
    match = Match(make_game(game_id, players), seed=seed)
    rng = random.Random(seed)
    match.resolve_chance()
    n = 0
    while not match.state.is_terminal():
        if n % every == 0:
            yield match.state
        for p in match.state.players_to_move():
            legal = match.state.legal_actions(p)
            match.state.apply_action(legal[rng.randrange(len(legal))], p)
            n += 1
        match.resolve_chance()
    yield match.state


def cases():
    for gid in game_ids():
        spec = get_game(gid).game_class.spec
        for players in sorted({spec.min_players, spec.max_players}):
            yield pytest.param(gid, players, id=f"{gid}-{players}p")


@pytest.mark.parametrize(("game_id", "players"), list(cases()))
def test_spanish_boards_hold_no_english(game_id: str, players: int) -> None:
    entry = get_game(game_id)
    spanish = i18n.translator("es")
    seen_english = False
    for state in positions(game_id, players, seed=5, every=6):
        to_move = state.players_to_move()
        for seat in [None, *range(players)]:
            legal = state.legal_action_texts(seat) if seat is not None and seat in to_move else []
            svg, paths = pages.board(entry, state.view(seat), seat, legal, spanish)
            assert untranslated(svg) == [], (game_id, seat)
            english, english_paths = pages.board(entry, state.view(seat), seat, legal, ENGLISH)
            assert english_paths == paths, "the language changes the words, never the clicks"
            seen_english = seen_english or bool(untranslated(english))
    assert seen_english, "the same boards in English are caught (the check can fail)"


def test_log_lines_and_seat_names_in_spanish() -> None:
    es = i18n.translator("es")
    seats = [
        {"seat": 0, "kind": "human", "name": "Ana", "taken": True},
        {"seat": 1, "kind": "bot", "name": None, "bot": "ismcts", "level": 3},
        {"seat": 2, "kind": "human", "name": None, "taken": False},
    ]
    assert pages.seat_name(seats, 1, es) == "IS-MCTS 3 (bot 2)"
    assert pages.seat_name(seats, 2, es) == "Jugador 3"
    outcome = {"scores": [12.0, 7.5, 3.0], "ranks": [1, 2, 3]}
    lines = [
        pages.render_log_entry({"kind": kind, "seat": seat, "text": text}, seats, 0, es, outcome)
        for kind, seat, text in [
            ("join", 0, "Ana"),
            ("start", None, ""),
            ("ready", 1, ""),
            ("choosing", 0, ""),
            ("timeout", 2, ""),
            ("left", 0, "greedy"),
            ("replaced", 2, "greedy"),
            ("end", None, "Game over: P1 12 (rank 1)"),
        ]
    ]
    assert lines[0] == '<li class="zg-log-join">Ana se sienta en el asiento 1</li>'
    assert "IS-MCTS 3 (bot 2) está listo" in lines[2]
    assert "Fin de la partida: Ana 12 (puesto 1), IS-MCTS 3 (bot 2) 7.5 (puesto 2)" in lines[7]
    for line in lines:
        assert untranslated(line) == [], line
    private = pages.render_log_entry({"kind": "ready", "seat": 0, "private": True}, seats, 0, es)
    assert "solo tú lo ves" in private


def test_describe_game_names_options_in_the_readers_language() -> None:
    game = make_game("kuhnah", 3, {"open-jade": True, "start-player": "2"})
    assert pages.describe_game(game) == "K'uh Nah, 3 players (open-jade: yes, start-player: 2)"
    spanish = pages.describe_game(game, i18n.translator("es"))
    assert spanish == "K'uh Nah, 3 jugadores (jade-visible: sí, jugador-inicial: 2)"


@pytest.mark.parametrize("game_id", game_ids())
def test_kept_engine_texts_are_the_texts_rendered_afresh(game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The web keeps each engine message's words per language (a server writes the same log line for every
    audience and the same button words after every move): what it hands out, the first time and from what it
    kept, is what the engine's own rendering gives, for every move of a random game, as objects and as JSON."""
    from ziggurat.core.i18n import engine_text as rendered

    monkeypatch.setattr(i18n, "_texts", {})
    match = Match(make_game(game_id, min(get_game(game_id).game_class.spec.player_counts)), seed=4)
    rng = random.Random(4)
    match.resolve_chance()
    messages = []
    while not match.state.is_terminal() and len(messages) < 400:
        for p in match.state.players_to_move():
            legal = match.state.legal_actions(p)
            messages += [match.state.describe_action(a, p, audience=p) for a in legal[:5]]
            match.state.apply_action(legal[rng.randrange(len(legal))], p)
        match.resolve_chance()
    assert messages
    for lang in ("en", "es"):
        tr = i18n.translator(lang)
        for _ in range(2):
            for m in messages:
                assert i18n.engine_text(m, tr) == rendered(m, tr)
                assert i18n.engine_text(m.to_json(), tr) == rendered(m.to_json(), tr)


def test_a_kept_engine_text_tells_a_message_from_a_list_of_the_same_values() -> None:
    """A parameter that is a message and one that is a list of its id and parameters read differently."""
    from ziggurat.core.message import Message

    card = Message("kuhnah.card", {"id": "17a", "value": 17, "left": "monkey", "right": "bat"})
    nested = Message("kuhnah.take", {"card": card, "jade": 2})
    listed = Message("kuhnah.take", {"card": ["kuhnah.card", dict(card.params)], "jade": 2})
    assert i18n.engine_text(nested, ENGLISH) != i18n.engine_text(listed, ENGLISH)
