"""No view may depend on what its viewer cannot see (RULINGS.md, Miaui 7-9).

For random mid-game states we change, on clones, one thing a seat cannot see and check that its
observation and information state do not move; then one thing it can see, and check that they do.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from miaui_helpers import (
    OPTION_SETS,
    G,
    lagoon_seers,
    new,
    play_round,
    random_move,
    rounds_deck,
    swap_hand_and_played,
)

from kiti.core.events import REFEREE
from kiti.games.miaui.cards import VALUE

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

mid_games = st.tuples(
    st.integers(min_value=3, max_value=6),
    st.sampled_from([*OPTION_SETS, {"kiti_start": 1}]),
    st.integers(min_value=0, max_value=2**32),
    st.integers(min_value=0, max_value=64),  # moves to play
)


def dump(x) -> str:
    return json.dumps(x, sort_keys=True)


def mid_game(n, options, seed, steps):
    s = G.new(n, options=options, seed=seed)
    rng = random.Random(seed + 17)
    done = 0
    while done < steps:
        seat, move = random_move(s, rng)
        clone = s.clone()
        clone.apply(seat, move)
        if clone.over:
            break  # keep a game in progress
        s = clone
        done += 1
    assert not s.over
    return s


def views(s, seat):
    return dump(s.observation(seat)), dump(s.information_state(seat))


def spectator(s):
    return dump(s.observation(None))


def swap_with_deck(s, get, put, rng) -> bool:
    """Swap a card with a deck card of another code; False if there is none."""
    card = get()
    others = [i for i, c in enumerate(s.deck) if c != card]
    if not others:
        return False
    i = rng.choice(others)
    put(s.deck[i])
    s.deck[i] = card
    return True


# ------------------------------------------------------------------ invisible changes
def with_other_committed_dive(s, seat, rng=None):
    """A clone of ``s`` in which ``seat`` committed another diver of its hand this round
    (a random one with ``rng``, else its highest)."""
    c = s.clone()
    hand = c.hands[seat]
    dive = rng.choice(hand) if rng is not None else hand[-1]
    hand.remove(dive)
    hand.append(c.committed[seat])
    hand.sort()
    c.committed[seat] = dive
    return c


def invisible_changes(s, seat, rng):
    """Clones of ``s``, each with one change ``seat`` cannot see, with a label."""
    n = s.players
    out = []
    # Another seat's face-down dive this round.
    for other in range(n):
        if other != seat and s.committed[other] and s.hands[other]:
            c = with_other_committed_dive(s, other, rng)
            out.append((f"seat {other}'s committed dive", c))
    # The order of the deck.
    if len(set(s.deck)) > 1:
        c = s.clone()
        while c.deck == s.deck:
            rng.shuffle(c.deck)
        out.append(("deck order", c))
    # The burned card.
    c = s.clone()
    if swap_with_deck(c, lambda: c.burned, lambda x: setattr(c, "burned", x), rng):
        out.append(("burned card", c))
    # Buried fish in another seat's pile (only hidden without Open Baskets).
    if not s.options["open_baskets"]:
        for other in range(n):
            if other != seat and len(s.piles[other]) >= 2:
                c = s.clone()
                j = rng.randrange(len(c.piles[other]) - 1)
                pile = c.piles[other]
                if swap_with_deck(
                    c, lambda p=pile, j=j: p[j], lambda x, p=pile, j=j: p.__setitem__(j, x), rng
                ):
                    out.append((f"buried card of seat {other}'s pile", c))
    # A face-down lagoon card this seat did not earn.
    for space in range(3):
        for i, h in enumerate(lagoon_seers(s, space)):
            if h >= 0 and h != seat:
                c = s.clone()
                cards = c.lagoon[space]
                if swap_with_deck(
                    c, lambda a=cards, i=i: a[i], lambda x, a=cards, i=i: a.__setitem__(i, x), rng
                ):
                    out.append((f"face-down lagoon card {space}/{i}", c))
    return out


@FAST
@given(mid_games, st.integers(min_value=0, max_value=1000))
def test_hidden_changes_leave_views_unchanged(game, r):
    s = mid_game(*game)
    rng = random.Random(r)
    for seat in range(s.players):
        base = views(s, seat)
        for label, c in invisible_changes(s, seat, rng):
            assert c.observation(REFEREE) != s.observation(REFEREE), label
            assert views(c, seat) == base, f"seat {seat} sees a change of the {label}"


@FAST
@given(mid_games, st.integers(min_value=0, max_value=1000))
def test_spectator_sees_no_hidden_card(game, r):
    s = mid_game(*game)
    rng = random.Random(r)
    base = spectator(s)
    seen = set()
    # A spectator cannot see what any seat alone can see, nor what nobody can.
    for seat in range(s.players):
        for label, c in invisible_changes(s, seat, rng):
            if label in seen:
                continue
            seen.add(label)
            assert spectator(c) == base, f"a spectator sees a change of the {label}"
    # Nor committed dives or any face-down lagoon card.
    for other in range(s.players):
        if s.committed[other] and s.hands[other]:
            c = with_other_committed_dive(s, other)
            assert spectator(c) == base
        obs = s.observation(None)
        assert obs["hands"][other] == ["?"] * len(s.hands[other])
        # Only a pile of 0 or 1 card (wholly visible) or Open Baskets shows its total.
        if not s.options["open_baskets"] and len(s.piles[other]) > 1:
            assert obs["scores"][other] is None
        else:
            assert obs["scores"][other] == sum(VALUE[c] for c in s.piles[other])
    for space in range(3):
        for i, h in enumerate(lagoon_seers(s, space)):
            if h >= 0:
                assert s.observation(None)["lagoon"][space][i] == "?"


# ------------------------------------------------------------------ visible changes
@FAST
@given(mid_games, st.integers(min_value=0, max_value=1000))
def test_visible_changes_change_views(game, r):
    s = mid_game(*game)
    rng = random.Random(r)
    n = s.players
    for seat in range(n):
        base = views(s, seat)
        base_obs, base_info = base
        # The top card of any pile: everybody sees it.
        for owner in range(n):
            if s.piles[owner]:
                c = s.clone()
                pile = c.piles[owner]
                if swap_with_deck(c, lambda p=pile: p[-1], lambda x, p=pile: p.__setitem__(-1, x), rng):
                    o, i = views(c, seat)
                    assert o != base_obs and i != base_info, f"top of pile {owner}"
                    assert spectator(c) != spectator(s)
        # Her own hand (swap a diver in hand with one already played).
        if s.hands[seat] and s.reveals:
            c = s.clone()
            if swap_hand_and_played(c, seat):
                o, i = views(c, seat)
                assert o != base_obs and i != base_info, "own hand"
        # A buried card of her own pile.
        if len(s.piles[seat]) >= 2:
            c = s.clone()
            pile = c.piles[seat]
            if swap_with_deck(c, lambda p=pile: p[0], lambda x, p=pile: p.__setitem__(0, x), rng):
                assert views(c, seat)[0] != base_obs, "own buried card"
        # With Open Baskets, buried cards of others' piles.
        if s.options["open_baskets"]:
            for owner in range(n):
                if owner != seat and len(s.piles[owner]) >= 2:
                    c = s.clone()
                    pile = c.piles[owner]
                    if swap_with_deck(c, lambda p=pile: p[0], lambda x, p=pile: p.__setitem__(0, x), rng):
                        assert views(c, seat)[0] != base_obs, "open basket"
        # Any lagoon card face up, or face down but earned by this seat.
        for space in range(3):
            for i, h in enumerate(lagoon_seers(s, space)):
                if h < 0 or h == seat:
                    c = s.clone()
                    cards = c.lagoon[space]
                    if swap_with_deck(
                        c, lambda a=cards, i=i: a[i], lambda x, a=cards, i=i: a.__setitem__(i, x), rng
                    ):
                        o, inf = views(c, seat)
                        assert o != base_obs and inf != base_info, f"lagoon {space}/{i}"
        # Her own committed dive.
        if s.committed[seat] and s.hands[seat]:
            c = with_other_committed_dive(s, seat)
            assert views(c, seat)[0] != base_obs, "own committed dive"


# ------------------------------------------------------------------ committed dives
@pytest.mark.parametrize("options", OPTION_SETS)
def test_committed_dive_is_invisible_until_the_reveal(options):
    n = 4
    a = G.new(n, options=options, seed=21)
    b = a.clone()
    a.play(0, "dive 9")
    b.play(0, "dive 3")
    assert a.observation(REFEREE) != b.observation(REFEREE)
    for seat in (1, 2, 3):
        assert views(a, seat) == views(b, seat)
        assert "?" in dump(a.observation(seat)["committed"])
    assert spectator(a) == spectator(b)
    assert views(a, 0) != views(b, 0)
    assert a.observation(0)["committed"][0] == 9
    # Others commit; still hidden until the last one.
    for seat in (1, 2):
        a.play(seat, "dive 5")
        b.play(seat, "dive 5")
    assert views(a, 3) == views(b, 3)
    assert views(a, 1) == views(b, 1)
    a.play(3, "dive 7")
    b.play(3, "dive 7")
    # Revealed together: now everybody knows what seat 0 played.
    for seat in (1, 2, 3):
        assert views(a, seat)[1] != views(b, seat)[1]
        assert "9" in dump(a.information_state(seat)["events"])


def test_second_diver_commit_order_does_not_leak():
    # Who committed first is not secret, but the numbers are.
    a = G.new(3, seed=8)
    b = G.new(3, seed=8)
    a.play(1, "dive 12")
    b.play(1, "dive 1")
    a.play(2, "dive 4")
    b.play(2, "dive 6")
    assert views(a, 0) == views(b, 0)
    assert spectator(a) == spectator(b)


# ------------------------------------------------------------------ whole games that differ in hiding
def _swap(deck, i, j):
    d = list(deck)
    d[i], d[j] = d[j], d[i]
    return d


def test_games_differing_in_the_burned_card_look_the_same():
    deck = rounds_deck("E15", [("K1", "T9", "K3")])
    # The last card (index 36) is drawn in round 12, top: swap it with the burned card.
    other = _swap(deck, 0, 36)
    assert other[0] != deck[0]
    a, b = new(3, deck, kiti=0), new(3, other, kiti=0)
    rng = random.Random(4)
    for _ in range(10 * 3 + 2):  # to round 11, two dives in
        seat, move = random_move(a, rng)
        a.apply(seat, move)
        b.apply(seat, move)
        for viewer in range(3):
            assert views(a, viewer) == views(b, viewer)
        assert spectator(a) == spectator(b)
    assert a.observation(REFEREE) != b.observation(REFEREE)


def test_games_differing_in_a_face_down_card_look_the_same_to_others():
    base = rounds_deck("K1", [("L5", "T9", "K3"), ("E15", "T8", "K4"), ("E14", "T7", "K5")])
    other = _swap(base, 4, 36)  # the card that seat 0's Lantern turns face down
    assert base[4] != other[4]
    states = []
    for deck in (base, other):
        s = new(4, deck, kiti=0)
        play_round(s, [12, 6, 1, 3])  # seat 0 catches the Lantern
        states.append(s)
    a, b = states
    for seat in (1, 2, 3):
        assert views(a, seat) == views(b, seat)
    assert spectator(a) == spectator(b)
    assert views(a, 0) != views(b, 0)
    # Once caught it is revealed to all.
    for s in states:
        play_round(s, [11, 12, 2, 4])
    for seat in (1, 2, 3):
        assert views(a, seat) != views(b, seat)


def test_resample_does_not_reveal_the_true_seed():
    s = G.new(4, seed=1234)
    s.play(0, "dive 3")
    r = s.resample(1, random.Random(0))
    # The deck order follows from the seed, so a resampled state must not keep it.
    assert r.seed != 1234
    assert r.setup is None


def test_the_observation_shows_no_diver_discard_pile_only_memory_keeps_the_dives() -> None:
    # Ruling 8: nobody sees the diver discard piles, her own included; what was revealed may
    # be remembered, in the information state (its events), never in the observation.
    from kiti.games.miaui.rules import remembered_dives

    s = new(3, seed=1)
    for dives in ([12, 5, 7], [11, 4, 6]):
        for seat, d in enumerate(dives):
            s.play(seat, f"dive {d}")
    table = s.observation(REFEREE)
    assert table["discards"] == [[12, 11], [5, 4], [7, 6]]  # the premise: these are the piles

    def lists(x):  # every list inside a JSON value
        if isinstance(x, list):
            yield x
            for y in x:
                yield from lists(y)
        elif isinstance(x, dict):
            for y in x.values():
                yield from lists(y)

    for viewer in (0, 1, None):
        seen = list(lists(s.observation(viewer)))
        for pile in table["discards"]:
            assert pile not in seen and pile[::-1] not in seen
        info = s.information_state(viewer)
        assert remembered_dives(info["events"], 3) == table["discards"]  # remembered instead
