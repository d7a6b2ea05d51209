"""Terminal rendering through each game's declared parts, and generic screens.

A game declares (see :mod:`kiti.core.registry`) a ``terminal`` part (:class:`Terminal`,
drawn with ``rich``) and a ``words`` part (:class:`Words`, plain text, which the server
uses too); nothing here knows any game's rules.  The terminal part:

- ``render_view(view, events=None, names=None, labels=None, width=80, height=21)``: ``view``
  (:meth:`State.view`: the game's typed view, ``info.view_type``, never its JSON) as a rich
  renderable that fits ``width`` columns and ``height`` lines (abbreviated, never wrapped).
  ``events`` are what the viewer has seen; ``names`` a player's name per seat (None:
  unnamed; the viewer's own seat is always "you"); ``labels`` what plays there.
- optionally ``dialogue(turn, line)`` (below).

The words part:

- ``describe_event(event, viewer=None, names=None)``: one event in plain words, or None.
- optionally ``describe_events(events, viewer=None, names=None)``: every event worth telling,
  in the order a person should read them (``log`` uses it, through :func:`tell_events`);
  without it, every event ``describe_event`` tells, oldest first.
- ``expand_input(text, seat=None)``: player shorthand to move notation, or None (it must
  never fail, whatever is typed); ``seat`` is who typed it (Mauw: "R8 A" is your own A).
- ``input_help(view)``: one line on the shorthand accepted now (``view``: the seat's typed
  view, as ``prompt``'s).
- ``prompt(view, seat)``: what the seat is asked, addressed to it ("your move"); the
  front end puts the person's name (or "Seat N") in front.
The terminal's ``dialogue(turn, line) -> (line or None, renderable or None)``: the game answers a
  typed line itself before the terminal treats it as a command or a move (MOTU's placement
  helpers: a rotation alone, ``aim``, ``map``). ``turn`` (:class:`Turn`) holds the seat, its own
  view and two questions, never the state: ``steps(prefix)`` (the moves offered step by step)
  and ``why(text)`` (why a move is refused; None if it is legal). The hook returns the line to go
  on with (None when it answered) and what to print. A terminal part without it changes nothing.

Games and the engine name seats ``seat N`` in the messages they write (reasons a move is
illegal, undo refusals); :func:`speak` turns those into "you" and players' names for the
person reading.  Standings at the end are drawn here, from ``State.result()``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from rich.console import Console, RenderableType
from rich.text import Text

from ..core.errors import NotationError
from ..core.game import State
from ..core.moves import Step
from ..core.registry import game_part
from ..core.results import Result
from ..core.words import seat_word


class Terminal(Protocol):
    def render_view(
        self,
        view: Any,
        events: Sequence[dict[str, Any]] | None = None,
        names: Sequence[str | None] | None = None,
        labels: Sequence[str] | None = None,
        width: int = 80,
        height: int = 21,
    ) -> RenderableType: ...


class Words(Protocol):
    def describe_event(
        self, event: dict[str, Any], viewer: Any = None, names: Sequence[str | None] | None = None
    ) -> str | None: ...

    def expand_input(self, text: str, seat: int | None = None) -> str | None: ...

    def input_help(self, view: Any) -> str: ...

    def prompt(self, view: Any, seat: int) -> str: ...


def words(cls: type[State]) -> Words:
    """The game's ``words`` part (MissingPartError if it declares none)."""
    part: Words = game_part(cls, "words")
    return part


def terminal(cls: type[State]) -> Terminal:
    """The game's ``terminal`` part (MissingPartError if it declares none)."""
    part: Terminal = game_part(cls, "terminal")
    return part


def tell_events(
    cls: type[State],
    events: Sequence[dict[str, Any]],
    viewer: Any = None,
    names: Sequence[str | None] | None = None,
) -> list[str]:
    """Every event worth telling, in words: the words part's own ``describe_events`` where it
    orders them itself, else each event its ``describe_event`` tells, oldest first."""
    r = words(cls)
    own = getattr(r, "describe_events", None)
    if own is not None:
        return list(own(events, viewer, names))
    return [line for line in (r.describe_event(e, viewer, names) for e in events) if line]


def expand_input(cls: type[State], text: str, seat: int | None = None) -> str:
    """Player shorthand expanded by the game's words part (unchanged when not shorthand)."""
    return words(cls).expand_input(text, seat) or text


# ------------------------------------------------------------------ words
_SEAT = re.compile(r"\b[Ss]eat (\d+)('s| has| is| was)?\b")
_SECOND = {"'s": "your", " has": "you have", " is": "you are", " was": "you were", "": "you"}


def speak(message: str, viewer: int | None, names: Sequence[str | None] = ()) -> str:
    """An engine message for a person: their own ``seat N`` becomes "you" (with the verb
    agreeing), other seats their player's name where they have one.  The message is
    shown after a colon, so "you" stays lower case."""

    def say(match: re.Match[str]) -> str:
        seat, tail = int(match.group(1)), match.group(2) or ""
        if seat == viewer:
            return _SECOND[tail]
        if seat < len(names) and names[seat]:
            return f"{names[seat]}{tail}"
        return match.group(0)

    return _SEAT.sub(say, message)


def _num(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


# -------------------------------------------------------------- standings
def places(result: Result) -> list[tuple[int, bool]]:
    """Per party, its place (1 = first) and whether it shares that place."""
    ranks = result.ranks
    return [(1 + sum(1 for other in ranks if other < r), ranks.count(r) > 1) for r in ranks]


def party_name(result: Result, index: int, viewer: int | None, names: Sequence[str | None]) -> str:
    party = result.parties[index]
    if len(party.seats) == 1:
        return seat_word(party.seats[0], viewer, names)
    if party.seats:
        return f"{party.name.split(' (')[0]} ({', '.join(seat_word(s, viewer, names) for s in party.seats)})"
    return party.name


def standings(
    result: Result, viewer: int | None = None, names: Sequence[str | None] = (), width: int = 80
) -> list[Text]:
    """The final ranking as lines: place (shared places marked '='), party, score, victory."""
    rows: list[tuple[str, str, str, bool]] = []
    for i, (rank, shared) in sorted(enumerate(places(result)), key=lambda x: (x[1][0], x[0])):
        rows.append(
            (
                ("=" if shared else "") + str(rank),
                party_name(result, i, viewer, names),
                _num(result.scores[i]),
                i in result.winners,
            )
        )
    name_w = min(max(len("Player"), *(len(r[1]) for r in rows)), width - 30)
    out = [Text(f"{'Place':>5}  {'Player':<{name_w}}  {'Score':>5}", style="bold")]
    for place, label, score, won in rows:
        line = Text(f"{place:>5}  ")
        line.append(f"{label[:name_w]:<{name_w}}", style="bold" if label == "you" else "")
        line.append(f"  {score:>5}")
        if won:
            line.append("  ★ " + _victory(result), style="bold yellow")
        out.append(line)
    if result.truncated:
        out.append(
            Text("The game was stopped at its move limit: a draw, shared by everyone.", style="italic")
        )
    return out


def _victory(result: Result) -> str:
    if result.truncated:
        return "draw"
    return "shared victory" if len(result.winners) > 1 else "wins"


def render_table(
    state: State,
    view: Any,
    seat: int | None,
    console: Console | None = None,
    names: Sequence[str | None] | None = None,
    labels: Sequence[str] | None = None,
    viewer: Any = "referee",
) -> None:
    """Print ``view`` as ``viewer`` sees it, and the standings once the game is over."""
    console = console or Console(markup=False, highlight=False, emoji=False)
    events = state.events(viewer)
    console.print(
        terminal(type(state)).render_view(view, events, names, labels, width=console.width, height=10_000)
    )
    if state.over:
        for line in standings(state.result(), seat, names or (), console.width):
            console.print(line)


# ------------------------------------------------------------------ a game's own dialogue (optional)
@dataclass(frozen=True)
class Turn:
    """What a game's ``dialogue`` hook is given about the seat typing: never the state."""

    seat: int
    view: Any  # the seat's own typed view (State.view: the game's view type)
    steps: Callable[..., list[Step]]  # steps(prefix=()) -> the next tokens (State.move_steps)
    why: Callable[[str], str | None]  # why(move text) -> why it is refused, None if legal


def turn_for(state: State, seat: int) -> Turn:
    def steps(prefix: Sequence[str] = ()) -> list[Step]:
        return state.move_steps(seat, tuple(prefix))

    def why(text: str) -> str | None:
        try:
            move = state.parse_move(text)
        except NotationError as exc:
            return str(exc)
        return state.illegal_reason(seat, move)

    return Turn(seat, state.view(seat), steps, why)


def dialogue(state: State, seat: int, line: str, console: Console) -> str | None:
    """Offer a typed line to the game's ``dialogue`` hook, if it has one: the line to go on with
    (maybe rewritten), or None when the game answered it (what it said is printed)."""
    hook = getattr(terminal(type(state)), "dialogue", None)
    if hook is None:
        return line
    rest: str | None
    rest, answer = hook(turn_for(state, seat), line)
    if answer is not None:
        console.print(answer)
    return rest


def move_menu(state: State, seat: int) -> list[tuple[str, str]]:
    """The moves for a help screen, (notation, words) each; where a seat has very many moves
    (``many_moves``), the first step of each instead, with how many moves it opens."""
    if state.many_moves(seat):
        return [(f"{step.token} …", f"{step.count} move(s)") for step in state.move_steps(seat)]
    return [(str(m), state.describe_move(seat, m)) for m in state.legal_moves(seat)]
