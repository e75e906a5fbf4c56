"""Kukulkán's kernel: beyond the step-by-step replays of ``test_kernels.py``.

The replayed games must actually exercise the rules (every help, the permanent
plus/minus one, a forced pass, trails refused at their start or at a dead end,
trails through drawn points, writes refused for not being lower, base blocks
waiting for their outline, every bonus, a first-to-claim bonus shared and then
closed, both ends of the game, ties broken and shared); a user's sheet must
work too; the replay must refuse a kernel that acts for a player who has
already chosen; and the kernel's random play must be the engine's in
distribution.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("numba")

from tests.fast.helpers import legal_set, replay_many
from ziggurat.core.errors import ZigguratError
from ziggurat.core.game import CHANCE
from ziggurat.core.kernel import Trace
from ziggurat.core.match import random_playout
from ziggurat.core.registry import make_game
from ziggurat.fast import kernel_for, play_random, replay, run_seeds, trace
from ziggurat.fast.driver import ReplayMismatch
from ziggurat.games.kukulkan.rules import (
    AC,
    BASE,
    BD,
    CHOOSE,
    END_BONUSES,
    END_NO_ROLL,
    END_ROUND_LIMIT,
    ENDS,
    H_NONE,
    K_DRAW,
    K_NONE,
    KukulkanState,
)

BONUSES = {"base": 1, "axis": 2, "full": 4, "A-C": AC, "B-D": BD}


def _fresh_checks(st: KukulkanState, p: int, legal: list[int], seen: Counter[str]) -> None:
    """What a decision before any help shows about the rules (``seen`` counts it)."""
    g = st.game
    n = st.p_val[p]
    drawn = st.drawn[p]
    if g.pass_id in legal and len(legal) > 1:
        seen["pass_beside_a_help"] += 1
    draws = [a for a in legal if a < g.write0]
    undrawn = g.S - drawn.bit_count()
    if 0 < len(draws) < undrawn:
        seen["start_refused"] += 1
    for b, t in st._writable(p):
        if t <= n and g.write0 + b not in legal:
            seen["write_not_lower_refused"] += 1
    closed = g.closed(drawn)
    for b in g.base_blocks:
        if st.values[p * g.B + b] == n and not st.marked[p] >> b & 1 and not closed >> b & 1:
            assert g.mark0 + b not in legal
            seen["base_mark_waits_for_outline"] += 1


def _draw_checks(st: KukulkanState, p: int, action: int, legal: list[int], seen: Counter[str]) -> None:
    g = st.game
    trail = st.p_trail[p]
    blocked = st.drawn[p] | st.p_mask[p]
    ends = g.seg_ends[trail[0]] if len(trail) == 1 else (st.p_end[p],)
    touching = {s for e in ends for s in g.sheet.point_segs[e] if not blocked >> s & 1}
    if touching - set(legal):
        seen["dead_end_refused"] += 1
    joint = set(g.seg_ends[action]) & set(ends)
    if any(st.drawn[p] >> s & 1 for e in joint for s in g.sheet.point_segs[e]):
        seen["through_a_drawn_point"] += 1
    visited = {e for s in trail for e in g.seg_ends[s]}
    if len(trail) > 1 and set(g.seg_ends[action]) - joint <= visited:
        seen["trail_back_to_its_own_point"] += 1


def _coverage(players: int, options: dict[str, object], games: int, seen: Counter[str]) -> None:
    game = make_game("kukulkan", players, options)
    g = game
    for seed in run_seeds(7, 0, games):
        t = trace(game, int(seed))
        st = game.new_initial_state()
        assert isinstance(st, KukulkanState)
        for i, (actor, action) in enumerate(t.history()):
            assert legal_set(st, actor) == t.legal_at(i), (seed, i)  # checked as the replay does
            if actor == CHANCE:
                st.apply_action(action)
                continue
            assert st.phase == CHOOSE
            if len(st.players_to_move()) > 1:
                seen["several_players_choosing"] += 1
            legal = st.legal_actions(actor)
            kind, help_ = st.p_kind[actor], st.p_help[actor]
            if kind == K_NONE and help_ == H_NONE:
                _fresh_checks(st, actor, legal, seen)
            if action < g.write0 and kind == K_DRAW:  # type: ignore[attr-defined]
                _draw_checks(st, actor, action, legal, seen)
            if action == g.pass_id:  # type: ignore[attr-defined]
                seen["pass"] += 1
            elif action == g.same_id:  # type: ignore[attr-defined]
                seen["same_value"] += 1
            elif g.plus0 <= action < g.super0:  # type: ignore[attr-defined]
                seen["permanent_plus_minus" if st.claims[actor] & BASE else "plus_minus"] += 1
            elif action >= g.super0:  # type: ignore[attr-defined]
                seen["super_six"] += 1
            before = list(st.claims)
            st.apply_action(action, actor)
            if st.phase != CHOOSE:  # the round resolved: bonuses
                for bit in (AC, BD):
                    new = [p for p in range(players) if st.claims[p] & bit and not before[p] & bit]
                    seen["first_to_claim_shared"] += len(new) > 1
                    if any(before[p] & bit for p in range(players)):
                        pair = g.ac_mask if bit == AC else g.bd_mask  # type: ignore[attr-defined]
                        late = [p for p in range(players) if st.marked[p] & pair == pair and not st.claims[p] & bit]
                        seen["first_to_claim_closed"] += bool(late)
        assert st.is_terminal()
        assert st.end in (END_BONUSES, END_NO_ROLL, END_ROUND_LIMIT)
        seen[f"end_{ENDS[st.end].code}"] += 1
        for name, bit in BONUSES.items():
            seen[f"bonus_{name}"] += sum(1 for c in st.claims if c & bit)
        out = st.outcome()
        for p in range(players):
            for q in range(p + 1, players):
                if out.scores[p] == out.scores[q]:
                    seen["tie_shared" if out.ranks[p] == out.ranks[q] else "tie_broken_by_marks"] += 1


def test_replayed_games_exercise_every_rule() -> None:
    seen: Counter[str] = Counter()
    for players, games in ((1, 150), (3, 120), (6, 40)):
        _coverage(players, {}, games, seen)
    _coverage(2, {"max-rounds": 60}, 40, seen)
    expected = [
        "several_players_choosing", "pass", "pass_beside_a_help", "same_value", "plus_minus",
        "permanent_plus_minus", "super_six", "start_refused", "dead_end_refused", "through_a_drawn_point",
        "trail_back_to_its_own_point", "write_not_lower_refused", "base_mark_waits_for_outline",
        "first_to_claim_shared", "first_to_claim_closed", "end_bonuses", "end_no-usable-roll", "end_round-limit",
        "tie_shared", "tie_broken_by_marks", *[f"bonus_{name}" for name in BONUSES],
    ]  # fmt: skip
    missing = [name for name in expected if not seen[name]]
    assert not missing, (missing, dict(seen))


SMALL_SHEET = """\
name = "A small test pyramid"
[[block]]
row = 0
span = [0, 2]
value = 3
[[block]]
row = 0
span = [2, 4]
value = 6
axis = true
[[block]]
row = 0
span = [4, 6]
value = 2
[[block]]
row = 1
span = [1, 2]
label = "C"
[[block]]
row = 1
span = [2, 4]
axis = true
[[block]]
row = 1
span = [4, 5]
label = "D"
[[block]]
row = 2
span = [1, 3]
label = "A"
[[block]]
row = 2
span = [3, 5]
label = "B"
[[block]]
row = 3
span = [2, 4]
axis = true
"""


@pytest.mark.parametrize("players", [1, 2, 5])
def test_a_users_sheet_replays(tmp_path: Path, players: int) -> None:
    path = tmp_path / "small.toml"
    path.write_text(SMALL_SHEET)
    assert replay_many("kukulkan", players, {"sheet": str(path)}, 150) > 0
    batch = play_random("kukulkan", players, 2000, seed=1, options={"sheet": str(path)})
    assert batch.scores.max() > 0


def test_a_sheet_too_large_for_the_kernel_is_a_clear_error(tmp_path: Path) -> None:
    blocks = [f"[[block]]\nrow = 0\nspan = [{2 * i}, {2 * i + 2}]\nvalue = 4\n" for i in range(20)]
    blocks += [f'[[block]]\nrow = 1\nspan = [{2 * i + 1}, {2 * i + 3}]\nlabel = "{x}"\n' for i, x in enumerate("ABCD")]
    blocks.append("[[block]]\nrow = 1\nspan = [9, 11]\naxis = true\n")
    path = tmp_path / "wide.toml"
    path.write_text("\n".join(blocks))
    game = make_game("kukulkan", 2, {"sheet": str(path)})
    with pytest.raises(ZigguratError, match="at most 63"):
        kernel_for(game)


def test_the_replay_refuses_a_player_who_has_already_chosen() -> None:
    game = make_game("kukulkan", 3)
    t = trace(game, int(run_seeds(1, 0, 1)[0]))
    # the round resolves after its last decision: every other player has chosen by then
    end = next(i for i in range(1, len(t) - 1) if t.actors[i + 1] == CHANCE)
    done = next(p for p in range(3) if p != t.actors[end])
    actors = t.actors.copy()
    actors[end] = done
    bad = Trace(actors, t.actions, t.offsets, t.legal, t.scores, t.ranks, t.end)
    with pytest.raises(ReplayMismatch, match=f"step {end}: the kernel has actor {done}, the engine waits for"):
        replay(game, bad)


def test_the_die_shows_every_face_alike() -> None:
    game = make_game("kukulkan", 2)
    counts = np.zeros(6)
    for seed in run_seeds(3, 0, 600):
        t = trace(game, int(seed))
        rolls = t.actions[t.actors == CHANCE]
        counts += np.bincount(rolls, minlength=6)
        for i in np.flatnonzero(t.actors == CHANCE):
            assert t.legal_at(int(i)) == list(range(6))
    expected = counts.sum() / 6
    chi2 = ((counts - expected) ** 2 / expected).sum()
    assert counts.sum() > 10_000 and chi2 < 25  # 5 degrees of freedom: p < 1e-4 above 25


def test_kernel_plays_like_the_engines_random_playouts() -> None:
    """Means of the kernel's 30,000 games within 4.5 standard errors of 1,000 engine playouts."""
    players = 3
    game = make_game("kukulkan", players)
    rng = random.Random(11)
    lengths, scores = [], []
    for _ in range(1000):
        state = random_playout(game.new_initial_state(), rng)
        lengths.append(sum(1 for p, _ in state.history if p >= 0))
        scores.append(state.scores())
    engine_len = np.asarray(lengths, float)
    engine_scores = np.asarray(scores)
    batch = play_random(game, games=30_000, seed=11)
    for mine, theirs in [(batch.decisions.astype(float), engine_len)] + [
        (batch.scores[:, p], engine_scores[:, p]) for p in range(players)
    ]:
        se = np.sqrt(mine.var() / len(mine) + theirs.var() / len(theirs))
        assert abs(mine.mean() - theirs.mean()) < 4.5 * se, (mine.mean(), theirs.mean(), se)


def test_a_long_trace_grows_its_buffers_and_is_the_game_play_plays() -> None:
    """Six players: more legal entries than the driver's first buffer holds; the trace is whole and replays."""
    game = make_game("kukulkan", 6)
    seed = int(run_seeds(4, 0, 1)[0])
    t = trace(game, seed)
    assert len(t.legal) > 1024 and len(t) <= game.max_game_length
    replay(game, t)
    batch = play_random(game, games=1, seed=4)  # the game of run_seeds(4, 0, 1)[0]
    assert batch.decisions[0] == int((t.actors >= 0).sum()) and batch.steps[0] == len(t)
    assert np.array_equal(batch.scores[0], t.scores) and np.array_equal(batch.ranks[0], t.ranks)


def test_the_kernels_could_act_is_the_engines() -> None:
    """The backstop's test in compiled code, on the random sheets the engine's is checked on (tests/games)."""
    from tests.games.kukulkan.helpers import position, random_sheet
    from ziggurat.games.kukulkan import kernel
    from ziggurat.games.kukulkan.rules import U_PLUS, U_SAME, U_SUPER

    rng = random.Random(5)
    game = make_game("kukulkan", 2)
    config = kernel.prepare(game)
    cfg, supports = config[0], config[5]
    bits = {"same-value": U_SAME, "plus-one": U_PLUS, "super-six": U_SUPER}
    seen = Counter()
    for _ in range(1500):
        sheets = [random_sheet(game, rng), random_sheet(game, rng)]  # type: ignore[arg-type]
        st = position(players=2, sheets=sheets, g=game)  # type: ignore[arg-type]
        drawn = np.asarray(st.drawn, np.int64)
        values = np.asarray(st.values, np.int32).reshape(2, game.B)  # type: ignore[attr-defined]
        numbered = np.asarray(st.numbered, np.int64)
        marked = np.asarray(st.marked, np.int64)
        helps = np.asarray([sum(bits[h] for h in s["helps_used"]) for s in sheets], np.int64)
        for p in range(2):
            mine = bool(kernel._could_act(cfg, supports, p, drawn, values, numbered, marked, helps))
            assert mine == st.could_act(p), sheets[p]
            seen[mine] += 1
    assert seen[True] > 100 and seen[False] > 100
