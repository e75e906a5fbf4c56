"""K'uh Nah's kernel: beyond the step-by-step replays of ``test_kernels.py``.

The replayed games must actually exercise the rules (support refused, a match
needed, the jaguar used, a wild half chosen, a player without jade), a user's
card list must work too, and the kernel's random play must be the engine's
random play in distribution.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("numba")

from tests.fast.helpers import replay_many
from ziggurat.core.match import random_playout
from ziggurat.core.registry import make_game
from ziggurat.fast import play_random, run_seeds, trace
from ziggurat.games.kuhnah.cards import load_cards
from ziggurat.games.kuhnah.rules import PLACE, ROW, TURN, KuhNahState


def _open_slots(state: KuhNahState, player: int) -> int:
    cells = state.cells[player]
    return sum(1 for key in cells if key + 1 in cells and key + ROW not in cells)


def test_replayed_games_exercise_every_rule() -> None:
    seen = dict.fromkeys(("refused", "match_needed", "jaguar_needed", "equal_matched", "wild", "must_take"), 0)
    for players, options in ((3, {}), (2, {"jade-wild": True}), (5, {})):
        game = make_game("kuhnah", players, options)
        g = game
        for seed in run_seeds(7, 0, 150):
            t = trace(game, int(seed))
            state = game.new_initial_state()
            for actor, action in t.history():
                assert isinstance(state, KuhNahState)
                if state.phase == TURN and state.jade[actor] == 0:
                    seen["must_take"] += 1
                if state.phase == PLACE:
                    upper = [a for a in state.legal_actions() if 6 <= a < g.wild_base]  # type: ignore[attr-defined]
                    if len(upper) < _open_slots(state, actor):
                        seen["refused"] += 1
                    if action >= g.wild_base:  # type: ignore[attr-defined]
                        seen["wild"] += 1
                    elif action >= 6:
                        row, col = state._slot(action)
                        key = row * ROW + col + state.base_left[actor] + 64
                        card = state.quarry[state.taken]
                        cells = state.cells[actor]
                        for support, mine, theirs in ((cells[key - ROW], 0, 1), (cells[key - ROW + 1], 1, 0)):
                            if g.value[support] <= g.value[card]:  # type: ignore[attr-defined]
                                seen["match_needed"] += 1
                                seen["equal_matched"] += g.value[support] == g.value[card]  # type: ignore[attr-defined]
                                syms = (g.left_symbol, g.right_symbol)  # type: ignore[attr-defined]
                                if syms[mine][card] != syms[theirs][support]:
                                    seen["jaguar_needed"] += 1
                state.apply_action(action, None if actor < 0 else actor)
            assert state.is_terminal() and not state.deck
    assert all(n > 0 for n in seen.values()), seen


def _squeezed_deck(tmp_path: Path) -> Path:
    """A user's card list with only five values (equal weights everywhere) and no wild animal."""
    lines = ['animals = ["bat", "monkey", "quetzal"]', ""]
    animals = ["bat", "monkey", "quetzal"]
    for i, card in enumerate(load_cards().cards):
        lines += ["[[card]]", f'id = "{card.id}"', f"value = {6 + (i // 2) % 5}",
                  f'left = "{animals[i % 3]}"', f'right = "{animals[(i // 3) % 3]}"', ""]  # fmt: skip
    path = tmp_path / "squeezed.toml"
    path.write_text("\n".join(lines))
    return path


@pytest.mark.parametrize("players", [2, 4])
def test_a_users_card_list_replays(tmp_path: Path, players: int) -> None:
    deck = str(_squeezed_deck(tmp_path))
    replay_many("kuhnah", players, {"deck": deck}, 200)
    replay_many("kuhnah", players, {"deck": deck, "jade-wild": True}, 100)


def test_chance_draws_every_card_alike() -> None:
    game = make_game("kuhnah", 3)
    counts = np.zeros(50)
    for seed in run_seeds(3, 0, 5000):
        counts[trace(game, int(seed)).actions[0]] += 1
    chi2 = ((counts - 100) ** 2 / 100).sum()
    assert chi2 < 95  # 49 degrees of freedom: p < 1e-4 above 95


def test_kernel_plays_like_the_engines_random_playouts() -> None:
    """Means of the kernel's 40,000 games within 4.5 standard errors of 2,000 engine playouts."""
    game = make_game("kuhnah", 3)
    rng = random.Random(11)
    lengths, scores = [], []
    for _ in range(2000):
        state = random_playout(game.new_initial_state(), rng)
        lengths.append(sum(1 for p, _ in state.history if p >= 0))
        scores.append(state.scores())
    engine_len = np.asarray(lengths, float)
    engine_scores = np.asarray(scores)
    batch = play_random(game, games=40_000, seed=11)
    for mine, theirs in [(batch.decisions.astype(float), engine_len)] + [
        (batch.scores[:, p], engine_scores[:, p]) for p in range(3)
    ]:
        se = np.sqrt(mine.var() / len(mine) + theirs.var() / len(theirs))
        assert abs(mine.mean() - theirs.mean()) < 4.5 * se, (mine.mean(), theirs.mean(), se)
