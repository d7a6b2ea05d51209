"""How a Miaui table looks in a terminal (rich): Miaui's ``terminal`` part.

The generic terminal front end (``kiti.cli``) calls :func:`render_view` (see the protocol
in ``kiti/cli/render.py``); the game's words (event sentences, prompt, shorthand) are in
:mod:`.words`.  This module never imports ``kiti.cli``; it reads views and events only,
never the state, and takes the rule facts from the view (rounds, what each depth takes,
Kiti's seats and tie orders, what a tie does) or from :mod:`.rules`' functions.

Every line it builds is a rich ``Text`` made of *pieces* that are never split (a card name,
a tie order, a player's name); :func:`fit` picks the longest wording that fits the width,
so a line is abbreviated rather than wrapped, and the whole table fits the height it is
given, so the header never scrolls off an 80x24 terminal.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from .cards import card_name
from .rules import kiti_order, remembered_dives, tie_direction
from .words import SPACES, People, in_depth_order, name, round_events

STYLE = {"K": "cyan", "T": "yellow", "E": "bold magenta", "L": "green", "J": "bold red", "S": "bold blue"}
BACK = "▒▒"
FLAGS = (
    ("open_baskets", "Open Baskets"),
    ("no_fighting", "No Fighting"),
    ("taker_chooses_order", "taker orders"),
)

Piece = Text | str | tuple[str, str]


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
def reveal_line(reveal: dict[str, Any], people: People, width: int) -> Text:
    """'Round 3 revealed: you:11 · Ann:11 · seat 2:7', or with seat numbers only."""
    r, dives = reveal["round"], reveal["dives"]

    def entry(s: int, d: int, sep: str, who: str) -> Text:
        return text(sep if s else "", (who, "bold" if s == people.viewer else ""), ":", (str(d), "bold"))

    long = [(f"Round {r} revealed: ", "bold")] + [
        entry(s, d, " · ", people.who(s)) for s, d in enumerate(dives)
    ]
    short = [(f"Round {r} revealed (seat:diver): ", "bold")] + [
        entry(s, d, "  ", people.short(s)) for s, d in enumerate(dives)
    ]
    return fit(width, long, short)


def story(events: Sequence[dict[str, Any]], start: int, people: People, width: int) -> list[Text]:
    """The reveal at ``events[start]`` and all it caused, depth by depth, one line each."""
    reveal = events[start]
    out = [reveal_line(reveal, people, width)]
    for ev in in_depth_order(round_events(events, start)):
        out.extend(_story_lines(ev, reveal, people, width))
    return out


def _story_lines(ev: dict[str, Any], reveal: dict[str, Any], people: People, width: int) -> list[Text]:
    t = ev.get("type")
    dives = reveal["dives"]
    if t == "catch":
        dive = dives[ev["seat"]]
        line = _catch_line(ev, dive, people, width)
        if ev.get("tied") and reveal.get("kiti") is not None:
            return [line, tie_line(ev, dive, reveal["kiti"], len(dives), people, width)]
        return [line]
    if t == "tie":
        space, seats = SPACES[ev["space"]], ev["seats"]
        head = f"  {space}: tie of {dives[seats[0]]}s between "
        return [
            fit(
                width,
                [
                    (head, "italic"),
                    (people.listing(seats), "italic"),
                    (": nobody catches, the fish stay (No Fighting)", "italic"),
                ],
                [(head, "italic"), (people.listing(seats), "italic"), (": nobody catches", "italic")],
                [
                    (head, "italic"),
                    (" ".join(people.short(s) for s in seats), "italic"),
                    (": nobody catches", "italic"),
                ],
            )
        ]
    if t == "no_diver":
        return [text((f"  {SPACES[ev['space']]}: no diver left, the fish stay", "italic"))]
    if t == "seagull":
        return [_seagull_line(ev, people, width)]
    if t == "jellyfish":
        return [
            fit(
                width,
                [
                    (
                        f"    Three Jellyfish in {people.whose(ev['seat'])} pile "
                        f"({' '.join(ev['cards'])}) leave the game together",
                        "red",
                    )
                ],
                [(f"    Three Jellyfish leave {people.whose(ev['seat'])} pile", "red")],
            )
        ]
    if t == "take":
        who = people.who(ev["seat"])
        return [
            fit(
                width,
                [f"    {who[0].upper() + who[1:]} added {name(ev['card'])}"],
                [f"    {who[0].upper() + who[1:]} added {ev['card']}"],
            )
        ]
    return []


def _catch_line(ev: dict[str, Any], dive: int, people: People, width: int) -> Text:
    head = text(f"  {SPACES[ev['space']]}: ", (people.who(ev["seat"]), "bold"), f" ({dive}) caught ")
    cards = ev["cards"]
    return fit(
        width,
        [head, *cards_pieces(cards, True)],
        [head, *cards_pieces(cards, False)],
        [head, *cards_pieces(cards, False, " ")],
    )


def tie_line(ev: dict[str, Any], dive: int, kiti: int, players: int, people: People, width: int) -> Text:
    """How Kiti broke a tie: 'tied 9s with you and seat 2: Kiti's counterclockwise order 0>3>2>1'."""
    space, seat = ev["space"], ev["seat"]
    others = people.listing([s for s in ev["tied"] if s != seat])
    way = tie_direction(space)
    numbers = ">".join(map(str, kiti_order(kiti, players, space)))
    return fit(
        width,
        [(f"    tied {dive}s with {others}: Kiti's {way} order ", "italic"), (numbers, "italic")],
        [(f"    tied {dive}s: Kiti's {way} order ", "italic"), (numbers, "italic")],
        [("    tied: Kiti's order ", "italic"), (numbers, "italic")],
    )


def _seagull_line(ev: dict[str, Any], people: People, width: int) -> Text:
    ate = ev.get("ate")
    if ate is None:
        whose = people.whose(ev["seat"])
        whose = whose[0].upper() + whose[1:]  # not capitalize(): a name keeps its letters
        return fit(
            width,
            [(f"    Seagull! {whose} pile is empty: it flies off hungry", "blue")],
            [(f"    Seagull! {whose} pile is empty", "blue")],
            [("    Seagull! It flies off hungry", "blue")],
        )
    return fit(
        width,
        [
            (
                f"    Seagull! It ate {people.whose(ev['seat'])} top fish {name(ate)}; both leave the game",
                "blue",
            )
        ],
        [(f"    Seagull! It ate {people.whose(ev['seat'])} top fish {ate}", "blue")],
    )


def round_line(events: Sequence[dict[str, Any]], start: int, people: People, width: int) -> Text:
    """One short line for an older round: who caught what, depth by depth (seats by number
    where players' names make it too long)."""
    return fit(width, _round_pieces(events, start, people.who), _round_pieces(events, start, people.short))


def _round_pieces(events: Sequence[dict[str, Any]], start: int, who: Any) -> list[Piece]:
    pieces: list[Piece] = [(f"R{events[start]['round']}: ", "dim")]
    first = True
    for ev in in_depth_order(round_events(events, start)):
        t = ev.get("type")
        if t in ("catch", "tie"):
            pieces.append("" if first else " · ")
            first = False
        if t == "catch":
            pieces.append(f"{who(ev['seat'])} ")
            pieces.extend(cards_pieces(ev["cards"], False, "+"))
        elif t == "tie":
            pieces.append((f"{SPACES[ev['space']]} tied", "italic"))
        elif t == "seagull":
            pieces.append((f" (ate {ev['ate']})" if ev.get("ate") else " (hungry)", "blue"))
        elif t == "jellyfish":
            pieces.append((" (3 Jellyfish out)", "red"))
    return pieces


# ------------------------------------------------------------------ the table
class Sight:
    """One viewer's look at a view: the view, what the viewer saw happen, names, width."""

    def __init__(
        self, view: dict[str, Any], events: Sequence[dict[str, Any]] | None, people: People, width: int
    ) -> None:
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
    rounds = s.view["rounds"]
    rnd = "game over" if s.over else f"round {s.view['round']} of {rounds}"
    short_rnd = "game over" if s.over else f"round {s.view['round']}/{rounds}"
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
    kiti = s.view.get("kiti")
    if kiti is None:
        return fit(s.width, [("No Kiti: " + s.view["tie_rule"] + ".", "italic")])
    order = s.view.get("tie_order") or {}
    deep, shallow = order.get("deep", []), order.get("shallow", [])
    left, right = kiti, s.view["kiti_left"]
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
    lagoon = s.view["lagoon"]
    if s.over and not any(lagoon):
        return []
    return [space_line(s, space) for space in (2, 1, 0)]


def space_line(s: Sight, space: int) -> Text:
    cards = s.view["lagoon"][space]
    depth = s.view["depths"][space]
    label: Piece = (f" {depth['name']:<8}", "bold cyan")
    rule: Piece = (f"{depth['rule']:<18} ", "dim")
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
    order = f"order your {s.view['depths'][pending['space']]['name']} catch:"
    cards: list[Piece] = [(" " + c, "yellow") for c in pending["cards"]]  # a cut falls between cards
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
    view: dict[str, Any],
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
    return Group(*lines[: max(height, 1)])
