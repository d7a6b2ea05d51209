"""How a Miaui table looks in a terminal (rich): Miaui's ``terminal`` part.

The generic terminal front end (``kiti.cli``) calls :func:`render_view` (see the protocol
in ``kiti/cli/render.py``); the game's words (event sentences, the story's wordings, prompt,
shorthand) are in :mod:`.words`: this module styles them, and :data:`STORY_LINES` says, per
event kind, how its story is drawn.  This module never imports ``kiti.cli``; it reads views and events only,
never the state, and takes the rule facts from the view (rounds, what each depth takes,
Kiti's seats and tie orders, what a tie does) or from :mod:`.rules`' functions.

Every line it builds is a rich ``Text`` made of *pieces* that are never split (a card name,
a tie order, a player's name); :func:`fit` picks the longest wording that fits the width,
so a line is abbreviated rather than wrapped, and the whole table fits the height it is
given, so the header never scrolls off an 80x24 terminal.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from .cards import card_name
from .rules import remembered_dives
from .view import MiauiView
from .words import (
    ROUND,
    ROUND_HEAD,
    STORY,
    STORY_WORDS,
    Event,
    People,
    in_depth_order,
    round_events,
    told_as,
)

STYLE = {"K": "cyan", "T": "yellow", "E": "bold magenta", "L": "green", "J": "bold red", "S": "bold blue"}
BACK = "▒▒"
FLAGS = (
    ("open_baskets", "Open Baskets"),
    ("no_fighting", "No Fighting"),
    ("taker_chooses_order", "taker orders"),
)

Piece = Text | str | tuple[str, str]
Drawn = dict[str, str | Text | list[Piece]]  # placeholders the terminal draws itself


# ------------------------------------------------------------------ layout
def text(*pieces: Piece) -> Text:
    """Pieces joined into one Text (strings are literal text, never markup)."""
    return Text.assemble(*pieces, no_wrap=True, overflow="crop")


def fit(width: int, *wordings: Sequence[Piece]) -> Text:
    """The first wording (a list of unbreakable pieces) that fits in ``width`` columns.

    If none does, the last one is cut between two pieces and ends with '…', so a card
    name or a tie order is never split and a line never wraps.
    """
    for pieces in wordings:
        line = text(*pieces)
        if line.cell_len <= width:
            return line
    out = Text(no_wrap=True, overflow="crop")
    for piece in wordings[-1]:
        part = text(piece)
        if out.cell_len + part.cell_len > width - 1:
            break
        out.append_text(part)
    out.append("…", style="dim")
    return out


def ranges(numbers: Iterable[int]) -> str:
    """Sorted numbers with runs abbreviated: [1, 2, 3, 5, 9, 10] -> '1-3 5 9-10'."""
    out: list[str] = []
    run: list[int] = []
    for n in sorted(numbers):
        if run and n == run[-1] + 1:
            run.append(n)
            continue
        if run:
            out.append(_run(run))
        run = [n]
    if run:
        out.append(_run(run))
    return " ".join(out)


def _run(run: list[int]) -> str:
    if len(run) >= 3:
        return f"{run[0]}-{run[-1]}"
    return " ".join(map(str, run))


# ------------------------------------------------------------------- cards
def card(code: str) -> Text:
    """A card code in its kind's colour; a face-down card as a back."""
    if code == "?":
        return Text(BACK, style="dim")
    return Text(code, style=STYLE.get(code[0], ""))


def card_long(code: str) -> Text:
    if code == "?":
        return Text(f"{BACK} face down", style="dim")
    return Text.assemble(card(code), " ", (card_name(code), STYLE.get(code[0], "")))


def cards_pieces(cards: Sequence[str], long: bool, joiner: str = " + ") -> list[Piece]:
    """Cards as pieces (long names or codes), each piece one whole card."""
    out: list[Piece] = []
    for i, code in enumerate(cards):
        piece = card_long(code) if long else card(code)
        out.append(Text.assemble(joiner, piece) if i else piece)
    return out


# ------------------------------------------------------------ the last round
#: How each kind's words are styled (the words are the game's: :data:`.words.STORY`, ``ROUND``).
KIND_STYLE = {"reveal": "bold", "tie": "italic", "no_diver": "italic", "seagull": "blue", "jellyfish": "red"}


def filled(
    template: str, ev: Event, reveal: Event, people: People, style: str = "", drawn: Drawn | None = None
) -> list[Piece]:
    """A template of the game's words with its placeholders filled: its text in one piece styled
    ``style`` (a player's name bold where ``drawn`` says so), the pieces of a drawn field (cards,
    dives) between; ``drawn`` also words a placeholder its own way (seats by number)."""
    out: list[Piece] = []
    piece = Text(style=style)
    for literal, field, _, _ in string.Formatter().parse(template):
        piece.append(literal)
        if not field:
            continue
        value = drawn[field] if drawn and field in drawn else STORY_WORDS[field](ev, reveal, people)
        if isinstance(value, str):
            piece.append(value)
        elif isinstance(value, Text):
            piece.append_text(value)
        else:
            out += [piece, *value] if piece else value
            piece = Text(style=style)
    return [*out, piece] if piece else out


def wordings(
    key: str, ev: Event, reveal: Event, people: People, style: str = "", drawn: Drawn | None = None
) -> list[list[Piece]]:
    """The wordings of :data:`.words.STORY` ``[key]``, longest first, as pieces to :func:`fit`."""
    return [
        [p for template in wording for p in filled(template, ev, reveal, people, style, drawn)]
        for wording in STORY[key]
    ]


def reveal_line(reveal: Event, people: People, width: int) -> Text:
    """'Round 3 revealed: you:11 · Ann:11 · seat 2:7', or with seat numbers only."""

    def entry(s: int, d: int, sep: str, who: str) -> Text:
        return text(sep if s else "", (who, "bold" if s == people.viewer else ""), ":", (str(d), "bold"))

    dives = list(enumerate(reveal["dives"]))
    drawn: Drawn = {
        "dives": [entry(s, d, " · ", people.who(s)) for s, d in dives],
        "seat_dives": [entry(s, d, "  ", people.short(s)) for s, d in dives],
    }
    return fit(width, *wordings("reveal", reveal, reveal, people, KIND_STYLE["reveal"], drawn))


def story(events: Sequence[Event], start: int, people: People, width: int) -> list[Text]:
    """The reveal at ``events[start]`` and all it caused, depth by depth, one line each."""
    reveal = events[start]
    out = STORY_LINES["reveal"](reveal, reveal, people, width)
    for ev in in_depth_order(round_events(events, start)):
        out.extend(STORY_LINES.get(str(ev.get("type")), _untold)(ev, reveal, people, width))
    return out


def _catch_lines(ev: Event, reveal: Event, people: People, width: int) -> list[Text]:
    """Who caught what at a depth, the cards by name where they fit; then how Kiti broke its tie."""
    drawings = ((True, " + "), (False, " + "), (False, " "))
    line = fit(
        width,
        *(
            wording
            for long, joiner in drawings
            for wording in wordings("catch", ev, reveal, people, drawn=_catch_drawn(ev, people, long, joiner))
        ),
    )
    if ev.get("tied") and reveal.get("kiti") is not None:
        return [line, fit(width, *wordings("catch/tied", ev, reveal, people, "italic"))]
    return [line]


def _catch_drawn(ev: Event, people: People, long: bool, joiner: str) -> Drawn:
    return {
        "who": Text(people.who(ev["seat"]), style="bold"),
        "cards": cards_pieces(ev["cards"], long, joiner),
    }


def _told_lines(ev: Event, reveal: Event, people: People, width: int) -> list[Text]:
    """The event's wordings (:func:`.words.told_as`), the longest that fits."""
    style = KIND_STYLE.get(str(ev["type"]), "")
    return [fit(width, *wordings(told_as(ev), ev, reveal, people, style))]


def _unfitted_lines(ev: Event, reveal: Event, people: People, width: int) -> list[Text]:
    """The event's one wording, cropped at the edge if it must be."""
    return [text(*wordings(told_as(ev), ev, reveal, people, KIND_STYLE.get(str(ev["type"]), ""))[0])]


def _untold(ev: Event, reveal: Event, people: People, width: int) -> list[Text]:
    """Nothing: the table shows it elsewhere (the lagoon, a peek, the result) or it is no news."""
    return []


StoryLines = Callable[[Event, Event, People, int], list[Text]]

#: The story's lines for an event, by kind (every kind the game declares is here).
STORY_LINES: dict[str, StoryLines] = {
    "stock": _untold,
    "seagull_returned": _untold,
    "peek": _untold,
    "reveal": lambda ev, reveal, people, width: [reveal_line(ev, people, width)],
    "catch": _catch_lines,
    "tie": _told_lines,
    "no_diver": _unfitted_lines,
    "take": _told_lines,
    "seagull": _told_lines,
    "jellyfish": _told_lines,
    "end": _untold,
}


def round_line(events: Sequence[Event], start: int, people: People, width: int) -> Text:
    """One short line for an older round: who caught what, depth by depth (seats by number
    where players' names make it too long)."""
    return fit(width, _round_pieces(events, start, people, False), _round_pieces(events, start, people, True))


def _round_pieces(events: Sequence[Event], start: int, people: People, by_number: bool) -> list[Piece]:
    reveal = events[start]
    pieces = filled(ROUND_HEAD, reveal, reveal, people, "dim")
    first = True
    for ev in in_depth_order(round_events(events, start)):
        template = ROUND.get(told_as(ev))
        if template is None:
            continue
        if ev["type"] in ("catch", "tie"):  # a depth's outcome, after the depth before it
            pieces.append("" if first else " · ")
            first = False
        drawn: Drawn = {"cards": cards_pieces(ev.get("cards", ()), False, "+")}
        if by_number and "seat" in ev:
            drawn["who"] = people.short(ev["seat"])
        pieces += filled(template, ev, reveal, people, KIND_STYLE.get(ev["type"], ""), drawn)
    return pieces


# ------------------------------------------------------------------ the table
class Sight:
    """One viewer's look at a view: the view, what the viewer saw happen, names, width."""

    def __init__(
        self, view: MiauiView, events: Sequence[dict[str, Any]] | None, people: People, width: int
    ) -> None:
        self.view = view
        self.events = list(events or [])
        self.people = people
        self.width = width
        self.players = view.players
        self.me = people.viewer
        self.over = view.over
        self.referee = view.viewer == "referee"

    def option(self, name: str) -> bool:
        return bool(self.view.options.get(name))


# ----------------------------------------------------------------- header
def header(s: Sight) -> Text:
    """Game, round, who is looking and the variants (no Kiti once the game is over)."""
    rounds = s.view.rounds
    rnd = "game over" if s.over else f"round {s.view.round} of {rounds}"
    short_rnd = "game over" if s.over else f"round {s.view.round}/{rounds}"
    flags = ", ".join(word for key, word in FLAGS if s.option(key))
    tail: list[Piece] = [(" · " + flags, "italic")] if flags else []
    if s.me is not None:
        named = s.people.name(s.me)
        who = f"you are {named} (seat {s.me})" if named else f"you are seat {s.me}"
        short = f"{named[:12]} (seat {s.me})" if named else f"seat {s.me}"
    else:
        who = short = "whole table" if s.referee else "spectator"
    plain = "whole table" if s.referee else "spectator" if s.me is None else f"seat {s.me}"
    return fit(
        s.width,
        [("Miaui", "bold"), f" · {rnd} · ", (who, "bold"), *tail],
        [("Miaui", "bold"), f" · {short_rnd} · ", (short, "bold"), *tail],
        [("Miaui", "bold"), f" · {short_rnd} · ", (plain, "bold"), *tail],
    )


def kiti_line(s: Sight) -> Text:
    """Where Kiti stands and the tie orders it gives (view: kiti, kiti_left, tie_order).

    The full form (players' names, "you", Deepest/Deep) whenever it fits; narrower widths
    drop the names first, then words, and keep "you" and Deepest/Deep as long as they can."""
    kiti = s.view.kiti
    if kiti is None:
        return fit(s.width, [("No Kiti: " + s.view.tie_rule + ".", "italic")])
    order = s.view.tie_order or {}
    deep, shallow = order.get("deep", []), order.get("shallow", [])
    left, right = kiti, s.view.kiti_left
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
        return [
            kiti_word,
            f" between {pair(mark)} · Deepest/Deep ties → ",
            chain(mark, deep),
            " · Shallow ties → ",
            chain(mark, shallow),
        ]

    def compact(mark: Any, deep_word: str) -> list[Piece]:
        return [
            kiti_word,
            f" {mark(left)}|{mark(right)} · {deep_word} ",
            chain(mark, deep),
            " · Shallow ",
            chain(mark, shallow),
        ]

    return fit(
        s.width,
        between(p.mark),
        between(you),
        [
            kiti_word,
            f" between {pair(you)} · ties: Deepest/Deep ",
            chain(you, deep),
            " · Shallow ",
            chain(you, shallow),
        ],
        compact(you, "Deepest/Deep"),
        compact(str, "Deepest/Deep"),
        compact(str, "Deep"),
    )


# ----------------------------------------------------------------- lagoon
def lagoon_lines(s: Sight) -> list[Text]:
    """The three spaces, shallow on top as in the water (none once the game is over and the
    lagoon is empty)."""
    lagoon = s.view.lagoon
    if s.over and not any(lagoon):
        return []
    return [space_line(s, space) for space in (2, 1, 0)]


def space_line(s: Sight, space: int) -> Text:
    cards = s.view.lagoon[space]
    depth = s.view.depths[space]
    label: Piece = (f" {depth.name:<8}", "bold cyan")
    rule: Piece = (f"{depth.rule:<18} ", "dim")
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
    cards = s.view.lagoon[space]
    rnd = s.view.round
    peeked = {(e["round"], e["space"]): e.get("to") for e in s.events if e.get("type") == "peek"}
    hidden = {
        (e["round"], sp)
        for e in s.events
        if e.get("type") == "stock"
        for sp, c in enumerate(e["cards"])
        if c == "?"
    }
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
    cols: list[tuple[str, list[Text], bool]] = [("Score", [score_cell(s, x) for x in range(n)], True)]
    if not s.over:  # at the end every diver has been played
        cols.append(("Dive", [dive_cell(s, x) for x in range(n)], False))
        played = remembered_dives(s.events, n)  # what this viewer saw revealed
        cols.append(("Played", [Text(ranges(played[x]), style="dim") for x in range(n)], False))
    tags = [Text(f"{x} {s.people.tag(x)}", style="bold" if x == s.me else "") for x in range(n)]
    tag_w = max(4, *(t.cell_len for t in tags))
    widths = [max(len(title), *(c.cell_len for c in cells)) for title, cells, _ in cols]
    pile_w = s.width - tag_w - sum(widths) - len(cols) - 1
    piles = s.view.piles  # at the end, every pile (the view shows every card in play)
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
    score = s.view.scores[seat]
    if score is None:
        return Text("?", style="dim")
    return Text(f"{score:g}", style="bold" if seat == s.me else "")


def dive_cell(s: Sight, seat: int) -> Text:
    pending = s.view.pending_take
    committed = s.view.committed[seat]
    if pending and pending.seat == seat:
        return Text("ordering catch", style="yellow")
    if committed is None:
        return Text("choosing…" if seat in s.view.to_act else "", style="yellow")
    if committed == "?":
        return Text("chosen", style="dim")
    return Text(f"{committed} (secret)", style="bold")


def hand_line(s: Sight) -> Text | None:
    """The viewer's divers, and what a taker is asked to order."""
    if s.me is None or s.over:
        return None
    mine: list[Piece] = [("Your divers: ", "bold"), (" ".join(map(str, s.view.hands[s.me])), "bold")]
    pending = s.view.pending_take
    if not (pending and pending.seat == s.me):
        return fit(s.width, mine)
    order = f"order your {s.view.depths[pending.space].name} catch:"
    cards: list[Piece] = [(" " + c, "yellow") for c in pending.cards]  # a cut falls between cards
    return fit(
        s.width,
        [*mine, (" · " + order, "yellow"), *cards],
        [(order[0].upper() + order[1:], "yellow"), *cards],
    )


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
        lines = (
            [*lines[: left - 1], Text(f"  … {cut} more line(s) of this reveal (log shows all)", style="dim")]
            if left > 1
            else lines[:left]
        )
    out += lines
    left = room - len(out)
    older = [round_line(s.events, i, s.people, s.width) for i in reveals[:-1][-log_rounds:]]
    return out + (older[-left:] if left > 0 else [])


def render_view(
    view: MiauiView,
    events: Sequence[dict[str, Any]] | None = None,
    names: Sequence[str | None] | None = None,
    labels: Sequence[str] | None = None,
    width: int = 80,
    height: int = 21,
) -> RenderableType:
    """A Miaui view (a seat's, a spectator's or the referee's) as lines that fit
    ``width`` x ``height``.

    ``events``: what this viewer has seen (the last reveal, older rounds, and at the end
    the piles); ``names``: a player's name per seat (None: unnamed); ``labels``: what plays
    at each seat (human, heuristic...), shown for seats without a name.
    """
    s = Sight(view, events, People(view.viewer, names, labels), width)
    lines = [header(s)]
    if not s.over:
        lines.append(kiti_line(s))
    lines += lagoon_lines(s)
    lines += seat_lines(s)
    hand = hand_line(s)
    if hand is not None:
        lines.append(hand)
    lines += history_lines(s, height - len(lines))
    return Group(*lines[: max(height, 1)])
