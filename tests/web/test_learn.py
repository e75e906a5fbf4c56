"""Every game's rules pages and tutorial, checked as data, and the pages and tutorial API in process.

The tutorial scripts are replayed here with the engine, step by step, without the loader's own checks:
every scripted click is legal where it is made, every reply and chance outcome too, every position loads,
and each script ends where it says. A broken draft is refused by the loader with the file, the entry
and the field named.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from importlib.resources import files
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ziggurat.core import game_ids, get_game, make_game
from ziggurat.core.errors import ContentError
from ziggurat.core.game import CHANCE
from ziggurat.core.svg import board_keys, check_paths
from ziggurat.server.app import Settings, create_app
from ziggurat.web import learn

GAMES = game_ids()


def data_folder(game: str) -> Path:
    package = get_game(game).game_class.__module__.rsplit(".", 1)[0]
    return Path(str(files(package).joinpath("data")))


def draft(tmp_path: Path, game: str) -> Path:
    """A copy of a game's learn files to break."""
    folder = tmp_path / game
    shutil.copytree(data_folder(game), folder)
    return folder


# ------------------------------------------------------------------------------------------ the data
@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_rules_in_every_language_and_a_tutorial(game: str) -> None:
    lessons = learn.lessons(game)
    assert set(lessons.rules) == set(learn.LANGUAGES)
    assert lessons.tutorial is not None and lessons.figures
    for lang in learn.LANGUAGES:
        page = learn.rules_page(game, lang)
        # the whole game: components, setup, a turn, scoring and the end, and what our rulings settle
        assert len(page.sections) >= 7, page.sections
        assert page.html.count('<figure class="zg-figure"') == len(lessons.figures)
        assert "How we read" in page.html or "Cómo leemos" in page.html


@pytest.mark.parametrize("game", GAMES)
def test_every_tutorial_script_plays_with_the_engine(game: str) -> None:
    """The script replayed by hand: each expected click is legal at its step and the game ends as it says."""
    lessons = learn.lessons(game)
    tutorial = lessons.tutorial
    assert tutorial is not None
    start = tutorial.start
    game_obj = make_game(game, start.players, start.options)
    raw = (data_folder(game) / start.state).read_text(encoding="utf-8") if start.state else None
    state = game_obj.state_from_json(json.loads(raw)) if raw else game_obj.new_initial_state()
    seat = tutorial.seat
    clicks = 0
    for number, step in enumerate(tutorial.steps, 1):
        if step.do is not None:
            assert seat in state.players_to_move(), f"step {number}: the learner is not to move"
            action = state.action_from_text(step.do, seat)  # raises if the click is not legal here
            assert action in state.legal_actions(seat)
            clicks += 1
            state.apply_action(action, seat)
        for move in step.then:
            who, colon, text = move.partition(":")
            if colon and who == "chance":
                state.apply_action(state.action_from_text(text.strip(), CHANCE))
            elif colon and who.isdigit():
                state.apply_action(state.action_from_text(text.strip(), int(who) - 1), int(who) - 1)
            else:
                state.apply_action(state.action_from_text(move))
        assert not state.is_chance_node(), f"step {number} leaves a chance event unscripted"
        for lang in learn.LANGUAGES:
            assert step.say[lang].strip()
    assert state.is_terminal(), "the tutorial shows the end and the scoring"
    assert tuple(state.scores()) == tutorial.scores
    assert clicks >= 3, "a tutorial has the learner make moves"
    # the loader's run reached the same position
    assert lessons.run().frame(lessons.run().steps).state == state


@pytest.mark.parametrize("game", GAMES)
def test_every_tutorial_step_draws_its_board_with_the_expected_click(game: str) -> None:
    run = learn.lessons(game).run()
    for k in range(run.steps):
        board = run.board(k)
        legal = run.legal(k)
        assert check_paths(board, [a for a, _ in legal]) == []
        expected = run.expected[k]
        if expected is not None:
            assert board.paths[expected], f"step {k + 1}: the expected move has no place on the board"
            assert set(board.paths[expected]) <= board_keys(board.svg)
        else:
            assert legal == []  # a Next step offers no move


@pytest.mark.parametrize("game", GAMES)
def test_figures_are_the_games_own_drawing_with_shown_and_refused_moves(game: str) -> None:
    lessons = learn.lessons(game)
    for name, figure in lessons.figures.items():
        svg = lessons.figure_board(name)
        assert svg.startswith("<svg") and 'class="zg-board"' in svg
        state = lessons.figure_state(name)
        who = state.current_player() if figure.seat is None else figure.seat
        assert svg.count("zg-legal") >= len(figure.show), name
        assert svg.count("zg-refused") == len(figure.refuse), name
        for text in figure.refuse:
            with pytest.raises(Exception):  # noqa: B017 - the engine refuses it, whatever the reason
                state.clone().apply_text(text, who)


def test_a_refused_move_is_crossed_out_where_it_would_go() -> None:
    svg = learn.lessons("kuhnah").figure_board("support")
    tag = re.search(r'<g[^>]*data-key="slot:2:4"[^>]*>', svg)
    assert tag is not None and "zg-refused" in tag.group(0)
    tag = re.search(r'<g[^>]*data-key="slot:2:3"[^>]*>', svg)
    assert tag is not None and "zg-legal" in tag.group(0)


# ------------------------------------------------------------------------------------------ bad drafts
def _edit(folder: Path, old: str, new: str) -> None:
    path = folder / "learn.toml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_draft_loads_from_a_folder(tmp_path: Path) -> None:
    lessons = learn.load("kuhnah", draft(tmp_path, "kuhnah"))
    assert lessons.run().steps == learn.lessons("kuhnah").run().steps


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('do = "take 15a"', 'do = "base"', r"tutorial.step 3.*expects 'base', which is not legal"),
        ('do = "take 15a"', 'do = "take 28b"', r"step 4.*'row 2 pos 3'.*heavier than the 11 \(bat\|quetzal\) under"),
        ('do = "row 2 pos 3"', 'do = "row 2 pos 4"', r"step 4.*'row 2 pos 4'.*needs two cards side by side"),
        ('"chance: reveal 25b", ', "", r"tutorial.step 4.*cannot play 'take 25b'"),
        ('then = ["jade 15a"]', "then = []", r"tutorial.step 3.*expects 'take 15a'"),
        ("scores = [14, 16]", "scores = [15, 16]", r"engine scores \[14.0, 16.0\]"),
        ('refuse = ["row 2 pos 4"]', 'refuse = ["row 2 pos 3"]', r"refuses 'row 2 pos 3', which is legal"),
        ('show = ["jade 28b", "take 15a"]', 'show = ["base"]', r"shows 'base', which is not a legal move"),
        ('say.es = "Coge el **10**."', "", r"tutorial.step 9, field 'say'.*no text in es"),
        ("seat = 1\nbot", "seat = 3\nbot", r"entry tutorial, field 'seat'.*from 1 to 2"),
        ('step = "end"', "step = 40", r"figure.end, field 'step'.*from 1 to 13"),
        ('state = "support.json"', 'state = "../support.json"', r"figure.support, field 'state'"),
    ],
)
def test_a_broken_draft_is_refused_naming_the_entry(tmp_path: Path, old: str, new: str, message: str) -> None:
    folder = draft(tmp_path, "kuhnah")
    _edit(folder, old, new)
    with pytest.raises(ContentError, match=message):
        learn.load("kuhnah", folder)


def test_a_page_showing_a_figure_learn_toml_lacks_is_refused(tmp_path: Path) -> None:
    folder = draft(tmp_path, "kuhnah")
    page = folder / "rules.es.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n![x](figure:nowhere)\n", encoding="utf-8")
    with pytest.raises(ContentError, match=r"rules.es.md.*\['nowhere'\]"):
        learn.load("kuhnah", folder)


def test_a_figure_no_page_shows_is_refused(tmp_path: Path) -> None:
    folder = draft(tmp_path, "kuhnah")
    page = folder / "rules.en.md"
    page.write_text(page.read_text(encoding="utf-8").replace("](figure:end)", "](figure:turn)"), encoding="utf-8")
    with pytest.raises(ContentError, match=r"rules.en.md.*does not show the figures \['end'\]"):
        learn.load("kuhnah", folder)


def test_a_corrupt_saved_state_is_refused_naming_its_file(tmp_path: Path) -> None:
    folder = draft(tmp_path, "kuhnah")
    (folder / "support.json").write_text('{"format": "ziggurat-state"}', encoding="utf-8")
    with pytest.raises(ContentError, match=r"support.json: is not a saved K'uh Nah state"):
        learn.load("kuhnah", folder)


# ------------------------------------------------------------------------------------------ the tutorial engine
def test_a_click_is_checked_against_its_step() -> None:
    run = learn.lessons("kuhnah").run()
    state = run.frame(1).state
    jade, take = state.action_from_text("jade 28b", 0), state.action_from_text("take 15a", 0)
    assert run.check(1, jade) == learn.Verdict(True, "ok")
    assert run.check(1, take).kind == "other"  # legal, but not what this step asks
    assert run.check(0, jade).kind == "nothing"  # a Next step takes no move
    placing = run.frame(3).state
    assert run.check(3, placing.action_from_text("base left", 0)).kind == "other"
    illegal = run.check(3, 0)  # jade on the first Quarry card while placing: the engine says why not
    assert illegal.kind == "illegal" and illegal.why is not None
    assert illegal.why.id == "kuhnah.place_first" and illegal.why == placing.why_illegal(0, 0)
    # a click on the board that makes no legal move is found through the drawing, then explained
    clicked = run.check_path(3, ["take:28b"])
    assert clicked.kind == "illegal" and clicked.why is not None and clicked.why.id == "kuhnah.place_first"
    assert run.check_path(3, ["no-such-key"]).kind == "nothing"
    assert run.check_path(3, ["slot:2:3"]) == learn.Verdict(True, "ok")


# ------------------------------------------------------------------------------------------ HTTP
@pytest.fixture
def web(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(db_url=f"sqlite:///{tmp_path / 'l.db'}", bot_delay=0, bot_workers=0))) as c:
        yield c


def test_rules_pages_in_each_language(web: TestClient) -> None:
    index = web.get("/rules")
    assert index.status_code == 200
    for game in GAMES:
        assert f'href="/learn/{game}' in index.text and f'href="/rules/{game}' in index.text
    en = web.get("/rules/nakum?lang=en")
    es = web.get("/rules/nakum?lang=es")
    assert en.status_code == es.status_code == 200
    assert "Components" in en.text and "Componentes" in es.text
    assert 'lang="es"' in es.text
    assert "Componentes" in web.get("/rules/nakum", headers={"Accept-Language": "es-ES,es;q=0.9"}).text
    panel = web.get("/rules/kuhnah/panel?lang=en")
    assert panel.status_code == 200 and panel.text.startswith("<article") and "<figure" in panel.text
    assert web.get("/rules/nope").status_code == 404
    assert web.get("/rules/nope/panel").status_code == 404


def test_no_inline_script_or_style_on_the_new_pages(web: TestClient) -> None:
    pages = ["/", "/rules"] + [f"/rules/{g}" for g in GAMES] + [f"/learn/{g}" for g in GAMES]
    for url in pages + [f"/rules/{g}/panel" for g in GAMES]:
        html = web.get(url).text
        assert "<style" not in html and " style=" not in html, url
        assert not re.search(r"\son[a-z]+=", html), f"{url}: an inline event handler"
        for tag in re.findall(r"<script\b[^>]*>", html):
            assert 'src="/static/' in tag or 'type="application/json"' in tag, (url, tag)
    for url in pages:
        assert "script-src 'self'" in web.get(url).headers["content-security-policy"], url


def test_the_tutorial_api_walks_a_tutorial_and_refuses_bad_requests(web: TestClient) -> None:
    run = learn.lessons("lucent").run()
    page = web.get("/learn/lucent")
    assert page.status_code == 200 and 'id="zg-initial"' in page.text
    step = 0
    while step < run.steps:
        frame = web.get(f"/api/learn/lucent/{step}").json()
        assert frame["step"] == step and frame["steps"] == run.steps and frame["say"]
        if frame["next"]:
            step += 1
            continue
        # a legal move that is not the one asked for is refused, and changes nothing
        others = [a for a in frame["actions"] if a["id"] != frame["expect_id"]]
        if others:
            answer = web.post(f"/api/learn/lucent/{step}", json={"action": others[0]["id"]}).json()
            assert answer == {"ok": False, "kind": "other", "why": "", "why_id": None}
        answer = web.post(f"/api/learn/lucent/{step}", json={"action": frame["expect_id"]}).json()
        assert answer["ok"] and answer["frame"]["step"] == step + 1
        step += 1
    end = web.get(f"/api/learn/lucent/{run.steps}").json()
    assert end["end"] and end["over"] and [s["score"] for s in end["scores"]] == ["1", "0"]
    # how the score came about: the engine's own terms
    assert end["scores"][0]["terms"] == [{"label": "placed the last gem", "points": "1"}]
    assert end["notes"]
    illegal = web.post("/api/learn/kuhnah/3", json={"action": 0}).json()  # a jade while placing the 15
    assert illegal["ok"] is False and illegal["kind"] == "illegal" and illegal["why_id"] == "kuhnah.place_first"
    assert "place it in your pyramid first" in illegal["why"]
    assert web.get(f"/api/learn/lucent/{run.steps + 1}").status_code == 404
    assert web.get("/api/learn/nope/0").status_code == 404
    for body in ({"action": "x"}, {"action": True}, {"path": []}, {"path": [1]}, {}):
        r = web.post("/api/learn/lucent/1", json=body)
        assert r.status_code == 400 and r.json()["error"] == "bad_request", body
    assert (
        web.post("/api/learn/lucent/1", content=b"{", headers={"Content-Type": "application/json"}).status_code == 400
    )


def test_the_tutorial_page_opens_at_a_step_with_the_log_so_far(web: TestClient) -> None:
    html = web.get("/learn/kuhnah?step=4").text
    # jade 28b, jade 15a, take 15a, row 2 pos 3, then Player 2's take 25b and base right
    assert html.count('<li class="zg-log-move') == 6
    assert web.get("/learn/kuhnah?step=99").status_code == 404
