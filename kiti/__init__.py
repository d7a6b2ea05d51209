"""Kiti: the referee for Miaui, Mauw and MOTU."""

__version__ = "0.1.0"
