"""How a Mauw table looks in a terminal (rich), and Mauw events in plain words.

Mauw's declared renderer part: this module's functions follow the renderer protocol of
``kiti/cli/render.py``.  It reads views and events only, never
the state, and calls the rules module for every rule it shows (scores, slot names).
A column is drawn as a stack, bottom to top: one ``9`` per nine, then its Warrior or
Spirit, then its points (``99R8 32``: two nines under a red 8, 32 points).
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ...core.words import seat_possessive as whose
from ...core.words import seat_word as who
from .cards import COLOUR
from .explain import either
from .rules import DECLINE, SLOTS, STOP, TU, Answer, answer_cards, gain_destinations, tuatura_allowed

STYLE = {"R": "bold red", "Y": "bold yellow", "G": "bold green", "B": "bold blue"}
INPUT_HELP = ("Moves: 'R8 0A' (a card on seat 0's column A), 'JK=Y2 1C' (a Joker standing for Y2), "
              "'pass'; against an attack 'defend R1', 'TU', 'decline'; attacking 'renew R1', 'stop'; "
              "'place B'. Your own columns can be written without your seat: 'R8 A'.")


def card(code: str | None) -> Text:
    """A card code in its colour (a Spirit in magenta, a hidden card as '?')."""
    if code is None:
        return Text("")
    if code == "?":
        return Text("?", style="dim")
    if code == "SP":
        return Text(code, style="magenta")
    return Text(code, style=STYLE.get(COLOUR.get(code, ""), "bold"))


def stack(col: dict[str, Any]) -> Text:
    """One column: its nines, its top, its points (``—`` for an empty slot)."""
    if not col["nines"] and col["top"] is None:
        return Text("—", style="dim")
    out = Text("9" * col["nines"], style="cyan")
    out.append_text(card(col["top"]))
    out.append(f" {col['score']}", style="dim")
    return out


def seat_row(view: dict[str, Any], seat: int, names: Sequence[str | None] | None,
             labels: Sequence[str] | None) -> list[Text]:
    viewer = view["viewer"]
    name = Text(f"{seat} ")
    named = names[seat] if names and seat < len(names) else None
    shown = "you" if seat == viewer else (named or (labels[seat] if labels else ""))
    name.append(shown[:12], style="bold" if seat == viewer else "")
    if view["teams"]:
        team = next(i for i, t in enumerate(view["teams"]) if seat in t)
        name.append(f" t{team + 1}", style="italic")
    if seat in view["to_act"]:
        name.append(" ◀", style="bold yellow")
    cells = [stack(col) for col in view["columns"][seat]]
    total = Text(f"{view['scores'][seat]:g}", style="bold")
    return [name, *cells, total]


def header(view: dict[str, Any]) -> Text:
    head = Text("Mauw", style="bold")
    if view["over"]:
        head.append(" · game over")
    else:
        head.append(f" · seat {view['turn']}'s turn")
    viewer = view["viewer"]
    head.append(" · " + ("you are seat " + str(viewer) if isinstance(viewer, int) else
                         "whole table" if viewer == "referee" else "spectator"), style="bold")
    head.append(f" · draw pile {view['draw_pile'] if isinstance(view['draw_pile'], int) else len(view['draw_pile'])}")
    top = view["discard"][-3:]
    head.append(" · discards ")
    head.append_text(Text(" ").join([card(c) for c in top]) if top else Text("none", style="dim"))
    return head


def table(view: dict[str, Any], names: Sequence[str | None] | None, labels: Sequence[str] | None) -> Table:
    grid = Table(box=None, pad_edge=False, padding=(0, 1), show_edge=False, header_style="bold")
    grid.add_column("seat", no_wrap=True)
    for slot in SLOTS:
        grid.add_column(slot, no_wrap=True)
    grid.add_column("total", justify="right", no_wrap=True)
    for seat in range(view["players"]):
        grid.add_row(*seat_row(view, seat, names, labels))
    return grid


def attack_line(view: dict[str, Any]) -> Text | None:
    a = view["attack"]
    if a is None:
        return None
    viewer = view["viewer"]
    line = Text("Attack: ", style="bold red")
    line.append(f"{who(a['attacker'], viewer)} on {whose(a['defender'], viewer)} column {a['slot']} (")
    line.append_text(card(a["target"]))
    line.append(")")
    if a["card"] is not None:
        line.append(" with ")
        line.append_text(card(a["card"] if not a["as"] else f"{a['card']}={a['as']}"))
    else:
        line.append(" · defended: renew or stop?")
    if a["awaiting"] is not None:
        line.append(f" · waiting for {who(a['awaiting'], viewer)}", style="italic")
    return line


def hand_line(view: dict[str, Any]) -> Text | None:
    viewer = view["viewer"]
    if not isinstance(viewer, int) or view["over"]:
        return None
    line = Text("Your hand: ", style="bold")
    for code in view["hands"][viewer]:
        line.append_text(card(code))
        line.append(" ")
    return line


def render_view(view: dict[str, Any], events: Sequence[dict[str, Any]] | None = None,
                names: Sequence[str | None] | None = None, labels: Sequence[str] | None = None,
                width: int = 80, height: int = 21) -> RenderableType:
    """A Mauw view (a seat's, a spectator's or the referee's) as a table that fits ``width``
    columns and ``height`` lines; the latest events fill the room left."""
    parts: list[RenderableType] = [header(view), table(view, names, labels)]
    if view["team_scores"] is not None:
        parts.append(Text("Teams: " + " · ".join(
            f"{'+'.join(map(str, t))} = {sc:g}" for t, sc in zip(view["teams"], view["team_scores"]))))
    for line in (attack_line(view), hand_line(view)):
        if line is not None:
            parts.append(line)
    if view["over"]:
        win = " and ".join(who(s, view["viewer"]) for s in view["winners"])
        parts.append(Text(f"Game over ({view['end_reason']}): {win} win{'s' if len(view['winners']) == 1 and win != 'you' else ''}.",
                          style="bold yellow"))
    recent = [line for line in (describe_event(e, view["viewer"], names) for e in (events or [])[-40:]) if line]
    used = view["players"] + 1 + sum(len(folded(part.plain, width)) for part in parts if isinstance(part, Text))
    parts.extend(Text(line, style="dim") for line in latest(recent, width, height - used))
    return Group(*parts)


def folded(line: str, width: int) -> list[str]:
    """A line broken between words to ``width`` columns, as rich breaks a Text."""
    return textwrap.wrap(line, max(width, 1), break_on_hyphens=False) or [""]


def latest(lines: Sequence[str], width: int, room: int) -> list[str]:
    """The most recent lines that fit ``room`` screen lines once broken between words (a
    line is shown whole or not at all, never cut mid-word)."""
    out: list[list[str]] = []
    for line in reversed(lines):
        rows = folded(line, width)
        room -= len(rows)
        if room < 0:
            break
        out.append(rows)
    return [row for rows in reversed(out) for row in rows]


def describe_event(event: dict[str, Any], viewer: Any = None,
                   names: Sequence[str | None] | None = None) -> str | None:
    """One event in plain words (None for those not worth a line)."""
    t = event["type"]
    w = who(event.get("seat", -1), viewer, names)
    if t == "play":
        what = event["card"] + (f" as {event['as']}" if event["as"] else "")
        return f"{w.capitalize()} {played(event, what, viewer, names)}."
    if t == "kiwi":
        return (f"{w.capitalize()} played a Kiwi: took {event['warrior']} from {whose(event['from'], viewer, names)} "
                f"column {SLOTS[event['from_slot']]} and {played(event, event['warrior'], viewer, names)}.")
    if t == "ninox":
        return f"{w.capitalize()} played a Ninox on {whose(event['target'], viewer, names)} Spirit in column {SLOTS[event['slot']]}."
    if t == "combo":
        kind = "a pair (both discarded, a face-down nine)" if event["kind"] == "pair" else "twins"
        return f"Combo for {w}: {' + '.join(event['cards'])}, {kind}."
    if t == "nine":
        return f"A nine on {whose(event['seat'], viewer, names)} column {SLOTS[event['slot']]}."
    if t == "lost":
        return (f"{whose(event['seat'], viewer, names).capitalize()} gain had nowhere to go: "
                f"{' '.join(event['cards'])} discarded face up.")
    if t in ("defend", "renew"):
        what = event["card"] + (f" as {event['as']}" if event["as"] else "")
        return f"{w.capitalize()} {'defended' if t == 'defend' else 'renewed the attack'} with {what}."
    if t == "tuatura":
        return f"{w.capitalize()} played Tuatura: the attack is cancelled, {event['card']} goes to {'your' if w == 'you' else 'her'} hand."
    if t == "decline":
        return f"{w.capitalize()} did not defend."
    if t == "stop":
        return f"{w.capitalize()} stopped attacking: the turn is over."
    if t == "success":
        return (f"The attack succeeded: {who(event['attacker'], viewer, names)} won {whose(event['defender'], viewer, names)} "
                f"column {SLOTS[event['slot']]} Warrior.")
    if t == "unblock":
        return f"{w.capitalize()} freed column {SLOTS[event['slot']]} of its Spirit."
    if t == "pass":
        return f"{w.capitalize()} passed, discarding {' '.join(event['cards'])}."
    if t == "reshuffle":
        return f"The discards were shuffled into a new draw pile ({event['count']} cards)."
    if t == "drew":
        return f"{w.capitalize()} drew {' '.join(event['cards'])}." if "?" not in event["cards"] else None
    if t == "end":
        return f"The game is over: {event['reason']}."
    return None


#: How the log tells each effect of :func:`rules.play_effect`: a block is only ever on
#: someone else's column; a Warrior on your own nines strengthens them.
_PLAYED = {"place": "put {what} on {whose} empty column {slot}",
           "strengthen": "strengthened {whose} nines in column {slot} with {what}",
           "block": "blocked {whose} column {slot} with {what}",
           "combo": "made a combo with {what} on {whose} column {slot}",
           "attack": "attacked {whose} column {slot} with {what}",
           "unblock": "unblocked {whose} column {slot} with {what}"}


def played(event: dict[str, Any], what: str, viewer: Any, names: Sequence[str | None] | None) -> str:
    """'blocked seat 2's column D with R8': a play (or a Kiwi's) told by its effect."""
    words = _PLAYED.get(event["effect"], "played {what} on {whose} column {slot}")
    return words.format(what=what, whose=whose(event["target"], viewer, names), slot=SLOTS[event["slot"]])


def expand_input(text: str, seat: int | None = None) -> str | None:
    """Shorthand: your own column without your seat ('R8 A' -> 'R8 0A' for seat 0)."""
    words = text.split()
    if seat is not None and len(words) == 2 and len(words[1]) == 1 and words[1].upper() in SLOTS:
        if words[0].lower() not in ("place",):
            return f"{words[0]} {seat}{words[1].upper()}"
    return None


def prompt(view: dict[str, Any], seat: int) -> str:
    """What the seat is asked now, offering exactly its legal answers (read from the rules):
    the defences or renewals its hand holds, Tuatura, the slots a gain may go to."""
    a = view["attack"]
    phase = view["phase"]
    hand = view["hands"][seat]
    if phase in ("defend", "assist") and a is not None:
        code = a["as"] or a["card"]
        column = f"your column {a['slot']}" if a["defender"] == seat else f"seat {a['defender']}'s column {a['slot']}"
        offers = [str(Answer("defend", c, d)) for c, d in answer_cards(hand, a["value"])]
        offers += [str(TU)] * tuatura_allowed(phase, hand) + [str(DECLINE)]
        held = "" if len(offers) > 1 else f": you hold no {code} and no Joker to defend with"
        return f"seat {a['attacker']} attacks the {a['target']} of {column} with {code}{held}: {either(offers)}"
    if phase == "renew" and a is not None:
        offers = [str(Answer("renew", c, d)) for c, d in answer_cards(hand, a["value"])] + [str(STOP)]
        return f"your attack on the {a['target']} was defended: {either(offers)}"
    if phase == "place" and view["gain"] is not None:
        area = view["columns"][seat]
        slots = gain_destinations([c["nines"] for c in area], [c["top"] for c in area])
        gain = "a nine" + (f" with {view['gain']['top']} on top" if view["gain"]["top"] else "")
        return f"place your gain ({gain}): place {either([SLOTS[s] for s in slots])}"
    return "your move"


def input_help(view: dict[str, Any]) -> str:
    return INPUT_HELP
