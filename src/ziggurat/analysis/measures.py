"""Quality measures of a game design (defined, with formulas and sources, in ``docs/analysis.md``).

Two kinds:

* **from results** (:func:`result_measures`): what the rows of any run say, the
  fast engine's included: seat advantage (the first player's win rate less the
  fair share), balance, length, winning margin, shared wins and how games end;
* **from play** (:func:`follow_game`, :func:`measure_setups`): what only a game
  followed move by move says, read from the game's running score (its registry
  entry's ``value(state, player)``: the points a seat has as the game stands, its
  final score at the end): lead changes, drama, how early the game is decided,
  how long the eventual winner trailed, how uncertain the outcome stayed, whether a
  trailing player's move decided the winner (kingmaking), and the branching factor.

Every mean comes with a 95% interval (normal approximation; Wilson for rates,
a seeded bootstrap for balance), so settings can be compared with their noise.

>>> from ziggurat.core.registry import make_game
>>> m = follow_game(make_game("pyramix", 2), ("random", "random"), seed=3)
>>> sorted(m)[:3], m["length"] > 0
(['branching', 'decided_share', 'drama'], True)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from ziggurat.analysis.backends import chunk, run_chunks
from ziggurat.analysis.simulate import Setup, game_seed, seat_lineup
from ziggurat.analysis.stats import Z95, mean_sd, wilson
from ziggurat.analysis.tally import Histogram, SetupTally
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
    "uncertainty": "uncertainty: 1 - mean certainty of the lead (lead / the swing still to come)",
    "kingmaking": "kingmaking: share of games whose decisive lead came from a trailing player's move",
}

RESULT_MEASURES: dict[str, str] = {
    "seat1_advantage": "first player's advantage: seat 1 win rate less 1/players",
    "balance": "balance: 1 - (highest - lowest seat win rate)",
    "length": "decisions per game",
    "margin": "winning margin (points between first and second)",
    "shared_wins": "shared wins (games won by several players)",
}

PERCENT = frozenset({"seat1_advantage", "shared_wins", "winner_behind", "decided_share", "kingmaking"})
"""The measures that are shares, shown in percent."""


def _interval(m: float, sd: float, n: int) -> dict[str, float]:
    """Mean ``m`` of ``n`` values with a 95% normal interval (none for one value)."""
    half = Z95 * sd / math.sqrt(n) if n > 1 else math.nan
    return {"mean": m, "low": m - half, "high": m + half, "n": n}


def _mean(values: Sequence[float]) -> dict[str, float]:
    """Mean with a 95% normal interval (``n`` values)."""
    return _interval(*mean_sd(values), len(values))


def _rate(successes: float, n: int) -> dict[str, float]:
    lo, hi = wilson(successes, n)
    return {"mean": successes / n if n else math.nan, "low": lo, "high": hi, "n": n}


# ------------------------------------------------------------ from results
def result_measures(rows: Sequence[Mapping[str, Any]], lower_wins: bool, seed: int = 0) -> dict[str, dict[str, float]]:
    """The measures the rows of one setup give (each with a 95% interval); see ``docs/analysis.md``.

    The rows are tallied first (:class:`~ziggurat.analysis.tally.SetupTally`), so this gives exactly what
    :func:`tally_measures` gives for the same games counted chunk by chunk.
    """
    if not rows:
        return {}
    from ziggurat.analysis.columns import GameTable

    players = int(rows[0]["players"])
    full = []
    for i, r in enumerate(rows):
        full.append({"index": i, "setup": "", **{f"p{p + 1}_bot": "" for p in range(players)}, "end": "", **r})
    tally = SetupTally(lower_wins)
    tally.add(GameTable.from_rows(full))
    return tally_measures(tally, seed)


def tally_measures(tally: SetupTally, seed: int = 0) -> dict[str, dict[str, float]]:
    """The measures of one setup's games from their counts (each with a 95% interval); see ``docs/analysis.md``.

    Balance's interval is a seeded bootstrap over games: 200 runs of as many games drawn from the
    observed outcomes (who won, shared wins included).
    """
    n, players = tally.games, tally.players
    if not n:
        return {}
    out: dict[str, dict[str, float]] = {}
    if players > 1:
        first = _rate(SetupTally.credit(tally.seat_credit[0]), n)
        fair = 1.0 / players
        out["seat1_advantage"] = {k: (v - fair if k != "n" else v) for k, v in first.items()}
        keys = sorted(tally.patterns)
        shares = np.zeros((len(keys), players))
        for row, bits in enumerate(keys):
            seats = [p for p in range(players) if bits >> p & 1]
            for p in seats:
                shares[row, p] = 1.0 / len(seats)
        counts = np.array([tally.patterns[k] for k in keys], dtype=np.float64)
        rates = counts @ shares / n
        point = 1.0 - float(rates.max() - rates.min())
        draws = np.random.default_rng(seed).multinomial(n, counts / counts.sum(), size=200) @ shares / n
        boots = np.sort(1.0 - (draws.max(axis=1) - draws.min(axis=1)))
        out["balance"] = {"mean": point, "low": float(boots[4]), "high": float(boots[194]), "n": n}
    out["length"] = _from_histogram(tally.length)
    if players > 1:
        out["margin"] = _from_histogram(tally.margin)
    out["shared_wins"] = _rate(tally.shared, n)
    return out


def _from_histogram(h: Histogram) -> dict[str, float]:
    """Mean with a 95% normal interval, from counted values (as :func:`_mean` from the values)."""
    return _interval(*h.mean_sd(), h.n)


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
    actors: list[int] = []
    groups: list[int] = []  # decisions taken together (one simultaneous round) share a number
    group = 0
    together = False
    for actor, action in history:
        if actor >= 0:
            branching.append(float(len(state.legal_actions(actor))))
            simultaneous = state.is_simultaneous_node()
            if not (simultaneous and together):
                group += 1
            together = simultaneous
        else:
            together = False
        state.apply_action(action, None if actor < 0 else actor)
        if actor >= 0:
            path.append([float(value(state, p)) for p in range(n)])
            actors.append(actor)
            groups.append(group)
    out = {"branching": sum(branching) / len(branching) if branching else 0.0}
    out.update(score_path_measures(path, winner, game.spec.lower_score_wins, actors, groups))
    return out


def score_path_measures(
    path: Sequence[Sequence[float]],
    winner: int,
    lower_wins: bool,
    actors: Sequence[int] | None = None,
    groups: Sequence[int] | None = None,
) -> dict[str, float]:
    """The measures of one game's running scores (``path[t][p]``: seat ``p``'s after decision ``t``).

    ``winner`` is the one seat ranked first (-1 for a shared win); ``actors[t]`` the
    seat that took decision ``t`` (without it, kingmaking is 0); decisions with the
    same ``groups[t]`` were taken together (a simultaneous round: all its deciders
    share the round's effect; without it, each decision alone). See ``docs/analysis.md``.

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
    kingmaking = 0.0
    if actors is not None and winner >= 0 and decided < length and len(path[0]) >= 3:
        movers = {actors[decided]}
        if groups is not None:
            movers = {a for a, g in zip(actors, groups, strict=True) if g == groups[decided]}
        before = leaders[decided - 1] if decided > 0 else -1
        kingmaking = float(winner not in movers and before not in movers)
    return {
        "length": float(length),
        "lead_changes": float(changes),
        "lead_change_rate": changes / max(1, length - 1),
        "drama": sum(drama) / len(drama) if drama else 0.0,
        "winner_behind": behind / length if length else 0.0,
        "decided_share": (length - decided) / length if length and winner >= 0 else 0.0,
        "uncertainty": uncertainty(path, lower_wins),
        "kingmaking": kingmaking,
    }


def uncertainty(path: Sequence[Sequence[float]], lower_wins: bool) -> float:
    """How uncertain the outcome stayed: 1 - the mean certainty of the lead over the decisions.

    The certainty after decision ``t`` is the leader's lead over the second seat,
    divided by the largest swing between the leader and any other seat still to
    come (the change of their difference from ``t`` to the end), capped at 1: a lead
    no later swing matched was safe. A shared lead has certainty 0; a lead with no
    swing after it, 1. See ``docs/analysis.md``.

    >>> uncertainty([[0, 0], [1, 0], [1, 2]], lower_wins=False)  # a tie; a lead of 1, then a swing of 2; safe
    0.5
    """
    if not path:
        return 0.0
    sign = -1.0 if lower_wins else 1.0
    final = [sign * v for v in path[-1]]
    certainty = 0.0
    for row in path:
        scores = [sign * v for v in row]
        if len(scores) < 2:
            certainty += 1.0
            continue
        order = sorted(range(len(scores)), key=lambda q: scores[q], reverse=True)
        lead_seat = order[0]
        gap = scores[lead_seat] - scores[order[1]]
        if gap <= 0:
            continue
        ahead = final[lead_seat] - scores[lead_seat]
        swing = max(abs((final[q] - scores[q]) - ahead) for q in range(len(scores)) if q != lead_seat)
        certainty += 1.0 if swing <= 0 else min(1.0, gap / swing)
    return 1.0 - certainty / len(path)


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
    return {setups[s].label: _play_summary(per[s]) for s in range(len(setups))}


def _play_summary(games: Sequence[Mapping[str, float]]) -> dict[str, dict[str, float]]:
    """Each play measure over ``games``: a mean with its normal interval; kingmaking, a 0/1 per game, Wilson's."""
    out = {name: _mean([m[name] for m in games]) for name in PLAY_MEASURES}
    out["kingmaking"] = _rate(sum(m["kingmaking"] for m in games), len(games))
    return out


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
