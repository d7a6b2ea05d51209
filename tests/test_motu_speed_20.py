"""Issue 20: MOTU's placement search on bit boards, and its uniform random placement.

``legal_placements``, ``has_legal_placement`` and ``uniform_legal_placement`` read an island
as bit boards (built from its placements, or grown card by card as the island is). They must
give exactly what the placement rule itself (``placement_problem``, tried at every top-left
cell that can reach the island) gives, on islands grown at random; ``random_legal_placement``
(the heuristic's sampler) must draw exactly as before; and MOTU's random move must be uniform
among the legal moves.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st
from test_mauw_speed_20 import heuristic_fingerprint

from kiti.core.registry import get_game
from kiti.games.motu import island as I
from kiti.games.motu import sources as S
from kiti.games.motu.cards import ISLAND_IDS, VILLAGE_IDS

MOTU = get_game("motu")


def grown(cards: int, seed: int) -> I.Island:
    """A village and up to ``cards`` island cards, each at a uniformly drawn legal place."""
    rng = random.Random(seed)
    island = I.new_island(rng.choice(VILLAGE_IDS))
    for card_id in rng.sample(ISLAND_IDS, len(ISLAND_IDS)):
        if len(island.placements) > cards:
            break
        spot = I.uniform_legal_placement(island, card_id, rng)
        if spot is not None:
            island = I.lay_card(island, card_id, *spot)
    return island


def plain_placements(island: I.Island, card_id: str) -> list[tuple[int, int, int]]:
    """Every (rotation, x, y) the placement rule accepts, tried at every top-left cell from
    which a card (at most 4 cells long) can touch the island: by rotation, row, column."""
    xs, ys = [x for x, _ in island.cells], [y for _, y in island.cells]
    return [
        (r, x, y)
        for r in I.ROTATIONS
        for y in range(min(ys) - 4, max(ys) + 1)
        for x in range(min(xs) - 4, max(xs) + 1)
        if I.placement_problem(island, card_id, r, x, y) is None
    ]


def plain_random_placement(island: I.Island, card_id: str, rng: random.Random) -> tuple[int, int, int] | None:
    """random_legal_placement's draws as first written: aim a random cell of the card turned
    at random at a random coverable symbol, 40 tries, then a choice among every placement."""
    c = I.as_card(card_id)
    if not island.coverable:
        return None
    for _ in range(40):
        rotation = rng.choice(I.ROTATIONS)
        s = I.shape(c, rotation)
        px, py = rng.choice(island.coverable)
        x, y = px - rng.randrange(s.width), py - rng.randrange(s.height)
        if I.placement_problem(island, c, rotation, x, y) is None:
            return rotation, x, y
    every = plain_placements(island, card_id)
    return rng.choice(every) if every else None


@settings(max_examples=25)
@given(cards=st.integers(0, 14), seed=st.integers(0, 2**32), fresh=st.booleans())
def test_the_bit_board_search_finds_what_the_placement_rule_allows(
    cards: int, seed: int, fresh: bool
) -> None:
    island = grown(cards, seed)
    if fresh:  # the same island, its boards built from its cells, not grown card by card
        island = I.Island(*island)
    for card_id in random.Random(seed).sample(ISLAND_IDS, 4):
        plain = plain_placements(island, card_id)
        assert I.legal_placements(island, card_id) == plain
        assert I.has_legal_placement(island, card_id) == bool(plain)
        fast, slow = random.Random(seed), random.Random(seed)
        assert I.uniform_legal_placement(island, card_id, fast) == (slow.choice(plain) if plain else None)
        assert fast.getstate() == slow.getstate()
        fast, slow = random.Random(seed + 1), random.Random(seed + 1)
        assert I.random_legal_placement(island, card_id, fast) == plain_random_placement(
            island, card_id, slow
        )
        assert fast.getstate() == slow.getstate()


def test_islands_grown_far_to_one_side_keep_their_boards_right() -> None:
    """Each card laid as far right (left, down, up) as it may go: the boards grown card by card
    move past their frame's room and must be framed again."""
    for key in (
        lambda p: (p[1], p[2]),
        lambda p: (-p[1], p[2]),
        lambda p: (p[2], p[1]),
        lambda p: (-p[2], p[1]),
    ):
        island = I.new_island(VILLAGE_IDS[0])
        for card_id in ISLAND_IDS[:12]:
            spots = I.legal_placements(island, card_id)
            assert spots == plain_placements(island, card_id)
            if spots:
                island = I.lay_card(island, card_id, *max(spots, key=key))
        assert len(island.placements) > 6


def test_an_island_with_no_room_has_no_placement() -> None:
    island = grown(0, 1)
    full = I.lay_card(island, ISLAND_IDS[0], 0, 0, 0)
    for card_id in ISLAND_IDS[:5]:
        assert I.has_legal_placement(full, card_id) == bool(plain_placements(full, card_id))
    assert I.legal_placements(I.EMPTY, ISLAND_IDS[0]) == []
    assert I.uniform_legal_placement(I.EMPTY, ISLAND_IDS[0], random.Random(1)) is None


def positions(players: int, seed: int, phase: str, count: int) -> list[tuple[object, int]]:
    """``count`` positions in ``phase`` met along random games (copies, kept as they were)."""
    out: list[tuple[object, int]] = []
    rng = random.Random(seed)
    while len(out) < count:
        state = MOTU.new(players, None, rng.randrange(2**31))
        while not state.over and len(out) < count:
            seat = min(state.to_act())
            if state.phase == phase and len(state.to_act()) == 1:  # type: ignore[attr-defined]
                out.append((state.clone(), seat))
            state.apply(seat, state.random_move(seat, rng))
    return out


def test_a_random_placement_is_a_uniform_choice_among_the_legal_moves() -> None:
    for state, seat in positions(4, 5, "place", 60):
        fast, plain = random.Random(seat), random.Random(seat)
        assert state.random_move(seat, fast) == plain.choice(state.legal_moves(seat))  # type: ignore[attr-defined]
        assert fast.getstate() == plain.getstate()


def test_a_random_take_is_uniform_among_the_legal_takes() -> None:
    """Chi-square (seeded) of 1,200 random takes on each of a few positions with several
    legal takes against the uniform law: the statistic stays below the 0.999 quantile."""
    CRITICAL = {
        2: 10.83,
        3: 13.82,
        4: 16.27,
        5: 18.47,
        6: 20.52,
        7: 22.46,
        8: 24.32,
        9: 26.12,
    }  # chi-square 0.999, by degrees of freedom
    tried = 0
    for state, seat in positions(3, 11, "take", 40):
        legal = state.legal_moves(seat)  # type: ignore[attr-defined]
        if len(legal) < 3:
            continue
        rng = random.Random(tried)
        draws = Counter(state.random_move(seat, rng) for _ in range(1200))  # type: ignore[attr-defined]
        assert set(draws) <= set(legal)
        expected = 1200 / len(legal)
        chi2 = sum((draws[m] - expected) ** 2 / expected for m in legal)
        assert chi2 < CRITICAL[len(legal) - 1], (legal, draws)
        tried += 1
        if tried == 4:
            break
    assert tried == 4


def test_the_faster_heuristic_makes_the_same_choices() -> None:
    """The digests of the heuristic's choices before its speed-up (issue 20): per-decision
    figures worked out once and the bit-board search change nothing it chooses. A deliberate
    change of the strategy updates them."""
    assert heuristic_fingerprint("motu", 3, [1]) == "06f0ac5d4f556470"
    assert heuristic_fingerprint("motu", 1, [2]) == "cb364a9b79805057"


def rebuilt(island: I.Island) -> I.Island:
    """The island built again from its placements alone, cell by cell (no kept state)."""
    cells: dict[tuple[int, int], I.Cell] = {}
    symbols: dict[tuple[int, int], str] = {}
    for layer, (card_id, rotation, x, y) in enumerate(island.placements):
        for (cx, cy), spec in I.shape(I.as_card(card_id), rotation).cells:
            cells[x + cx, y + cy] = I.Cell(spec.terrain, spec.symbol, card_id, layer, spec.ways)
            symbols.pop((x + cx, y + cy), None)
            if spec.symbol:
                symbols[x + cx, y + cy] = spec.symbol
    return I._island(island.placements, cells, symbols)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), cards=st.integers(1, 16), wild=st.floats(0, 0.5))
def test_what_an_island_keeps_equals_a_fresh_computation(seed: int, cards: int, wild: float) -> None:
    """Cards laid at legal places, and (a share ``wild``) anywhere near the island, rules
    unchecked: after each, what lay_card updates (cells and symbols, in order; the coverable
    and protected symbols), the bit boards grown card by card (their frame moved, or built
    again when the island outgrows it), and the facts kept for scoring (symbol counts, beaches)
    equal what is worked out afresh from the placements."""
    rng = random.Random(seed)
    island = I.new_island(rng.choice(VILLAGE_IDS))
    for card_id in rng.sample(ISLAND_IDS, cards):
        spot = I.uniform_legal_placement(island, card_id, rng)
        if spot is None or rng.random() < wild:
            x0, y0, x1, y1 = I.bounds(island)
            spot = (rng.choice(I.ROTATIONS), rng.randint(x0 - 4, x1 + 1), rng.randint(y0 - 4, y1 + 1))
        island = I.lay_card(island, card_id, *spot)
        fresh = rebuilt(island)
        assert list(island.cells.items()) == list(fresh.cells.items())
        assert list(island.symbols.items()) == list(fresh.symbols.items())
        assert (island.coverable, island.protected) == (fresh.coverable, fresh.protected)
        probe = rng.choice(ISLAND_IDS)
        assert I.legal_placements(island, probe) == I.legal_placements(fresh, probe)
        assert S.symbol_counts(island) == Counter(k for k in fresh.symbols.values() if k != "star")
        beaches = [{fresh.cells[p].layer for p in beach} for beach in S.beaches(fresh)]
        assert S.longest_beach(island) == max(map(len, beaches), default=0)
        assert S.beach_cards(island) == len(set().union(*beaches))


@settings(max_examples=8, deadline=None)
@given(players=st.integers(MOTU.info.min_seats, MOTU.info.max_seats), seed=st.integers(0, 2**32))
def test_random_action_draws_random_moves_move_as_its_action(players: int, seed: int) -> None:
    """At every position of a random game (the solo game, interims, takes and placements):
    the action ``random_action`` returns is the codec's number of the move ``random_move``
    draws from the same generator state, and it draws from the generator alike."""
    state = MOTU.new(players, None, seed)
    codec, rng, phases = state.codec(), random.Random(seed), set()
    while not state.over:
        for seat in sorted(state.to_act()):
            start = random.Random(seed + len(state.history))
            moves, ints = random.Random(), random.Random()
            moves.setstate(start.getstate())
            ints.setstate(start.getstate())
            move = state.random_move(seat, moves)
            assert codec.moves[state.random_action(seat, ints)] == move, state.phase  # type: ignore[attr-defined]
            assert ints.getstate() == moves.getstate(), "random_action used the generator differently"
            phases.add(state.phase)  # type: ignore[attr-defined]
        seat = min(state.to_act())
        state.apply(seat, state.random_move(seat, rng))
    assert {"take", "place"} <= phases
