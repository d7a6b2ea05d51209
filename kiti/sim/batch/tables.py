"""Miaui's rules as lookup tables for the batch simulator, each read from the rules module.

Nothing here is retyped: the cards and their values (the cards module the rules read), the rounds, the seat counts, the option
names, the depth rules, Kiti's tie order and move, the Seagull and Jellyfish rules and the
Lantern are all taken from :mod:`kiti.games.miaui.rules` (the pile rules by asking
:func:`~kiti.games.miaui.rules.add_to_pile` what it does with each card).
"""

from __future__ import annotations

import functools

import numpy as np

from ...games.miaui import cards as C
from ...games.miaui import rules as R

#: Every distinct card code; a card is its index here (``int8``), as in the engine's codec.
CODES: tuple[str, ...] = R.CODES
ROUNDS: int = R.ROUNDS
SPACES = len(R.SPACE_NAMES)
#: Actions: ``n - 1`` dives diver ``n``; ``ROUNDS + i`` takes ``CODES[i]`` (the engine's codec).
NUM_ACTIONS = ROUNDS + len(CODES)
MIN_SEATS, MAX_SEATS = R.INFO.min_seats, R.INFO.max_seats
OPTION_NAMES: tuple[str, ...] = tuple(spec.name for spec in R.OPTIONS)
#: The whole deck (card indexes, data-file order); the first card of a shuffle is burned.
DECK = np.array([CODES.index(c) for c in C.DECK], dtype=np.int8)
#: Cards stocked over the game: three a round.
STOCKED = C.DECK_SIZE - 1
VALUES = np.array([C.VALUE[c] for c in CODES], dtype=np.int16)
#: ``True`` where the depth takes the highest remaining diver, else the lowest.
TAKES_HIGHEST = tuple(t == "highest" for t in R.DEPTH_TAKES)


def _eats(code: str) -> bool:
    """Whether a card never stays in a pile and takes the top card with it (the Seagull)."""
    quiet = min(R.QUIET)
    pile = [quiet]
    eaten, _ = R.add_to_pile(pile, code)
    return eaten == quiet and code not in pile


def _jelly_limit(code: str) -> int:
    """How many of ``code`` in a pile make them all leave (0: never)."""
    pile: list[str] = []
    for count in range(1, C.DECK_SIZE + 1):
        _, gone = R.add_to_pile(pile, code)
        if gone:
            return count
        if code not in pile:
            return 0
    return 0


#: Cards that eat the top of the pile and leave with it; in round 1 they go back to the deck.
EATS = np.array([_eats(c) for c in CODES])
_LIMITS = {_jelly_limit(c) for c in CODES if not _eats(c)} - {0}
assert len(_LIMITS) == 1, "one Jellyfish limit for every Jellyfish"
JELLY_LIMIT = _LIMITS.pop()
#: Cards counted towards the Jellyfish limit.
JELLY = np.array([not _eats(c) and _jelly_limit(c) > 0 for c in CODES])
#: ``HIDES[round, card]``: a catch holding ``card`` in ``round`` hides the next card stocked there.
HIDES = np.array([[r > 0 and R.lantern_hides_next((c,), r) for c in CODES] for r in range(ROUNDS + 1)])
#: A hand is a bit mask of divers (bit ``n - 1``: diver ``n``); ``HAND_BITS[hand]`` its divers
#: as booleans, ``HAND_SIZE[hand]`` how many, ``HAND_PICK[hand, j]`` the action of its ``j``-th
#: lowest diver.
FULL_HAND = (1 << ROUNDS) - 1
HAND_BITS = (np.arange(FULL_HAND + 1)[:, None] >> np.arange(ROUNDS)) & 1 == 1
HAND_SIZE = HAND_BITS.sum(1).astype(np.int8)
HAND_PICK = np.argsort(~HAND_BITS, axis=1, kind="stable").astype(np.int8)
#: The mean value of a card not yet seen (the greedy policy's guess for a face-down card).
MEAN_VALUE = float(VALUES[DECK].mean())


@functools.cache
def kiti_rank(players: int) -> np.ndarray:
    """``[kiti, space, seat]``: the seat's place in Kiti's tie order (0 first); the row
    ``kiti = players`` (what ``-1``, no Kiti, indexes) is all zeros."""
    table = np.zeros((players + 1, SPACES, players), dtype=np.int8)
    for k in range(players):
        for space in range(SPACES):
            for seat in range(players):
                table[k, space, seat] = R.kiti_rank(k, players, space, seat)
    return table


@functools.cache
def kiti_after(players: int) -> np.ndarray:
    """``[kiti]``: where Kiti stands after a round; ``-1`` (no Kiti) stays ``-1``."""
    return np.array([R.kiti_after(k, players) for k in range(players)] + [-1], dtype=np.int8)
