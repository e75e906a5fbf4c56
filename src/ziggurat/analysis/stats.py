"""Statistics for game results: Wilson intervals and Bradley–Terry (Elo-scale) ratings.

>>> lo, hi = wilson(60, 100)
>>> round(lo, 3), round(hi, 3)
(0.502, 0.691)
>>> r = bradley_terry(["a", "b"], {("a", "b"): 75.0, ("b", "a"): 25.0})
>>> round(r["a"] - r["b"])
189
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

Z95 = 1.959963984540054


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default); (0, 1) when ``n`` is 0.

    ``successes`` may be fractional (a shared win counts 1/k for each of k winners).
    """
    if n <= 0:
        return 0.0, 1.0
    p = min(max(successes / n, 0.0), 1.0)
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    low = 0.0 if p <= 0.0 else max(0.0, centre - half)
    high = 1.0 if p >= 1.0 else min(1.0, centre + half)
    return low, high


def fmt_rate(successes: float, n: float) -> str:
    """``"62.0% [52.2, 70.9]"``: a rate with its 95% Wilson interval, in percent."""
    if n <= 0:
        return "-"
    lo, hi = wilson(successes, n)
    return f"{100 * successes / n:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def mean_sd(values: Sequence[float]) -> tuple[float, float]:
    """Mean and sample standard deviation (0 for fewer than two values)."""
    n = len(values)
    if n == 0:
        return math.nan, math.nan
    m = sum(values) / n
    if n < 2:
        return m, 0.0
    return m, math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1))


def bradley_terry(
    names: Sequence[str],
    wins: Mapping[tuple[str, str], float],
    prior: float = 0.5,
    iterations: int = 2000,
) -> dict[str, float]:
    """Bradley–Terry strengths fitted by minorisation–maximisation, on the Elo scale.

    ``wins[(a, b)]`` is how often ``a`` finished ahead of ``b`` (draws count half
    to each). ``prior`` adds that many virtual wins each way between every pair
    that met, so a bot that won every game still gets a finite rating. Ratings
    are ``400 * log10(strength)``, centred so their mean is 1500.
    """
    idx = {n: i for i, n in enumerate(names)}
    k = len(names)
    w = [[0.0] * k for _ in range(k)]
    for (a, b), x in wins.items():
        w[idx[a]][idx[b]] += x
    games = [[w[i][j] + w[j][i] for j in range(k)] for i in range(k)]
    for i in range(k):
        for j in range(k):
            if i != j and games[i][j] > 0:
                w[i][j] += prior
    games = [[w[i][j] + w[j][i] for j in range(k)] for i in range(k)]
    strength = [1.0] * k
    for _ in range(iterations):
        new = []
        for i in range(k):
            total_wins = sum(w[i])
            denom = sum(games[i][j] / (strength[i] + strength[j]) for j in range(k) if j != i and games[i][j] > 0)
            new.append(total_wins / denom if denom > 0 else strength[i])
        # normalise by the geometric mean to keep the scale fixed
        logs = [math.log(max(s, 1e-300)) for s in new]
        shift = sum(logs) / k
        new = [math.exp(v - shift) for v in logs]
        delta = max(abs(a - b) for a, b in zip(new, strength, strict=True))
        strength = new
        if delta < 1e-10:
            break
    return {n: 1500.0 + 400.0 * math.log10(strength[idx[n]]) for n in names}
