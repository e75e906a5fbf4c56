"""Parameter sweeps: every combination of swept values, played on the same seeds, compared side by side.

``ziggurat simulate GAME --sweep NAME=a,b,c [--sweep ...]`` makes one
:class:`~ziggurat.analysis.simulate.Setup` per combination (:func:`sweep_setups`);
``simulate`` plays game ``g`` of every setup with the same seed (common random
numbers: the differences between settings are the parameters', not the deal's).
:func:`sweep_rows` lays the measures of each setting side by side with their
95% intervals, and :func:`plot_sweep` draws each measure against each swept
parameter (one line per value of the others).

>>> from ziggurat.core.registry import make_game
>>> [s.label for s in sweep_setups(make_game("kuhnah", 2), [("start-jade", [6, 8])])]
['start-jade=6', 'start-jade=8']
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ziggurat.analysis.measures import PERCENT, PLAY_MEASURES, RESULT_MEASURES, fmt_interval
from ziggurat.analysis.simulate import Setup
from ziggurat.core.errors import ConfigError, ZigguratError
from ziggurat.core.game import Game
from ziggurat.core.params import grid, setting_label
from ziggurat.core.registry import make_game
from ziggurat.core.spec import OptionValue

Sweeps = Sequence[tuple[str, Sequence[OptionValue]]]


def sweep_setups(game: Game, sweeps: Sweeps) -> list[Setup]:
    """One setup per combination of ``sweeps`` on top of ``game``'s options (each checked).

    A combination the game refuses (values that do not fit together) is a clear
    error naming it: a sweep compares settings that can all be played.
    """
    if not sweeps:
        raise ZigguratError("a sweep needs at least one --sweep NAME=a,b,c")
    setups = []
    for values in grid(sweeps):
        options = {**game.options, **values}
        label = setting_label(values)
        try:
            make_game(game.spec.id, game.num_players, options)
        except ConfigError as exc:
            raise ZigguratError(f"the sweep's setting {label} cannot be played: {exc}") from None
        setups.append(Setup(game.spec.id, game.num_players, options, label))
    return setups


def setting_values(setup: Setup, sweeps: Sweeps) -> dict[str, OptionValue]:
    """The swept parameters' values of ``setup``."""
    return {name: setup.options[name] for name, _ in sweeps}


def _measure(
    label: str,
    name: str,
    result: Mapping[str, Mapping[str, Mapping[str, float]]],
    play: Mapping[str, Mapping[str, Mapping[str, float]]],
) -> Mapping[str, float] | None:
    m = result.get(label, {}).get(name)
    return m if m is not None else play.get(label, {}).get(name)


def measure_names(
    result: Mapping[str, Mapping[str, Any]], play: Mapping[str, Mapping[str, Any]]
) -> list[tuple[str, str]]:
    """The measures present in a run, with their words (results first)."""
    names: dict[str, str] = {}
    for table, words in ((result, RESULT_MEASURES), (play, PLAY_MEASURES)):
        for name, text in words.items():
            if name not in names and any(name in t for t in table.values()):
                names[name] = text
    return list(names.items())


COMPACT = (
    "seat1_advantage", "balance", "length", "margin", "lead_changes", "drama", "uncertainty", "kingmaking",
    "decided_share",
)  # fmt: skip
"""The measures a terminal's sweep table shows (the report has them all)."""


SHORT = {"seat1_advantage": "P1 adv %", "balance": "balance", "length": "length", "margin": "margin",
         "lead_changes": "leads", "drama": "drama", "uncertainty": "uncert.", "kingmaking": "kingmaking %",
         "decided_share": "decided %"}  # fmt: skip
"""The compact table's column heads."""


def _pm(m: Mapping[str, float], percent: bool, digits: int = 1) -> str:
    k = 100.0 if percent else 1.0
    if math.isnan(m["low"]):
        return f"{k * m['mean']:.{digits}f}"
    return f"{k * m['mean']:.{digits}f}±{k * (m['high'] - m['low']) / 2:.{digits}f}"


def sweep_rows(
    setups: Sequence[Setup],
    sweeps: Sweeps,
    result: Mapping[str, Mapping[str, Mapping[str, float]]],
    play: Mapping[str, Mapping[str, Mapping[str, float]]],
    compact: bool = False,
) -> tuple[list[str], list[list[str]]]:
    """Head and body of the side-by-side table: the swept values, then each measure with its interval.

    ``compact``: the measures of :data:`COMPACT` only, as mean ± half the 95% interval (percent for rates).
    """
    names = measure_names(result, play)
    if compact:
        names = [(n, t) for n, t in names if n in COMPACT]
    head = [name for name, _ in sweeps] + [SHORT.get(name, name) if compact else name for name, _ in names]
    body = []
    for s in setups:
        row = [str(v) for v in setting_values(s, sweeps).values()]
        for name, _ in names:
            m = _measure(s.label, name, result, play)
            percent = name in PERCENT
            if m is None:
                row.append("–")
            else:
                digits = 2 if name in ("balance", "uncertainty") else 1
                row.append(_pm(m, percent, digits) if compact else fmt_interval(m, 1 if percent else 2, percent))
        body.append(row)
    return head, body


def sweep_html(
    setups: Sequence[Setup],
    sweeps: Sweeps,
    result: Mapping[str, Mapping[str, Mapping[str, float]]],
    play: Mapping[str, Mapping[str, Mapping[str, float]]],
) -> str:
    """The report's sweep section (a table; the plots are embedded with the others)."""
    head, body = sweep_rows(setups, sweeps, result, play)
    th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    trs = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in body)
    words = "; ".join(f"{n}: {t}" for n, t in measure_names(result, play))
    return (
        "<h2>Sweep: every setting on the same seeds (95% intervals)</h2>"
        f"<table><thead><tr>{th}</tr></thead><tbody>{trs}</tbody></table><p>{html.escape(words)}</p>"
    )


def _num(value: OptionValue) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else math.nan


def plot_sweep(
    setups: Sequence[Setup],
    sweeps: Sweeps,
    result: Mapping[str, Mapping[str, Mapping[str, float]]],
    play: Mapping[str, Mapping[str, Mapping[str, float]]],
    out: Path,
) -> list[Path]:
    """One PNG per measure and swept parameter: the measure (95% interval) against the parameter's values.

    With several swept parameters, each combination of the others is a line of its own.
    """
    from matplotlib.figure import Figure

    paths = []
    for name, text in measure_names(result, play):
        for i, (param, _) in enumerate(sweeps):
            others = [n for j, (n, _) in enumerate(sweeps) if j != i]
            lines: dict[str, list[tuple[float, Mapping[str, float]]]] = {}
            for s in setups:
                m = _measure(s.label, name, result, play)
                if m is None:
                    continue
                key = setting_label({o: s.options[o] for o in others}) if others else name
                lines.setdefault(key, []).append((_num(s.options[param]), m))
            if not lines:
                continue
            fig = Figure(figsize=(7, 4), dpi=100)
            ax = fig.subplots()
            for key, points in lines.items():
                points.sort(key=lambda p: p[0])
                xs = [x for x, _ in points]
                ys = [m["mean"] for _, m in points]
                err = [
                    [0.0 if math.isnan(m["low"]) else m["mean"] - m["low"] for _, m in points],
                    [0.0 if math.isnan(m["high"]) else m["high"] - m["mean"] for _, m in points],
                ]
                ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3, label=key)
            ax.set_xlabel(param)
            ax.set_ylabel(name)
            ax.set_title(text, fontsize=9)
            if others:
                ax.legend(fontsize=8)
            path = out / f"sweep_{name}_by_{param}.png"
            fig.tight_layout()
            fig.savefig(path, format="png")
            paths.append(path)
    return paths
