"""What the server sends: every message to a viewer is built here, from that viewer's sight.

A ``state`` message for a seat (or a spectator, viewer None) holds the seat's view
(``state.view``, the typed view: :func:`kiti.core.contract.dumps` encodes it), its events since its cursor (``state.events(viewer, since)``) with
the game renderer's sentences for them, its legal moves (or the first steps of a move for
games with ``many_moves``) and a prompt when it is to act, plus the table's public info
and the turn clock: nothing else of the state.  After the end it adds the result, the
standings and the whole table (the referee's view).  The leak tests rebuild these messages
from states resampled over what the viewer cannot see and check they are identical.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.contract import to_json
from ..core.events import REFEREE
from ..core.game import State
from ..core.moves import Step
from ..core.registry import game_part, get_game, has_part
from .protocol import VERSION


def renderer(cls: type[State]) -> Any:
    """The game's ``words`` part (sentences and prompts, no terminal code), or None."""
    return game_part(cls, "words") if has_part(cls, "words") else None


def describe(
    cls: type[State],
    events: Sequence[dict[str, Any]],
    viewer: int | str | None,
    names: Sequence[str | None] | None = None,
) -> list[str | None]:
    """The renderer's sentence for each event (None where it has none); ``names``: a name per
    seat (None: "seat N")."""
    r = renderer(cls)
    if r is None:
        return [None] * len(events)
    return [r.describe_event(e, viewer, names) for e in events]


def seat_names(table: dict[str, Any]) -> list[str | None]:
    """The names sentences use: a human seat's name (public, in the table info); bots stay
    "seat N", since several bots of one kind share a name."""
    return [s["name"] if s["kind"] == "human" else None for s in table["seats"]]


def prompt(cls: type[State], view: Any, seat: int) -> str | None:
    r = renderer(cls)
    ask = getattr(r, "prompt", None)
    return None if ask is None else ask(view, seat)


def steps_list(steps: Sequence[Step]) -> list[dict[str, Any]]:
    return [
        {"token": s.token, "move": None if s.move is None else str(s.move), "count": s.count} for s in steps
    ]


def state_message(
    state: State,
    table: dict[str, Any],
    viewer: int | None,
    since: int,
    clock: dict[str, Any] | None,
    re: Any = None,
) -> tuple[dict[str, Any], int]:
    """:func:`build_state` as JSON data (what a client receives, decoded)."""
    message, cursor = build_state(state, table, viewer, since, clock, re)
    return to_json(message), cursor


def build_state(
    state: State,
    table: dict[str, Any],
    viewer: int | None,
    since: int,
    clock: dict[str, Any] | None,
    re: Any = None,
) -> tuple[dict[str, Any], int]:
    """The ``state`` message for ``viewer`` whose cursor is ``since``, and its next cursor;
    its view is the typed view (the server encodes the message with
    :func:`kiti.core.contract.dumps`, without converting it first).

    A cursor beyond the viewer's event count (its move was taken back) resends all its
    events with ``reset`` true.
    """
    events = state.events(viewer, since)  # one pass over the log (a count only when nothing is new)
    reset = not events and since > state.event_count(viewer)
    if reset:
        since = 0
        events = state.events(viewer, since)
    view = state.view(viewer)
    to_act = sorted(state.to_act())
    turn = table["status"] == "playing" and viewer in to_act and not table["seats"][viewer]["bot_plays"]
    message: dict[str, Any] = {
        "type": "state",
        "table": table,
        "you": viewer,
        "view": view,
        "events": events,
        "lines": describe(get_game(table["game"]), events, viewer, seat_names(table)),
        "cursor": since + len(events),
        "reset": reset,
        "to_act": to_act,
        "your_turn": turn,
        "legal": None,
        "steps": None,
        "prompt": None,
        "clock": clock,
        "over": state.over,
    }
    if turn:
        assert viewer is not None
        message.update(choices(state, viewer))
        message["prompt"] = prompt(get_game(table["game"]), view, viewer)
    if state.over:
        message.update(ending(state, table))
    if re is not None:
        message["re"] = re
    return message, message["cursor"]


def choices(state: State, seat: int) -> dict[str, Any]:
    """The first steps of the seat's move (every game: clients choose moves through them),
    and the whole list of legal moves too where they are few."""
    steps = {"steps": steps_list(state.move_steps(seat, ()))}
    if state.many_moves(seat):
        return steps
    return {"legal": [str(m) for m in state.legal_moves(seat)], **steps}


def ending(state: State, table: dict[str, Any]) -> dict[str, Any]:
    """What the end adds: the result, the standings and every card (the referee's view)."""
    result = state.result().to_dict()
    return {
        "result": result,
        "standings": [credit(row, state, table) for row in standings(result, table)],
        "reveal": state.view(REFEREE),
        "record_url": f"/api/tables/{table['id']}/record",
    }


def credit(row: dict[str, Any], state: State, table: dict[str, Any]) -> dict[str, Any]:
    """A standings row with its seats' decisions, how many of them a stand-in made for their
    people (``stand_in_moves``, from the table's seats) and ``stand_in`` true when it made most."""
    seats = set(row["seats"])
    made = sum(1 for seat, _move in state.history if seat in seats)
    stood = sum(table["seats"][s].get("stand_in_moves", 0) for s in seats)
    return {**row, "decisions": made, "stand_in_moves": stood, "stand_in": 2 * stood > made}


def standings(result: dict[str, Any], table: dict[str, Any]) -> list[dict[str, Any]]:
    """The parties best first, each with its people's names (a party that is no seat, such
    as MOTU's solo Opponent, by its own name)."""
    names = [s["name"] for s in table["seats"]]
    rows = [
        {
            "rank": p["rank"],
            "party": p["name"],
            "seats": p["seats"],
            "names": [names[s] for s in p["seats"]] or [p["name"]],
            "score": p["score"],
            "winner": i in result["winners"],
        }
        for i, p in enumerate(result["parties"])
    ]
    return sorted(rows, key=lambda row: row["rank"])


def steps_message(state: State, seat: int, prefix: tuple[str, ...], re: Any = None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "type": "steps",
        "prefix": list(prefix),
        "steps": steps_list(state.move_steps(seat, prefix)),
    }
    if re is not None:
        out["re"] = re
    return out


def welcome(table_id: str, viewer: int | None, limits: dict[str, Any]) -> dict[str, Any]:
    return {"type": "welcome", "v": VERSION, "table": table_id, "you": viewer, "limits": limits}
