"""Pyramix: rendering, observation tensor, greedy heuristic and registration."""

from __future__ import annotations

import random

from rich.console import Console

from tests.games.pyramix.helpers import build, full, game
from ziggurat.core import Bot, Match, get_game, random_playout
from ziggurat.games.pyramix import ENTRY, RULES
from ziggurat.games.pyramix.encode import tensor, tensor_size
from ziggurat.games.pyramix.heuristic import heuristic
from ziggurat.games.pyramix.render import render


def _text(view, player=None) -> str:
    console = Console(width=100, record=True, color_system=None)
    console.print(render(view, player))
    return console.export_text()


def test_registered():
    assert get_game("pyramix") is ENTRY
    assert ENTRY.heuristic is heuristic and ENTRY.tensor is tensor
    assert len(RULES.splitlines()) <= 24


def test_render_shows_labels_cubes_removable_and_collections():
    s = build(full(f1="ge", a1="co"))
    text = _text(s.view(0), 0)
    assert "f1 Ge*" in text
    assert "a1 Co" in text
    assert "layer a (tray)" in text and "layer f" in text
    assert "May take: " in text and "take " in text
    assert "P1 (you)" in text


def test_render_every_phase():
    g = game(4)
    s = g.new_initial_state()
    rng = random.Random(2)
    for _ in range(10):
        s.apply_action(s.sample_chance(rng))
    assert "next place a11" in _text(s.view(None))
    random_playout(s, rng)
    text = _text(s.view(None))
    assert "Final scores" in text and "rank" in text


def test_tensor_has_a_fixed_size_and_depends_on_the_view():
    for n in (2, 4):
        g = game(n)
        s = g.new_initial_state()
        rng = random.Random(n)
        sizes = set()
        while not s.is_terminal():
            sizes.add(len(tensor(g, s.view(0))))
            if s.is_chance_node():
                s.apply_action(s.sample_chance(rng))
            else:
                s.apply_action(s.legal_actions()[0])
        sizes.add(len(tensor(g, s.view(0))))
        assert sizes == {tensor_size(g)}


class _Greedy(Bot):
    name = "test-greedy"

    def choose(self, state):
        return heuristic(state, self.player, self.rng)


class _Random(Bot):
    name = "test-random"

    def choose(self, state):
        legal = state.legal_actions()
        return legal[int(self.rng.random() * len(legal))]


def test_greedy_clearly_beats_random():
    g = game(2)
    wins = 0
    for seed in range(12):
        seat = seed % 2
        bots = [_Greedy(g, 0, seed), _Random(g, 1, seed)] if seat == 0 else [_Random(g, 0, seed), _Greedy(g, 1, seed)]
        m = Match(g, seed=seed)
        m.run_bots(bots)
        ranks = m.state.outcome().ranks
        wins += ranks[seat] == 1 and ranks[1 - seat] == 2
    assert wins >= 10


def test_heuristic_returns_a_legal_move():
    s = build(full())
    assert heuristic(s, 0, random.Random(0)) in s.legal_actions()
