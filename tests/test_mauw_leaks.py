"""Mauw hides hands, the draw pile's order and the identity of every face-down nine (even from
the column's owner): changing any of them leaves every other viewer's view and events as they were."""

from __future__ import annotations

import json
import random

from mauw_helpers import G

from kiti.core.events import REFEREE


def sight(state, viewer):  # type: ignore[no-untyped-def]
    return json.dumps(
        [state.observation(viewer), state.events(viewer), state.information_state(viewer)], sort_keys=True
    )


def midgame(seed: int, **options):  # type: ignore[no-untyped-def]
    state = G.new(4, options or None, seed)
    rng = random.Random(seed)
    for _ in range(120):
        if state.over:
            break
        seat = min(state.to_act())
        state.apply(seat, state.random_move(seat, rng))
    return state


def test_another_seats_hand_is_hidden_and_own_hand_is_seen() -> None:
    s = midgame(1)
    c = s.clone()
    i = next(i for i, card in enumerate(c.draw) if card not in c.hands[1])
    c.hands[1][0], c.draw[i] = c.draw[i], c.hands[1][0]  # seat 1 holds another card
    assert c.observation(REFEREE) != s.observation(REFEREE)
    for viewer in (0, 2, 3, None):
        assert sight(c, viewer) == sight(s, viewer), f"viewer {viewer} sees seat 1's hand"
    assert sight(c, 1) != sight(s, 1)


def test_the_draw_piles_order_is_hidden_from_everyone() -> None:
    s = midgame(2)
    c = s.clone()
    c.draw.reverse()
    assert c.observation(REFEREE)["draw_pile"] != s.observation(REFEREE)["draw_pile"]
    for viewer in (0, 1, 2, 3, None):
        assert sight(c, viewer) == sight(s, viewer)


def test_a_face_down_nine_is_hidden_even_from_its_owner() -> None:
    for seed in range(40):
        s = midgame(seed)
        spots = [
            (seat, slot, i)
            for seat in range(4)
            for slot in range(4)
            for i, hidden in enumerate(s.unseen[seat][slot])
            if hidden
        ]
        if spots:
            break
    seat, slot, i = spots[0]
    c = s.clone()
    j = next(j for j, card in enumerate(c.draw) if card != c.nines[seat][slot][i])
    c.nines[seat][slot][i], c.draw[j] = c.draw[j], c.nines[seat][slot][i]
    for k, (aud, kind, args, extra) in enumerate(c.log):  # the referee's record of it
        if kind == "nine" and args[:2] == (seat, slot) and extra:
            c.log[k] = (aud, kind, args, (("card", c.nines[seat][slot][i]),))
    assert c.observation(REFEREE) != s.observation(REFEREE) and c.events(REFEREE) != s.events(REFEREE)
    for viewer in (0, 1, 2, 3, None):  # the owner included
        assert sight(c, viewer) == sight(s, viewer), f"viewer {viewer} sees the nine's card"


def test_visible_changes_do_change_the_views() -> None:
    s = midgame(3)
    c = s.clone()
    c.discard.append(c.draw.pop())  # a card on the face-up discard pile
    for viewer in (0, 1, 2, 3, None):
        assert sight(c, viewer) != sight(s, viewer)
