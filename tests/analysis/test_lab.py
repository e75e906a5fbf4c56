"""The designer's lab: sweeps on common random numbers and the quality measures."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from ziggurat.analysis.measures import (
    PLAY_MEASURES,
    follow_game,
    measure_setups,
    result_measures,
    score_path_measures,
    uncertainty,
)
from ziggurat.analysis.simulate import Setup, simulate
from ziggurat.analysis.sweep import plot_sweep, sweep_html, sweep_rows, sweep_setups
from ziggurat.core import ZigguratError, make_game


def row(winners: str, scores: list[float], length: int = 10) -> dict[str, object]:
    r: dict[str, object] = {"players": len(scores), "winners": winners, "length": length}
    for p, s in enumerate(scores):
        r[f"p{p + 1}_score"] = s
    return r


def test_result_measures_by_hand() -> None:
    rows = [row("1", [5, 3]), row("1", [6, 2]), row("2", [1, 4]), row("1;2", [3, 3])]
    m = result_measures(rows, lower_wins=False)
    # seat 1 wins 1 + 1 + 0.5 of 4 games: 62.5%, less the fair 50%
    assert m["seat1_advantage"]["mean"] == pytest.approx(0.125)
    assert m["seat1_advantage"]["low"] < 0.125 < m["seat1_advantage"]["high"]
    # seat 2 wins 1.5 of 4: balance 1 - (0.625 - 0.375)
    assert m["balance"]["mean"] == pytest.approx(0.75) and m["balance"]["low"] <= 0.75 <= m["balance"]["high"]
    assert m["margin"]["mean"] == pytest.approx((2 + 4 + 3 + 0) / 4)
    assert m["shared_wins"]["mean"] == pytest.approx(0.25) and m["length"]["mean"] == 10
    low = result_measures([row("2", [5, 3])], lower_wins=True)
    assert low["margin"]["mean"] == 2 and math.isnan(low["length"]["low"])
    assert "seat1_advantage" not in result_measures([row("1", [5])], lower_wins=False)


def test_score_path_measures_by_hand() -> None:
    # seat 1 leads, a tie, seat 2 leads to the end and wins
    m = score_path_measures([[2, 0], [2, 2], [2, 3], [2, 5]], winner=1, lower_wins=False)
    assert m["lead_changes"] == 1 and m["lead_change_rate"] == pytest.approx(1 / 3)
    assert m["decided_share"] == pytest.approx(0.5) and m["winner_behind"] == pytest.approx(0.5)
    assert m["drama"] == pytest.approx((2 + 0) / 2)  # behind by 2, then level (not alone in the lead)
    # lower wins: the lowest score leads
    low = score_path_measures([[1, 4], [5, 4]], winner=1, lower_wins=True)
    assert low["lead_changes"] == 1 and low["drama"] == 3 and low["decided_share"] == 0.5
    # a shared win has no single winner: never decided, the winner never leads
    shared = score_path_measures([[1, 0], [1, 1]], winner=-1, lower_wins=False)
    assert shared["decided_share"] == 0 and shared["drama"] == 0 and shared["winner_behind"] == 1
    assert score_path_measures([], winner=0, lower_wins=False)["length"] == 0


def test_uncertainty_by_hand() -> None:
    # a tie (certainty 0); seat 1 ahead by 1 while seat 2 still gains 2 on it (1/2); a lead nobody touches (1)
    assert uncertainty([[0, 0], [1, 0], [1, 2]], lower_wins=False) == pytest.approx(1 - 1.5 / 3)
    # a lead of 4 against a later swing of 2 is safe: capped at 1
    assert uncertainty([[4, 0], [4, 2]], lower_wins=False) == 0
    # ties all game long: never certain
    assert uncertainty([[0, 0, 0], [1, 1, 1]], lower_wins=False) == 1
    # lower wins: seat 2 leads with 1 against 3; seat 1 later gains 1 on it (3 -> 2 while seat 2 stays): 1/1 capped
    assert uncertainty([[3, 1], [2, 1]], lower_wins=True) == 0
    assert uncertainty([[3, 1], [0, 1]], lower_wins=True) == pytest.approx(1 - (2 / 3 + 1) / 2)
    assert uncertainty([], lower_wins=False) == 0
    m = score_path_measures([[0, 0], [1, 0], [1, 2]], winner=1, lower_wins=False)
    assert m["uncertainty"] == pytest.approx(0.5)


def test_kingmaking_is_a_rate_with_wilsons_interval() -> None:
    from ziggurat.analysis.measures import _play_summary

    games = [{name: 0.0 for name in PLAY_MEASURES} for _ in range(20)]
    games[0]["kingmaking"] = 1.0
    k = _play_summary(games)["kingmaking"]
    assert k["mean"] == pytest.approx(0.05) and 0 < k["low"] < 0.05 < k["high"] and k["n"] == 20


def test_kingmaking_by_hand() -> None:
    # three seats: seat 1 leads; seat 3 (trailing, and not the winner) moves and seat 2 leads for good
    path = [[3, 1, 0], [3, 1, 0], [1, 2, 0], [1, 2, 1]]
    assert score_path_measures(path, winner=1, lower_wins=False, actors=[0, 1, 2, 0])["kingmaking"] == 1
    # the same lead made by the winner's own move is no kingmaking
    assert score_path_measures(path, winner=1, lower_wins=False, actors=[0, 2, 1, 0])["kingmaking"] == 0
    # nor by the leader's (it was not trailing: it lost the lead by its own move)
    assert score_path_measures(path, winner=1, lower_wins=False, actors=[0, 1, 0, 2])["kingmaking"] == 0
    # a simultaneous round (decisions 1 and 2 together): the winner chose in it too, so it is no kingmaking
    rounds = [0, 1, 1, 2]
    path2 = [[3, 1, 0], [3, 1, 0], [1, 2, 0], [1, 2, 1]]
    assert score_path_measures(path2, 1, False, actors=[0, 1, 2, 0], groups=rounds)["kingmaking"] == 0
    assert score_path_measures(path2, 1, False, actors=[0, 2, 2, 0], groups=rounds)["kingmaking"] == 1
    assert score_path_measures(path2, 1, False, actors=[0, 0, 2, 0], groups=rounds)["kingmaking"] == 0  # the leader's
    # two seats: a trailing player chooses between itself and the other, never a king
    two = [[3, 1], [1, 2]]
    assert score_path_measures(two, winner=1, lower_wins=False, actors=[0, 0])["kingmaking"] == 0
    # a shared win, or no actors given: 0
    assert score_path_measures(path, winner=-1, lower_wins=False, actors=[0, 2, 2, 0])["kingmaking"] == 0
    assert score_path_measures(path, winner=1, lower_wins=False)["kingmaking"] == 0


@pytest.mark.parametrize(("gid", "players"), [("kuhnah", 3), ("pyramix", 2), ("lucent", 3), ("kukulkan", 2),
                                               ("nakum", 2)])  # fmt: skip
def test_follow_game_measures_every_game(gid: str, players: int) -> None:
    m = follow_game(make_game(gid, players), ("random",) * players, seed=7)
    assert set(m) == set(PLAY_MEASURES)
    assert m["length"] >= 1 and m["branching"] >= 1
    assert 0 <= m["decided_share"] <= 1 and 0 <= m["winner_behind"] <= 1 and m["lead_changes"] >= 0
    assert 0 <= m["uncertainty"] <= 1 and m["kingmaking"] in (0, 1)
    assert m == follow_game(make_game(gid, players), ("random",) * players, seed=7)


def test_follow_game_length_matches_simulate() -> None:
    """The measured games are simulate's games: game g of a setup has simulate's seed g."""
    setup = Setup("kuhnah", 2)
    rows = simulate(setup, ["random"], games=6, seed=3).rows
    from ziggurat.analysis.simulate import game_seed

    for r in rows:
        m = follow_game(setup.make(), ("random", "random"), game_seed(3, int(r["game"])))
        assert m["length"] == r["length"]


def test_measure_setups_is_the_same_for_any_job_count() -> None:
    setups = sweep_setups(make_game("kuhnah", 2), [("start-jade", [2, 8])])
    one = measure_setups(setups, ["random"], games=6, seed=1, jobs=1)
    two = measure_setups(setups, ["random"], games=6, seed=1, jobs=2)
    assert one == two and list(one) == ["start-jade=2", "start-jade=8"]
    assert one["start-jade=2"]["length"]["mean"] < one["start-jade=8"]["length"]["mean"]
    assert measure_setups(setups, ["random"], games=0) == {}


def test_a_sweep_plays_every_setting_on_the_same_seeds() -> None:
    base = make_game("kuhnah", 2, {"jade-wild": True})
    sweeps = [("start-jade", [4, 8]), ("remove-2", [19, 29])]
    setups = sweep_setups(base, sweeps)
    assert [s.label for s in setups] == ["start-jade=4 remove-2=19", "start-jade=4 remove-2=29",
                                         "start-jade=8 remove-2=19", "start-jade=8 remove-2=29"]  # fmt: skip
    assert all(s.options["jade-wild"] is True for s in setups)
    rows = simulate(setups, ["random"], games=5, seed=2).rows
    seeds = {}
    for r in rows:
        seeds.setdefault(r["game"], set()).add(r["seed"])
    assert len(seeds) == 5 and all(len(v) == 1 for v in seeds.values())  # common random numbers
    with pytest.raises(ZigguratError, match="setting ankhs=7 cannot be played"):
        sweep_setups(make_game("pyramix", 2), [("ankhs", [7])])
    with pytest.raises(ZigguratError, match="at least one"):
        sweep_setups(base, [])


def test_sweep_tables_and_plots(tmp_path: Path) -> None:
    setups = sweep_setups(make_game("kuhnah", 2), [("start-jade", [2, 8]), ("remove-2", [19, 29])])
    rows = simulate(setups, ["random"], games=20, seed=0).rows
    measured = {s.label: result_measures([r for r in rows if r["setup"] == s.label], True) for s in setups}
    play = measure_setups(setups, ["random"], games=4, seed=0)
    sweeps = [("start-jade", [2, 8]), ("remove-2", [19, 29])]
    head, body = sweep_rows(setups, sweeps, measured, play)
    assert head[:3] == ["start-jade", "remove-2", "seat1_advantage"] and "lead_changes" in head
    assert [b[:2] for b in body] == [["2", "19"], ["2", "29"], ["8", "19"], ["8", "29"]]
    assert all("[" in cell for cell in body[0][2:])  # every measure with its interval
    short_head, short = sweep_rows(setups, sweeps, measured, play, compact=True)
    assert "P1 adv %" in short_head and "±" in short[0][2]
    # the terminal's table keeps the measures of how a game plays, kingmaking and uncertainty included
    assert {"leads", "drama", "uncert.", "kingmaking %"} <= set(short_head)
    assert "Sweep" in sweep_html(setups, sweeps, measured, play)
    paths = plot_sweep(setups, sweeps, measured, play, tmp_path)
    names = {p.name for p in paths}
    assert "sweep_length_by_start-jade.png" in names and "sweep_drama_by_remove-2.png" in names
    assert all(p.stat().st_size > 1000 for p in paths)


def test_result_measures_from_counts_equal_those_from_rows() -> None:
    """A run too big to keep is measured from its counts, tallied chunk by chunk in any order: the same figures
    (intervals included) as from the rows held together."""
    from ziggurat.analysis.columns import GameTable
    from ziggurat.analysis.measures import tally_measures
    from ziggurat.analysis.tally import SetupTally

    setups = [Setup("kuhnah", 3, {}, "base")]
    rows = simulate(setups, ["random"], games=60, seed=3).rows
    whole = result_measures(rows, lower_wins=False, seed=5)
    tally = SetupTally(False)
    for part in (rows[40:], rows[:15], rows[15:40]):
        tally.add(GameTable.from_rows(part))
    assert tally_measures(tally, seed=5) == whole
    assert set(whole) == {"seat1_advantage", "balance", "length", "margin", "shared_wins"}
