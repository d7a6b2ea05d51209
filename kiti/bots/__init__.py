"""Bots: programs that play a seat from what that seat may see."""

from .base import Bot, SeatView

__all__ = ["Bot", "SeatView"]
