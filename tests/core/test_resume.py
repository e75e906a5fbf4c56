"""A game resumed from its record goes on exactly as the uninterrupted one: every game, every bot, any stop.

Same seed, same bots, same game: whether the bots are given by name (the match
makes them) or as objects (``make_bot(name, game, seat, seed)``, made by the
caller), whether the game stops after one decision, mid-round or in the middle
of a simultaneous choice, the resumed game plays the same actions to the end.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from ziggurat.core import (
    Bot,
    ConfigError,
    Game,
    GameRecord,
    Match,
    State,
    bot_names,
    game_ids,
    get_game,
    make_bot,
    make_game,
)

PARAMS: dict[str, dict[str, Any]] = {"ismcts": {"iterations": 15}}
STOPS = (1, 5, 17)
SEED = 2024


def _players(game_id: str) -> int:
    spec = get_game(game_id).game_class.spec
    return max(spec.min_players, min(2, spec.max_players))


def _seatable(games: Sequence[str]) -> list[tuple[str, str]]:
    """(game, bot) for every bot that can sit at the game: the learned bot only where its policy is shipped
    (and torch is installed): K'uh Nah for two."""
    from ziggurat.bots.learned import fits

    return [(g, b) for g in games for b in bot_names() if b != "learned" or fits(make_game(g, _players(g)))]


Seating = Callable[[Match], Sequence[Bot | str]]


def _by_name(name: str) -> Seating:
    return lambda match: [name] * match.game.num_players


def _as_objects(name: str) -> Seating:
    """Bots the caller makes, each seeded by the caller (the seed the issue's example uses: its own)."""
    return lambda match: [
        make_bot(name, match.game, p, 1000 + p, **PARAMS.get(name, {})) for p in range(match.game.num_players)
    ]


def _play_some(match: Match, bots: Sequence[Bot], decisions: int) -> None:
    """Play ``decisions`` single decisions as run_bots would, stopping mid-round or mid-choice if that is where."""
    for _ in range(decisions):
        match.resolve_chance()
        if match.state.is_terminal():
            return
        player = match.state.players_to_move()[0]
        match.state.apply_action(match.decide(bots[player], player), player)


def _resumed(game_id: str, seating: Seating, stop: int, step_by_step: bool = False) -> Match:
    """The game stopped after ``stop`` decisions, saved, loaded and played to the end with new bots."""
    part = Match(make_game(game_id, _players(game_id)), seed=SEED)
    if step_by_step:
        _play_some(part, part.seat_bots(seating(part), PARAMS), stop)
    else:
        part.run_bots(part.seat_bots(seating(part), PARAMS), max_steps=stop)
    saved = GameRecord.from_json(part.record().dumps())  # through the file format, as a save would go
    resumed = Match.from_record(saved)
    bots = resumed.seat_bots(seating(resumed), PARAMS)
    if step_by_step:
        _play_some(resumed, bots, 10**6)
    else:
        resumed.run_bots(bots)
    return resumed


@pytest.mark.parametrize("how", [_by_name, _as_objects], ids=["by-name", "as-objects"])
@pytest.mark.parametrize(("game_id", "bot"), _seatable(game_ids()))
def test_a_resumed_game_goes_on_as_the_uninterrupted_one(game_id: str, bot: str, how: Callable[[str], Seating]) -> None:
    seating = how(bot)
    whole = Match(make_game(game_id, _players(game_id)), seed=SEED)
    whole.run_bots(whole.seat_bots(seating(whole), PARAMS))
    for stop in STOPS:
        resumed = _resumed(game_id, seating, stop)
        assert resumed.state.history == whole.state.history, f"{game_id} with {bot} bots resumed after {stop}"


@pytest.mark.parametrize(("game_id", "bot"), _seatable(["kukulkan", "nakum"]))
def test_a_stop_in_the_middle_of_a_simultaneous_choice_resumes_exactly(game_id: str, bot: str) -> None:
    """One player has chosen (hidden from the others), the others not yet, when the game is saved.

    Played one decision at a time, the first player still to choose going on (as the terminal
    does: a player makes their whole choice in one go), so the order is a function of the position.
    """
    seating = _as_objects(bot)
    whole = Match(make_game(game_id, _players(game_id)), seed=SEED)
    bots = whole.seat_bots(seating(whole), PARAMS)
    stops = []  # decisions made when a round's choice is half made
    for made in range(1, 10**6):
        _play_some(whole, bots, 1)
        if whole.state.is_terminal():
            break
        if whole.state.is_simultaneous_node() and len(whole.state.players_to_move()) < whole.game.num_players:
            stops.append(made)
    assert stops, "the game never stopped mid-choice"
    for stop in stops[:3]:
        resumed = _resumed(game_id, seating, stop, step_by_step=True)
        assert resumed.state.history == whole.state.history, f"{game_id} with {bot} bots resumed after {stop}"


def test_bots_that_played_the_first_part_go_on_without_thinking_it_again() -> None:
    """The same objects carried over to the resumed match, or to a second run_bots, are not caught up twice."""
    game_id = "lucent"
    whole = Match(make_game(game_id, 3), seed=SEED)
    whole.run_bots(_as_objects("greedy")(whole))

    same = Match(make_game(game_id, 3), seed=SEED)
    bots = list(_as_objects("greedy")(same))
    same.run_bots(bots, max_steps=9)
    same.run_bots(bots)  # the same match, the same objects: they go on
    assert same.state.history == whole.state.history

    first = Match(make_game(game_id, 3), seed=SEED)
    bots = list(_as_objects("greedy")(first))
    first.run_bots(bots, max_steps=9)
    carried = Match.from_record(first.record())
    carried.run_bots(bots)  # the objects that played the first part, in a new match
    assert carried.state.history == whole.state.history


class Witness(Bot):
    """A random bot that keeps every position it is shown (a determinisation: the game has hidden cards)."""

    name = "witness"

    def __init__(self, game: Game, player: int, seed: int | str | None = None):
        super().__init__(game, player, seed)
        self.shown: list[str] = []

    def choose(self, state: State) -> int:
        self.shown.append(json.dumps(state.to_json()))
        legal = state.legal_actions(self.player)
        return legal[int(self.rng.random() * len(legal))]


def test_a_caught_up_bot_is_shown_what_it_was_shown_the_first_time() -> None:
    """Bots seated again on a match that has played think its past decisions on the same determinisations."""
    game = make_game("lucent", 3)
    whole = Match(game, seed=SEED)
    first = [Witness(game, p, p) for p in range(3)]
    whole.run_bots(first)
    again = Match(game, seed=SEED)
    again.run_bots([Witness(game, p, p) for p in range(3)], max_steps=8)
    second = [Witness(game, p, p) for p in range(3)]
    again.run_bots(second)  # new bots on this very match: they think its first part again, then go on
    assert again.state.history == whole.state.history
    assert [b.shown for b in second] == [b.shown for b in first]


def test_a_bot_that_thought_more_than_its_seat_made_is_refused() -> None:
    match = Match(make_game("kuhnah", 2), seed=SEED)
    bots = [make_bot("random", match.game, p, 1000 + p) for p in range(2)]
    match.run_bots(bots, max_steps=10)
    upto = next(n for n, (actor, _) in enumerate(match.state.history) if actor == 0) + 1  # seat 0 made one
    earlier = Match(match.game, SEED, match.record().replay(upto=upto))  # the same game, further back
    with pytest.raises(ConfigError, match="has thought"):
        earlier.seat_bots(bots)
    fresh = Match(make_game("kuhnah", 2), seed=SEED + 1)
    assert fresh.seat_bots(bots) == bots, "a bot goes on to a new game as it is"
    assert [b.thought for b in bots] == [0, 0]
