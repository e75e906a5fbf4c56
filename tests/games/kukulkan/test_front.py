"""Texts, views, hidden choices, resampling, records, rendering, tensors and the greedy policy."""

from __future__ import annotations

import json
import random

import pytest
from rich.console import Console

from tests.helpers import refusal
from ziggurat.core import CHANCE, GameRecord, Match, get_game, random_playout
from ziggurat.core.errors import ParseActionError, RecordError
from ziggurat.games.kukulkan import ENTRY
from ziggurat.games.kukulkan.encode import tensor, tensor_size
from ziggurat.games.kukulkan.render import render
from ziggurat.games.kukulkan.rules import KukulkanState

from .helpers import AXIS, A, C, do, everything, game, outlines, position, roll, texts


def test_registered_under_its_id_name_and_alias() -> None:
    for name in ("kukulkan", "Kukulkán", "kukulkán", "KUKULKAN"):
        assert get_game(name) is ENTRY
    spec = ENTRY.game_class.spec
    assert (spec.min_players, spec.max_players) == (1, 6)
    assert spec.has_simultaneous_moves and spec.has_chance and spec.has_hidden_information


def test_action_space_is_bounded_and_texts_round_trip() -> None:
    g = game(2)
    assert g.num_actions == 62 + 17 + 17 + 1 + 1 + 6 + 5
    assert g.max_chance_outcomes == 6
    st = g.new_initial_state()
    samples = {
        0: "draw s0", 61: "draw s61", 62: "write b0", 62 + 16: "write b16", 79: "mark b0", 95: "mark b16",
        96: "pass", 97: "help same-value", 98: "help plus-one 1", 103: "help plus-one 6",
        104: "help super-six 1", 108: "help super-six 5",
    }  # fmt: skip
    roll(st, 6)
    for action, text in samples.items():
        assert st.action_to_text(action, 0) == text
        assert st._parse(text, 0) == action


def test_parse_accepts_labels_and_rejects_nonsense() -> None:
    g = game()
    st = position(die=1, sheets=[{"drawn": outlines(g, 0, 1, 5, 6, 10, A), "values": {5: 6, 6: 4, 10: 6, A: 1}}])
    assert st._parse("mark a", 0) == g.mark0 + A
    assert st._parse("draw 12", 0) == 12
    for bad in ("draw s62", "write b17", "mark x", "help", "help plus-one", "help super-six 9", "jump", "roll 3"):
        with pytest.raises(ParseActionError):
            st._parse(bad, 0)
    with pytest.raises(ParseActionError):
        st._parse("roll 7", CHANCE)
    assert st._parse("roll 6", CHANCE) == 5


def test_illegal_actions_explain_themselves_and_change_nothing() -> None:
    st = game(2).new_initial_state()
    roll(st, 2)
    before = st.to_json()
    for text, reason in (
        ("write b7", "kukulkan.write_outline"),
        ("mark b0", "kukulkan.mark_value"),
        ("pass", "kukulkan.pass_possible"),
        ("help same-value", "kukulkan.same_no_block"),
    ):
        assert refusal(st, st._parse(text, 0), 0).id == reason
    assert st.to_json() == before
    assert refusal(st, "draw s0").id == "core.say_who"


def test_views_hide_other_choices_but_show_ones_own() -> None:
    g = game(3)
    st = g.new_initial_state()
    roll(st, 2)
    do(st, 0, "draw s0")
    do(st, 1, "draw s0", "draw s1")
    assert st.view(0)["choice"] == {
        "help": None, "value": 2, "kind": "draw", "block": None, "trail": [0], "complete": False,
    }  # fmt: skip
    assert st.view(1)["choice"]["complete"] is True
    assert st.view(None)["choice"] is None
    assert st.view(2)["chosen"] == [False, True, False]
    text = json.dumps(st.view(2))
    assert '"trail": [0, 1]' not in text
    spectator = json.dumps(st.view(None))
    assert '"trail": [0' not in spectator


def test_resample_redraws_other_choices_keeps_ones_own_and_hides_the_history() -> None:
    g = game(3)
    rng = random.Random(2)
    st = g.new_initial_state()
    roll(st, 4)
    do(st, 0, "draw s0", "draw s1")
    do(st, 1, "draw s9", "draw s8", "draw s7", "draw s6")
    for _ in range(5):
        sample = st.resample(0, rng)
        assert sample.view(0) == st.view(0)
        assert sample.p_trail[0] == st.p_trail[0]
        assert sample.p_done[1] and not sample.p_done[2]
        assert sample.history == [], "the true history holds player 2's unrevealed trail"
        assert sample.players_to_move() == st.players_to_move()


def test_json_round_trip_and_corrupt_states() -> None:
    g = game(2)
    st = random_playout(g.new_initial_state(), random.Random(3))
    again = g.state_from_json(json.dumps(st.to_json()))
    assert again == st and again.scores() == st.scores()
    data = st.to_json()
    data["state"]["players"][0]["values"][0] = 3
    with pytest.raises(RecordError, match="base block b0 must show 4"):
        g.state_from_json(data)
    data = st.to_json()
    data["state"]["players"][0]["bonuses"] = ["axis", "base", "full"]
    data["state"]["players"][0]["marked"] = []
    with pytest.raises(RecordError):
        g.state_from_json(data)
    data = st.to_json()
    data["state"]["players"][1]["drawn"] = [0, 0]
    with pytest.raises(RecordError, match="drawn"):
        g.state_from_json(data)
    mid = position(players=2, die=3)
    data = mid.to_json()
    data["state"]["pending"][0].update(kind="draw", trail=[0, 5])
    with pytest.raises(RecordError, match="not a trail"):
        g.state_from_json(data)


def test_record_replays_a_whole_game() -> None:
    m = Match(game(3), seed=8)
    m.run_bots(["random", "greedy", "random"])
    rec = GameRecord.from_json(m.record().dumps())
    assert rec.replay() == m.state


def test_render_draws_from_the_view() -> None:
    g = game(2)
    st = g.new_initial_state()
    roll(st, 3)
    do(st, 0, "draw s0")
    do(st, 1, "draw s9", "draw s8", "draw s7")
    console = Console(width=120, record=True, color_system=None)
    console.print(render(st.view(0), 0))
    out = console.export_text()
    assert "Player 1 (you)" in out and "b13A" in out and "b16*°" in out
    assert "drawing s0" in out and "P2 chosen" in out
    assert "··8··" in out  # player 2's pending segments are still dotted for player 1
    random_playout(st, random.Random(1))
    console.print(render(st.view(None), None))
    assert "Game over" in console.export_text()


def test_tensor_has_a_fixed_size_and_depends_only_on_the_view() -> None:
    g = game(2)
    st = g.new_initial_state()
    assert len(tensor(g, st.view(0))) == tensor_size(g)
    roll(st, 2)
    other = st.clone()
    do(st, 1, "draw s0", "draw s1")
    do(other, 1, "draw s5", "draw s6")
    assert tensor(g, st.view(0)) == tensor(g, other.view(0))
    assert tensor(g, st.view(1)) != tensor(g, other.view(1))
    assert len(tensor(g, st.view(None))) == tensor_size(g)


def test_greedy_clearly_beats_random() -> None:
    wins = 0
    games = 12
    for seed in range(games):
        m = Match(game(2), seed=seed)
        seats = ["greedy", "random"] if seed % 2 == 0 else ["random", "greedy"]
        m.run_bots(seats)
        wins += m.state.outcome().ranks[seats.index("greedy")] == 1
    assert wins >= 10


def test_the_axis_column_needs_four_three_two_one_from_the_bottom_up() -> None:
    from ziggurat.games.kukulkan.heuristic import needs

    need = needs(game(2).sheet)
    assert [need[b] for b in AXIS[1:]] == [4, 3, 2, 1]  # over the printed 6
    assert need[C] == 1 and need[9] == 1  # A rests on b9 alone, but b9 on two
    assert need[9 + 2] == 3  # b11, the axis in row 2


def _greedy(st: KukulkanState, p: int = 0) -> str:
    from ziggurat.games.kukulkan.heuristic import heuristic

    return st.action_to_text(heuristic(st, p, random.Random(0)), p)


def test_greedy_writes_the_axis_falling_one_value_at_a_time() -> None:
    g = game(1)
    closed = outlines(g, AXIS[1])
    st = position(die=5, sheets=[{"drawn": closed}], g=g)
    assert _greedy(st) == f"write b{AXIS[1]}"  # 5 over the printed 6
    st = position(die=2, sheets=[{"drawn": closed}], g=g)
    assert f"write b{AXIS[1]}" in texts(st)
    assert _greedy(st).startswith("draw")  # a 2 there would leave no room for the column above


def test_greedy_takes_a_help_for_an_exact_mark_on_the_axis() -> None:
    g = game(1)
    values = {AXIS[1]: 5}
    st = position(die=4, sheets=[{"drawn": everything(g), "values": values, "marked": [0, 1, 3, 4]}], g=g)
    assert _greedy(st) == "help plus-one 5"
    do(st, 0, "help plus-one 5")
    assert _greedy(st) == f"mark b{AXIS[1]}"


def test_greedy_games_end_by_the_bonuses() -> None:
    ends = []
    for seed in range(10):
        m = Match(game(2), seed=seed)
        m.run_bots(["greedy", "greedy"])
        ends.append(m.state.end_reason().code)
    assert ends.count("bonuses") >= 8, ends
