"""MOTU (Scott Almes): 1-6 players grow islands of overlapping cards; solo against the Opponent.

The card data (``cards``, ``data/``), the island model (``island``), the Sources and end scoring
(``sources``), the rules (``rules``, the solo game a variant of named hooks), the typed view and
events (``view``), drawing (``draw``), the game in plain words (``words``), the terminal
(``terminal``) and the heuristic strategy (``heuristic``).
"""

from ...core.registry import GameParts, register
from .rules import INFO, MotuState

register(
    MotuState,
    GameParts(
        words="kiti.games.motu.words",
        terminal="kiti.games.motu.terminal",
        heuristic="kiti.games.motu.heuristic:MotuHeuristic",
        summary="summary.md",
        client="client.js",  # the web client's module (served at /js/games/motu.js)
        catalog="kiti.games.motu.catalog:catalog",
        cards="kiti.games.motu.draw:CARDS",
        bench="kiti.games.motu.bench:bench_extras",
        tensors="kiti.games.motu.tensors:MotuEncoder",  # needs numpy: kiti.rl.tensors.encoder_for
        balance="kiti.games.motu.balance",  # hooks for kiti balance (kiti.sim.playout)
    ),
)

__all__ = ["INFO", "MotuState"]
