"""Mauw's answer to ``why MOVE`` for a legal move: which play it is and what it would do.

:meth:`MauwState.explain_move <kiti.games.mauw.rules.MauwState.explain_move>` hands this
module the seat's own view, so an explanation never tells more than the seat may know (the
card a combo would draw stays unseen, the defender's hand unknown).  Every rule is read
from :mod:`.rules`: what a card does on a column (:func:`~.rules.play_effect`), the kind of
combo and its gain (:func:`~.rules.combo_kind`, :func:`~.rules.twins_gain`), where a gain
may go (:func:`~.rules.gain_destinations`), what answers an attack
(:func:`~.rules.answer_cards`, :func:`~.rules.tuatura_allowed`), what frees a Spirit
(:func:`~.rules.joker_declarations`), scores (:func:`~.rules.column_score`) and the end
(:func:`~.rules.full_columns`).

The mover is named "seat N" (front ends word it "you"), always with a modal verb ("seat 0
may choose"), so the sentence stays right once reworded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...core.moves import Move
from .cards import JOKER, SPIRIT, TUATURA, VALUE, WARRIOR_OF_VALUE
from .rules import (
    DECLINE,
    FULL_COLUMNS_TO_END,
    PASS,
    SLOTS,
    STOP,
    TU,
    Answer,
    KiwiPlay,
    NinoxPlay,
    Place,
    Play,
    answer_cards,
    column_score,
    combo_kind,
    full_columns,
    gain_destinations,
    joker_declarations,
    play_effect,
    takes_nine,
    tuatura_allowed,
    twins_gain,
)

View = Mapping[str, Any]
Columns = list[list[tuple[int, str | None]]]  # per seat, per slot: (nines, top)


def explain(view: View, seat: int, move: Move) -> str:
    """``move`` (legal now for ``seat``, whose ``view`` this is) in words."""
    cols = [[(c["nines"], c["top"]) for c in area] for area in view["columns"]]
    if isinstance(move, Play):
        return explain_play(view, cols, seat, move.card, move.decl or move.card, move.seat, move.slot)
    if isinstance(move, KiwiPlay):
        return explain_kiwi(view, cols, seat, move)
    if isinstance(move, NinoxPlay):
        return explain_ninox(view, cols, seat, move)
    if isinstance(move, Answer):
        return explain_answer(view, cols, seat, move)
    if isinstance(move, Place):
        return explain_place(view, cols, seat, move.slot)
    if move == PASS:
        return (
            f"a pass: seat {seat} will discard the whole hand face up ({' '.join(view['hands'][seat])}) "
            f"and draw four new cards; the turn ends"
        )
    if move == DECLINE:
        return explain_decline(view, cols, seat)
    if move == STOP:
        a = view["attack"]
        return (
            f"the attack ends: seat {seat}'s turn is over, wasted; seat {a['defender']} keeps the "
            f"{a['target']} on column {a['slot']}, and the attack and defence cards stay on the discards"
        )
    if move == TU:
        a = view["attack"]
        return (
            f"Tuatura: the attack is cancelled and seat {a['attacker']}'s turn ends; the attacking "
            f"{a['card']} will go to seat {seat}'s hand (everyone sees it there), Tuatura to the discards, "
            f"and seat {seat}'s {a['target']} stays on column {a['slot']}"
        )
    return str(move)


# ------------------------------------------------------------------ plays on a column
def explain_play(view: View, cols: Columns, seat: int, card: str, declared: str, ts: int, slot: int) -> str:
    """A card (from the hand, or fetched by a Kiwi) on column ``slot`` of seat ``ts``."""
    nines, top = cols[ts][slot]
    effect = play_effect(declared, ts == seat, nines, top, True)
    what = played(card, declared)
    where = f"seat {ts}'s column {SLOTS[slot]}"
    before, after = column_score(nines, top), column_score(nines, declared)
    if effect == "place" and ts != seat:  # option open_slot_block
        shut = "" if takes_nine(0, declared) else ", and no nine can go on that column while it stays"
        return (
            f"a block of seat {ts}'s empty column {SLOTS[slot]} (option open_slot_block): {what} will "
            f"stand there, scoring {after}{shut}"
        )
    if effect == "place":
        return f"a play that strengthens seat {seat}'s lines: {what} will stand alone on {where}, scoring {after}"
    if effect == "strengthen":
        safe = (
            "; no Spirit can block that column then"
            if play_effect(SPIRIT, False, nines, declared) is None
            else ""
        )
        return (
            f"a play that strengthens seat {seat}'s lines: {what} will top the {count(nines)} of {where}; "
            f"the column then scores {after} instead of {before}{safe}"
        )
    if effect == "block":
        return (
            f"a block of {where}: {what} will cover its {count(nines)}; the column then scores {after} "
            f"instead of {before}{freed_by(view, ts, declared)}"
        )
    if effect == "unblock":
        return (
            f"an unblock of {where}: its Spirit and {what} will go to the discards, leaving "
            f"{count(nines)} bare; the column then scores {column_score(nines, None)} instead of 0 and "
            f"the turn ends"
        )
    assert top is not None
    if effect == "combo":
        cols[ts][slot] = (nines, None)  # the Warrior leaves its column before the gain is placed
        return f"a combo in seat {seat}'s area: {combo(cols, seat, card, declared, top)}"
    return attack(view, cols, seat, card, declared, ts, slot)


def explain_kiwi(view: View, cols: Columns, seat: int, move: KiwiPlay) -> str:
    nines, warrior = cols[move.src_seat][move.src_slot]
    assert warrior is not None
    cols[move.src_seat][move.src_slot] = (nines, None)
    left = (
        f"{count(nines)} left bare, scoring {column_score(nines, None)}" if nines else "the slot left empty"
    )
    then = explain_play(view, cols, seat, warrior, warrior, move.seat, move.slot)
    return (
        f"Kiwi: {warrior} is taken off seat {move.src_seat}'s column {SLOTS[move.src_slot]} ({left}) and "
        f"played at once: {then}. The Kiwi goes to the discards once that play is over"
    )


def explain_ninox(view: View, cols: Columns, seat: int, move: NinoxPlay) -> str:
    nines, _ = cols[move.seat][move.slot]
    return (
        f"Ninox: the Spirit on seat {move.seat}'s column {SLOTS[move.slot]} will become a nine in seat "
        f"{seat}'s area, seen by all, leaving that column's {count(nines)} bare (scoring "
        f"{column_score(nines, None)} instead of 0); {gain_place(cols, seat, 1, None)}"
    )


# ------------------------------------------------------------------ combos, gains, attacks
def combo(cols: Columns, seat: int, card: str, declared: str, target: str) -> str:
    """What a combo of ``card`` (standing for ``declared``) with ``target`` gives ``seat``."""
    if combo_kind(declared, target) == "pair":
        return (
            f"{played(card, declared)} with {target}, different values: both go to the discards and the "
            f"top card of the draw pile becomes a nine in seat {seat}'s area, unseen by anybody; "
            f"{gain_place(cols, seat, 1, None)}"
        )
    nine, top = twins_gain(card, target)
    return (
        f"{played(card, declared)} with {target}, the same value: {name(nine)} is turned face down as a "
        f"nine with {top} on top of it; {gain_place(cols, seat, 1, top)}"
    )


def gain_place(cols: Columns, seat: int, nines: int, top: str | None) -> str:
    """Where a gain of ``nines`` (with ``top`` on it) may go in ``seat``'s area, and its points there."""
    area = cols[seat]
    places = gain_destinations([k for k, _ in area], [t for _, t in area])
    if not places:
        return f"it has nowhere to go in seat {seat}'s area and would be discarded face up"
    worth = [f"{SLOTS[s]} ({column_score(area[s][0] + nines, top)} points)" for s in places]
    if len(places) == 1:
        return f"it will go on column {worth[0]}"
    return f"seat {seat} may then choose where it goes: {either(worth)}"


def attack(view: View, cols: Columns, seat: int, card: str, declared: str, ts: int, slot: int) -> str:
    target = cols[ts][slot][1]
    assert target is not None
    value = VALUE[declared]
    return (
        f"an attack on seat {ts}'s {target} (column {SLOTS[slot]}) with {played(card, declared)}, value "
        f"{value}: {defenders(view, ts, value)}. After each defence seat {seat} may answer "
        f"{either([*answers(value, 'renew'), 'stop (the turn is then wasted)'])}. If nobody defends, seat "
        f"{seat} will take the {target} for a combo: {combo(cols, seat, card, declared, target)}"
    )


def defenders(view: View, defender: int, value: int) -> str:
    """Who may answer an attack of ``value`` on ``defender``, and with what: the attacked
    player, then (if she declines) her teammate."""
    said = f"seat {defender} may answer {either([*defences(view, 'defend', value), 'decline'])}"
    mate = teammate(view, defender)
    if mate is not None:
        said += f"; then seat {mate}, the teammate, {either([*defences(view, 'assist', value), 'decline'])}"
    return said


def defences(view: View, phase: str, value: int) -> list[str]:
    """The defences of an attack of ``value`` in ``phase`` (defend, assist), in any hand."""
    tuatura = ["TU (Tuatura)"] if view["options"]["tuatura"] and tuatura_allowed(phase, (TUATURA,)) else []
    return [*answers(value, "defend"), *tuatura]


def answers(value: int, verb: str) -> list[str]:
    """['defend Y2', 'defend JK=Y2']: every answer to an attack of ``value``."""
    return [str(Answer(verb, c, d)) for c, d in answer_cards((WARRIOR_OF_VALUE[value], JOKER), value)]


def success(view: View, cols: Columns) -> str:
    """What an attack that nobody defends gives its attacker."""
    a = view["attack"]
    slot = SLOTS.index(a["slot"])
    nines = cols[a["defender"]][slot][0]
    cols[a["defender"]][slot] = (nines, None)
    declared = a["declared"] or a["card"]
    return (
        f"the attack succeeds: the {a['target']} leaves seat {a['defender']}'s column {a['slot']} and "
        f"makes a combo for seat {a['attacker']}: {combo(cols, a['attacker'], a['card'], declared, a['target'])}"
    )


# ------------------------------------------------------------------ answers
def explain_answer(view: View, cols: Columns, seat: int, move: Answer) -> str:
    a = view["attack"]
    what = played(move.card, move.decl or move.card)
    if move.verb == "defend":
        whose = f"seat {a['defender']}'s {a['target']} (column {a['slot']})"
        return (
            f"a defence of {whose}: {what} and the attacking {a['declared'] or a['card']} will go to the discards "
            f"and seat {seat} will draw back to four; then seat {a['attacker']} may answer "
            f"{either([*answers(a['value'], 'renew'), 'stop'])}"
        )
    return (
        f"the attack on seat {a['defender']}'s {a['target']} goes on with {what}: "
        f"{defenders(view, a['defender'], a['value'])}. If nobody defends, seat {seat} will win the combo: "
        f"{combo(cols, seat, move.card, move.decl or move.card, a['target'])}"
    )


def explain_decline(view: View, cols: Columns, seat: int) -> str:
    a = view["attack"]
    mate = teammate(view, a["defender"])
    if view["phase"] == "defend" and mate is not None:
        return (
            f"no defence from seat {seat}: seat {mate}, the teammate, may still defend; if not, "
            f"{success(view, cols)}"
        )
    return f"no defence: {success(view, cols)}"


def explain_place(view: View, cols: Columns, seat: int, slot: int) -> str:
    gain = view["gain"]
    nines, top = cols[seat][slot]
    k, on = nines + len(gain["nines"]), gain["top"] or top
    counts = [n for n, _ in cols[seat]]
    counts[slot] = k
    said = (
        f"the gain goes on seat {seat}'s column {SLOTS[slot]}: {count(k)}{f' under {on}' if on else ''}, "
        f"scoring {column_score(k, on)} instead of {column_score(nines, top)}"
    )
    if full_columns(counts) >= FULL_COLUMNS_TO_END:
        said += f"; that makes {FULL_COLUMNS_TO_END} full columns: the game ends at once"
    return said


# ------------------------------------------------------------------ words
def freed_by(view: View, owner: int, blocker: str) -> str:
    """How the owner of a column blocked by a Spirit may free it (nothing said for a Warrior)."""
    if blocker != SPIRIT:
        return ""
    cards = [name(c) for c in (SPIRIT,) if play_effect(c, True, 1, SPIRIT) == "unblock"]
    cards += ["a Joker"] * bool(joker_declarations(SPIRIT, True))
    ninox = "; an opponent's Ninox would take the Spirit" if view["options"]["ninox"] else ""
    return f"; seat {owner} can free it on a turn with {either(cards)} on it{ninox}"


def teammate(view: View, seat: int) -> int | None:
    for team in view["teams"] or ():
        if seat in team:
            return next((s for s in team if s != seat), None)
    return None


def played(card: str, declared: str) -> str:
    return f"a Joker as {declared}" if card == JOKER else card


def name(card: str) -> str:
    return {JOKER: "the Joker", SPIRIT: "a Spirit"}.get(card, card)


def count(nines: int) -> str:
    return f"{('no', 'one', 'two', 'three')[nines] if nines < 4 else nines} nine{'s' * (nines != 1)}"


def either(options: Sequence[str]) -> str:
    """'A', 'A or B', 'A, B or C'."""
    return options[0] if len(options) == 1 else f"{', '.join(options[:-1])} or {options[-1]}"
