"""Seeded chance: every random event of a game comes from its state's ``random.Random``.

:func:`shuffle` is the Fisher-Yates shuffle every game uses.  It draws exactly what
CPython's ``random.shuffle`` draws today (so a seed gives the same deck as before), but it
is pinned here, built only on ``getrandbits``, so that a record's seed keeps giving the
same deal on every Python version, and it is faster.
"""

from __future__ import annotations

import random
from typing import Any


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """Shuffle ``items`` in place with ``rng``."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:  # uniform below n: redraw the rare values above it
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]

