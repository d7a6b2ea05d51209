"""The cases of the conformance suite for every registered game, from :mod:`kiti.testing`.

Options are covered pairwise by default (``docs/testing.md``); ``KITI_CONFORMANCE=full``
checks every combination of their sample values instead, and ``KITI_CONFORMANCE_SEEDS=N``
plays each case with N seed offsets (0 to N-1; default 1: the suite's own seeds).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest

import kiti.games  # noqa: F401  (registers every game)
from kiti.core.registry import game_ids
from kiti.testing import MODES, Case, Skipped, cases

MODE = os.environ.get("KITI_CONFORMANCE", "pairwise").strip() or "pairwise"
if MODE not in MODES:
    raise ValueError(f"KITI_CONFORMANCE must be one of {', '.join(MODES)}, not {MODE!r}")
_SEEDS = os.environ.get("KITI_CONFORMANCE_SEEDS", "1").strip() or "1"
if not _SEEDS.isdigit() or int(_SEEDS) < 1:
    raise ValueError(f"KITI_CONFORMANCE_SEEDS must be a whole number of seeds (1 or more), not {_SEEDS!r}")

CASES: list[Case] = [c for game in game_ids() for c in cases(game, options=MODE, seeds=range(int(_SEEDS)))]
PARAMS = pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
GAMES = pytest.mark.parametrize("game", game_ids())


def run(check: Callable[[Any], None], subject: Any) -> None:
    """Run one check of kiti.testing; a check that does not apply is a skipped test."""
    try:
        check(subject)
    except Skipped as why:
        pytest.skip(str(why))
