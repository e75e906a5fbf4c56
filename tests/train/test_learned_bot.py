"""The ``learned`` bot: plays only legal moves from its seat's view, repeats by seed, refuses bad policy files."""

from __future__ import annotations

import json
import random
import zipfile
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

pytest.importorskip("torch")

import itertools

from ziggurat.analysis.report import arena_summary
from ziggurat.analysis.simulate import Setup, arena, check_bots, play_game
from ziggurat.bots.learned import (
    LearnedBot,
    load_policy,
    save_policy,
    shipped_policy,
)
from ziggurat.cli.main import app
from ziggurat.core import CHANCE, TERMINAL, Match, ZigguratError, make_bot, make_game
from ziggurat.core.errors import ConfigError
from ziggurat.core.game import Game
from ziggurat.interop.encoding import tensor_size

SHIPPED = shipped_policy("kuhnah", 2)


def random_policy(game: Game, path: Path, seed: int = 0, hidden: int = 32) -> Path:
    """An untrained network of the right shape for ``game`` (scores at random, so its moves test the mask)."""
    rng = np.random.default_rng(seed)
    sizes = [tensor_size(game), hidden, game.num_actions]
    weights = [rng.normal(0, 1, (b, a)).astype(np.float32) for a, b in itertools.pairwise(sizes)]
    biases = [rng.normal(0, 1, b).astype(np.float32) for b in sizes[1:]]
    meta = {"game": game.spec.id, "players": game.num_players, "options": game.params()["options"]}
    return save_policy(path, weights, biases, "relu", meta)


def test_the_shipped_policy_is_small_and_fits_kuhnah_for_two() -> None:
    assert SHIPPED.is_file() and SHIPPED.stat().st_size < 2_000_000
    policy = load_policy(SHIPPED)
    policy.check_fits(make_game("kuhnah", 2))
    assert policy.meta["trained"]["steps"] > 0
    with pytest.raises(ConfigError, match="trained for kuhnah with 2 players, not kuhnah with 3"):
        policy.check_fits(make_game("kuhnah", 3))


@pytest.mark.parametrize(("game_id", "players"), [("kuhnah", 2), ("kuhnah", 3), ("pyramix", 2), ("lucent", 4)])
def test_plays_only_legal_moves_in_arena_games(
    game_id: str, players: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = make_game(game_id, players)
    path = SHIPPED if (game_id, players) == ("kuhnah", 2) else random_policy(game, tmp_path / "p.npz")
    seen: list[bool] = []
    choose = LearnedBot.choose

    def checked(self: LearnedBot, state: object) -> int:
        action = choose(self, state)  # type: ignore[arg-type]
        seen.append(action in state.legal_actions(self.player))  # type: ignore[attr-defined]
        return action

    monkeypatch.setattr(LearnedBot, "choose", checked)
    result = arena(Setup(game_id, players), ["learned", "random"], 6, seed=5, bot_options={"learned": {"path": path}})
    rows = result.table.rows()
    assert len(rows) >= 6 and all(r["winners"] for r in rows)  # every game played to its end (seats rotated)
    assert seen and all(seen)


def test_decides_from_its_seat_view_alone() -> None:
    """Any state its seat cannot tell from the real one (a redraw of the hidden cards) gets the same move."""
    game = make_game("kuhnah", 2)
    rng = random.Random(1)
    for seed in range(2):
        match = Match(game, seed)
        bots = [make_bot("learned", game, p, seed) for p in range(2)]
        state = match.state
        moves = 0
        while state.current_player() != TERMINAL:
            p = state.current_player()
            if p == CHANCE:
                match.resolve_chance()
                continue
            bot = bots[p]
            action = bot.choose(state)
            for _ in range(1 + moves % 2):
                other = state.resample(p, rng)
                assert other.view(p) == state.view(p)
                assert np.array_equal(bot.scores(other), bot.scores(state))
                assert bot.choose(other) == action
            match.apply(action, p)
            moves += 1
        assert moves > 10


def test_seeded_runs_repeat_exactly(tmp_path: Path) -> None:
    game = make_game("kuhnah", 2)
    for opts in ({}, {"sample": "true"}):
        rows = [play_game(game, ["learned", "random"], seed, {"learned": opts}) for seed in (3, 3)]
        assert rows[0] == rows[1]
    sampled = [play_game(game, ["learned", "learned"], s, {"learned": {"sample": True}}) for s in range(2)]
    greedy = [play_game(game, ["learned", "learned"], s) for s in range(2)]
    assert sampled != greedy  # sampling does draw from the bot's stream


def test_the_trained_policy_beats_random() -> None:
    result = arena(Setup("kuhnah", 2), ["learned", "random"], 60, seed=11)
    win = arena_summary(result)["bots"]["learned"]["win"]
    assert win["low"] > 0.6, win


def corrupt_files(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    game = make_game("kuhnah", 2)
    good = load_policy(SHIPPED)
    cases: dict[str, tuple[Path, str]] = {}

    def npz(name: str, **arrays: np.ndarray) -> Path:
        p = tmp_path / f"{name}.npz"
        np.savez(p, **arrays)
        return p

    meta = dict(good.meta)
    cases["missing"] = (tmp_path / "nowhere.npz", "no policy file at")
    cases["folder"] = (tmp_path, "it is a folder")
    (tmp_path / "text.npz").write_text("not a policy at all")
    cases["text"] = (tmp_path / "text.npz", "is not a policy file (unreadable")
    truncated = tmp_path / "truncated.npz"
    truncated.write_bytes(SHIPPED.read_bytes()[:5000])
    cases["truncated"] = (truncated, "is not a policy file")
    arrays = {f"w{i}": w for i, w in enumerate(good.weights)} | {f"b{i}": b for i, b in enumerate(good.biases)}
    cases["no meta"] = (npz("nometa", **arrays), "no readable meta")
    cases["other format"] = (npz("fmt", meta=np.array(json.dumps({**meta, "format": "x"})), **arrays), "format")
    cases["version"] = (npz("ver", meta=np.array(json.dumps({**meta, "version": 9})), **arrays), "version 9")
    cases["missing layer"] = (npz("layer", meta=np.array(json.dumps(meta)), w0=good.weights[0]), "layer 0 is missing")
    bad = dict(arrays, w1=good.weights[1][:, :5].copy())
    cases["shapes"] = (npz("shapes", meta=np.array(json.dumps(meta)), **bad), "layer 1 reads 5 values")
    nan = dict(arrays, b2=np.full_like(good.biases[2], np.nan))
    cases["nan"] = (npz("nan", meta=np.array(json.dumps(meta)), **nan), "not finite")
    pickled = tmp_path / "pickled.npz"
    np.savez(pickled, meta=np.array([{"format": "ziggurat-policy"}], dtype=object), **arrays)
    cases["pickle"] = (pickled, "is not a policy file")
    other = random_policy(make_game("pyramix", 2), tmp_path / "pyramix.npz")
    cases["other game"] = (other, "trained for pyramix with 2 players, not kuhnah")
    assert game.spec.id == "kuhnah"
    return cases


def test_refuses_missing_and_corrupt_policy_files_clearly(tmp_path: Path) -> None:
    game = make_game("kuhnah", 2)
    for name, (path, words) in corrupt_files(tmp_path).items():
        with pytest.raises(ConfigError, match=None) as err:
            make_bot("learned", game, 0, 0, path=str(path))
        assert words in str(err.value), (name, str(err.value))
        with pytest.raises(ZigguratError, match="bad option for bot 'learned'"):
            check_bots(game, ["learned", "random"], {"learned": {"path": str(path)}})
    assert zipfile.is_zipfile(SHIPPED)


def test_bad_options_are_refused() -> None:
    game = make_game("kuhnah", 2)
    with pytest.raises(ConfigError, match="sample takes true or false"):
        make_bot("learned", game, 0, 0, sample="maybe")
    with pytest.raises(TypeError, match="takes no parameters"):
        make_bot("learned", game, 0, 0, temperature=2)
    with pytest.raises(ConfigError, match="no policy is shipped for pyramix with 2 players"):
        make_bot("learned", make_game("pyramix", 2), 0, 0)


def test_arena_command_seats_it_and_reports_a_missing_file(tmp_path: Path) -> None:
    runner = CliRunner()
    ok = runner.invoke(app, ["arena", "kuhnah", "--bots", "learned,random", "--games", "4", "--jobs", "1"])
    assert ok.exit_code == 0, ok.output
    assert "learned" in ok.output
    missing = tmp_path / "gone.npz"
    args = ["arena", "kuhnah", "--bots", "learned,random", "--games", "2", "-b", f"learned.path={missing}"]
    bad = runner.invoke(app, args)
    assert bad.exit_code != 0
    assert "no policy file at" in bad.output and "gone.npz" in bad.output
