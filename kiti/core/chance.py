"""Seeded chance: every random event of a game comes from its state's ``random.Random``.

:func:`shuffle` is the Fisher-Yates shuffle every game uses.  It draws exactly what
CPython's ``random.shuffle`` draws today (so a seed gives the same deck as before), but it
is pinned here, built only on ``getrandbits``, so that a record's seed keeps giving the
same deal on every Python version, and it is faster.
"""

from __future__ import annotations

import functools
import random
from typing import Any


def derive_seed(seed: int, *parts: int | str) -> int:
    """A seed for one part of a seeded run (a deal, a seat's bot), a pure function of the
    run's ``seed`` and ``parts``.  The way back is a SHA-512 inversion, so a bot seeded this
    way learns nothing of the deck from its own seed."""
    return random.Random(":".join(map(str, ("kiti", seed, *parts)))).getrandbits(63)


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """Shuffle ``items`` in place with ``rng``."""
    getrandbits = rng.getrandbits
    for i, n, k in _steps(len(items)):
        j = getrandbits(k)
        while j >= n:  # uniform below n: redraw the rare values above it
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


@functools.cache
def _steps(size: int) -> tuple[tuple[int, int, int], ...]:
    """Fisher-Yates from the end: (index, how many to draw among, bits to draw)."""
    return tuple((i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1))
