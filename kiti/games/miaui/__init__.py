"""Miaui (Bruno Faidutti): 3-6 divers, 12 rounds, one lagoon and a tiki referee."""

from .rules import INFO, Dive, MiauiState, Take, kiti_order

__all__ = ["INFO", "Dive", "MiauiState", "Take", "kiti_order"]
