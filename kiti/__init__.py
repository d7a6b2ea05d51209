"""Kiti: the referee for Miaui, Mauw and MOTU."""

__version__ = "0.1.0"

from .core.load import Game, load

__all__ = ["Game", "__version__", "load"]
