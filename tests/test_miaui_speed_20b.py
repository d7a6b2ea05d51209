"""Issue 20 (second pass): Miaui's random play is faster and plays the very same games.

- ``resolve_depths`` remembers its answer for a tie by the order of the dives (and Kiti): the
  answers are those of the rule as it stood before, kept here as a frozen copy, for every
  order of three to five dives and many of six, asked cold and again from memory;
- a random round's dives are drawn in one call (``State._random_choice``): each is the move
  ``random_move`` draws, from the same generator state, seat by seat;
- a new game's generator (``kiti.core.chance.seeded``) is ``random.Random(seed)``;
- seeded random games log, play and score exactly as before (fingerprints taken from the
  tree before the change), and the pile rule answers as its frozen copy does.
"""

from __future__ import annotations

import hashlib
import itertools
import random
from collections.abc import Sequence
from typing import Any

import pytest

from kiti.core.chance import seeded
from kiti.core.turns import play_random_game
from kiti.games.miaui import rules as R
from kiti.games.miaui.cards import DECK
from kiti.games.miaui.rules import MiauiState, add_to_pile, kiti_rank

OPTION_SETS = [
    {},
    {"no_fighting": True},
    {"open_baskets": True, "no_fighting": True, "taker_chooses_order": True},
]


def frozen_resolve_depths(dives: Sequence[int], players: int, kiti: int | None) -> Any:
    """``resolve_depths`` before issue 20's second pass (its general loop), frozen."""
    left = sorted(range(players), key=dives.__getitem__)
    catches: list[Any] = []
    ties: list[Any] = []
    for space in (0, 1, 2):
        if not left:
            break
        if space < 2:
            first = len(left) - 1
            best = dives[left[first]]
            while first and dives[left[first - 1]] == best:
                first -= 1
            tied, rest = left[first:], left[:first]
        else:
            end, best = 1, dives[left[0]]
            while end < len(left) and dives[left[end]] == best:
                end += 1
            tied, rest = left[:end], left[end:]
        if len(tied) == 1:
            catches.append((space, tied[0], ()))
            left = rest
            continue
        if kiti is None:
            ties.append((space, tuple(tied)))
            left = rest
            continue
        winner = min(tied, key=lambda seat: kiti_rank(kiti, players, space, seat))
        catches.append((space, winner, tuple(tied)))
        left.remove(winner)
    return tuple(catches), tuple(ties)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_depths_are_the_rules_answer_as_before(players: int) -> None:
    R._TIED.clear()
    if players < 6:  # every order of the dives: a dive among players + 1 values
        profiles = list(itertools.product(range(1, players + 2), repeat=players))
    else:
        rng = random.Random(6)
        profiles = [tuple(rng.randint(1, 12) for _ in range(6)) for _ in range(6000)]
    for kiti in [None, *range(players)]:
        for _ in range(2):  # worked out, then remembered
            for dives in profiles:
                want = frozen_resolve_depths(dives, players, kiti)
                assert R.resolve_depths(dives, players, kiti) == want, (dives, kiti)
                assert R.resolve_depths(list(dives), players, kiti) == want, (dives, kiti)
    assert R._TIED, "the ties were not remembered"


@pytest.mark.parametrize("players", [3, 4, 6])
@pytest.mark.parametrize("options", OPTION_SETS, ids=["plain", "no_fighting", "all_rulings"])
def test_a_random_round_draws_what_random_move_draws(players: int, options: dict[str, Any]) -> None:
    for seed in range(4):
        state = MiauiState.new(players, options, seed)
        rng = random.Random(seed)
        while not state.over:
            acting = state.to_act()
            ours, theirs = random.Random(len(state.history)), random.Random(len(state.history))
            got = state._random_choice(acting, ours)
            assert got == [(seat, state.random_move(seat, theirs)) for seat in sorted(acting)]
            assert ours.getstate() == theirs.getstate(), "the generator was drawn differently"
            ours, theirs = random.Random(len(state.history)), random.Random(len(state.history))
            actions = state._random_action_choice(acting, ours)  # the integer playouts' draw
            assert actions == [(seat, state.random_action(seat, theirs)) for seat in sorted(acting)]
            assert ours.getstate() == theirs.getstate(), "the generator was drawn differently"
            seat = min(acting)
            state.apply(seat, state.random_move(seat, rng))


def test_a_new_games_generator_is_random_Random_of_its_seed() -> None:
    for seed in (0, 1, 12345, 2**32, 2**63 - 1):
        assert seeded(seed).getstate() == random.Random(seed).getstate()
        state = MiauiState.new(4, None, seed)
        assert state.clone()._rng.getstate() == state._rng.getstate()


#: sha256 (first 16 digits) of six seeded random games' logs, moves and scores per (seats,
#: option set), played by the tree before issue 20's second pass.
BEFORE = {
    (3, 0): "01bdc3cab073fa03",
    (3, 1): "79489df657f19abd",
    (3, 2): "650026be2608e519",
    (4, 0): "35c98444d9da8acd",
    (4, 1): "ddcb8ba25bd4780d",
    (4, 2): "90951845bcc27daa",
    (5, 0): "acd4bfbe76aea42c",
    (5, 1): "ee7a379133b51aa0",
    (5, 2): "bbd679b395b5473f",
    (6, 0): "d6b6901ff171da68",
    (6, 1): "4bfb5efde13acb9f",
    (6, 2): "870c8a8111a83f85",
}


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_seeded_random_games_are_played_as_before(players: int) -> None:
    for i, options in enumerate(OPTION_SETS):
        digest = hashlib.sha256()
        for seed in range(6):
            state = play_random_game(MiauiState.new(players, options, seed), random.Random(seed))
            digest.update(repr((state.log, [(s, str(m)) for s, m in state.history], state.scores())).encode())
        assert digest.hexdigest()[:16] == BEFORE[players, i], (players, options)


def frozen_add_to_pile(pile: list[str], card: str) -> Any:
    """``add_to_pile`` before issue 20's second pass, frozen."""
    if card == "S":
        return (pile.pop() if pile else None), []
    pile.append(card)
    if card[0] == "J" and sum(1 for c in pile if c[0] == "J") >= 3:
        jellies = [c for c in pile if c[0] == "J"]
        pile[:] = [c for c in pile if c[0] != "J"]
        return None, jellies
    return None, []


def test_the_pile_rule_answers_as_before() -> None:
    rng = random.Random(20)
    for _ in range(3000):
        pile = rng.sample(DECK, rng.randrange(8))
        card = rng.choice(DECK)
        ours, theirs = list(pile), list(pile)
        assert add_to_pile(ours, card) == frozen_add_to_pile(theirs, card), (pile, card)
        assert ours == theirs, (pile, card)
