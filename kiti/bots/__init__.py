"""Bots: programs that play a seat from what that seat may see."""

from .base import Bot, SeatView, seat_view

__all__ = ["Bot", "SeatView", "seat_view"]
