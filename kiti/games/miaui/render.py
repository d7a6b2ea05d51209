"""How a Miaui table looks in a terminal (rich), and Miaui events in plain sentences.

This is Miaui's front-end hook: the generic terminal front end (``kiti.cli``)
finds it as ``kiti.games.miaui.render`` and uses only these names:

- :func:`render_view` (a view dict, as ``observation``/``table`` make it -> a rich renderable),
- :func:`describe_event` (one event -> a sentence, or None),
- :func:`expand_input` (player shorthand -> move notation: a bare number N is ``dive N``),
- :data:`INPUT_HELP` (one line on the shorthand, shown by ``help``).

It never imports ``kiti.cli``; it reads only views and events, never the state.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from .cards import COUNT, card_name
from .rules import DEPTH_RULE, SPACE_NAMES, kiti_order, tie_direction

SPACES = SPACE_NAMES
RULE_OF_SPACE = DEPTH_RULE
STYLE = {"K": "cyan", "T": "yellow", "E": "bold magenta", "L": "green", "J": "bold red", "S": "bold blue"}
BACK = "▒▒"

INPUT_HELP = "Shorthand: a bare number N means 'dive N'; a card code alone (T7) means 'take T7'."


# ----------------------------------------------------------------- words
def who(seat: int, viewer: Any = None) -> str:
    """'you' for the viewing seat, else 'seat N'."""
    return "you" if seat == viewer else f"seat {seat}"


def whose(seat: int, viewer: Any = None) -> str:
    return "your" if seat == viewer else f"seat {seat}'s"


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


def expand_input(text: str) -> str | None:
    """Shorthand a player may type: '9' -> 'dive 9', 'T7' -> 'take T7'; None if not shorthand."""
    t = text.strip()
    if t.isdigit():
        return f"dive {int(t)}"
    if t.upper() in COUNT:
        return f"take {t.upper()}"
    return None


# ---------------------------------------------------------------- events
def describe_event(event: dict[str, Any], viewer: Any = None) -> str | None:
    """One event as a plain sentence (None for events not worth a line)."""
    t = event.get("type")
    r = event.get("round")
    if t == "stock":
        parts = [f"{SPACES[space]} {'a face-down card' if c == '?' else name(c)}"
                 for space, c in enumerate(event["cards"])]
        return f"Round {r}: the lagoon is stocked: {', '.join(parts)}."
    if t == "peek":
        return f"Round {r}: you peeked at the face-down card in {SPACES[event['space']]}: {name(event['card'])}."
    if t == "seagull_returned":
        return f"Round 1: a Seagull drawn for {SPACES[event['space']]} went back into the deck."
    if t == "reveal":
        dives = ", ".join(f"{who(s, viewer)} {d}" for s, d in enumerate(event["dives"]))
        return f"Round {r}: divers revealed: {dives}."
    if t == "catch":
        return (f"Round {r}: {who(event['seat'], viewer)} caught {names(event['cards'])} "
                f"in {SPACES[event['space']]}.")
    if t == "tie":
        seats = " and ".join(who(s, viewer) for s in event["seats"])
        return (f"Round {r}: tie in {SPACES[event['space']]} between {seats}: nobody catches "
                f"there (No Fighting), the fish stay.")
    if t == "no_diver":
        return f"Round {r}: no diver left for {SPACES[event['space']]}: its fish stay."
    if t == "take":
        return f"Round {r}: {who(event['seat'], viewer)} added {name(event['card'])} to the pile."
    if t == "seagull":
        ate = event.get("ate")
        if ate is None:
            return (f"Round {r}: the Seagull flew off from {whose(event['seat'], viewer)} "
                    f"empty pile, hungry.")
        return (f"Round {r}: the Seagull ate {whose(event['seat'], viewer)} top fish, {name(ate)}; "
                f"both left the game.")
    if t == "jellyfish":
        return (f"Round {r}: three Jellyfish in {whose(event['seat'], viewer)} pile "
                f"({', '.join(event['cards'])}) left the game together.")
    if t == "end":
        win = " and ".join(who(s, viewer) for s in event["winners"])
        return f"The game is over: {win} {'win' if len(event['winners']) > 1 or 'you' in win else 'wins'}."
    return None


def _last_reveal(events: Sequence[dict[str, Any]]) -> int | None:
    for i in range(len(events) - 1, -1, -1):
        if events[i].get("type") == "reveal":
            return i
    return None


def round_story(events: Sequence[dict[str, Any]], start: int, viewer: Any = None) -> list[Text]:
    """The reveal starting at ``events[start]`` and all it caused, one line per thing that happened."""
    reveal = events[start]
    dives: list[int] = reveal["dives"]
    kiti = reveal.get("kiti")  # Kiti's position during that round (None with No Fighting)
    r = reveal["round"]
    n = len(dives)
    out: list[Text] = []
    line = Text(f"Round {r} revealed (seat:diver): ", style="bold")
    for s, d in enumerate(dives):
        line.append(f"{'you' if s == viewer else s}:", style="bold" if s == viewer else "")
        line.append(str(d), style="bold")
        line.append("  ")
    out.append(line)
    for ev in events[start + 1:]:
        t = ev.get("type")
        if t in ("stock", "peek", "reveal", "end"):
            break
        if t == "catch":
            space, seat = ev["space"], ev["seat"]
            d = dives[seat]
            tied = ev.get("tied", [])
            text = Text(f"  {SPACES[space]}: ")
            text.append(who(seat, viewer), style="bold")
            text.append(f" ({d}) caught ")
            for i, c in enumerate(ev["cards"]):
                if i:
                    text.append(" + ")
                text.append_text(card_long(c))
            out.append(text)
            if tied and kiti is not None:
                way = tie_direction(space)
                others = " and ".join(who(s, viewer) for s in tied if s != seat)
                order = ">".join(map(str, kiti_order(kiti, n, space)))
                out.append(Text(f"    tied {d}s with {others}: Kiti's {way} order {order}",
                                style="italic"))
        elif t == "tie":
            seats = " and ".join(who(s, viewer) for s in ev["seats"])
            out.append(Text(f"  {SPACES[ev['space']]}: tie of {dives[ev['seats'][0]]}s between "
                            f"{seats}: nobody catches, the fish stay (No Fighting)", style="italic"))
        elif t == "no_diver":
            out.append(Text(f"  {SPACES[ev['space']]}: no diver left, the fish stay", style="italic"))
        elif t == "seagull":
            ate = ev.get("ate")
            if ate is None:
                msg = f"    Seagull! {whose(ev['seat'], viewer).capitalize()} pile is empty: it flies off hungry"
            else:
                msg = (f"    Seagull! It ate {whose(ev['seat'], viewer)} top fish {name(ate)}; "
                       f"both leave the game")
            out.append(Text(msg, style="blue"))
        elif t == "jellyfish":
            out.append(Text(f"    Three Jellyfish in {whose(ev['seat'], viewer)} pile "
                            f"({' '.join(ev['cards'])}) leave the game together", style="red"))
        elif t == "take":
            out.append(Text(f"    {who(ev['seat'], viewer).capitalize()} added {name(ev['card'])}"))
        elif t == "kiti":
            pass
    return out


def _round_line(events: Sequence[dict[str, Any]], start: int, viewer: Any) -> Text:
    """One short line for an older round: who caught what."""
    r = events[start]["round"]
    line = Text(f"R{r}: ", style="dim")
    parts = 0
    for ev in events[start + 1:]:
        t = ev.get("type")
        if t in ("stock", "peek", "reveal", "end"):
            break
        if parts and t in ("catch", "tie"):
            line.append(" · ")
        if t == "catch":
            line.append(f"{who(ev['seat'], viewer)} ")
            for i, c in enumerate(ev["cards"]):
                if i:
                    line.append("+")
                line.append_text(card(c))
            parts += 1
        elif t == "tie":
            line.append(f"{SPACES[ev['space']]} tied", style="italic")
            parts += 1
        elif t == "seagull":
            line.append(f" (ate {ev['ate']})" if ev.get("ate") else " (hungry)", style="blue")
        elif t == "jellyfish":
            line.append(" (3 Jellyfish out)", style="red")
    return line


# ------------------------------------------------------------------ table
def _peeked(events: Sequence[dict[str, Any]]) -> set[tuple[int, int]]:
    return {(e["round"], e["space"]) for e in events if e.get("type") == "peek"}


def _stock_hidden(events: Sequence[dict[str, Any]]) -> set[tuple[int, int]]:
    return {(e["round"], space) for e in events if e.get("type") == "stock"
            for space, c in enumerate(e["cards"]) if c == "?"}


def render_view(view: dict[str, Any], events: Sequence[dict[str, Any]] | None = None,
                labels: Sequence[str] | None = None, log_rounds: int = 3) -> RenderableType:
    """A Miaui view (a seat's, a spectator's or the referee's) as a compact table for 80 columns.

    ``events``: what this viewer has seen (for the last round's reveal and a short log);
    ``labels``: a word per seat (e.g. 'random', 'human') shown beside the seat number.
    """
    n = view["players"]
    viewer = view.get("viewer")
    me = viewer if isinstance(viewer, int) else None
    events = list(events or [])
    opts = view.get("options", {})
    parts: list[RenderableType] = []

    # Header: round, who is looking, variants.
    head = Text("Miaui", style="bold")
    head.append(f" · {'game over' if view['over'] else 'round ' + str(view['round']) + ' of 12'}")
    if me is not None:
        head.append(f" · you are seat {me}", style="bold")
    elif viewer == "referee":
        head.append(" · whole table")
    else:
        head.append(" · spectator")
    flags = [w for k, w in (("open_baskets", "Open Baskets"), ("no_fighting", "No Fighting"),
                            ("taker_chooses_order", "taker orders")) if opts.get(k)]
    if flags:
        head.append(" · " + ", ".join(flags), style="italic")
    parts.append(head)

    # Kiti and the way ties go.
    kiti = view.get("kiti")
    if kiti is None:
        parts.append(Text("No Kiti: a tie catches nothing; tied divers are out, the fish stay.",
                          style="italic"))
    else:
        order = view.get("tie_order") or {}
        k = Text("Kiti", style="bold green")
        k.append(f" between seats {kiti}|{(kiti + 1) % n} · Deep ties → ")
        k.append(">".join(str(s) for s in order.get("deep", [])), style="bold")
        k.append(" · Shallow ties → ")
        k.append(">".join(str(s) for s in order.get("shallow", [])), style="bold")
        parts.append(k)

    # The lagoon, shallow on top as in the water.
    peeked = _peeked(events)
    hidden_stock = _stock_hidden(events)
    lagoon = view["lagoon"]
    for space in (2, 1, 0):
        cards = lagoon[space]
        line = Text(f" {SPACES[space]:<8}", style="bold cyan")
        line.append(f"{RULE_OF_SPACE[space]:<18} ", style="dim")
        if not cards:
            line.append("(empty)", style="dim")
        for i, c in enumerate(cards):
            if i:
                line.append(" + ")
            line.append_text(card_long(c))
            stocked = (view["round"] - (len(cards) - 1 - i), space)
            if c != "?" and stocked in peeked:
                line.append(" (face down; only you see it)", style="italic")
            elif c != "?" and stocked in hidden_stock and viewer == "referee":
                line.append(" (face down)", style="italic")
        parts.append(line)

    # Seats.
    show_discards = any(d and d[0] != "?" for d in view["discards"])
    table = Table(box=None, pad_edge=False, padding=(0, 1), show_edge=False, header_style="bold")
    table.add_column("Seat", no_wrap=True)
    table.add_column("Fish pile (bottom → top)")
    table.add_column("Score", justify="right", no_wrap=True)
    if not view["over"]:
        table.add_column("Dive", no_wrap=True)
    if show_discards:
        table.add_column("Played")
    to_act = set(view.get("to_act", []))
    pending = view.get("pending_take")
    winners = set(view.get("winners") or [])
    for s in range(n):
        label = Text(f"{s} ")
        if s == me:
            label.append("you", style="bold")
        elif labels is not None and s < len(labels):
            label.append(labels[s], style="dim")
        if s in winners:
            label.append(" ★", style="bold yellow")
        pile = Text()
        cards = view["piles"][s]
        if not cards:
            pile.append("—", style="dim")
        hidden_run = 0
        for c in cards:
            if c == "?":
                hidden_run += 1
                continue
            if hidden_run:
                pile.append(f"{BACK}×{hidden_run} " if hidden_run > 2 else (BACK + " ") * hidden_run,
                            style="dim")
                hidden_run = 0
            pile.append_text(card(c))
            pile.append(" ")
        if hidden_run:
            pile.append(f"{BACK}×{hidden_run}", style="dim")
        score = view["scores"][s]
        score_t = Text("?", style="dim") if score is None else Text(str(score), style="bold" if s == me else "")
        committed = view["committed"][s]
        if pending and pending["seat"] == s:
            dive = Text("ordering catch", style="yellow")
        elif committed is None:
            dive = Text("choosing…" if s in to_act else "", style="yellow")
        elif committed == "?":
            dive = Text("chosen", style="dim")
        else:
            dive = Text(f"{committed} (face down)", style="bold")
        row = [label, pile, score_t] + ([] if view["over"] else [dive])
        if show_discards:
            row.append(Text(" ".join(str(d) for d in view["discards"][s]), style="dim"))
        table.add_row(*row)
    parts.append(table)

    if me is not None and not view["over"]:
        hand = Text("Your divers: ", style="bold")
        for d in view["hands"][me]:
            hand.append(f"{d} ", style="bold")
        if pending and pending["seat"] == me:
            hand.append(f"· order your {SPACES[pending['space']]} catch: "
                        f"{' '.join(pending['cards'])}", style="yellow")
        parts.append(hand)

    # The last round's reveal, then one line per earlier round.
    last = _last_reveal(events)
    if last is not None:
        if n <= 4:
            parts.append(Text(""))
        story = round_story(events, last, me)
        # Fit an 80x24 terminal (one line kept for the prompt): a long story (No Fighting
        # takes, Seagulls) is cut short, and older rounds get whatever room is left.
        room = SCREEN_LINES - 1 - _height(parts)
        heights = [_height([line]) for line in story]
        if sum(heights) > room:
            keep, used = 0, 0
            while keep < len(story) and used + heights[keep] <= max(heights[0], room - 1):
                used += heights[keep]
                keep += 1
            keep = max(1, keep)
            note = [Text(f"  … {len(story) - keep} more line(s) of this reveal", style="dim")]
            story = story[:keep] + (note if room - used >= 1 else [])
        parts.extend(story)
        room = SCREEN_LINES - 1 - _height(parts)
        if log_rounds and room > 0:
            starts = [i for i, e in enumerate(events[:last]) if e.get("type") == "reveal"][-log_rounds:]
            lines = [_round_line(events, i, me) for i in starts]
            heights = [_height([line]) for line in lines]
            while lines and sum(heights) > room:  # drop the oldest first
                lines.pop(0)
                heights.pop(0)
            parts.extend(lines)
    return Group(*parts)


SCREEN_LINES = 24


def _height(parts: list[RenderableType], width: int = 80) -> int:
    """Lines ``parts`` take on a ``width``-column terminal."""
    buffer = io.StringIO()
    console = Console(width=width, file=buffer, color_system=None, legacy_windows=False)
    console.print(Group(*parts))
    return buffer.getvalue().count("\n")


class MiauiRenderer:
    """Miaui's declared terminal renderer (the ``renderer`` part of the game)."""

    input_help = INPUT_HELP

    def render_view(self, view: dict[str, Any], events: Sequence[dict[str, Any]] | None = None,
                    labels: Sequence[str] | None = None) -> RenderableType:
        return render_view(view, events, labels)

    def describe_event(self, event: dict[str, Any], viewer: Any = None) -> str | None:
        return describe_event(event, viewer)

    def expand_input(self, text: str) -> str | None:
        return expand_input(text)

    def prompt(self, view: dict[str, Any], seat: int) -> str:
        pending = view.get("pending_take")
        if pending and pending["seat"] == seat:
            return f"Seat {seat}, which card of your {SPACES[pending['space']]} catch joins your pile next?"
        return f"Seat {seat}, choose your diver"


RENDERER = MiauiRenderer()
