"""Simulation runs: determinism across job counts and backends, statistics, reports."""

from __future__ import annotations

from pathlib import Path

import pytest

from ziggurat.analysis.report import arena_summary, summarise, write_csv, write_report
from ziggurat.analysis.runfiles import read_rows
from ziggurat.analysis.simulate import Setup, arena, arena_tasks, game_seed, seat_lineup, simulate, variant_setups
from ziggurat.analysis.stats import bradley_terry, wilson
from ziggurat.core import ZigguratError, game_ids


def test_wilson_interval() -> None:
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and 0.25 < hi < 0.35
    lo, hi = wilson(10, 10)
    assert hi == 1.0 and 0.65 < lo < 0.75
    lo, hi = wilson(50, 100)
    assert lo < 0.5 < hi and abs((lo + hi) / 2 - 0.5) < 1e-9
    assert wilson(0, 0) == (0.0, 1.0)


def test_bradley_terry_orders_and_stays_finite() -> None:
    wins = {("a", "b"): 20.0, ("b", "a"): 0.0, ("b", "c"): 15.0, ("c", "b"): 5.0, ("a", "c"): 20.0}
    r = bradley_terry(["a", "b", "c"], wins)
    assert r["a"] > r["b"] > r["c"]
    assert abs(sum(r.values()) / 3 - 1500) < 1e-6
    even = bradley_terry(["x", "y"], {("x", "y"): 10.0, ("y", "x"): 10.0})
    assert abs(even["x"] - even["y"]) < 1e-6


def test_game_seeds_and_lineups() -> None:
    assert len({game_seed(1, i) for i in range(1000)}) == 1000
    assert seat_lineup(["a", "b"], 2, 0, rotate=False) == ("a", "b")
    assert seat_lineup(["a", "b"], 2, 1, rotate=True) == ("b", "a")
    tasks = arena_tasks(["x", "y", "z"], 2, 4)
    assert len(tasks) == 12 and tasks[1].seats == ("y", "x")
    with pytest.raises(ZigguratError):
        arena_tasks(["x", "x"], 2, 4)


@pytest.mark.parametrize("game_id", game_ids())
def test_same_seed_same_csv_for_one_and_two_jobs(game_id: str, tmp_path: Path) -> None:
    setup = Setup(game_id, 2)
    a = simulate(setup, ["random", "greedy"], games=10, seed=11, jobs=1, rotate=True)
    b = simulate(setup, ["random", "greedy"], games=10, seed=11, jobs=2, rotate=True)
    write_csv(a.rows, tmp_path / "a.csv")
    write_csv(b.rows, tmp_path / "b.csv")
    assert (tmp_path / "a.csv").read_bytes() == (tmp_path / "b.csv").read_bytes()
    c = simulate(setup, ["random", "greedy"], games=10, seed=12, jobs=1, rotate=True)
    assert c.rows != a.rows


def test_variant_comparison_uses_the_same_seeds() -> None:
    setups = variant_setups("kuhnah", 2, {}, compare=True)
    assert [s.label for s in setups] == ["base", "jade-wild"]
    result = simulate(setups, ["random"], games=6, seed=3)
    seeds = [r["seed"] for r in result.rows]
    assert seeds[:6] == seeds[6:]
    summary = summarise(result, lower_wins=True)
    assert set(summary["setups"]) == {"base", "jade-wild"}
    assert summary["setups"]["base"]["games"] == 6


def test_variant_comparison_leaves_out_variants_that_cannot_be_combined() -> None:
    labels = [s.label for s in variant_setups("lucent", 3, {"geomancers": True}, compare=True)]
    assert labels == ["geomancers", "geomancers+wildcards", "geomancers+points"]
    labels = [s.label for s in variant_setups("lucent", 3, {}, compare=True)]
    assert labels == ["base", "wildcards", "geomancers", "geomancer-focus", "points"]


def test_report_and_plots_are_written(tmp_path: Path) -> None:
    setups = variant_setups("kuhnah", 2, {}, compare=True)
    result = simulate(setups, ["random", "greedy"], games=20, seed=1)
    summary = write_report(result, tmp_path, "K'uh Nah test", lower_wins=True)
    for name in (
        "games.csv",
        "summary.json",
        "report.html",
        "seat_win_rates.png",
        "scores.png",
        "margins.png",
        "length.png",
    ):
        assert (tmp_path / name).stat().st_size > 0, name
    assert (tmp_path / "seat_win_rates.png").read_bytes()[:4] == b"\x89PNG"
    html = (tmp_path / "report.html").read_text()
    assert "data:image/png;base64," in html and "Variants compared" in html
    seats = summary["setups"]["base"]["seats"]
    assert seats[1]["win"]["rate"] > seats[0]["win"]["rate"]  # greedy sits in seat 2
    assert len((tmp_path / "games.csv").read_text().splitlines()) == 41
    assert all(r["end"] == "quarry-empty" for r in result.rows)
    assert summary["setups"]["base"]["ends"]["quarry-empty"]["rate"] == 1.0
    assert "How the games ended" in html and "the deck ran out and the Quarry could not be refilled" in html


def test_the_report_shows_the_share_of_each_end_per_setup(tmp_path: Path) -> None:
    """Nakum ends by a second offering or, as a safeguard, by its round limit: both are counted per setup."""
    setups = [Setup("nakum", 2, {}, "fifty rounds"), Setup("nakum", 2, {"max-rounds": 3}, "three rounds")]
    result = simulate(setups, ["random"], games=12, seed=2)
    assert {r["end"] for r in result.rows} <= {"second-offering", "round-limit"}
    summary = write_report(result, tmp_path, "Nakum ends")
    short = summary["setups"]["three rounds"]["ends"]
    assert short["round-limit"]["rate"] == 1.0 and short["round-limit"]["n"] == 12
    assert summary["ends"]["round-limit"] == {
        "text": "the round limit was reached (a safeguard, not a rule of the game)",
        "printed": False,
    }
    assert summary["setups"]["fifty rounds"]["ends"]["second-offering"]["rate"] > 0.5
    html = (tmp_path / "report.html").read_text()
    assert "round-limit 100.0%" in html  # the variants table
    rows = read_rows(tmp_path / "games.csv")
    assert [r["end"] for r in rows] == [r["end"] for r in result.rows]


def test_arena_summary_rates_the_stronger_bot_higher() -> None:
    result = arena(Setup("kuhnah", 2), ["greedy", "random"], games=20, seed=2)
    s = arena_summary(result)
    assert s["games"] == 20
    assert s["bots"]["greedy"]["rating"] > s["bots"]["random"]["rating"]
    assert s["bots"]["greedy"]["win"]["rate"] > 0.75
    assert "greedy vs random" in s["head_to_head"]


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_ray_backend_matches_process_backend() -> None:
    ray = pytest.importorskip("ray")
    setup = Setup("kuhnah", 2)
    local = simulate(setup, ["random", "greedy"], games=12, seed=5, jobs=2, rotate=True)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        remote = simulate(setup, ["random", "greedy"], games=12, seed=5, jobs=2, rotate=True, backend="ray")
    finally:
        ray.shutdown()
    assert remote.rows == local.rows
