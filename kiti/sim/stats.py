"""Statistics for tournaments, honest for duplicate deals.

Games played on the same deal are not independent (they share the cards), so every
interval here treats one *deal block* (the deal replayed for every seat rotation) as
one sample: a contestant's per-deal mean is computed first, then a Student-t interval
is taken over the deals.  Comparisons between two contestants are *paired* by deal,
which is what duplicate deals are for: the luck of the cards cancels in the difference.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

# Two-sided 97.5% quantiles of Student's t for small degrees of freedom.
_T975 = {
    1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262,
    10: 2.228, 11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120, 17: 2.110,
    18: 2.101, 19: 2.093, 20: 2.086, 21: 2.080, 22: 2.074, 23: 2.069, 24: 2.064, 25: 2.060,
    26: 2.056, 27: 2.052, 28: 2.048, 29: 2.045, 30: 2.042,
}


def t_quantile(df: int, level: float = 0.95) -> float:
    """The two-sided ``level`` quantile of Student's t with ``df`` degrees of freedom."""
    if df < 1:
        return math.inf
    if abs(level - 0.95) < 1e-12 and df in _T975:
        return _T975[df]
    z = NormalDist().inv_cdf(0.5 + level / 2)
    # Cornish-Fisher expansion: accurate to ~1e-3 for df > 30.
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    return z + g1 / df + g2 / df**2


@dataclass(frozen=True)
class Interval:
    """A mean with its confidence interval over ``n`` independent samples."""

    mean: float
    low: float
    high: float
    n: int

    def excludes(self, value: float) -> bool:
        return value < self.low or value > self.high

    def to_dict(self) -> dict[str, float]:
        return {"mean": self.mean, "low": self.low, "high": self.high, "n": self.n}


def mean_ci(samples: Sequence[float], level: float = 0.95) -> Interval:
    """Student-t confidence interval of the mean of independent ``samples``."""
    n = len(samples)
    if n == 0:
        return Interval(math.nan, math.nan, math.nan, 0)
    m = math.fsum(samples) / n
    if n == 1:
        return Interval(m, -math.inf, math.inf, 1)
    var = math.fsum((x - m) ** 2 for x in samples) / (n - 1)
    h = t_quantile(n - 1, level) * math.sqrt(var / n)
    return Interval(m, m - h, m + h, n)


def block_means(values: Sequence[float], blocks: Sequence[int]) -> list[float]:
    """Mean of ``values`` per block id (order of first appearance)."""
    sums: dict[int, float] = {}
    counts: dict[int, int] = {}
    for v, b in zip(values, blocks, strict=True):
        sums[b] = sums.get(b, 0.0) + v
        counts[b] = counts.get(b, 0) + 1
    return [sums[b] / counts[b] for b in sums]


def block_ci(values: Sequence[float], blocks: Sequence[int], level: float = 0.95) -> Interval:
    """Interval of the mean of ``values`` treating each block (deal) as one sample."""
    return mean_ci(block_means(values, blocks), level)


def paired_difference(a: Sequence[float], b: Sequence[float], level: float = 0.95) -> Interval:
    """Interval of mean(a - b) for samples paired by deal (one value each per deal)."""
    if len(a) != len(b):
        raise ValueError("paired samples must have the same length")
    return mean_ci([x - y for x, y in zip(a, b)], level)


def different(a: Sequence[float], b: Sequence[float], level: float = 0.95) -> bool:
    """Whether two contestants' per-deal results differ at ``level`` (paired t interval excludes 0)."""
    return paired_difference(a, b, level).excludes(0.0)


def average_ranks(scores: Sequence[float]) -> list[float]:
    """Rank per seat, 1 = best; tied seats share the mean of the places they occupy."""
    out = []
    for v in scores:
        better = sum(1 for x in scores if x > v)
        equal = sum(1 for x in scores if x == v)
        out.append(better + (equal + 1) / 2)
    return out
