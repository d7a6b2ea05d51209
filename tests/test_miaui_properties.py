"""Properties of random Miaui games: every seat count, every combination of the options."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from miaui_helpers import (
    FULL_DECK,
    OPTION_SETS,
    VALUE,
    G,
    advance,
    card_total,
    pending_cards,
    played,
    random_move,
)

from kiti.core.events import REFEREE
from kiti.core.records import replay

OPTIONS = [*OPTION_SETS, {"kiti_start": 2}, {"open_baskets": True, "kiti_start": 1}]

games = st.tuples(
    st.integers(min_value=3, max_value=6),
    st.sampled_from(OPTIONS),
    st.integers(min_value=0, max_value=2**32),
)

FAST = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def all_cards(s) -> Counter:
    return (
        Counter(s.deck)
        + Counter(c for sp in s.lagoon for c in sp)
        + Counter(c for p in s.piles for c in p)
        + Counter(s.box)
        + Counter([s.burned])
        + Counter(pending_cards(s))
    )


def check_invariants(s) -> None:
    n = s.players
    assert card_total(s) == 37
    assert all_cards(s) == Counter(FULL_DECK)
    for seat in range(n):
        pile = s.piles[seat]
        assert sum(1 for c in pile if c[0] == "J") < 3
        assert "S" not in pile
        # Every diver is either in the hand, committed this round, or discarded: once each.
        divers = list(s.hands[seat]) + played(s, seat)
        if s.committed[seat]:
            divers.append(s.committed[seat])
        assert sorted(divers) == list(range(1, 13))
    assert s.scores() == [sum(VALUE[c] for c in p) for p in s.piles]
    assert len(s.lagoon) == 3
    assert all(set(s.veil[space]) <= set(range(len(s.lagoon[space]))) for space in range(3))
    if not s.options["no_fighting"]:
        # In the base game every depth is won every round, so each space holds exactly 1 card
        # while waiting for dives (none at the end).
        if s.over:
            assert s.lagoon == [[], [], []]
        elif not s.observation(REFEREE)["pending_take"]:
            assert [len(x) for x in s.lagoon] == [1, 1, 1]
    if s.over:
        assert s.to_act() == frozenset()
    else:
        assert s.to_act()
        for seat in s.to_act():
            assert s.legal_moves(seat)
    assert s.kiti is None if s.options["no_fighting"] else 0 <= s.kiti < n


def play_random(n, options, seed, on_move=None):
    s = G.new(n, options=options, seed=seed)
    rng = random.Random(seed ^ 0x5EED)
    check_invariants(s)
    while not s.over:
        seat, move = random_move(s, rng)
        s.apply(seat, move)
        check_invariants(s)
        if on_move is not None:
            on_move(s)
    return s


@FAST
@given(games)
def test_invariants_through_random_games(game):
    n, options, seed = game
    rounds = []

    def watch(s):
        rounds.append(s.round)

    s = play_random(n, options, seed, watch)
    assert s.over
    assert s.round == 12
    assert rounds == sorted(rounds)
    # Every seat played each diver 1-12 exactly once.
    for seat in range(n):
        assert sorted(played(s, seat)) == list(range(1, 13))
        assert s.hands[seat] == []
        assert s.committed[seat] == 0
    assert s.deck == []
    best = max(s.scores())
    assert s.winners() == [i for i, v in enumerate(s.scores()) if v == best]
    assert s.winners()
    # 11 rounds of dives in the record, plus any `take` moves.
    dives = [m for _, m in s.record()["moves"] if m.startswith("dive")]
    assert len(dives) == 11 * n
    if not options.get("taker_chooses_order"):
        assert len(s.record()["moves"]) == 11 * n
    if not options.get("no_fighting"):
        assert s.observation(REFEREE)["kiti"] == (options.get("kiti_start", 0) + 12) % n
        assert sum(len(p) for p in s.piles) + len(s.box) == 36


@FAST
@given(games, st.integers(min_value=0, max_value=200))
def test_record_round_trip_at_random_points(game, stop):
    n, options, seed = game
    s = G.new(n, options=options, seed=seed)
    advance(s, random.Random(seed + 1), stop)
    rec = s.record()
    # A record is plain JSON.
    rec2 = json.loads(json.dumps(rec))
    again = replay(rec2)
    assert again.observation(REFEREE) == s.observation(REFEREE)
    assert again.over == s.over
    assert again.to_act() == s.to_act()
    for seat in range(n):
        assert again.information_state(seat) == s.information_state(seat)
    assert again.record() == rec


@FAST
@given(games, st.integers(min_value=0, max_value=80))
def test_notation_round_trip_for_every_legal_move(game, stop):
    n, options, seed = game
    s = G.new(n, options=options, seed=seed)
    rng = random.Random(seed + 2)
    steps = 0
    while not s.over and steps < stop:
        for seat in s.to_act():
            moves = s.legal_moves(seat)
            assert len(set(map(str, moves))) == len(moves)
            for m in moves:
                text = str(m)
                assert G.parse_move(text) == m
                assert str(G.parse_move(text)) == text
                assert G.parse_move("  " + text.upper() + " ") == m
                assert s.illegal_reason(seat, m) is None
        seat, move = random_move(s, rng)
        s.play(seat, str(move))
        steps += 1


@FAST
@given(games, st.integers(min_value=0, max_value=80))
def test_determinism(game, stop):
    n, options, seed = game
    a = G.new(n, options=options, seed=seed)
    b = G.new(n, options=options, seed=seed)
    assert a.observation(REFEREE) == b.observation(REFEREE)
    rng = random.Random(seed + 3)
    steps = 0
    while not a.over and steps < stop:
        seat, move = random_move(a, rng)
        a.apply(seat, move)
        b.play(seat, str(move))
        assert a.observation(REFEREE) == b.observation(REFEREE)
        steps += 1
    for seat in range(n):
        assert a.information_state(seat) == b.information_state(seat)


@FAST
@given(games, st.integers(min_value=0, max_value=70), st.integers(min_value=0, max_value=2**32))
def test_resample_keeps_what_the_seat_knows(game, stop, rseed):
    n, options, seed = game
    s = G.new(n, options=options, seed=seed)
    advance(s, random.Random(seed + 4), stop)
    before = s.observation(REFEREE)
    for seat in range(n):
        r = s.resample(seat, random.Random(rseed + seat))
        assert r.observation(seat) == s.observation(seat)
        assert r.information_state(seat) == s.information_state(seat)
        assert all_cards(r) == Counter(FULL_DECK)
        # The resampled state is a playable game: finish it with random legal moves.
        prng = random.Random(rseed)
        while not r.over:
            seat2, move = random_move(r, prng)
            r.apply(seat2, move)
        assert r.deck == []
    # Resampling never touches the original.
    assert s.observation(REFEREE) == before


@FAST
@given(games, st.integers(min_value=0, max_value=70))
def test_clone_is_independent(game, stop):
    n, options, seed = game
    s = G.new(n, options=options, seed=seed)
    rng = random.Random(seed + 5)
    advance(s, rng, stop)
    if s.over:
        c = s.clone()
        assert c.observation(REFEREE) == s.observation(REFEREE)
        return
    before = s.observation(REFEREE)
    before_info = [s.information_state(i) for i in range(n)]
    before_hist = list(s.history)
    c = s.clone()
    assert c.observation(REFEREE) == before
    # Play the clone to the end: the original does not move.
    crng = random.Random(seed)
    while not c.over:
        seat, move = random_move(c, crng)
        c.apply(seat, move)
    assert s.observation(REFEREE) == before
    assert s.history == before_hist
    assert [s.information_state(i) for i in range(n)] == before_info
    # And the other way round.
    c2 = s.clone()
    c2_before = c2.observation(REFEREE)
    seat, move = random_move(s, rng)
    s.apply(seat, move)
    assert c2.observation(REFEREE) == c2_before
    # A clone draws the same future cards as its original.
    c3 = c2.clone()
    seat, move = random_move(c2, random.Random(9))
    c2.apply(seat, move)
    c3.apply(seat, move)
    assert c2.observation(REFEREE) == c3.observation(REFEREE)
