"""The evaluation hook (``GameEntry.value``) and IS-MCTS playouts cut short and judged by it."""

from __future__ import annotations

import pytest

from tests.bots.toy import ToyGame
from ziggurat.bots.greedy import evaluator_for, position_value
from ziggurat.bots.ismcts import ISMCTSBot
from ziggurat.core import CHANCE, TERMINAL, Match, game_ids, get_game, make_bot, make_game, seeded_rng
from ziggurat.games.nakum.rules import NakumState


@pytest.mark.parametrize("game_id", game_ids())
def test_every_game_registers_a_value_equal_to_the_final_score_at_the_end(game_id: str) -> None:
    value = get_game(game_id).value
    assert value is not None
    for players in sorted({2, get_game(game_id).game_class.spec.max_players}):
        g = make_game(game_id, players)
        m = Match(g, 11)
        seen_unfinished = 0
        while not m.state.is_terminal():
            m.resolve_chance()
            if m.state.is_terminal():
                break
            for p in range(players):  # defined everywhere, and a number
                assert isinstance(value(m.state, p), float)
            seen_unfinished += 1
            p = m.state.players_to_move()[0]
            legal = m.state.legal_actions(p)
            m.apply(legal[seeded_rng(seen_unfinished).randrange(len(legal))], p)
        scores = m.state.scores()
        assert [value(m.state, p) for p in range(players)] == pytest.approx(list(scores))


def test_position_value_is_the_margin_over_the_best_opponent_with_the_score_direction() -> None:
    g = make_game("kuhnah", 3)  # lower scores win in K'uh Nah
    m = Match(g, 2)
    m.run_bots(["greedy"] * 3)
    scores = m.state.scores()
    for p in range(3):
        best_other = min(scores[q] for q in range(3) if q != p)
        assert position_value(m.state, p) == pytest.approx(best_other - scores[p])


def test_an_unregistered_game_is_valued_by_its_final_scores_only() -> None:
    g = ToyGame(2)
    value = evaluator_for(g)
    s = g.new_initial_state()
    assert value(s, 0) == 0.0
    m = Match(g, 1)
    m.run_bots(["random", "random"])
    assert [value(m.state, p) for p in range(2)] == list(m.state.scores())


def test_nakum_value_counts_resources_and_workers_before_the_end() -> None:
    g = make_game("nakum", 2)
    m = Match(g, 3)
    m.resolve_chance()
    while m.state.current_player() != 0:  # past the simultaneous heritage choice, player 1 to place
        mover = m.state.players_to_move()[0]
        m.apply(m.state.legal_actions(mover)[0], mover)
        m.resolve_chance()
    s = m.state
    assert isinstance(s, NakumState)
    value = get_game("nakum").value
    assert value is not None
    richer = s.clone()
    assert isinstance(richer, NakumState)
    richer.res[0] += 3  # three more maize: a point's worth in storage
    assert value(richer, 0) > value(s, 0)
    assert value(richer, 1) == value(s, 1)


def test_cut_chance_stops_playouts_at_the_next_chance_event() -> None:
    g = make_game("nakum", 2)
    m = Match(g, 5)
    m.resolve_chance()
    p = m.state.players_to_move()[0]
    bot = ISMCTSBot(g, p, seed=1, iterations=10)
    assert bot.stop_at_chance  # Nakum's registered default
    for k in range(20):
        det = m.state.resample(p, seeded_rng(k))
        bot._playout(det)
        assert det.current_player() in (CHANCE, TERMINAL)
    end = ISMCTSBot(g, p, seed=1, iterations=10, cut="end")  # a user's option wins
    assert not end.stop_at_chance
    det = m.state.resample(p, seeded_rng(0))
    end._playout(det)
    assert det.is_terminal()


def test_depth_zero_judges_the_leaf_and_still_plays_legal_moves() -> None:
    g = make_game("kukulkan", 2)
    m = Match(g, 4)
    bots = [make_bot("ismcts", g, 0, 1, iterations=30, depth=0), make_bot("greedy", g, 1, 1)]
    m.run_bots(bots)
    assert m.state.is_terminal()


def test_bad_cut_and_depth_are_refused() -> None:
    g = make_game("nakum", 2)
    for bad in ({"cut": "night"}, {"depth": -1}, {"depth": "deep"}):
        with pytest.raises(ValueError, match="ismcts option"):
            make_bot("ismcts", g, 0, 1, **bad)
