"""The core contract's own pieces: options, outcomes, registry, records."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from ziggurat.core import (
    SIMULTANEOUS,
    GameRecord,
    IllegalActionError,
    Match,
    OptionError,
    OptionSpec,
    PlayerCountError,
    RecordError,
    State,
    UnknownBotError,
    UnknownGameError,
    get_game,
    make_bot,
    make_game,
)
from ziggurat.core.outcome import ranks_from_keys, returns_from_ranks


def test_options_parse_and_reject() -> None:
    flag = OptionSpec("open-jade", "bool", False)
    assert flag.parse("on") is True and flag.parse(False) is False
    with pytest.raises(OptionError, match="true or false"):
        flag.parse("perhaps")
    num = OptionSpec("rounds", "int", 3, minimum=1, maximum=9)
    assert num.parse("4") == 4
    with pytest.raises(OptionError, match="between 1 and 9"):
        num.parse(10)
    choice = OptionSpec("start-player", "choice", "1", choices=("random", "1"))
    with pytest.raises(OptionError, match="one of random, 1"):
        choice.parse("2")


def test_registry_finds_games_by_id_name_and_alias() -> None:
    for name in ("kuhnah", "kuh-nah", "K'uh Nah", "KUH NAH"):
        assert get_game(name).id == "kuhnah"
    with pytest.raises(UnknownGameError, match="no game called 'chess'"):
        get_game("chess")
    with pytest.raises(UnknownBotError, match="no bot called 'deep-blue'"):
        make_bot("deep-blue", make_game("kuhnah", 2), 0)


def test_impossible_setups() -> None:
    with pytest.raises(PlayerCountError, match="2 to 6 players, not 7"):
        make_game("kuhnah", 7)
    with pytest.raises(OptionError, match="no option 'colour'"):
        make_game("kuhnah", 2, {"colour": "red"})


def test_ranks_share_places_and_returns_sum_to_zero() -> None:
    assert ranks_from_keys([(1,), (3,), (3,), (0,)]) == (3, 1, 1, 4)
    r = returns_from_ranks((3, 1, 1, 4))
    assert abs(sum(r)) < 1e-12 and r[1] == r[2] and r[3] == -1.0


def _finished(seed: int = 4) -> Match:
    match = Match(make_game("kuhnah", 3, {"jade-wild": True}), seed=seed)
    match.run_bots(["random"] * 3)
    return match


def test_record_round_trip_and_file(tmp_path: Path) -> None:
    match = _finished()
    path = tmp_path / "g.json"
    match.record(["a", "b", "c"]).save(path)
    record = GameRecord.load(path)
    assert record.seats == ["a", "b", "c"] and record.result is not None
    assert record.replay() == match.state
    assert json.loads(path.read_text())["format"] == "ziggurat-record"


def test_resuming_a_saved_game_continues_the_same_chance_stream() -> None:
    full = _finished(seed=8)
    partial = Match(make_game("kuhnah", 3, {"jade-wild": True}), seed=8)
    partial.run_bots(["random"] * 3, max_steps=20)
    resumed = Match.from_record(partial.record())
    # bots are reseeded on resume, so compare only the chance stream
    assert resumed.chance_rng.getstate() == partial.chance_rng.getstate()
    assert full.state.history[: len(partial.state.history)] == partial.state.history


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "invalid JSON"),
        ('{"format": "pgn"}', "not a Ziggurat game record"),
        ('{"format": "ziggurat-record", "version": 7}', "version 7 is not supported"),
        ('{"format": "ziggurat-record", "version": 1, "game": "kuhnah"}', "missing field 'players'"),
        (
            '{"format": "ziggurat-record", "version": 1, "game": "kuhnah", "players": 9, "actions": []}',
            "cannot be set up",
        ),
    ],
)
def test_corrupt_records_are_clear_errors(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        GameRecord.from_json(text).replay()


def test_missing_record_file(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        GameRecord.load(tmp_path / "none.json")


def test_rejected_record_step_is_named() -> None:
    record = _finished().record().to_json()
    record["actions"][30][1] = 10**6
    record["actions"][30][2] = "x"
    with pytest.raises(RecordError, match="step 31"):
        GameRecord.from_json(record).replay()


def test_a_copy_never_carries_the_cached_legal_actions() -> None:
    match = Match(make_game("kuhnah", 2), seed=1)
    match.resolve_chance()
    state = match.state
    state.legal_actions()
    assert state.clone()._legal is None
    assert state.resample(1, __import__("random").Random(0))._legal is None


def _first_split_choice(state: State, rng: random.Random) -> State:
    """Play to a simultaneous node where each of the first two players to choose has an action the other has not."""
    while not state.is_terminal():
        movers = state.players_to_move()
        if len(movers) > 1:
            first, second = set(state.legal_actions(movers[0])), set(state.legal_actions(movers[1]))
            if first - second and second - first:
                return state
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(state.legal_actions(movers[0])[0], movers[0])
    raise AssertionError("no simultaneous node with different choices")


def test_the_legal_actions_listed_for_one_player_never_decide_for_another() -> None:
    state = _first_split_choice(make_game("kukulkan", 3).new_initial_state(), random.Random(1))
    first, second = state.players_to_move()[:2]
    only_first = next(a for a in state.legal_actions(first) if a not in state.legal_actions(second))
    only_second = next(a for a in state.legal_actions(second) if a not in state.legal_actions(first))
    state.legal_actions(first)  # listed last for ``first``
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="say which player"):
        state.apply_action(only_first)
    with pytest.raises(IllegalActionError):
        state.apply_action(only_first, second)
    assert state.to_json() == before
    state.apply_action(only_second, second)  # legal for ``second``, though not listed for them
    assert state.history[-1] == (second, only_second)

    turn = Match(make_game("kuhnah", 2), seed=1)
    turn.resolve_chance()
    mover = turn.state.current_player()
    turn.state.legal_actions()
    with pytest.raises(IllegalActionError, match=f"player {mover + 1}'s turn"):
        turn.state.apply_action(turn.state.legal_actions()[0], 1 - mover)


def test_a_solo_game_returns_its_score_mapped_by_the_score_bounds() -> None:
    match = Match(make_game("kukulkan", 1), seed=3)
    match.run_bots(["greedy"])
    outcome = match.state.outcome()
    low, high = match.game.score_bounds or (0.0, 1.0)
    assert low <= outcome.scores[0] <= high
    assert outcome.returns[0] == 2 * (outcome.scores[0] - low) / (high - low) - 1
    assert make_game("kuhnah", 2).score_bounds is None


def test_content_files_are_read_with_errors_naming_the_file(tmp_path: Path) -> None:
    from ziggurat.core import ContentError
    from ziggurat.core.content import parse_toml, read_content

    with pytest.raises(ContentError, match=r"missing\.toml: cannot read the sheet"):
        read_content("ziggurat.games.kuhnah", "cards.toml", tmp_path / "missing.toml", "sheet")
    with pytest.raises(ContentError, match=r"x\.toml: is not UTF-8 text"):
        parse_toml(b"\xff\xfe", "x.toml")
    with pytest.raises(ContentError, match=r"x\.toml: is not valid TOML"):
        parse_toml(b"a = [", "x.toml")
    assert parse_toml(b"a = 1", "x.toml") == {"a": 1}


def _play(state: State, rng: random.Random, n: int) -> None:
    """``n`` random actions (chance and simultaneous nodes included)."""
    for _ in range(n):
        if state.is_terminal():
            return
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            p = state.players_to_move()[0]
            named = p if state.current_player() == SIMULTANEOUS else None
            state.apply_action(rng.choice(state.legal_actions(p)), named)


@pytest.mark.parametrize("game_id", ["kuhnah", "pyramix", "lucent", "kukulkan", "nakum"])
def test_a_position_saved_without_its_history_can_be_played_on_and_saved_again(game_id: str) -> None:
    """A saved state without history is a position standing alone: moves made from it are kept (undo), its
    saves carry no history and load again, and it has no game record (a history from it would not replay)."""
    game = make_game(game_id, 2)
    rng = random.Random(3)
    state = game.new_initial_state()
    assert state.history_from_start
    _play(state, rng, 30)
    whole = game.state_from_json(json.dumps(state.to_json()))
    assert whole.history_from_start and whole.history == state.history
    doc = state.to_json()
    doc["history"] = []
    alone = game.state_from_json(json.dumps(doc))
    assert not alone.history_from_start and alone == state
    _play(alone, rng, 5)
    assert len(alone.history) == 5 and not alone.clone().history_from_start
    again = game.state_from_json(json.dumps(alone.to_json()))
    assert again == alone and again.to_json()["history"] == []
    with pytest.raises(RecordError, match="without its history"):
        GameRecord.from_state(alone, seed=None)
    # the initial state saved without history is whole; a determinisation's past is invented
    assert game.state_from_json(json.dumps(game.new_initial_state().to_json())).history_from_start
    assert not state.resample(0, rng).history_from_start
