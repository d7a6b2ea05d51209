"""How a Miaui table looks in a terminal (rich): Miaui's declared ``renderer`` part.

The generic terminal front end (``kiti.cli``) uses only this module's functions named in
the renderer protocol documented in ``kiti/cli/render.py`` (``render_view``,
``describe_event``, ``describe_events``, ``expand_input``, ``input_help``, ``prompt``).  This module never imports ``kiti.cli``; it reads
views and events only, never the state, and takes every rule from :mod:`.rules`.

Every line is built to fit the width it is given (abbreviated, never wrapped: see
:func:`.tell.fit`) and the whole table to fit the height it is given, so the header never
scrolls off an 80x24 terminal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from .cards import COUNT
from .rules import DEPTH_RULE, NO_FIGHTING_TIE, SPACE_NAMES, remembered_dives
from .tell import (
    BACK,
    People,
    Piece,
    card,
    card_long,
    fit,
    ranges,
    round_line,
    story,
    told_in_order,
)
from .tell import describe_event as tell_event

INPUT_HELP = "Shorthand: a number N alone means 'dive N'."
TAKE_HELP = "Shorthand: a card code alone (T7) means 'take T7'."
FLAGS = (("open_baskets", "Open Baskets"), ("no_fighting", "No Fighting"),
         ("taker_chooses_order", "taker orders"))


def expand_input(typed: str, seat: int | None = None) -> str | None:
    """Shorthand a player may type: '9' -> 'dive 9', 'T7' -> 'take T7'; None if not shorthand.

    Text only: no number is converted, so a number of any length is simply not a move.
    """
    t = typed.strip()
    if t.isascii() and t.isdigit():
        return f"dive {t.lstrip('0') or '0'}"
    if t.upper() in COUNT:
        return f"take {t.upper()}"
    return None


class Sight:
    """One viewer's look at a view: the view, what the viewer saw happen, names, width."""

    def __init__(self, view: dict[str, Any], events: Sequence[dict[str, Any]] | None,
                 people: People, width: int) -> None:
        self.view = view
        self.events = list(events or [])
        self.people = people
        self.width = width
        self.players: int = view["players"]
        self.me = people.viewer
        self.over: bool = view["over"]
        self.referee = view.get("viewer") == "referee"

    def option(self, name: str) -> bool:
        return bool(self.view.get("options", {}).get(name))


# ----------------------------------------------------------------- header
def header(s: Sight) -> Text:
    """Game, round, who is looking and the variants (no Kiti once the game is over)."""
    rnd = "game over" if s.over else f"round {s.view['round']} of 12"
    short_rnd = "game over" if s.over else f"round {s.view['round']}/12"
    flags = ", ".join(word for key, word in FLAGS if s.option(key))
    tail: list[Piece] = [(" · " + flags, "italic")] if flags else []
    if s.me is not None:
        named = s.people.name(s.me)
        who = f"you are {named} (seat {s.me})" if named else f"you are seat {s.me}"
        short = f"{named[:12]} (seat {s.me})" if named else f"seat {s.me}"
    else:
        who = short = "whole table" if s.referee else "spectator"
    plain = "whole table" if s.referee else "spectator" if s.me is None else f"seat {s.me}"
    return fit(s.width, [("Miaui", "bold"), f" · {rnd} · ", (who, "bold"), *tail],
               [("Miaui", "bold"), f" · {short_rnd} · ", (short, "bold"), *tail],
               [("Miaui", "bold"), f" · {short_rnd} · ", (plain, "bold"), *tail])


def kiti_line(s: Sight) -> Text:
    """Where Kiti stands and the tie orders it gives (rules: view keys kiti, tie_order).

    The full form (players' names, "you", Deepest/Deep) whenever it fits; narrower widths
    drop the names first, then words, and keep "you" and Deepest/Deep as long as they can."""
    kiti = s.view.get("kiti")
    if kiti is None:
        return fit(s.width, [("No Kiti: " + NO_FIGHTING_TIE + ".", "italic")])
    order = s.view.get("tie_order") or {}
    deep, shallow = order.get("deep", []), order.get("shallow", [])
    left, right = kiti, (kiti + 1) % s.players
    p = s.people
    kiti_word: Piece = ("Kiti", "bold green")

    def you(seat: int) -> str:
        return p.short(seat)

    def chain(mark: Any, seats: list[int]) -> Text:
        return Text(">".join(mark(x) for x in seats), style="bold")

    def pair(mark: Any) -> str:
        both = f"{mark(left)}|{mark(right)}"
        return f"seats {both}" if both == f"{left}|{right}" else both

    def between(mark: Any) -> list[Piece]:
        return [kiti_word, f" between {pair(mark)} · Deepest/Deep ties → ", chain(mark, deep),
                " · Shallow ties → ", chain(mark, shallow)]

    def compact(mark: Any, deep_word: str) -> list[Piece]:
        return [kiti_word, f" {mark(left)}|{mark(right)} · {deep_word} ", chain(mark, deep),
                " · Shallow ", chain(mark, shallow)]

    return fit(s.width, between(p.mark), between(you),
               [kiti_word, f" between {pair(you)} · ties: Deepest/Deep ", chain(you, deep),
                " · Shallow ", chain(you, shallow)],
               compact(you, "Deepest/Deep"), compact(str, "Deepest/Deep"), compact(str, "Deep"))


# ----------------------------------------------------------------- lagoon
def lagoon_lines(s: Sight) -> list[Text]:
    """The three spaces, shallow on top as in the water (none once the game is over and the
    lagoon is empty)."""
    lagoon = s.view["lagoon"]
    if s.over and not any(lagoon):
        return []
    return [space_line(s, space) for space in (2, 1, 0)]


def space_line(s: Sight, space: int) -> Text:
    cards = s.view["lagoon"][space]
    label: Piece = (f" {SPACE_NAMES[space]:<8}", "bold cyan")
    rule: Piece = (f"{DEPTH_RULE[space]:<18} ", "dim")
    if not cards:
        return fit(s.width, [label, rule, ("(empty)", "dim")])
    marks = face_down_marks(s, space)
    long = [_joined(i, card_long(c), marks[i], True) for i, c in enumerate(cards)]
    short = [_joined(i, card(c), marks[i], False) for i, c in enumerate(cards)]
    return fit(s.width, [label, rule, *long], [label, rule, *short], [label, *short])


def _joined(i: int, piece: Text, mark: str, long: bool) -> Text:
    out = Text(" + " if i and long else " " if i else "")
    out.append_text(piece)
    if mark:
        out.append(f" ({mark})" if long else f" ({mark.split('; ')[-1]})", style="italic")
    return out


def face_down_marks(s: Sight, space: int) -> list[str]:
    """Per card of a space, a note if it lies face down and this viewer still sees it
    (the short form keeps what follows '; ')."""
    cards = s.view["lagoon"][space]
    rnd = s.view["round"]
    peeked = {(e["round"], e["space"]): e.get("to") for e in s.events if e.get("type") == "peek"}
    hidden = {(e["round"], sp) for e in s.events if e.get("type") == "stock"
              for sp, c in enumerate(e["cards"]) if c == "?"}
    out = []
    for i, c in enumerate(cards):
        stocked = (rnd - (len(cards) - 1 - i), space)
        if c != "?" and stocked in peeked:
            out.append(peek_note(s, peeked[stocked]))
        elif c != "?" and stocked in hidden and s.referee:
            out.append("face down")
        else:
            out.append("")
    return out


def peek_note(s: Sight, seers: list[int] | None) -> str:
    """A face-down card this viewer sees: its own peek ("only you see it"), or, for the
    referee, whose peek it is (the referee's events name the seats that saw it)."""
    if not seers or not s.referee:
        return "face down; only you see it"
    who = " and ".join(s.people.who(x) for x in seers)
    return f"face down; only {who} see{'s' if len(seers) == 1 else ''} it"


# ------------------------------------------------------------------ seats
def seat_lines(s: Sight) -> list[Text]:
    """One line per seat: name, fish pile, score, this round's dive, divers played so far."""
    n = s.players
    cols: list[tuple[str, list[Text], bool]] = [
        ("Score", [score_cell(s, x) for x in range(n)], True)]
    if not s.over:  # at the end every diver has been played
        cols.append(("Dive", [dive_cell(s, x) for x in range(n)], False))
        played = remembered_dives(s.events, n)  # what this viewer saw revealed
        cols.append(("Played", [Text(ranges(played[x]), style="dim") for x in range(n)], False))
    tags = [Text(f"{x} {s.people.tag(x)}", style="bold" if x == s.me else "") for x in range(n)]
    tag_w = max(4, *(t.cell_len for t in tags))
    widths = [max(len(title), *(c.cell_len for c in cells)) for title, cells, _ in cols]
    pile_w = s.width - tag_w - sum(widths) - len(cols) - 1
    piles = s.view["piles"]  # at the end, every pile (the view shows every card in play)
    head = [_pad(Text("Seat"), tag_w), _pad(Text("Fish pile (bottom → top)"), pile_w)]
    head += [_pad(Text(title), w, right) for (title, _, right), w in zip(cols, widths)]
    lines = [Text(" ").join(head).copy()]
    lines[0].stylize("bold")
    for x in range(n):
        row = [_pad(tags[x], tag_w), _pad(pile_cell(piles[x], pile_w), pile_w)]
        row += [_pad(cells[x], w, right) for (_, cells, right), w in zip(cols, widths)]
        lines.append(Text(" ").join(row))
    return [_trim(line) for line in lines]


def _pad(cell: Text, width: int, right: bool = False) -> Text:
    cell = cell.copy()
    gap = max(0, width - cell.cell_len)
    if right:
        return Text(" " * gap) + cell
    cell.append(" " * gap)
    return cell


def _trim(line: Text) -> Text:
    line.rstrip()
    line.no_wrap = True
    line.overflow = "crop"
    return line


def pile_cell(cards: list[str], width: int) -> Text:
    """A pile bottom to top; hidden cards as backs; if too long, the oldest cards are
    counted ('…4') rather than shown."""
    if not cards:
        return Text("—", style="dim")
    pieces: list[tuple[Text, int]] = []
    run = 0
    for c in [*cards, ""]:
        if c == "?":
            run += 1
            continue
        if run:
            backs = f"{BACK}×{run}" if run > 2 else " ".join([BACK] * run)
            pieces.append((Text(backs, style="dim"), run))
            run = 0
        if c:
            pieces.append((card(c), 1))
    dropped = 0
    while True:
        body = Text(" ").join(p for p, _ in pieces)
        line = (Text(f"…{dropped} ", style="dim") + body) if dropped else body
        if line.cell_len <= width or len(pieces) == 1:
            return line
        dropped += pieces.pop(0)[1]


def score_cell(s: Sight, seat: int) -> Text:
    score = s.view["scores"][seat]
    if score is None:
        return Text("?", style="dim")
    return Text(f"{score:g}", style="bold" if seat == s.me else "")


def dive_cell(s: Sight, seat: int) -> Text:
    pending = s.view.get("pending_take")
    committed = s.view["committed"][seat]
    if pending and pending["seat"] == seat:
        return Text("ordering catch", style="yellow")
    if committed is None:
        return Text("choosing…" if seat in s.view.get("to_act", []) else "", style="yellow")
    if committed == "?":
        return Text("chosen", style="dim")
    return Text(f"{committed} (secret)", style="bold")


def hand_line(s: Sight) -> Text | None:
    """The viewer's divers, and what a taker is asked to order."""
    if s.me is None or s.over:
        return None
    mine: list[Piece] = [("Your divers: ", "bold"), (" ".join(map(str, s.view["hands"][s.me])), "bold")]
    pending = s.view.get("pending_take")
    if not (pending and pending["seat"] == s.me):
        return fit(s.width, mine)
    order = f"order your {SPACE_NAMES[pending['space']]} catch:"
    cards: list[Piece] = [(" " + c, "yellow") for c in pending["cards"]]  # a cut falls between cards
    return fit(s.width, [*mine, (" · " + order, "yellow"), *cards],
               [(order[0].upper() + order[1:], "yellow"), *cards])


# ---------------------------------------------------------------- history
def history_lines(s: Sight, room: int, log_rounds: int = 3) -> list[Text]:
    """The last round's reveal (cut short to the room left), then older rounds in one line each."""
    reveals = [i for i, e in enumerate(s.events) if e.get("type") == "reveal"]
    if not reveals or room <= 0:
        return []
    out: list[Text] = [Text("")] if s.players <= 4 and room > 8 else []
    lines = story(s.events, reveals[-1], s.people, s.width)
    left = room - len(out)
    if len(lines) > left:
        cut = len(lines) - (left - 1)
        lines = lines[:left - 1] + [Text(f"  … {cut} more line(s) of this reveal (log shows all)",
                                         style="dim")] if left > 1 else lines[:left]
    out += lines
    left = room - len(out)
    older = [round_line(s.events, i, s.people, s.width) for i in reveals[:-1][-log_rounds:]]
    return out + (older[-left:] if left > 0 else [])


def render_view(view: dict[str, Any], events: Sequence[dict[str, Any]] | None = None,
                names: Sequence[str | None] | None = None, labels: Sequence[str] | None = None,
                width: int = 80, height: int = 21) -> RenderableType:
    """A Miaui view (a seat's, a spectator's or the referee's) as lines that fit
    ``width`` x ``height``.

    ``events``: what this viewer has seen (the last reveal, older rounds, and at the end
    the piles); ``names``: a player's name per seat (None: unnamed); ``labels``: what plays
    at each seat (human, heuristic...), shown for seats without a name.
    """
    s = Sight(view, events, People(view.get("viewer"), names, labels), width)
    lines = [header(s)]
    if not s.over:
        lines.append(kiti_line(s))
    lines += lagoon_lines(s)
    lines += seat_lines(s)
    hand = hand_line(s)
    if hand is not None:
        lines.append(hand)
    lines += history_lines(s, height - len(lines))
    return Group(*lines[:max(height, 1)])


def describe_event(event: dict[str, Any], viewer: Any = None,
                   names: Sequence[str | None] | None = None) -> str | None:
    """One event in plain words for ``viewer`` (None for those not worth a line)."""
    return tell_event(event, People(viewer, names))


def describe_events(events: Sequence[dict[str, Any]], viewer: Any = None,
                    names: Sequence[str | None] | None = None) -> list[str]:
    """Every event worth telling, in the order a person reads them (depths in order)."""
    people = People(viewer, names)
    return [line for line in (tell_event(e, people) for e in told_in_order(events)) if line]


def input_help(view: dict[str, Any]) -> str:
    return TAKE_HELP if view.get("pending_take") else INPUT_HELP


def prompt(view: dict[str, Any], seat: int) -> str:
    pending = view.get("pending_take")
    if pending and pending["seat"] == seat:
        return "take which fish next?"  # short: the line above names the catch and its cards
    return "your move"
