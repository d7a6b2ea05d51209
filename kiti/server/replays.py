"""Step-by-step replay of a finished game: the whole table after each move, read-only.

Once a game is over its record is public (``/api/tables/{id}/record``), so every card may be
shown: each frame holds the referee's view (``state.observation(REFEREE)``) after ``step`` moves, the events
that move caused (the referee's, with the renderer's sentences) and who was to act.  Frames are
rebuilt from the record by the engine itself: a client never replays rules.
"""

from __future__ import annotations

from typing import Any

from ..core.events import REFEREE
from ..core.records import apply_entry, start
from ..games import get_game
from .messages import describe

MAX_FRAMES = 50


def frames(record: dict[str, Any], names: list[str | None], first: int, count: int) -> dict[str, Any]:
    """Frames ``first .. first+count-1`` (clipped to the record) of a finished game's replay."""
    moves = record["moves"]
    total = len(moves)
    first = max(0, min(first, total))
    last = min(total, first + max(1, min(count, MAX_FRAMES)) - 1)
    state = start(record, get_game)
    cls = type(state)
    for index in range(max(0, first - 1)):
        apply_entry(state, index, moves[index])
    out = []
    for step in range(first, last + 1):
        since = 0
        if step:
            since = state.event_count("referee")
            apply_entry(state, step - 1, moves[step - 1])
        events = state.events("referee", since)
        out.append(
            {
                "step": step,
                "move": moves[step - 1] if step else None,
                "view": state.observation(REFEREE),
                "events": events,
                "lines": describe(cls, events, "referee", names),
                "to_act": sorted(state.to_act()),
                "over": state.over,
            }
        )
    return {"steps": total, "frames": out}
