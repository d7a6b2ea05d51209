"""Mauw (Vincent Joassin): 2-7 players, columns of nines, attacks, defences and teams."""

from ...core.registry import GameParts, register
from .rules import INFO, MauwState

register(
    MauwState,
    GameParts(
        words="kiti.games.mauw.words",
        terminal="kiti.games.mauw.terminal",
        heuristic="kiti.games.mauw.heuristic:MauwHeuristic",
        summary="summary.md",
        client="client.js",  # the web client's module (served at /js/games/mauw.js)
        catalog="kiti.games.mauw.cards:catalog",
        tensors="kiti.games.mauw.tensors:MauwEncoder",  # needs numpy: kiti.rl.tensors.encoder_for
        balance="kiti.games.mauw.balance",  # hooks for kiti balance (kiti.sim.playout)
    ),
)

__all__ = ["INFO", "MauwState"]
