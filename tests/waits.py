"""Every wait of the tests, scaled by one setting.

A wait returns as soon as what it waits for is there (a prompt on the screen, an element on
the page, a message, a server answering); its limit only decides how long a test may hang
before it fails.  The limits below are generous enough for a loaded 2-core machine, and all
of them are multiplied by ``KITI_TEST_TIMEOUT_SCALE`` (default 1; e.g. 3 on a very slow
machine, 0.25 to make a broken test fail faster).
"""

from __future__ import annotations

import math
import os

from kiti.core.errors import quoted

SETTING = "KITI_TEST_TIMEOUT_SCALE"


def scale(raw: str | None = None) -> float:
    """The factor the setting holds (1 when unset); ValueError, saying what is wrong, otherwise."""
    raw = os.environ.get(SETTING, "") if raw is None else raw
    if not raw.strip():
        return 1.0
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise ValueError(
            f"{SETTING} must be a number above 0 (e.g. 2 to double every wait), not {quoted(raw)}"
        )
    return value


def seconds(base: float) -> float:
    """``base`` seconds, scaled (a bad setting counts as 1 here: conftest reports it)."""
    try:
        return base * scale()
    except ValueError:
        return base


SCREEN = seconds(90)  # a terminal prompt or line, after the keys that lead to it
COMMAND = seconds(180)  # a whole ``kiti`` command, run to its end
PAGE = seconds(60)  # an element, a navigation or a condition on a browser page
MESSAGE = seconds(60)  # a WebSocket message or a server answer
GAME = seconds(180)  # bots and clients playing a game (or part of one) to a given point
START = seconds(120)  # a server process (kiti serve, PostgreSQL) ready to answer
IDLE = seconds(5)  # a terminal program blocked reading input, with nothing new shown: it waits for us
