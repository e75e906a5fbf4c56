"""Quality measures of a game design (defined, with formulas and sources, in ``docs/analysis.md``).

Two kinds:

* **from results** (:func:`result_measures`): what the rows of any run say, the
  fast engine's included: seat advantage (the first player's win rate less the
  fair share), balance, length, winning margin, shared wins and how games end;
* **from play** (:func:`follow_game`, :func:`measure_setups`): what only a game
  followed move by move says, read from the game's running score (its registry
  entry's ``value(state, player)``: the points a seat has as the game stands, its
  final score at the end): lead changes, drama, how early the game is decided,
  how long the eventual winner trailed, and the branching factor.

Every mean comes with a 95% interval (normal approximation; Wilson for rates,
a seeded bootstrap for balance), so settings can be compared with their noise.

>>> from ziggurat.core.registry import make_game
>>> m = follow_game(make_game("pyramix", 2), ("random", "random"), seed=3)
>>> sorted(m)[:3], m["length"] > 0
(['branching', 'decided_share', 'drama'], True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ziggurat.analysis.backends import chunk, run_chunks
from ziggurat.analysis.simulate import Setup, game_seed, seat_lineup
from ziggurat.analysis.stats import Z95, mean_sd, wilson
from ziggurat.core.errors import ZigguratError
from ziggurat.core.game import Game
from ziggurat.core.match import Match
from ziggurat.core.registry import get_game

# the per-game measures of :func:`follow_game`, with the words a report gives them
PLAY_MEASURES: dict[str, str] = {
    "length": "decisions per game",
    "branching": "legal moves per decision (branching factor)",
    "lead_changes": "lead changes per game",
    "lead_change_rate": "lead changes per decision",
    "drama": "drama: points the eventual winner trailed the leader by, when behind",
    "winner_behind": "share of the game the eventual winner was not in the lead",
    "decided_share": "decisiveness: share of the game left once the winner led for good",
}

RESULT_MEASURES: dict[str, str] = {
    "seat1_advantage": "first player's advantage: seat 1 win rate less 1/players",
    "balance": "balance: 1 - (highest - lowest seat win rate)",
    "length": "decisions per game",
    "margin": "winning margin (points between first and second)",
    "shared_wins": "shared wins (games won by several players)",
}

PERCENT = frozenset({"seat1_advantage", "shared_wins", "winner_behind", "decided_share"})
"""The measures that are shares, shown in percent."""


def _mean(values: Sequence[float]) -> dict[str, float]:
    """Mean with a 95% normal interval (``n`` values)."""
    n = len(values)
    m, sd = mean_sd(values)
    half = Z95 * sd / math.sqrt(n) if n > 1 else math.nan
    return {"mean": m, "low": m - half, "high": m + half, "n": n}


def _rate(successes: float, n: int) -> dict[str, float]:
    lo, hi = wilson(successes, n)
    return {"mean": successes / n if n else math.nan, "low": lo, "high": hi, "n": n}


# ------------------------------------------------------------ from results
def _shares(rows: Sequence[Mapping[str, Any]], players: int) -> list[list[float]]:
    out = []
    for r in rows:
        winners = str(r["winners"]).split(";")
        out.append([1.0 / len(winners) if str(p + 1) in winners else 0.0 for p in range(players)])
    return out


def _balance(shares: Sequence[Sequence[float]]) -> float:
    n = len(shares)
    if not n:
        return math.nan
    rates = [sum(s[p] for s in shares) / n for p in range(len(shares[0]))]
    return 1.0 - (max(rates) - min(rates))


def result_measures(rows: Sequence[Mapping[str, Any]], lower_wins: bool, seed: int = 0) -> dict[str, dict[str, float]]:
    """The measures the rows of one setup give (each with a 95% interval); see ``docs/analysis.md``."""
    if not rows:
        return {}
    players = int(rows[0]["players"])
    n = len(rows)
    shares = _shares(rows, players)
    out: dict[str, dict[str, float]] = {}
    if players > 1:
        first = _rate(sum(s[0] for s in shares), n)
        fair = 1.0 / players
        out["seat1_advantage"] = {k: (v - fair if k != "n" else v) for k, v in first.items()}
        # balance: a seeded bootstrap over games for its interval
        rng = random.Random(seed)
        point = _balance(shares)
        boots = sorted(_balance([shares[rng.randrange(n)] for _ in range(n)]) for _ in range(200))
        out["balance"] = {"mean": point, "low": boots[4], "high": boots[194], "n": n}
    out["length"] = _mean([float(r["length"]) for r in rows])
    if players > 1:
        margins = []
        for r in rows:
            scores = sorted((float(r[f"p{p + 1}_score"]) for p in range(players)), reverse=not lower_wins)
            margins.append(abs(scores[1] - scores[0]))
        out["margin"] = _mean(margins)
    out["shared_wins"] = _rate(sum(1 for r in rows if ";" in str(r["winners"])), n)
    return out


# ------------------------------------------------------------ from play
def _leader(scores: Sequence[float], lower_wins: bool) -> int:
    """The seat alone in the lead, or -1 when the best score is shared."""
    best = min(scores) if lower_wins else max(scores)
    leaders = [p for p, s in enumerate(scores) if s == best]
    return leaders[0] if len(leaders) == 1 else -1


def follow_game(
    game: Game,
    seats: Sequence[str],
    seed: int,
    bot_options: Mapping[str, Mapping[str, Any]] | None = None,
) -> dict[str, float]:
    """Play one seeded game (as ``simulate`` plays it) and measure it move by move.

    The running score is the game's ``value(state, player)`` after each player
    decision; the eventual winner is the one seat ranked first (a shared win has
    no single winner: its drama and decisiveness are 0 and its winner is never
    counted as leading).
    """
    entry = get_game(game.spec.id)
    if entry.value is None:
        raise ZigguratError(f"{game.spec.name} has no running score (its registry entry gives no value)")
    value = entry.value
    match = Match(game, seed)
    match.run_bots(match.seat_bots(seats, bot_options))
    history = match.state.history
    outcome = match.state.outcome()
    winners = outcome.winners
    winner = winners[0] if len(winners) == 1 else -1
    n = game.num_players
    state = game.new_initial_state()
    branching: list[float] = []
    path: list[list[float]] = []
    for actor, action in history:
        if actor >= 0:
            branching.append(float(len(state.legal_actions(actor))))
        state.apply_action(action, None if actor < 0 else actor)
        if actor >= 0:
            path.append([float(value(state, p)) for p in range(n)])
    out = {"branching": sum(branching) / len(branching) if branching else 0.0}
    out.update(score_path_measures(path, winner, game.spec.lower_score_wins))
    return out


def score_path_measures(path: Sequence[Sequence[float]], winner: int, lower_wins: bool) -> dict[str, float]:
    """The measures of one game's running scores (``path[t][p]``: seat ``p``'s after decision ``t``).

    ``winner`` is the one seat ranked first (-1 for a shared win). See ``docs/analysis.md``.

    >>> m = score_path_measures([[1, 0], [1, 2], [3, 2], [3, 4]], winner=1, lower_wins=False)
    >>> m["lead_changes"], m["decided_share"], m["winner_behind"], m["drama"]
    (3.0, 0.25, 0.5, 1.0)
    """
    leaders = [_leader(scores, lower_wins) for scores in path]
    drama = []
    if winner >= 0:
        for scores, lead in zip(path, leaders, strict=True):
            if lead != winner:
                best = min(scores) if lower_wins else max(scores)
                drama.append(abs(best - scores[winner]))
    length = len(leaders)
    changes = 0
    last = -1
    for lead in leaders:
        if lead >= 0:
            if last >= 0 and lead != last:
                changes += 1
            last = lead
    # the winner leads alone from decision ``decided`` to the end
    decided = length
    if winner >= 0:
        while decided > 0 and leaders[decided - 1] == winner:
            decided -= 1
    behind = sum(1 for lead in leaders if lead != winner) if winner >= 0 else length
    return {
        "length": float(length),
        "lead_changes": float(changes),
        "lead_change_rate": changes / max(1, length - 1),
        "drama": sum(drama) / len(drama) if drama else 0.0,
        "winner_behind": behind / length if length else 0.0,
        "decided_share": (length - decided) / length if length and winner >= 0 else 0.0,
    }


def _follow_chunk(
    payload: tuple[list[Setup], dict[str, dict[str, Any]], int, list[tuple[int, int, tuple[str, ...]]]],
) -> list[tuple[int, dict[str, float]]]:
    """Worker: follow every (setup, game number, seats) of a chunk (module level for processes)."""
    setups, bot_options, seed, items = payload
    games = [s.make() for s in setups]
    return [(s, follow_game(games[s], seats, game_seed(seed, g), bot_options)) for s, g, seats in items]


def measure_setups(
    setups: Sequence[Setup],
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    rotate: bool = False,
    bot_options: Mapping[str, Mapping[str, Any]] | None = None,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> dict[str, dict[str, dict[str, float]]]:
    """The play measures of ``games`` games of every setup (game ``g`` of each has ``simulate``'s seed ``g``).

    Returns, per setup label, each measure of :data:`PLAY_MEASURES` as a mean with its 95% interval.
    """
    if games < 1:
        return {}
    items = [(s, g, seat_lineup(bots, setups[s].players, g, rotate)) for s in range(len(setups)) for g in range(games)]
    opts = {k: dict(v) for k, v in (bot_options or {}).items()}
    payloads = [(list(setups), opts, seed, c) for c in chunk(items, jobs)]

    def on_chunk(_: int, done: list[tuple[int, dict[str, float]]]) -> None:
        if progress is not None:
            progress(len(done))

    results = run_chunks(_follow_chunk, payloads, jobs=jobs, on_chunk=on_chunk)
    per: list[list[dict[str, float]]] = [[] for _ in setups]
    for part in results:
        for s, m in part:
            per[s].append(m)
    return {
        setups[s].label: {name: _mean([m[name] for m in per[s]]) for name in PLAY_MEASURES} for s in range(len(setups))
    }


def fmt_interval(m: Mapping[str, float], digits: int = 2, percent: bool = False) -> str:
    """``"0.12 [0.10, 0.14]"`` (or in percent)."""
    k = 100.0 if percent else 1.0
    unit = "%" if percent else ""
    if math.isnan(m["low"]):
        return f"{k * m['mean']:.{digits}f}{unit}"
    return f"{k * m['mean']:.{digits}f}{unit} [{k * m['low']:.{digits}f}, {k * m['high']:.{digits}f}]"


def measures_html(result: Mapping[str, Mapping[str, Mapping[str, float]]],
                  play: Mapping[str, Mapping[str, Mapping[str, float]]], play_note: str) -> str:  # fmt: skip
    """The report's section: every measure of every setup, side by side, each with its interval."""
    import html

    labels = list(dict.fromkeys([*result, *play]))
    head = "".join(f"<th>{html.escape(lab)}</th>" for lab in labels)
    body = []
    for table, words in ((result, RESULT_MEASURES), (play, PLAY_MEASURES)):
        for name, text in words.items():
            if table is play and name == "length" and result:
                continue
            cells = []
            for lab in labels:
                m = table.get(lab, {}).get(name)
                percent = name in PERCENT
                cells.append(html.escape(fmt_interval(m, 1 if percent else 2, percent)) if m else "–")
            tds = "".join(f"<td>{c}</td>" for c in cells)
            body.append(f"<tr><th>{html.escape(text)}</th>{tds}</tr>")
    note = f"<p>{html.escape(play_note)}</p>" if play_note else ""
    return (
        "<h2>Quality measures (95% intervals; definitions in docs/analysis.md)</h2>"
        f"<table><thead><tr><th>measure</th>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>{note}"
    )
