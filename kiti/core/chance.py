"""Seeded chance: every random event of a game comes from its state's ``random.Random``.

:func:`shuffle` is the Fisher-Yates shuffle every game uses.  It draws exactly what
CPython's ``random.shuffle`` draws today (so a seed gives the same deck as before), but it
is pinned here, built only on ``getrandbits``, so that a record's seed keeps giving the
same deal on every Python version, and it is faster.
"""

from __future__ import annotations

import _random
import functools
import random
from typing import Any


def derive_seed(seed: int, *parts: int | str) -> int:
    """A seed for one part of a seeded run (a deal, a seat's bot), a pure function of the
    run's ``seed`` and ``parts``.  The way back is a SHA-512 inversion, so a bot seeded this
    way learns nothing of the deck from its own seed."""
    return random.Random(":".join(map(str, ("kiti", seed, *parts)))).getrandbits(63)


def seeded(seed: int) -> random.Random:
    """``random.Random(seed)`` for an int ``seed``: the very generator, seeded straight by the
    C seeding that ``Random.seed`` calls, without its Python-level ``__init__`` and ``seed``
    (every game made pays for it)."""
    rng = _bare_random(random.Random)
    _seed_random(rng, seed)
    rng.gauss_next = None  # type: ignore[attr-defined]  # what Random.seed sets
    return rng


_bare_random = random.Random.__new__
_seed_random = _random.Random.seed


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
