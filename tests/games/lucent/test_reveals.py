"""``reveals_hidden``: whether a play can show the mover something of a hand they cannot see (the undo rule).

After a play the next players are checked for a playable card; whoever has none
goes out. The hook must never say "nothing revealed" when what the mover sees
next depends on the hidden hands, and must depend only on what the mover sees.
"""

from __future__ import annotations

import random

import pytest

from ziggurat.core import make_game
from ziggurat.core.match import Match


def positions(players: int, options: dict, seed: int, games: int = 6):
    """(state, player, action) at every decision of a few random games."""
    rng = random.Random(seed)
    for g in range(games):
        match = Match(make_game("lucent", players, options), seed=seed * 100 + g)
        match.resolve_chance()
        state = match.state
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
                continue
            p = state.current_player()
            action = rng.choice(state.legal_actions(p))
            yield state.clone(), p, action
            state.apply_action(action, p)


@pytest.mark.parametrize(
    ("players", "options"), [(2, {}), (3, {}), (4, {"wildcards": True}), (5, {"geomancers": True})]
)
def test_a_play_said_to_reveal_nothing_shows_the_same_whatever_the_hidden_hands(players: int, options: dict) -> None:
    said_no = said_yes = differed = 0
    rng = random.Random(players)
    for state, p, action in positions(players, options, seed=players):
        answer = state.reveals_hidden(action, p)
        assert answer in (True, False)
        after = state.clone()
        after.apply_action(action, p)
        seen = after.view(p)
        views = []
        for _ in range(12):
            sample = state.resample(p, rng)
            sample.apply_action(action, p)
            views.append(sample.view(p))
        if not answer:
            said_no += 1
            assert all(v == seen for v in views), "said it reveals nothing, but the hidden hands change what is seen"
        else:
            said_yes += 1
            differed += any(v != seen for v in views)
        # the answer depends only on what the mover sees: the same for every redeal of the others' hands
        assert all(state.resample(p, rng).reveals_hidden(action, p) == answer for _ in range(3))
    if players == 2:  # the one other hand holds every card the mover cannot see: nothing is hidden
        assert said_yes == 0
    else:
        assert said_yes and differed, "some plays do show something, and the hook says so"
        assert said_no, "and some show nothing"


def test_the_next_player_going_out_is_a_reveal() -> None:
    for state, p, action in positions(3, {}, seed=11, games=20):
        after = state.clone()
        after.apply_action(action, p)
        went_out = [q for q in range(3) if after.out[q] and not state.out[q]]
        if went_out and after.phase == state.phase:
            assert state.reveals_hidden(action, p) is True
            return
    raise AssertionError("no player went out in twenty games")
