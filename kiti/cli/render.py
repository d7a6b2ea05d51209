"""Terminal rendering through each game's declared renderer part.

A game's renderer (declared in its package, see :mod:`kiti.core.registry`) provides

- ``render_view(view, events=None, labels=None) -> rich renderable``,
- ``describe_event(event, viewer=None) -> str | None`` (an event in plain words),
- ``expand_input(text) -> str | None`` (player shorthand -> move notation),
- ``input_help`` (a line on the shorthand) and ``prompt(view, seat)`` (what is being asked);
- optionally ``dialogue(turn, line) -> (line or None, renderable or None)``: the game answers a
  typed line itself before the terminal treats it as a command or a move (MOTU's placement
  helpers: a rotation alone, ``aim``, ``map``). ``turn`` (:class:`Turn`) holds the seat, its own
  view and two questions, never the state: ``steps(prefix)`` (the moves offered step by step)
  and ``why(text)`` (why a move is refused; None if it is legal). The hook returns the line to go
  on with (None when it answered) and what to print. A renderer without it changes nothing.

A game that declares no renderer is refused at once with a message naming the game.
Nothing here knows any game's rules.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Console, RenderableType

from ..core.errors import NotationError
from ..core.game import State
from ..core.moves import Step
from ..core.registry import game_part


def renderer(cls: type[State]) -> Any:
    """The game's renderer (MissingPartError if it declares none)."""
    return game_part(cls, "renderer")


def view_renderable(cls: type[State], view: Any, events: Sequence[dict[str, Any]] | None = None,
                    labels: Sequence[str] | None = None) -> RenderableType:
    """A game's view as a rich renderable."""
    return renderer(cls).render_view(view, events=events, labels=labels)


def describe_events(cls: type[State], events: Sequence[dict[str, Any]], viewer: int | None = None) -> list[str]:
    describe = renderer(cls).describe_event
    return [line for line in (describe(e, viewer) for e in events) if line]


def expand_input(cls: type[State], text: str) -> str:
    """Player shorthand expanded by the game's renderer (unchanged when not shorthand)."""
    return renderer(cls).expand_input(text) or text


def render_table(state: State, view: Any, seat: int | None, console: Console | None = None,
                 labels: Sequence[str] | None = None) -> None:
    """Print ``view`` (the referee's when ``seat`` is None, else that seat's) — ``kiti replay``."""
    console = console or Console()
    viewer = "referee" if seat is None else seat
    console.print(view_renderable(type(state), view, state.events(viewer), labels))


# ------------------------------------------------------------------ a game's own dialogue (optional)
@dataclass(frozen=True)
class Turn:
    """What a game's ``dialogue`` hook is given about the seat typing: never the state."""

    seat: int
    view: Any  # the seat's own observation
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

    return Turn(seat, state.observation(seat), steps, why)


def dialogue(state: State, seat: int, line: str, console: Console) -> str | None:
    """Offer a typed line to the game's ``dialogue`` hook, if it has one: the line to go on with
    (maybe rewritten), or None when the game answered it (what it said is printed)."""
    hook = getattr(renderer(type(state)), "dialogue", None)
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
