"""MOTU hides face-down Travelers (from all but their owner), the order of the piles (from
everyone), secret Source choices (until the reveal) and the solo Opponent's face-down pile (it
shows as backs until the end): changing any of them leaves every other viewer's sight as it was,
and a seat's determinisation never carries the true hidden cards."""

from __future__ import annotations

import json
import random

from motu_helpers import G, play_until

from kiti.core.events import REFEREE
from kiti.core.seatview import seat_view


def sight(state, viewer):  # type: ignore[no-untyped-def]
    return json.dumps(
        [state.observation(viewer), state.events(viewer), state.information_state(viewer)], sort_keys=True
    )


def test_a_face_down_traveler_is_seen_by_its_owner_only() -> None:
    s = G.new(3, None, 1, {"travelers": ["T1", "T2", "T3"]})
    c = G.new(3, None, 1, {"travelers": ["T1", "T5", "T3"]})
    for viewer in (0, 2, None):
        assert sight(c, viewer) == sight(s, viewer), f"viewer {viewer} sees seat 1's Traveler"
    assert sight(c, 1) != sight(s, 1)
    assert s.observation(0)["travelers"][1] == {"card": "?", "played": False, "points": 0, "coconuts": "?"}
    assert "T2" not in json.dumps([s.observation(0), s.events(0)])


def test_a_played_traveler_is_seen_by_everyone() -> None:
    s = G.new(2, None, 1, {"travelers": ["T4", "T2"]})
    play_until(s, lambda st: st.phase == "extras" and st.turn == 0)
    s.play(0, "travel")
    assert s.observation(1)["travelers"][0]["card"] == "T4"


def test_the_piles_order_is_hidden_from_everyone() -> None:
    s = play_until(G.new(4, None, 2), lambda st: len(st.history) > 20)
    c = s.clone()
    c.piles[0].reverse()
    c.piles[1], c.box[0] = [*c.piles[1][:-1], c.box[0]], c.piles[1][-1]
    c.box.sort()
    assert c.observation(REFEREE)["piles"] != s.observation(REFEREE)["piles"]
    for viewer in (0, 1, 2, 3, None):
        assert sight(c, viewer) == sight(s, viewer)
    assert s.observation(0)["piles"]["B"] == ["?"] * len(s.piles[1])


def test_a_secret_source_choice_is_hidden_until_the_reveal() -> None:
    s = play_until(G.new(3, None, 3), lambda st: st.phase == "interim")
    a, b = s.clone(), s.clone()
    a.play(1, "score totem")
    b.play(1, "score coconut")
    for viewer in (0, 2, None):
        assert sight(a, viewer) == sight(b, viewer), f"viewer {viewer} sees seat 1's choice"
    assert sight(a, 1) != sight(b, 1)
    for state, seat in ((a, 0), (a, 2)):
        guess = state.resample(seat, random.Random(1))
        assert guess.choices[1] is not None and guess.choices[1] in [
            (x,) for x in ("fisherman", "hunter", "canoe", "coconut", "totem", "volcano")
        ]
        assert sight(guess, seat) == sight(state, seat)


def test_a_determinisation_never_carries_the_true_hidden_cards() -> None:
    s = G.new(4, None, 5)
    rng = random.Random(5)
    while s.phase != "interim":  # nobody plays a Traveler on the way
        seat = min(s.to_act())
        s.play(seat, "done" if s.phase == "extras" else str(s.random_move(seat, rng)))
    s.play(2, "score volcano")
    truth = s.observation(REFEREE)
    assert seat_view(s, 0).observation == s.observation(0)
    changed = {"piles": 0, "travelers": 0, "choice": 0}
    for k in range(30):
        guess = s.resample(0, random.Random(k))
        seen = guess.events(REFEREE)
        assert all(e["type"] != "traveler" or e["card"] == guess.travelers[e["seat"]] for e in seen)
        assert all(
            e["type"] != "chose" or e["seat"] != 2 or e["sources"] == list(guess.choices[2] or ())
            for e in seen
        )
        assert guess.travelers[0] == s.travelers[0] and guess.choices[0] == s.choices[0]
        changed["piles"] += guess.observation(REFEREE)["piles"] != truth["piles"]
        changed["travelers"] += guess.travelers[1:] != s.travelers[1:]
        changed["choice"] += guess.choices[2] != s.choices[2]
    assert all(v > 10 for v in changed.values()), changed


def test_the_opponents_face_down_pile_shows_as_backs_until_the_end() -> None:
    s = play_until(G.new(1, None, 6), lambda st: len(st.opponent) >= 3)
    view = s.observation(0)["solo_table"]
    assert view["opponent"] == ["?"] * len(s.opponent) and view["opponent_score"] == "?"
    assert s.observation(None)["solo_table"]["opponent"] == ["?"] * len(s.opponent)
    assert s.observation(REFEREE)["solo_table"]["opponent"] == s.opponent
    give = [e for e in s.events(0) if e["type"] == "give"]
    assert give and all(set(e) == {"type", "seat"} for e in give), "a give names no card"
    play_until(s, lambda st: st.over)
    assert s.observation(0)["solo_table"]["opponent"] == s.opponent, "laid out at the end"


def test_visible_changes_do_change_the_views() -> None:
    s = play_until(G.new(3, None, 4), lambda st: len(st.history) > 12)
    c = s.clone()
    c.row_coconuts[0] += 1
    c.supply -= 1
    for viewer in (0, 1, 2, None):
        assert sight(c, viewer) != sight(s, viewer)
