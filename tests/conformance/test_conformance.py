"""The shared conformance suite: every registered game x player count x variant.

Each case plays seeded random games and checks the contract at every step:
legal actions are non-empty, unique, sorted and inside the action space until
the end; every action's text parses back to it; an illegal action raises and
changes nothing; a copy evolves independently; replaying the record reproduces
the state; the JSON round trip is exact at every step (simultaneous rounds
included) and play goes on from a reloaded state as from the original; a player's view is the same in every
state consistent with it (resampling); scores and the end reason exist only at
the end, which is one of the game's declared ends; the game stays under its
declared length bound; the same seed gives the same game.

A new game passes this suite without any change here.
"""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import numpy as np
import pytest

from ziggurat.core import (
    CHANCE,
    SIMULTANEOUS,
    ActionError,
    ConfigError,
    GameOverError,
    GameRecord,
    IllegalActionError,
    Match,
    NotOverError,
    ParseActionError,
    State,
    game_ids,
    get_game,
    make_game,
)
from ziggurat.core.message import english

GAMES_PER_CASE = 3


def _playable(game_id: str, options: dict[str, Any]) -> bool:
    spec = get_game(game_id).game_class.spec
    try:
        for players in spec.player_counts:
            make_game(game_id, players, options)
    except ConfigError:
        return False
    return True


def _option_sets(game_id: str) -> list[dict[str, Any]]:
    """No options, each boolean option alone, and all of them together.

    Where some options cannot be combined (a ConfigError), "all together" becomes the
    combinations built by adding the options one by one, in order and in reverse order,
    each skipped when it does not go with those already taken.
    """
    spec = get_game(game_id).game_class.spec
    flags = [o.name for o in spec.options if o.kind == "bool"]
    sets: list[dict[str, Any]] = [{}]
    sets += [{f: not spec.option(f).default} for f in flags]
    if len(flags) > 1:
        for order in (flags, flags[::-1]):
            together: dict[str, Any] = {}
            for f in order:
                if _playable(game_id, {**together, f: not spec.option(f).default}):
                    together[f] = not spec.option(f).default
            if len(together) > 1 and together not in sets:
                sets.append(together)
    return sets


def _cases() -> list[Any]:
    cases = []
    for gid in game_ids():
        spec = get_game(gid).game_class.spec
        for players, options in itertools.product(spec.player_counts, _option_sets(gid)):
            label = f"{gid}-{players}p" + "".join(f"-{k}" for k in sorted(options))
            cases.append(pytest.param(gid, players, options, id=label))
    return cases


CASES = _cases()


def _snapshot(state: State) -> tuple[Any, list[tuple[int, int]]]:
    return state.to_json()["state"], list(state.history)


def _check_legal(state: State, player: int) -> list[int]:
    game = state.game
    legal = state.legal_actions(player)
    assert legal, f"no legal action for player {player} at a non-terminal node"
    assert legal == sorted(set(legal)), "legal actions must be unique and sorted"
    assert all(isinstance(a, int) and 0 <= a < game.num_actions for a in legal)
    assert state.legal_actions(player) == legal, "legal actions must be stable"
    for action in legal:
        text = state.action_to_text(action, player)
        assert text == " ".join(text.split()) and text, f"action text {text!r} must be trimmed, non-empty"
        assert state.action_from_text(text, player) == action, f"{text!r} does not parse back to {action}"
        assert state.action_from_text(text.upper(), player) == action, "parsing ignores case"
    return legal


def _check_rejections(state: State, player: int, legal: list[int], rng: random.Random) -> None:
    before = _snapshot(state)
    illegal = [a for a in range(state.game.num_actions) if a not in legal]
    probes: list[Any] = [-1, state.game.num_actions, "1", None, 1.5]
    probes += rng.sample(illegal, min(3, len(illegal)))
    for bad in probes:
        with pytest.raises(ActionError) as info:
            state.apply_action(bad, player)
        if bad in illegal:
            assert isinstance(info.value, IllegalActionError), f"{bad} is in the action space: illegal, not unparseable"
            assert str(info.value), "errors must say why"
        else:
            assert isinstance(info.value, ParseActionError)
        assert _snapshot(state) == before, f"a rejected action {bad!r} changed the state"
    for text in ("", "   ", "xyzzy plugh", "42 42 42 42"):
        with pytest.raises(ParseActionError):
            state.action_from_text(text, player)
    assert _snapshot(state) == before
    # A player who is not to move is refused too.
    others = [p for p in range(state.num_players) if p not in state.players_to_move()]
    if others:
        with pytest.raises(IllegalActionError):
            state.apply_action(legal[0], others[0])
        assert _snapshot(state) == before


def _check_views(state: State, rng: random.Random) -> None:
    views = {p: state.view(p) for p in [None, *range(state.num_players)]}
    entry = get_game(state.game.spec.id)
    for view in views.values():
        json.dumps(view)  # JSON-ready
        if entry.tensor is not None and entry.tensor_size is not None:
            vec = entry.tensor(state.game, view)
            assert len(vec) == entry.tensor_size(state.game), "every tensor of a game has the same length"
            assert all(0.0 <= x <= 1.0 for x in vec), "tensor values lie in [0, 1] (the adapters' Box bounds)"
            if entry.tensor_writer is not None:
                out = np.zeros(len(vec), np.float32)
                entry.tensor_writer(state.game)(view, out)
                assert out.tolist() == np.asarray(vec, np.float32).tolist(), "the tensor writer writes the tensor"
    assert json.loads(json.dumps(views[None])) == views[None], "views must survive JSON unchanged"
    for p in range(state.num_players):
        before = _snapshot(state)
        sample = state.resample(p, rng)
        assert _snapshot(state) == before, "resampling must not change the state"
        assert sample.view(p) == views[p], f"a state resampled for player {p} must look the same to them"
        assert sample.history == [], "a determinisation carries no history (it may hold hidden outcomes)"
        assert sample.view(None) == views[None], "a resampled state must look the same to a spectator"
        assert sample.current_player() == state.current_player()
        assert sample.legal_actions(p) == state.legal_actions(p), "resampling changed the player's choices"


def _check_json_round_trip(state: State) -> None:
    data = json.loads(json.dumps(state.to_json()))
    again = state.game.state_from_json(data)
    assert again == state, "JSON round trip must be exact"
    assert again.history == state.history
    assert again.current_player() == state.current_player()
    assert again.players_to_move() == state.players_to_move(), "the same players are to move after a reload"
    for p in [None, *range(state.num_players)]:
        assert again.view(p) == state.view(p)
        if p is not None:
            assert again.legal_actions(p) == state.legal_actions(p)
    assert again.to_json() == state.to_json()


def _check_reload_plays_on(state: State, rng: random.Random) -> None:
    """Playing on from the reloaded state gives the same game as playing on from the original."""
    again = state.game.state_from_json(json.loads(json.dumps(state.to_json())))
    seed = rng.random()
    a, b = state.clone(), again
    ra, rb = random.Random(seed), random.Random(seed)
    for _ in range(60):
        if a.is_terminal():
            break
        _advance_one(a, ra)
        _advance_one(b, rb)
    assert b.history == a.history and b == a, "a reloaded state plays on differently"


def _check_clone(state: State, rng: random.Random) -> None:
    before = _snapshot(state)
    copy = state.clone()
    assert copy == state
    _advance_one(copy, rng)
    assert _snapshot(state) == before, "changing a copy changed the original"


def _advance_one(state: State, rng: random.Random) -> None:
    cur = state.current_player()
    if cur == CHANCE:
        state.apply_action(state.sample_chance(rng))
    elif cur == SIMULTANEOUS:
        p = state.players_to_move()[0]
        legal = state.legal_actions(p)
        state.apply_action(rng.choice(legal), p)
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def _check_chance(state: State) -> None:
    outcomes = state.chance_outcomes()
    assert outcomes, "a chance node needs outcomes"
    ids = [a for a, _ in outcomes]
    assert len(set(ids)) == len(ids) and all(0 <= a < state.game.max_chance_outcomes for a in ids)
    assert all(p > 0 for _, p in outcomes)
    assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
    for action in ids:
        assert state.action_from_text(state.action_to_text(action, CHANCE), CHANCE) == action


def play_and_check(game_id: str, players: int, options: dict[str, Any], seed: int) -> State:
    """Play one random game checking everything at every step; return the final state."""
    game = make_game(game_id, players, options)
    rng = random.Random(f"conformance/{seed}")
    state = game.new_initial_state()
    with pytest.raises(NotOverError):
        state.scores()
    with pytest.raises(NotOverError):
        state.end_reason()
    assert state.returns() == [0.0] * players
    replay_points = set(rng.sample(range(1, 400), 6))
    steps = 0
    while not state.is_terminal():
        cur = state.current_player()
        _check_json_round_trip(state)
        _check_views(state, rng)
        _check_clone(state, rng)
        if cur == CHANCE:
            _check_chance(state)
            with pytest.raises(ActionError):
                state.apply_action(state.chance_outcomes()[0][0], 0)
        else:
            assert cur >= 0 or cur == SIMULTANEOUS
            movers = state.players_to_move()
            assert movers and len(set(movers)) == len(movers)
            for p in movers:
                legal = _check_legal(state, p)
                _check_rejections(state, p, legal, rng)
            with pytest.raises(NotOverError):
                state.scores()
        _advance_one(state, rng)
        steps += 1
        assert steps <= game.max_game_length, f"game longer than its declared bound {game.max_game_length}"
        if steps in replay_points:
            _check_replay(state)
            _check_reload_plays_on(state, rng)
    # the end
    _check_json_round_trip(state)
    _check_views(state, rng)
    _check_replay(state)
    assert state.legal_actions() == []
    assert state.players_to_move() == ()
    with pytest.raises(GameOverError):
        state.apply_action(0)
    outcome = state.outcome()
    assert outcome.end == state.end_reason() and outcome.end in game.spec.ends
    assert outcome.to_json()["end"] == outcome.end.to_json() and outcome.end.text
    assert english(outcome.end.message.id), "an end's words are a message of the game's catalog"

    assert len(outcome.scores) == len(outcome.ranks) == len(outcome.returns) == players
    assert min(outcome.ranks) == 1 and outcome.winners
    assert all(1 <= r <= players for r in outcome.ranks)
    if players > 1:
        assert abs(sum(outcome.returns)) < 1e-9
    assert state.returns() == list(outcome.returns)
    return state


def _check_replay(state: State) -> None:
    record = GameRecord.from_state(state, seed=None)
    text = json.dumps(record.to_json())
    assert GameRecord.from_json(text).replay() == state, "replaying the record must reproduce the state"


@pytest.mark.parametrize(("game_id", "players", "options"), CASES)
def test_random_games_keep_the_contract(game_id: str, players: int, options: dict[str, Any]) -> None:
    for seed in range(GAMES_PER_CASE):
        play_and_check(game_id, players, options, seed)


@pytest.mark.parametrize(("game_id", "players", "options"), CASES)
def test_same_seed_same_game(game_id: str, players: int, options: dict[str, Any]) -> None:
    histories = []
    for _ in range(2):
        match = Match(make_game(game_id, players, options), seed=11)
        match.run_bots(["random"] * players)
        histories.append(match.state.history)
    assert histories[0] == histories[1]
    other = Match(make_game(game_id, players, options), seed=12)
    other.run_bots(["random"] * players)
    if get_game(game_id).game_class.spec.has_chance:
        assert other.state.history != histories[0], "a different seed should give a different game"


@pytest.mark.parametrize("game_id", game_ids())
def test_impossible_setups_are_clear_errors(game_id: str) -> None:
    spec = get_game(game_id).game_class.spec
    from ziggurat.core import OptionError, PlayerCountError

    for players in (spec.min_players - 1, spec.max_players + 1, 0):
        with pytest.raises(PlayerCountError, match="played by"):
            make_game(game_id, players)
    with pytest.raises(OptionError, match="no option"):
        make_game(game_id, spec.min_players, {"no-such-option": True})
    for opt in spec.options:
        if opt.kind == "bool":
            with pytest.raises(OptionError):
                make_game(game_id, spec.min_players, {opt.name: "maybe"})


@pytest.mark.parametrize("game_id", game_ids())
def test_corrupt_records_and_states_are_clear_errors(game_id: str) -> None:
    from ziggurat.core import RecordError

    spec = get_game(game_id).game_class.spec
    match = Match(make_game(game_id, spec.min_players), seed=5)
    match.run_bots(["random"] * spec.min_players, max_steps=10)
    record = match.record().to_json()
    for broken in (
        "not json",
        "[]",
        {**record, "format": "something-else"},
        {**record, "version": 99},
        {**record, "game": "no-such-game"},
        {**record, "actions": [[0, "x"]]},
        {**record, "actions": [*record["actions"], [0, 10**9]]},
    ):
        with pytest.raises(RecordError):
            GameRecord.from_json(json.dumps(broken) if not isinstance(broken, str) else broken).replay()
    if record["actions"]:
        tampered = json.loads(json.dumps(record))
        tampered["actions"][-1][2] = "tampered text"
        with pytest.raises(RecordError, match="record says"):
            GameRecord.from_json(tampered).replay()
    state_json = match.state.to_json()
    game = match.game
    for broken_state in (
        "{",
        {**state_json, "format": "x"},
        {**state_json, "version": 2},
        {**state_json, "game": "other"},
        {**state_json, "state": {}},
        {**state_json, "state": "garbage"},
    ):
        with pytest.raises(RecordError):
            game.state_from_json(broken_state if isinstance(broken_state, str) else json.dumps(broken_state))


@pytest.mark.parametrize("game_id", game_ids())
def test_registry_entry_is_complete(game_id: str) -> None:
    entry = get_game(game_id)
    spec = entry.game_class.spec
    assert spec.id == game_id and spec.name and spec.summary
    assert spec.ends and spec.ends[0].printed, "every game declares its ends, the rulebook's first"
    assert entry.rules.strip() and len(entry.rules.splitlines()) <= 40, "rules summary fits one screen"
    assert entry.render is not None
    game = make_game(game_id, spec.min_players)
    view = game.new_initial_state().view(0)
    entry.render(view, 0)
    if entry.tensor is not None and entry.tensor_size is not None:
        match = Match(game, seed=1)
        match.run_bots(["random"] * spec.min_players, max_steps=15)
        for p in range(spec.min_players):
            vec = entry.tensor(game, match.state.view(p))
            assert len(vec) == entry.tensor_size(game)
