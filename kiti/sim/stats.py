"""Statistics for tournaments, honest for duplicate deals and small samples.

Games played on the same deal are not independent (they share the cards), so every
interval here treats one *deal block* (the deal replayed for every rotation) as one sample:
a contestant's per-deal mean is computed first, then an interval is taken over the deals.
Comparisons between two contestants are *paired* by deal, which is what duplicate deals are
for: the luck of the cards cancels in the difference.

- A **win share** (in [0, 1]) gets a Wilson score interval on the effective sample size
  implied by the deal blocks (``n_eff = p(1-p) / SE^2``, at most the number of games), so
  it never leaves [0, 1] and stays sensible near 0 and 1 and on few games.
- A **mean score** or **mean rank** gets a Student-t interval over the deals (a rank's is
  kept within its possible range).
- With fewer than 2 deals no interval exists: ``low`` and ``high`` are None (never
  Infinity or NaN, so results stay valid JSON).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

# Two-sided 97.5% quantiles of Student's t for small degrees of freedom.
_T975 = {
    1: 12.706,
    2: 4.303,
    3: 3.182,
    4: 2.776,
    5: 2.571,
    6: 2.447,
    7: 2.365,
    8: 2.306,
    9: 2.262,
    10: 2.228,
    11: 2.201,
    12: 2.179,
    13: 2.160,
    14: 2.145,
    15: 2.131,
    16: 2.120,
    17: 2.110,
    18: 2.101,
    19: 2.093,
    20: 2.086,
    21: 2.080,
    22: 2.074,
    23: 2.069,
    24: 2.064,
    25: 2.060,
    26: 2.056,
    27: 2.052,
    28: 2.048,
    29: 2.045,
    30: 2.042,
}
#: Fewer deals than this cannot separate bots reliably: the summary warns.
FEW_DEALS = 10


def t_quantile(df: int, level: float = 0.95) -> float:
    """The two-sided ``level`` quantile of Student's t with ``df`` (>= 1) degrees of freedom."""
    if abs(level - 0.95) < 1e-12 and df in _T975:
        return _T975[df]
    z = NormalDist().inv_cdf(0.5 + level / 2)
    # Cornish-Fisher expansion: accurate to ~1e-3 for df > 30.
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    return z + g1 / df + g2 / df**2


@dataclass(frozen=True)
class Interval:
    """A mean with its confidence interval over ``n`` samples (None: no interval)."""

    mean: float
    low: float | None
    high: float | None
    n: int

    def excludes(self, value: float) -> bool:
        if self.low is None or self.high is None:
            return False
        return value < self.low or value > self.high

    def to_dict(self) -> dict[str, float | int | None]:
        return {"mean": self.mean, "low": self.low, "high": self.high, "n": self.n}


def mean_ci(
    samples: Sequence[float], level: float = 0.95, bounds: tuple[float, float] | None = None
) -> Interval:
    """Student-t interval of the mean of independent ``samples`` (kept within ``bounds``)."""
    n = len(samples)
    if n == 0:
        return Interval(0.0, None, None, 0)
    m = math.fsum(samples) / n
    if n == 1:
        return Interval(m, None, None, 1)
    var = math.fsum((x - m) ** 2 for x in samples) / (n - 1)
    h = t_quantile(n - 1, level) * math.sqrt(var / n)
    low, high = m - h, m + h
    if bounds is not None:
        low, high = max(bounds[0], low), min(bounds[1], high)
    return Interval(m, low, high, n)


def wilson(p: float, n: float, z: float) -> tuple[float, float]:
    """Wilson score interval of a proportion ``p`` observed on ``n`` (> 0) trials."""
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def share_ci(values: Sequence[float], blocks: Sequence[int], level: float = 0.95) -> Interval:
    """Interval of a win share (values in [0, 1]) with deal blocks as the samples."""
    means = block_means(values, blocks)
    k = len(means)
    if k == 0:
        return Interval(0.0, None, None, 0)
    p = math.fsum(means) / k
    if k == 1:
        return Interval(p, None, None, 1)
    var = math.fsum((x - p) ** 2 for x in means) / (k - 1)
    se2 = var / k
    games = len(values)
    n_eff = games if se2 <= 0 or p in (0.0, 1.0) else min(games, p * (1 - p) / se2)
    n_eff = max(n_eff, 1.0)
    low, high = wilson(p, n_eff, t_quantile(k - 1, level))
    return Interval(p, low, high, k)


def block_means(values: Sequence[float], blocks: Sequence[int]) -> list[float]:
    """Mean of ``values`` per block id (order of first appearance)."""
    sums: dict[int, float] = {}
    counts: dict[int, int] = {}
    for v, b in zip(values, blocks, strict=True):
        sums[b] = sums.get(b, 0.0) + v
        counts[b] = counts.get(b, 0) + 1
    return [sums[b] / counts[b] for b in sums]


def block_ci(
    values: Sequence[float],
    blocks: Sequence[int],
    level: float = 0.95,
    bounds: tuple[float, float] | None = None,
) -> Interval:
    """Interval of the mean of ``values`` treating each block (deal) as one sample."""
    return mean_ci(block_means(values, blocks), level, bounds)


def paired_difference(a: Sequence[float], b: Sequence[float], level: float = 0.95) -> Interval:
    """Interval of mean(a - b) for samples paired by deal (one value each per deal)."""
    if len(a) != len(b):
        raise ValueError("paired samples must have the same length")
    return mean_ci([x - y for x, y in zip(a, b)], level)


def different(a: Sequence[float], b: Sequence[float], level: float = 0.95) -> bool:
    """Whether two contestants' per-deal results differ at ``level`` (paired t interval excludes 0)."""
    return paired_difference(a, b, level).excludes(0.0)
