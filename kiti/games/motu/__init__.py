"""MOTU (Scott Almes): 1-6 players grow islands of overlapping cards; solo against the Opponent.

The card data (``cards``, ``data/``), the island model (``island``), the Sources and end scoring
(``sources``), the rules (``rules``), drawing (``draw``), the terminal renderer (``render``) and
the heuristic strategy (``heuristic``).
"""

from ...core.registry import GameParts, register
from .rules import INFO, MotuState

register(MotuState, GameParts(
    words="kiti.games.motu.render",  # split into words.py and terminal.py (issue 18)
    terminal="kiti.games.motu.render",
    heuristic="kiti.games.motu.heuristic:MotuHeuristic",
    summary="summary.md",
    catalog="kiti.games.motu.catalog:catalog",
    cards="kiti.games.motu.draw:CARDS",
    bench="kiti.sim.bench_motu:bench_extras",
))

__all__ = ["INFO", "MotuState"]
