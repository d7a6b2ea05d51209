"""Shared helpers for the Miaui tests: explicit decks, scripted rounds, random play."""

from __future__ import annotations

import random
from collections import Counter

from kiti.core.events import REFEREE
from kiti.games import get_game

G = get_game("miaui")

#: The 37 fish cards of RULINGS.md (Miaui, "Fish deck"), written out by hand.
FULL_DECK: list[str] = (
    ["K1", "K2", "K2", "K3", "K4", "K4", "K5"]
    + ["T6", "T6", "T7", "T7", "T8", "T8", "T9", "T9"]
    + ["E10", "E11", "E12", "E12", "E13", "E13", "E14", "E15"]
    + ["L1", "L3", "L5", "L7"]
    + ["J10", "J10", "J15", "J15"]
    + ["S"] * 6
)
assert len(FULL_DECK) == 37

VALUE = {
    **{f"K{v}": v for v in range(1, 6)},
    **{f"T{v}": v for v in range(6, 10)},
    **{f"E{v}": v for v in range(10, 16)},
    "L1": 1,
    "L3": 3,
    "L5": 5,
    "L7": 7,
    "J10": -10,
    "J15": -15,
    "S": 0,
}

# Filler order: plain fish first, so that the scripted early rounds are never disturbed by
# a Lantern, a Jellyfish or (in round 1) a Seagull that the scenario did not ask for.
_FILL_RANK = {"K": 0, "T": 1, "E": 2, "L": 3, "J": 4, "S": 5}


def make_deck(first: list[str]) -> list[str]:
    """A full 37-card deck: ``first`` (burned card, then round 1 bottom/middle/top, round 2 ...)
    followed by the rest of the multiset, plain fish first."""
    rest = Counter(FULL_DECK)
    rest.subtract(Counter(first))
    if any(v < 0 for v in rest.values()):
        raise ValueError(f"too many copies in {first}")
    filler = sorted(rest.elements(), key=lambda c: (_FILL_RANK[c[0]], VALUE[c], c))
    deck = list(first) + filler
    assert Counter(deck) == Counter(FULL_DECK)
    return deck


def rounds_deck(burned: str, rounds: list[tuple[str, str, str]]) -> list[str]:
    """A deck from the burned card and (bottom, middle, top) triples for the first rounds."""
    first = [burned]
    for triple in rounds:
        first.extend(triple)
    return make_deck(first)


def new(players: int, deck: list[str] | None = None, kiti: int | None = None, seed: int = 0, **options):
    setup: dict = {}
    if deck is not None:
        setup["deck"] = deck
    if kiti is not None:
        setup["kiti"] = kiti
    return G.new(players, options=options or None, seed=seed, setup=setup or None)


def play_round(s, dives: list[int]) -> None:
    """Every seat dives (checked), in seat order."""
    assert len(dives) == s.players
    assert s.to_act() == frozenset(range(s.players)), s.to_act()
    for seat, n in enumerate(dives):
        s.play(seat, f"dive {n}")


def pending_cards(s) -> list[str]:
    """Cards of a No Fighting catch still waiting for its taker to order them."""
    pending = s.observation(REFEREE)["pending_take"]
    return list(pending["cards"]) if pending else []


def card_total(s) -> int:
    """Cards accounted for: deck + lagoon + piles + box + the burned card (+ cards a taker is
    still ordering, with taker_chooses_order)."""
    return (
        len(s.deck)
        + sum(len(x) for x in s.lagoon)
        + sum(len(p) for p in s.piles)
        + len(s.box)
        + 1
        + len(pending_cards(s))
    )


def random_move(s, rng: random.Random):
    seats = sorted(s.to_act())
    seat = rng.choice(seats)
    moves = s.legal_moves(seat)
    return seat, rng.choice(moves)


def advance(s, rng: random.Random, steps: int | None = None):
    """Play random legal moves on ``s``; stop after ``steps`` moves or at the end."""
    done = 0
    while not s.over and (steps is None or done < steps):
        seat, move = random_move(s, rng)
        s.apply(seat, move)
        done += 1
    return s


def random_game(players: int, options: dict | None, seed: int, steps: int | None = None):
    """Play random legal moves from a seeded game; stop after ``steps`` moves or at the end."""
    return advance(G.new(players, options=options, seed=seed), random.Random(seed * 7919 + 1), steps)


OPTION_SETS = [
    {},
    {"open_baskets": True},
    {"no_fighting": True},
    {"no_fighting": True, "open_baskets": True},
    {"no_fighting": True, "taker_chooses_order": True},
    {"no_fighting": True, "taker_chooses_order": True, "open_baskets": True},
]


def lagoon_seers(s, space: int) -> list[int]:
    """Per card of a lagoon space: the seat that may see it face down, or -1 if face up."""
    veil = s.veil[space]
    return [veil[i][0] if i in veil else -1 for i in range(len(s.lagoon[space]))]


def played(s, seat: int) -> list[int]:
    """The divers ``seat`` has revealed so far (the referee's discards)."""
    return list(s.observation(REFEREE)["discards"][seat])


def swap_hand_and_played(s, seat: int) -> bool:
    """Exchange ``seat``'s first diver in hand with its first revealed one (False if equal)."""
    h = s.hands[seat][0]
    d = s.reveals[0][seat]
    if h == d:
        return False
    s.hands[seat][0] = d
    first = list(s.reveals[0])
    first[seat] = h
    s.reveals[0] = tuple(first)
    return True
