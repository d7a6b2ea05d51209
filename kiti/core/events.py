"""Events with audiences: what each viewer saw happen, kept as compact facts.

A game logs every event as one tuple in its state's ``log`` list::

    (audience, kind, args, referee)

- ``audience``: who sees it: :data:`EVERYONE` (every seat and every spectator), a set of
  seats as a bit mask (:func:`seats`), or :data:`NOBODY` (only the referee, e.g. the true
  card of a face-down nine);
- ``kind``: the event type, a key of the game's ``GameInfo.events`` (which names the fields);
- ``args``: the field values, in that order: only immutable values (ints, strings, None,
  tuples), so copies of a state can share entries safely;
- ``referee``: None, or a tuple of ``(field, value)`` pairs that only the referee sees.

Nothing is formatted while a game is played: simulations pay for one tuple per event.
:func:`visible` builds the dictionaries a viewer asks for, and it is the one place that
decides who sees which event, for every game.

Viewers: a seat number, ``None`` for a spectator, or :data:`REFEREE`.  A viewer's events are
numbered from 0 in the order it saw them; ``since=k`` asks for those after the first ``k``,
so a server can send "what this seat has seen since message k" without telling anybody how
many events it did not see.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

EVERYONE = -1  #: audience of a public event (all bits set: every seat and spectators)
NOBODY = 0  #: audience of an event only the referee sees
REFEREE = "referee"  #: the viewer who sees everything
SPECTATOR_BIT = 1 << 62  #: the bit a spectator reads audiences with (seats use bits 0..61)

Entry = tuple[int, str, tuple[Any, ...], "tuple[tuple[str, Any], ...] | None"]
Viewer = Any  # int (a seat), None (a spectator) or REFEREE


def seats(*seat_numbers: int) -> int:
    """The audience made of exactly these seats."""
    mask = 0
    for s in seat_numbers:
        mask |= 1 << s
    return mask


def viewer_bit(viewer: Viewer) -> int | None:
    """The bit ``viewer`` reads audiences with; None for the referee (sees everything)."""
    if viewer is None:
        return SPECTATOR_BIT
    if viewer == REFEREE:
        return None
    return 1 << int(viewer)


def audience_seats(audience: int, players: int) -> list[int]:
    """The seats of an audience (every seat for EVERYONE)."""
    return [s for s in range(players) if audience & (1 << s)]


def plain(value: Any) -> Any:
    """A JSON-ready copy of an event value: tuples become (fresh) lists."""
    if type(value) is tuple:
        return [plain(v) for v in value]
    return value


def as_dict(
    entry: Entry, schema: Mapping[str, Sequence[str]], players: int, referee: bool = False
) -> dict[str, Any]:
    """One log entry as the event dictionary a viewer receives."""
    audience, kind, args, extra = entry
    event: dict[str, Any] = {"type": kind}
    for name, value in zip(schema[kind], args):
        event[name] = plain(value)
    if referee:
        if extra:
            for name, value in extra:
                event[name] = plain(value)
        if audience != EVERYONE:
            event["to"] = audience_seats(audience, players)
    return event


def visible(
    log: Iterable[Entry], viewer: Viewer, schema: Mapping[str, Sequence[str]], players: int, since: int = 0
) -> list[dict[str, Any]]:
    """The events ``viewer`` saw, oldest first, skipping its first ``since``."""
    bit = viewer_bit(viewer)
    out = []
    seen = 0
    for entry in log:
        if bit is None or entry[0] & bit:
            if seen >= since:
                out.append(as_dict(entry, schema, players, bit is None))
            seen += 1
    return out


def count_visible(log: Iterable[Entry], viewer: Viewer) -> int:
    """How many events ``viewer`` has seen (the cursor to pass as ``since`` next time)."""
    bit = viewer_bit(viewer)
    if bit is None:
        return sum(1 for _ in log)
    return sum(1 for entry in log if entry[0] & bit)


def key_since(log: Sequence[Entry], seat: int, start: int) -> tuple[Any, ...]:
    """What ``seat`` saw from log position ``start`` on, as a hashable key (for searches).

    Only the kinds and arguments of the events the seat saw: two histories give the same
    key exactly when the seat cannot tell them apart from these events.
    """
    bit = 1 << seat
    return tuple((e[1], e[2]) for e in log[start:] if e[0] & bit)


def seen_by_others(log: Sequence[Entry], seat: int, start: int) -> Entry | None:
    """The first entry from ``start`` on that some viewer other than ``seat`` saw, if any."""
    mine = 1 << seat
    for entry in log[start:]:
        if entry[0] & ~mine:
            return entry
    return None
