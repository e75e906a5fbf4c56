"""Summaries, tables, plots (PNG) and a self-contained HTML report of a run.

:func:`summarise` turns rows into figures a designer reads: per-seat win rates
with 95% intervals (first-player advantage), score distributions, winning
margins, game length, how the games ended (the share of each of the game's
ends), and the same per setup when variants are compared.
:func:`arena_summary` rates bots. :func:`write_report` writes ``games.csv``
(and ``games.parquet`` when pyarrow is installed), ``summary.json``, the PNG
plots and ``report.html`` with the plots embedded.
"""

from __future__ import annotations

import base64
import csv
import html
import json
import math
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ziggurat.analysis.simulate import RunResult
from ziggurat.analysis.stats import bradley_terry, mean_sd, wilson
from ziggurat.core.registry import get_game


def _win_credit(row: dict[str, Any], seat: int) -> float:
    winners = str(row["winners"]).split(";")
    return 1.0 / len(winners) if str(seat + 1) in winners else 0.0


def _rate(successes: float, n: int) -> dict[str, float]:
    lo, hi = wilson(successes, n)
    return {"rate": successes / n if n else math.nan, "low": lo, "high": hi, "n": n}


def _percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return math.nan
    s = sorted(values)
    k = (len(s) - 1) * q
    f = math.floor(k)
    c = min(f + 1, len(s) - 1)
    return s[f] + (s[c] - s[f]) * (k - f)


def _credits(rows: Sequence[dict[str, Any]], players: int) -> list[list[float]]:
    """Per row, each seat's share of the win (what ``_win_credit`` gives, the winners split once)."""
    out = []
    for r in rows:
        winners = str(r["winners"]).split(";")
        share = 1.0 / len(winners)
        out.append([share if str(p + 1) in winners else 0.0 for p in range(players)])
    return out


def _margins(rows: Sequence[dict[str, Any]], lower_wins: bool) -> list[float]:
    """Points between first and second of every game with two or more players."""
    margins = []
    for r in rows:
        scores = sorted((float(r[f"p{p + 1}_score"]) for p in range(int(r["players"]))), reverse=not lower_wins)
        if len(scores) > 1:
            margins.append(abs(scores[1] - scores[0]))
    return margins


def _end_shares(rows: Sequence[dict[str, Any]], order: Sequence[str]) -> dict[str, dict[str, float]]:
    """The share of each end (the rows' ``end`` codes) with its 95% interval: the game's order, then others.

    Rows without an end (written before the column existed) are left out, so the
    shares are of the games whose end is known.
    """
    counts: dict[str, int] = defaultdict(int)
    for r in rows:
        code = r.get("end")
        if code:
            counts[str(code)] += 1
    known = sum(counts.values())
    codes = [c for c in order if c in counts] + sorted(c for c in counts if c not in order)
    return {c: _rate(counts[c], known) for c in codes}


def summarise_rows(
    rows: Sequence[dict[str, Any]], lower_wins: bool = False, end_order: Sequence[str] = ()
) -> dict[str, Any]:
    """Figures of one setup's rows (all with the same player count); ``end_order``: the game's end codes."""
    n = len(rows)
    players = int(rows[0]["players"]) if rows else 0
    credits = _credits(rows, players)
    seats = []
    for p in range(players):
        credit = sum(c[p] for c in credits)
        scores = [float(r[f"p{p + 1}_score"]) for r in rows]
        m, sd = mean_sd(scores)
        seats.append({"seat": p + 1, "win": _rate(credit, n), "score_mean": m, "score_sd": sd})
    bots: dict[str, dict[str, float]] = defaultdict(lambda: {"credit": 0.0, "games": 0})
    for r, c in zip(rows, credits, strict=True):
        for p in range(players):
            b = bots[r[f"p{p + 1}_bot"]]
            b["credit"] += c[p]
            b["games"] += 1
    margins = _margins(rows, lower_wins)
    lengths = [float(r["length"]) for r in rows]
    lm, lsd = mean_sd(lengths)
    mm, msd = mean_sd(margins)
    ties = sum(1 for r in rows if ";" in str(r["winners"]))
    return {
        "games": n,
        "players": players,
        "seats": seats,
        "bots": {k: {"games": v["games"], "win": _rate(v["credit"], int(v["games"]))} for k, v in bots.items()},
        "length": {
            "mean": lm,
            "sd": lsd,
            "min": min(lengths, default=math.nan),
            "max": max(lengths, default=math.nan),
            "median": _percentile(lengths, 0.5),
        },
        "margin": {"mean": mm, "sd": msd, "median": _percentile(margins, 0.5)},
        "shared_wins": _rate(ties, n),
        "ends": _end_shares(rows, end_order),
    }


def summarise(result: RunResult, lower_wins: bool = False) -> dict[str, Any]:
    """Per-setup summaries of a run (keyed by setup label, in setup order)."""
    by_setup: dict[str, list[dict[str, Any]]] = {s.label: [] for s in result.setups}
    for r in result.rows:
        by_setup[r["setup"]].append(r)
    ends = get_game(result.setups[0].game).game_class.spec.ends if result.setups else ()
    order = [e.code for e in ends]
    return {
        "seed": result.seed,
        "bots": result.bots,
        "setups": {label: summarise_rows(rows, lower_wins, order) for label, rows in by_setup.items()},
        # the game's words for each end code (the rulebook's end is "printed")
        "ends": {e.code: {"text": e.text, "printed": e.printed} for e in ends},
    }


def arena_summary(result: RunResult) -> dict[str, Any]:
    """Per-bot win rates (95% Wilson), head-to-head results and Bradley–Terry ratings."""
    names = result.bots
    credit: dict[str, float] = defaultdict(float)
    played: dict[str, int] = defaultdict(int)
    pair: dict[tuple[str, str], float] = defaultdict(float)
    met: dict[tuple[str, str], int] = defaultdict(int)
    for r in result.rows:
        players = int(r["players"])
        seats = [r[f"p{p + 1}_bot"] for p in range(players)]
        ranks = [int(r[f"p{p + 1}_rank"]) for p in range(players)]
        for p, b in enumerate(seats):
            credit[b] += _win_credit(r, p)
            played[b] += 1
        for i in range(players):
            for j in range(players):
                if i == j or seats[i] == seats[j]:
                    continue
                met[(seats[i], seats[j])] += 1
                if ranks[i] < ranks[j]:
                    pair[(seats[i], seats[j])] += 1.0
                elif ranks[i] == ranks[j]:
                    pair[(seats[i], seats[j])] += 0.5
    ratings = bradley_terry(names, pair)
    bots = {b: {"games": played[b], "win": _rate(credit[b], played[b]), "rating": ratings[b]} for b in names}
    h2h = {
        f"{a} vs {b}": _rate(pair[(a, b)], met[(a, b)])
        for i, a in enumerate(names)
        for b in names[i + 1 :]
        if met[(a, b)]
    }
    return {"games": len(result.rows), "bots": bots, "head_to_head": h2h}


# ------------------------------------------------------------------ files
def write_csv(rows: Sequence[dict[str, Any]], path: Path) -> None:
    """One row per game, columns in a stable order."""
    fields = list(dict.fromkeys(k for r in rows for k in r))
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(fields)
        w.writerows([r.get(k, "") for k in fields] for r in rows)


def write_parquet(rows: Sequence[dict[str, Any]], path: Path) -> bool:
    """Write Parquet if pyarrow is installed; return whether it was written."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        return False
    pq.write_table(pa.Table.from_pylist(list(rows)), str(path))
    return True


def _figure() -> tuple[Any, Any]:
    # a bare Figure draws with Agg without pyplot (whose import and figure registry cost a second)
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7, 4), dpi=100)
    return fig, fig.subplots()


def _save(fig: Any, path: Path) -> None:
    fig.tight_layout()
    fig.savefig(path, format="png")


def plot_all(result: RunResult, summary: dict[str, Any], out: Path, lower_wins: bool = False) -> list[Path]:
    """Write the PNG plots; return their paths."""
    setups = summary["setups"]
    labels = list(setups)
    paths = []
    by_setup: dict[str, list[dict[str, Any]]] = {lab: [] for lab in labels}
    for r in result.rows:
        by_setup[r["setup"]].append(r)

    # seat win rates with 95% intervals, one group per setup
    fig, ax = _figure()
    players = max(s["players"] for s in setups.values())
    width = 0.8 / max(1, len(labels))
    for k, lab in enumerate(labels):
        seats = setups[lab]["seats"]
        xs = [p + k * width for p in range(len(seats))]
        rates = [s["win"]["rate"] for s in seats]
        err = [
            [s["win"]["rate"] - s["win"]["low"] for s in seats],
            [s["win"]["high"] - s["win"]["rate"] for s in seats],
        ]
        ax.bar(xs, rates, width, yerr=err, capsize=3, label=lab)
    ax.axhline(1.0 / max(1, players), color="grey", linestyle="--", linewidth=1, label="fair share")
    ax.set_xticks([p + width * (len(labels) - 1) / 2 for p in range(players)])
    ax.set_xticklabels([f"seat {p + 1}" for p in range(players)])
    ax.set_ylabel("win rate (95% CI)")
    ax.set_title("Win rate by seat")
    ax.legend(fontsize=8)
    paths.append(out / "seat_win_rates.png")
    _save(fig, paths[-1])

    # score distributions per seat (first setup)
    rows0 = by_setup[labels[0]]
    fig, ax = _figure()
    for p in range(players):
        vals = [float(r[f"p{p + 1}_score"]) for r in rows0 if f"p{p + 1}_score" in r]
        if vals:
            ax.hist(np.asarray(vals), bins=30, alpha=0.5, label=f"seat {p + 1}")  # an array: lists are slow here
    ax.set_xlabel("final score" + (" (lower wins)" if lower_wins else ""))
    ax.set_ylabel("games")
    ax.set_title(f"Score distribution ({labels[0]})")
    ax.legend(fontsize=8)
    paths.append(out / "scores.png")
    _save(fig, paths[-1])

    # winning margins and game length, every setup overlaid
    for name, title, key in (("margins.png", "Winning margin", "margin"), ("length.png", "Game length", "length")):
        fig, ax = _figure()
        for lab in labels:
            rows = by_setup[lab]
            vals = [float(r["length"]) for r in rows] if key == "length" else _margins(rows, lower_wins)
            if vals:
                ax.hist(np.asarray(vals), bins=30, alpha=0.5, label=lab)
        ax.set_xlabel("points between first and second" if key == "margin" else "player decisions per game")
        ax.set_ylabel("games")
        ax.set_title(title)
        ax.legend(fontsize=8)
        paths.append(out / name)
        _save(fig, paths[-1])
    return paths


def _table(head: Sequence[str], body: Sequence[Sequence[Any]]) -> str:
    th = "".join(f"<th>{html.escape(str(h))}</th>" for h in head)
    trs = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in body)
    return f"<table><thead><tr>{th}</tr></thead><tbody>{trs}</tbody></table>"


def _pct(rate: dict[str, float]) -> str:
    return f"{100 * rate['rate']:.1f}% [{100 * rate['low']:.1f}, {100 * rate['high']:.1f}]"


def ends_line(shares: dict[str, dict[str, float]]) -> str:
    """``"bonuses 95.5%, no-usable-roll 4.5%"``: the share of each end of a setup."""
    return ", ".join(f"{code} {100 * r['rate']:.1f}%" for code, r in shares.items())


def render_html(title: str, summary: dict[str, Any], plots: Sequence[Path], sections: Sequence[str] = ()) -> str:
    """A self-contained HTML report (PNGs embedded as data URIs); ``sections``: more HTML after the heading."""
    parts = [f"<h1>{html.escape(title)}</h1>", f"<p>seed {summary['seed']}, bots: {', '.join(summary['bots'])}</p>"]
    parts += sections
    setups = summary["setups"]
    if len(setups) > 1:
        body = []
        for lab, s in setups.items():
            body.append(
                [lab, s["games"], _pct(s["seats"][0]["win"]), f"{s['length']['mean']:.1f}",
                 f"{s['margin']['mean']:.1f}", *[f"{seat['score_mean']:.1f}" for seat in s["seats"]]]
            )  # fmt: skip
            head = [
                "setup",
                "games",
                "seat 1 wins",
                "length",
                "margin",
                *[f"seat {p + 1} score" for p in range(len(s["seats"]))],
                "ends",
            ]
            body[-1].append(ends_line(s["ends"]))
        parts.append("<h2>Variants compared (same seeds)</h2>" + _table(head, body))
    for lab, s in setups.items():
        parts.append(f"<h2>Setup: {html.escape(lab)} ({s['games']} games, {s['players']} players)</h2>")
        parts.append(
            _table(
                ["seat", "win rate [95% CI]", "mean score", "sd"],
                [[x["seat"], _pct(x["win"]), f"{x['score_mean']:.2f}", f"{x['score_sd']:.2f}"] for x in s["seats"]],
            )
        )
        parts.append(
            _table(
                ["bot", "seats played", "win rate [95% CI]"],
                [[b, v["games"], _pct(v["win"])] for b, v in s["bots"].items()],
            )
        )
        if s["ends"]:
            words = summary.get("ends", {})
            end_rows = []
            for code, rate in s["ends"].items():
                known = words.get(code, {})
                end_rows.append([code, known.get("text", ""), "yes" if known.get("printed") else "no", _pct(rate)])
            end_head = ["end", "in the game's words", "the rulebook's", "games [95% CI]"]
            parts.append("<h3>How the games ended</h3>" + _table(end_head, end_rows))
        ln, mg = s["length"], s["margin"]
        parts.append(
            f"<p>Length: mean {ln['mean']:.1f} decisions (sd {ln['sd']:.1f}, median {ln['median']:.0f}, "
            f"{ln['min']:.0f}–{ln['max']:.0f}). Winning margin: mean {mg['mean']:.2f} (median {mg['median']:.1f}). "
            f"Shared wins: {_pct(s['shared_wins'])}.</p>"
        )
    for p in plots:
        data = base64.b64encode(p.read_bytes()).decode("ascii")
        parts.append(
            f'<figure><img alt="{p.stem}" src="data:image/png;base64,{data}"><figcaption>{p.name}</figcaption></figure>'
        )
    style = (
        "body{font-family:sans-serif;max-width:60em;margin:2em auto;color:#222}"
        "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:right}"
        "img{max-width:100%}"
    )
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
        f"<style>{style}</style></head><body>{''.join(parts)}</body></html>"
    )


def write_report(
    result: RunResult,
    out: Path,
    title: str,
    lower_wins: bool = False,
    extra: dict[str, Any] | None = None,
    sections: Sequence[str] = (),
    more_plots: Sequence[Path] = (),
) -> dict[str, Any]:
    """Write CSV (+ Parquet), summary.json, plots and report.html into ``out``; return the summary.

    ``extra`` is added to the summary (the quality measures, a sweep), ``sections`` (HTML) and
    ``more_plots`` (PNG files already in ``out``) to the report.
    """
    out.mkdir(parents=True, exist_ok=True)
    write_csv(result.rows, out / "games.csv")
    write_parquet(result.rows, out / "games.parquet")
    summary = summarise(result, lower_wins) | dict(extra or {})
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    plots = plot_all(result, summary, out, lower_wins) + list(more_plots)
    (out / "report.html").write_text(render_html(title, summary, plots, sections))
    return summary
