"""The drivers' fast path: determinise only for bots that need it, chance applied unchecked.

The reference is the slow path every driver took before: a determinisation for
every bot at every decision and every chance outcome drawn from the full
outcome list and checked. Same seed, same games (and so the same rows of a
simulation's CSV) for every bot whose behaviour does not depend on it.
"""

from __future__ import annotations

import importlib
import random
from typing import Any

import pytest

from ziggurat.analysis.simulate import Setup, simulate
from ziggurat.bots.greedy import GreedyBot
from ziggurat.core import CHANCE, Bot, Match, State, game_ids, get_game, make_game
from ziggurat.core.registry import make_bot


class SlowMatch(Match):
    """The driver without the fast path (the reference)."""

    shown = 0

    def resolve_chance(self) -> None:
        state = self.state
        while state.current_player() == CHANCE:
            state.apply_action(State.sample_chance(state, self.chance_rng))

    def shown_to(self, bot: Bot, player: int) -> State:
        self.shown += 1
        return self.determinisation(player)


def _lineups(game_id: str) -> list[tuple[int, tuple[str, ...]]]:
    """All random, all greedy, and the two mixed (each seat draws its determinisations from its own stream)."""
    spec = get_game(game_id).game_class.spec
    counts = sorted({spec.min_players, max(2, spec.min_players), spec.max_players})
    out = []
    for n in counts:
        out.append((n, ("random",) * n))
        out.append((n, ("greedy",) * n))
        if n > 1:
            out.append((n, tuple("greedy" if p % 2 else "random" for p in range(n))))
    return out


@pytest.mark.parametrize("game_id", game_ids())
def test_fast_driver_plays_the_slow_drivers_games(game_id: str) -> None:
    for players, seats in _lineups(game_id):
        game = make_game(game_id, players)
        seeds = range(12) if "greedy" not in seats else range(2)
        for seed in seeds:
            fast = Match(game, seed)
            fast.run_bots(list(seats))
            slow = SlowMatch(game, seed)
            slow.run_bots(list(seats))
            assert fast.state.history == slow.state.history, f"{players}p {seats} seed {seed}"
            assert fast.state.outcome() == slow.state.outcome()
            assert slow.shown > 0, "the reference determinises for every decision"
            if "greedy" not in seats or not make_bot("greedy", game, 0, 0).needs_determinisation:
                assert not fast._views, "no seat needed a determinisation: none was drawn"


@pytest.mark.parametrize("game_id", game_ids())
def test_simulation_rows_match_the_slow_path(game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    spec = get_game(game_id).game_class.spec
    setup = Setup(game_id, max(2, spec.min_players))
    fast = simulate(setup, ["random"], games=30, seed=4).rows
    fast_greedy = simulate(setup, ["greedy", "random"], games=4, seed=4, rotate=True).rows
    # ``ziggurat.analysis.simulate`` the attribute is the function; the module is needed here
    monkeypatch.setattr(importlib.import_module("ziggurat.analysis.simulate"), "Match", SlowMatch)
    assert simulate(setup, ["random"], games=30, seed=4).rows == fast
    assert simulate(setup, ["greedy", "random"], games=4, seed=4, rotate=True).rows == fast_greedy


class _Spy(Bot):
    """Records whether it was handed the live state."""

    name = "spy"

    def __init__(self, game: Any, player: int, match: Match, needs: bool):
        super().__init__(game, player, 0)
        self.match = match
        self.needs_determinisation = needs
        self.live: list[bool] = []

    def choose(self, state: State) -> int:
        self.live.append(state is self.match.state)
        legal = state.legal_actions(self.player)
        return legal[int(self.rng.random() * len(legal))]


@pytest.mark.parametrize("needs", [True, False])
def test_driver_hands_the_live_state_only_to_bots_that_need_no_determinisation(needs: bool) -> None:
    game = make_game("kuhnah", 3)
    match = Match(game, 5)
    spies = [_Spy(game, p, match, needs) for p in range(3)]
    match.run_bots(spies)
    seen = [x for s in spies for x in s.live]
    assert seen and all(x is not needs for x in seen)


def test_bots_declare_what_they_need() -> None:
    kuhnah, lucent, nakum, pyramix = (make_game(g, 2) for g in ("kuhnah", "lucent", "nakum", "pyramix"))
    assert not make_bot("random", kuhnah, 0, 1).needs_determinisation
    assert make_bot("ismcts", kuhnah, 0, 1).needs_determinisation
    assert not make_bot("greedy", kuhnah, 0, 1).needs_determinisation  # its heuristic reads only its view
    assert make_bot("greedy", lucent, 0, 1).needs_determinisation  # it weighs the others' (redrawn) hands
    assert make_bot("greedy", nakum, 0, 1).needs_determinisation  # at setup it resolves the others' choices
    assert not make_bot("greedy", pyramix, 0, 1).needs_determinisation  # nothing is hidden


@pytest.mark.parametrize("game_id", [g for g in game_ids() if not get_game(g).heuristic_needs_determinisation])
def test_view_only_heuristics_choose_the_same_on_every_determinisation(game_id: str) -> None:
    """A heuristic declared to read only its player's view must not notice what a resample redraws."""
    spec = get_game(game_id).game_class.spec
    checked = 0
    for players in spec.player_counts:
        game = make_game(game_id, players)
        for seed in range(4):
            match = Match(game, seed)
            match.resolve_chance()
            rng = random.Random(seed)
            while not match.state.is_terminal():
                state = match.state
                for p in state.players_to_move():  # one by one: later ones face hidden pending choices
                    bot = GreedyBot(game, p, seed)
                    assert not bot.needs_determinisation
                    live = bot.heuristic(state, p, random.Random(checked))
                    for k in range(3):
                        det = state.resample(p, random.Random(f"{seed}/{k}/{checked}"))
                        assert bot.heuristic(det, p, random.Random(checked)) == live
                    checked += 1
                    legal = state.legal_actions(p)
                    state.apply_action(legal[int(rng.random() * len(legal))], p)
                match.resolve_chance()
    assert checked > 100
