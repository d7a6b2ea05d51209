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
    """The events ``viewer`` saw, oldest first, skipping its first ``since`` (a whole pass
    over the log; a state answers through its :class:`EventIndex`)."""
    bit = viewer_bit(viewer)
    out = []
    seen = 0
    for entry in log:
        if bit is None or entry[0] & bit:
            if seen >= since:
                out.append(as_dict(entry, schema, players, bit is None))
            seen += 1
    return out


class EventIndex:
    """Where each viewer's events lie in one log, kept up to date as the log grows, so that a
    viewer's new events cost what they hold, not a pass over the whole log (a server asks
    for them after every move, for every viewer).

    It relies on how a log changes: entries are appended, and a game may rewrite an entry
    in place (a card revealed later) but never its audience; a log that is replaced (an
    undo, a copy) is another list, and its index starts over."""

    __slots__ = ("_log", "_seen")

    def __init__(self) -> None:
        self._log: list[Entry] | None = None
        self._seen: dict[int | None, tuple[list[int], list[int]]] = {}  # bit -> (positions, [scanned])

    def positions(self, log: list[Entry], bit: int | None) -> list[int]:
        """The positions in ``log`` of the entries a viewer reading with ``bit`` sees."""
        if log is not self._log:
            self._log, self._seen = log, {}
        found = self._seen.get(bit)
        if found is None:
            found = self._seen[bit] = ([], [0])
        positions, scanned = found
        end = len(log)
        if scanned[0] > end:  # never happens (logs are not cut in place); be safe
            del positions[:]
            scanned[0] = 0
        if scanned[0] < end:
            if bit is None:
                positions.extend(range(scanned[0], end))
            else:
                positions.extend(i for i in range(scanned[0], end) if log[i][0] & bit)
            scanned[0] = end
        return positions

    def events(
        self, log: list[Entry], viewer: Viewer, schema: Mapping[str, Sequence[str]], players: int, since: int
    ) -> list[dict[str, Any]]:
        """:func:`visible`, from the index."""
        bit = viewer_bit(viewer)
        referee = bit is None
        return [as_dict(log[i], schema, players, referee) for i in self.positions(log, bit)[since:]]

    def count(self, log: list[Entry], viewer: Viewer) -> int:
        """How many events ``viewer`` has seen."""
        return len(self.positions(log, viewer_bit(viewer)))


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
