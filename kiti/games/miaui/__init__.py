"""Miaui (Bruno Faidutti): 3-6 divers, 12 rounds, one lagoon and a tiki referee."""

from ...core.registry import GameParts, register
from .rules import INFO, Dive, MiauiState, Take, kiti_order

register(
    MiauiState,
    GameParts(
        words="kiti.games.miaui.words",
        terminal="kiti.games.miaui.terminal",
        heuristic="kiti.games.miaui.heuristic:MiauiHeuristic",
        summary="summary.md",
        client="client.js",  # the web client's module (served at /js/games/miaui.js)
        catalog="kiti.games.miaui.cards:catalog",
        tensors="kiti.games.miaui.tensors:MiauiEncoder",  # needs numpy: kiti.rl.tensors.encoder_for
        balance="kiti.games.miaui.balance",  # hooks for kiti balance (kiti.sim.playout)
    ),
)

__all__ = ["INFO", "Dive", "MiauiState", "Take", "kiti_order"]
