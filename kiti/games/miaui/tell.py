"""Miaui in words: who is who at the table, cards, and events as sentences or short lines.

Part of Miaui's terminal renderer (see :mod:`kiti.games.miaui.render`).  Every line it
builds is a rich ``Text`` made of *pieces* that are never split (a card name, a tie order,
a player's name); :func:`fit` picks the longest wording that fits the width, so a line is
abbreviated rather than wrapped.  The rules are read from :mod:`.rules`, never restated.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rich.text import Text

from ...core.words import seat_possessive, seat_word
from .cards import card_name
from .rules import SPACE_NAMES, kiti_order, tie_direction

SPACES = SPACE_NAMES
STYLE = {"K": "cyan", "T": "yellow", "E": "bold magenta", "L": "green", "J": "bold red", "S": "bold blue"}
BACK = "▒▒"
#: Event types that begin something new (they end the story of a round).
BOUNDARIES = ("stock", "peek", "reveal", "end")

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


# ------------------------------------------------------------------ people
class People:
    """How seats are named for one viewer: 'you', a player's name, or 'seat N'."""

    def __init__(self, viewer: Any = None, names: Sequence[str | None] | None = None,
                 labels: Sequence[str] | None = None) -> None:
        self.viewer = viewer if isinstance(viewer, int) and not isinstance(viewer, bool) else None
        self.names = list(names or [])
        self.labels = list(labels or [])

    def name(self, seat: int) -> str | None:
        return self.names[seat] if seat < len(self.names) else None

    def who(self, seat: int) -> str:
        """'you', the player's name, or 'seat N'."""
        return seat_word(seat, self.viewer, self.names)

    def whose(self, seat: int) -> str:
        return seat_possessive(seat, self.viewer, self.names)

    def short(self, seat: int) -> str:
        """A seat in compact lists: 'you' or its number."""
        return "you" if seat == self.viewer else str(seat)

    def mark(self, seat: int) -> str:
        """A seat in tie orders: 'you', its player's name, or its number."""
        if seat == self.viewer:
            return "you"
        return self.name(seat) or str(seat)

    def tag(self, seat: int, width: int = 12) -> str:
        """The word beside a seat number in the table: you, a name, or what plays there."""
        if seat == self.viewer:
            return "you"
        word = self.name(seat) or (self.labels[seat] if seat < len(self.labels) else "")
        return word if len(word) <= width else word[:width - 1] + "…"

    def listing(self, seats: Sequence[int]) -> str:
        """'you and Ann' / 'seat 1, seat 2 and you'."""
        words = [self.who(s) for s in seats]
        return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


# ------------------------------------------------------------------- cards
def name(code: str) -> str:
    """'Tigerfish 7 (T7)', or 'a face-down card' for '?'."""
    if code == "?":
        return "a face-down card"
    return f"{card_name(code)} ({code})"


def names(cards: Sequence[str]) -> str:
    out = [name(c) for c in cards]
    if len(out) <= 1:
        return "".join(out)
    return ", ".join(out[:-1]) + " and " + out[-1]


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


# ------------------------------------------------------------------ events
def round_events(events: Sequence[dict[str, Any]], start: int) -> list[dict[str, Any]]:
    """What followed the reveal at ``events[start]``, up to the next stocking or reveal."""
    out = []
    for ev in events[start + 1:]:
        if ev.get("type") in BOUNDARIES:
            break
        out.append(ev)
    return out


def in_depth_order(outcome: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """A round's outcome told Deepest, Deep, Shallow, whether or not anyone caught there.

    A catch is followed by what it caused (takes, a Seagull, Jellyfish) until the next
    depth's event; ties and empty depths are placed at their own depth.
    """
    groups: dict[int, list[dict[str, Any]]] = {}
    rest: list[dict[str, Any]] = []
    current: list[dict[str, Any]] | None = None
    for ev in outcome:
        if "space" in ev and ev.get("type") in ("catch", "tie", "no_diver"):
            current = groups.setdefault(ev["space"], [])
            current.append(ev)
        elif current is not None:
            current.append(ev)
        else:
            rest.append(ev)
    return [ev for space in sorted(groups) for ev in groups[space]] + rest


def told_in_order(events: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every event, with each round's outcome in depth order (for logs)."""
    out: list[dict[str, Any]] = []
    i = 0
    while i < len(events):
        out.append(events[i])
        if events[i].get("type") == "reveal":
            outcome = round_events(events, i)
            out.extend(in_depth_order(outcome))
            i += len(outcome)
        i += 1
    return out


def describe_event(event: dict[str, Any], people: People) -> str | None:
    """One event as a plain sentence (None for events not worth a line)."""
    t = event.get("type")
    r = event.get("round")
    if t == "stock":
        parts = [f"{SPACES[space]} {'a face-down card' if c == '?' else name(c)}"
                 for space, c in enumerate(event["cards"])]
        return f"Round {r}: the lagoon is stocked: {', '.join(parts)}."
    if t == "peek":
        seats = event.get("to") or []
        who = "you" if people.viewer is not None or not seats else people.listing(seats)
        return f"Round {r}: {who} peeked at the face-down card in {SPACES[event['space']]}: {name(event['card'])}."
    if t == "seagull_returned":
        return f"Round 1: a Seagull drawn for {SPACES[event['space']]} went back into the deck."
    if t == "reveal":
        dives = ", ".join(f"{people.who(s)} ({d})" for s, d in enumerate(event["dives"]))
        return f"Round {r}: the divers are revealed: {dives}."
    return _describe_outcome(event, people) or _describe_pile(event, people)


def _describe_outcome(event: dict[str, Any], people: People) -> str | None:
    t, r = event.get("type"), event.get("round")
    if t == "catch":
        tied = [x for x in event.get("tied") or [] if x != event["seat"]]
        kiti = f" (tied with {people.listing(tied)}; Kiti chose)" if tied else ""
        return (f"Round {r}: {people.who(event['seat'])} caught {names(event['cards'])} in "
                f"{SPACES[event['space']]}{kiti}.")
    if t == "tie":
        return (f"Round {r}: tie in {SPACES[event['space']]} between {people.listing(event['seats'])}: "
                f"nobody catches there (No Fighting), the fish stay.")
    if t == "no_diver":
        return f"Round {r}: no diver left for {SPACES[event['space']]}: its fish stay."
    if t == "end":
        win = people.listing(event["winners"])
        verb = "win" if len(event["winners"]) > 1 or win == "you" else "wins"
        return f"The game is over: {win} {verb}."
    return None


def _describe_pile(event: dict[str, Any], people: People) -> str | None:
    t, r = event.get("type"), event.get("round")
    if t == "take":
        return f"Round {r}: {people.who(event['seat'])} added {name(event['card'])} to the pile."
    if t == "seagull":
        ate = event.get("ate")
        if ate is None:
            return f"Round {r}: the Seagull flew off from {people.whose(event['seat'])} empty pile, hungry."
        return (f"Round {r}: the Seagull ate {people.whose(event['seat'])} top fish, {name(ate)}; "
                f"both left the game.")
    if t == "jellyfish":
        return (f"Round {r}: three Jellyfish in {people.whose(event['seat'])} pile "
                f"({', '.join(event['cards'])}) left the game together.")
    return None


# ------------------------------------------------------------ the last round
def reveal_line(reveal: dict[str, Any], people: People, width: int) -> Text:
    """'Round 3 revealed: you:11 · Ann:11 · seat 2:7', or with seat numbers only."""
    r, dives = reveal["round"], reveal["dives"]
    def entry(s: int, d: int, sep: str, who: str) -> Text:
        return text(sep if s else "", (who, "bold" if s == people.viewer else ""), ":", (str(d), "bold"))

    long = [(f"Round {r} revealed: ", "bold")] + [entry(s, d, " · ", people.who(s)) for s, d in enumerate(dives)]
    short = [(f"Round {r} revealed (seat:diver): ", "bold")] + [
        entry(s, d, "  ", people.short(s)) for s, d in enumerate(dives)]
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
        return [fit(width, [(head, "italic"), (people.listing(seats), "italic"),
                            (": nobody catches, the fish stay (No Fighting)", "italic")],
                    [(head, "italic"), (people.listing(seats), "italic"), (": nobody catches", "italic")],
                    [(head, "italic"), (" ".join(people.short(s) for s in seats), "italic"),
                     (": nobody catches", "italic")])]
    if t == "no_diver":
        return [text((f"  {SPACES[ev['space']]}: no diver left, the fish stay", "italic"))]
    if t == "seagull":
        return [_seagull_line(ev, people, width)]
    if t == "jellyfish":
        return [fit(width, [(f"    Three Jellyfish in {people.whose(ev['seat'])} pile "
                             f"({' '.join(ev['cards'])}) leave the game together", "red")],
                    [(f"    Three Jellyfish leave {people.whose(ev['seat'])} pile", "red")])]
    if t == "take":
        who = people.who(ev["seat"])
        return [fit(width, [f"    {who[0].upper() + who[1:]} added {name(ev['card'])}"],
                    [f"    {who[0].upper() + who[1:]} added {ev['card']}"])]
    return []


def _catch_line(ev: dict[str, Any], dive: int, people: People, width: int) -> Text:
    head = text(f"  {SPACES[ev['space']]}: ", (people.who(ev["seat"]), "bold"), f" ({dive}) caught ")
    cards = ev["cards"]
    return fit(width, [head, *cards_pieces(cards, True)], [head, *cards_pieces(cards, False)],
               [head, *cards_pieces(cards, False, " ")])


def tie_line(ev: dict[str, Any], dive: int, kiti: int, players: int, people: People, width: int) -> Text:
    """How Kiti broke a tie: 'tied 9s with you and seat 2: Kiti's counterclockwise order 0>3>2>1'."""
    space, seat = ev["space"], ev["seat"]
    others = people.listing([s for s in ev["tied"] if s != seat])
    way = tie_direction(space)
    numbers = ">".join(map(str, kiti_order(kiti, players, space)))
    return fit(width, [(f"    tied {dive}s with {others}: Kiti's {way} order ", "italic"), (numbers, "italic")],
               [(f"    tied {dive}s: Kiti's {way} order ", "italic"), (numbers, "italic")],
               [("    tied: Kiti's order ", "italic"), (numbers, "italic")])


def _seagull_line(ev: dict[str, Any], people: People, width: int) -> Text:
    ate = ev.get("ate")
    if ate is None:
        whose = people.whose(ev["seat"])
        whose = whose[0].upper() + whose[1:]  # not capitalize(): a name keeps its letters
        return fit(width, [(f"    Seagull! {whose} pile is empty: it flies off hungry", "blue")],
                   [(f"    Seagull! {whose} pile is empty", "blue")],
                   [("    Seagull! It flies off hungry", "blue")])
    return fit(width, [(f"    Seagull! It ate {people.whose(ev['seat'])} top fish {name(ate)}; "
                        f"both leave the game", "blue")],
               [(f"    Seagull! It ate {people.whose(ev['seat'])} top fish {ate}", "blue")])


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
