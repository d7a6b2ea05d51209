"""Mauw's tensors (kiti.games.mauw.tensors): fixed positions read segment by segment, an
attack and its gain, team play, a gain drawn face down, and the turn rows of the history.
(The conformance checks over every Mauw case run in test_rl_tensors.py.)"""

from __future__ import annotations

from typing import Any

import pytest

np = pytest.importorskip("numpy", reason="kiti.rl needs numpy (pip install -e '.[rl]')")

from mauw_helpers import position  # noqa: E402

from kiti.games.mauw.rules import MauwState  # noqa: E402
from kiti.games.mauw.tensors import CODE, TOP, TURN_FIELDS  # noqa: E402
from kiti.rl.tensors import encoder_for  # noqa: E402

FIELD = {name: i for i, (name, _) in enumerate(TURN_FIELDS)}
HANDS = [
    ["R8", "JK", "SP", "Y2"],
    ["JK", "G3", "B4", "B5"],
    ["G6", "Y7", "R8", "R8"],
    ["R1", "R1", "Y2", "Y2"],
]
COLUMNS = {"0A": ([], "R1"), "1B": (["G3", "G3"], None), "2C": (["B4"], "SP"), "3D": ([], "R8")}


def _attack(**options: object) -> MauwState:
    """4 seats; seat 0 (R1 on its A) attacks seat 3's R8 (column D) with its own R8.  Seat
    1 has two bare nines on B, seat 2 a Spirit blocking one nine on C."""
    state = position([list(h) for h in HANDS], COLUMNS, **options)
    state.play(0, "R8 3D")
    return state


def _encoder(state: MauwState) -> Any:
    """The encoder of the state's game (its seat count and options)."""
    return encoder_for("mauw", state.players, **state.options)


def _seg(enc: Any, tensor: Any, name: str, info: bool = False) -> Any:
    """Segment ``name`` of an observation (or of an information state), in its shape."""
    return (enc.info_state_layout if info else enc.observation_layout).view(tensor, name)


def test_an_attack_as_the_defender_sees_it() -> None:
    state = _attack()
    enc = _encoder(state)
    obs = enc.observation(state, 3)  # rows: seat 3, 0, 1, 2
    seg = lambda name: _seg(enc, obs, name)  # noqa: E731
    assert seg("phase").tolist() == [0, 1, 0, 0, 0], "the defender is asked"
    assert seg("turn").tolist() == [0, 1, 0, 0] and seg("to_act").tolist() == [1, 0, 0, 0]
    assert seg("opponent").tolist() == [0, 1, 1, 1] and not seg("partner").any(), "no teams"
    assert seg("attack")[0] == 1
    assert seg("attacker").tolist() == [0, 1, 0, 0] and seg("defender").tolist() == [1, 0, 0, 0]
    assert seg("attack_slot").argmax() == 3 and seg("attack_target").argmax() == TOP["R8"]
    assert seg("attack_card").argmax() == CODE["R8"] and seg("attack_card").sum() == 1
    assert seg("attack_value").argmax() == 8 - 1 and not seg("attack_declared").any()
    hand = seg("hand")
    assert hand[CODE["R1"]] == 2 and hand[CODE["Y2"]] == 2 and hand.sum() == 4, "my own hand"
    assert seg("hand_size").tolist() == [4, 4, 4, 4] and not seg("known").any()
    assert seg("nines").tolist() == [[0, 0, 0, 0], [0, 0, 0, 0], [0, 2, 0, 0], [0, 0, 1, 0]]
    top = seg("top")
    assert top[0, 3, TOP["R8"]] == 1 and top[1, 0, TOP["R1"]] == 1 and top[3, 2, TOP["SP"]] == 1
    assert top.sum() == 3, "the attacked R8 stays on its column until the attack ends"
    assert seg("column_score")[2, 1] == 36, "two bare nines: 9 doubled twice"
    assert seg("score").tolist() == [8, 1, 36, 0], "a Spirit makes its column worth 0"
    assert seg("team_score").tolist() == seg("score").tolist()
    assert seg("draw")[0] == 95 - 16 - 6 - 1, "the deck less hands, columns and seat 0's refill"
    assert not seg("discard").any() and not seg("gain_seat").any() and seg("over")[0] == 0


def test_a_successful_attack_gives_a_gain_to_place() -> None:
    state = _attack()
    state.play(3, "decline")  # twins: the attacker gains a nine of R8 under an R8
    enc = _encoder(state)
    obs = enc.observation(state, 1)  # rows: seat 1, 2, 3, 0
    seg = lambda name: _seg(enc, obs, name)  # noqa: E731
    assert seg("phase").tolist() == [0, 0, 0, 0, 1] and seg("to_act").tolist() == [0, 0, 0, 1]
    assert seg("attack")[0] == 0 and not seg("attacker").any(), "the attack is over"
    assert seg("gain_seat").tolist() == [0, 0, 0, 1]
    assert seg("gain_nine")[CODE["R8"]] == 1 and seg("gain_nine").sum() == 1, "a twin's nine is seen"
    assert seg("gain_top").argmax() == TOP["R8"]
    assert seg("gain_slots").tolist() == [0, 1, 1, 1], "not on A (a Warrior tops it)"
    assert seg("top")[2, 3].sum() == 0, "seat 3 lost its R8"

    state.play(0, "place B")
    info = enc.info_state(state, 2)  # rows: seat 2, 3, 0, 1
    rows = _seg(enc, info, "turns", info=True)
    first = dict(zip(FIELD, rows[0].tolist()))
    assert first == {
        **dict.fromkeys(FIELD, 0.0),
        "seat": 3,  # seat 0 is row 2
        "act": 1,
        "card": CODE["R8"] + 1,
        "target": 2,  # seat 3 is row 1
        "slot": 4,  # column D
        "effect": 5,  # attack
        "combo": 2,  # twins
        "gain": 2,  # placed on B
        "outcome": 1,  # succeeded
    }
    assert rows[1, FIELD["seat"]] == 4 and rows[1, 1:].sum() == 0, "seat 1's turn, nothing played yet"
    assert not rows[2:].any()
    played = _seg(enc, info, "played", info=True)
    assert played[2, CODE["R8"]] == 1 and played.sum() == 1
    assert (info[: enc.observation_layout.size] == enc.observation(state, 2)).all()


def test_team_play_asks_the_teammate_and_counts_her_defence() -> None:
    state = _attack(teams=True)  # teams: seats 0 and 2, seats 1 and 3
    state.play(3, "decline")
    enc = _encoder(state)
    obs = enc.observation(state, 0)
    seg = lambda name: _seg(enc, obs, name)  # noqa: E731
    assert seg("phase").tolist() == [0, 0, 1, 0, 0] and seg("to_act").tolist() == [0, 1, 0, 0]
    assert seg("partner").tolist() == [[0, 0, 1, 0], [0, 0, 0, 1], [1, 0, 0, 0], [0, 1, 0, 0]]
    assert seg("opponent").tolist() == [0, 1, 0, 1], "my teammate is no opponent"
    assert seg("options").tolist() == [0, 0, 0, 1, 0, 0]
    assert seg("team_score").tolist() == [1, 44, 1, 44], "seats 0+2 hold 1 + 0 points, seats 1+3 36 + 8"

    state.play(1, "defend JK=R8")
    state.play(0, "stop")
    info = enc.info_state(state, 1)  # rows: seat 1, 2, 3, 0
    row = _seg(enc, info, "turns", info=True)[0]
    assert row[FIELD["assists"]] == 1 and row[FIELD["defences"]] == 0, "the teammate defended"
    assert row[FIELD["outcome"]] == 2 and row[FIELD["combo"]] == 0, "the attacker stopped"
    played = _seg(enc, info, "played", info=True)
    assert played[0, CODE["JK"]] == 1 and played[3, CODE["R8"]] == 1


def test_a_gain_drawn_face_down_is_hidden_from_everyone() -> None:
    hands = [
        ["Y7", "G6", "B4", "B5"],
        ["R1", "G3", "B4", "B5"],
        ["G6", "Y7", "R8", "R8"],
        ["R1", "R1", "Y2", "Y2"],
    ]
    state = position(hands, {"0A": ([], "Y2")}, draw=["G3"])
    state.play(0, "Y7 0A")  # a pair (2 + 7): both discarded, a nine drawn face down
    enc = _encoder(state)
    for seat in range(4):
        gain = _seg(enc, enc.observation(state, seat), "gain_nine")
        assert gain[-1] == 1 and gain[:-1].sum() == 0, f"seat {seat} sees the nine's card"
    discard = _seg(enc, enc.observation(state, 2), "discard")
    assert discard[CODE["Y2"]] == 1 and discard[CODE["Y7"]] == 1 and discard.sum() == 2


def test_sizes_follow_the_seat_count_only() -> None:
    sizes = {
        (n, str(opts)): (enc.observation_layout.size, enc.info_state_layout.size)
        for n, opts in ((4, {}), (4, {"teams": True, "kiwi": 4}), (5, {}))
        for enc in [encoder_for("mauw", n, **opts)]
    }
    assert sizes[4, "{}"] == sizes[4, str({"teams": True, "kiwi": 4})]
    assert sizes[5, "{}"][0] > sizes[4, "{}"][0]
    turns = encoder_for("mauw", 4).history_layout["turns"]
    assert turns.shape == (MauwState.move_limit(4, {}), len(TURN_FIELDS))


def test_a_tracker_moved_onto_a_resample_equals_a_fresh_one() -> None:
    """A resample rewrites log entries in its copy (other seats' draws, the referee's
    fields): a tracker that followed the game and is then asked about a resample answers
    what a fresh tracker answers there, and still follows the game afterwards."""
    import random

    import kiti

    state = kiti.load("mauw", players=4).new_state(seed=5)
    rng = random.Random(5)
    enc = _encoder(state)
    trackers = [enc.info_state_tracker(s) for s in range(4)]
    while not state.over and len(state.history) < 120:
        for tracker in trackers:
            tracker(state)
        seat = rng.choice(sorted(state.to_act()))
        state.apply(seat, state.random_move(seat, rng))
    assert any(e[1] == "nine" for e in state.log), "the game laid nines (entries with referee fields)"
    for seat, tracker in enumerate(trackers):
        guess = state.resample(seat, random.Random(seat))
        assert (tracker(guess) == enc.info_state(guess, seat)).all(), f"seat {seat} on its resample"
        assert (tracker(state) == enc.info_state(state, seat)).all(), f"seat {seat} back on the game"


def test_the_discard_segment_counts_the_discard_pile_short_or_long() -> None:
    """The discard segment holds, by code, the cards of the rules' discard pile: checked
    after every move of random games, whose piles grow past the length from which the
    encoder counts them another way."""
    import random

    rng = random.Random(5)
    longest = 0
    for seed in range(6):
        state = MauwState.new(4, None, seed)
        enc = _encoder(state)
        while state.acting:
            discard = _seg(enc, enc.observation(state, 0), "discard")
            expected = np.zeros_like(discard)
            for c in state.discard:
                expected[CODE[c]] += 1
            assert (discard == expected).all(), f"move {len(state.history)}: {list(state.discard)}"
            longest = max(longest, len(state.discard))
            seat = min(state.acting)
            state.apply(seat, state.random_move(seat, rng))
    assert longest >= 45, f"the premise: a pile of 45 cards or more was checked (longest {longest})"
