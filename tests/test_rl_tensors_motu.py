"""MOTU's tensors (kiti.games.motu.tensors): fixed scenarios read segment by segment (the row,
the card in hand and its spots, islands in their frames, what a seat may see of Travelers,
the solo table), the per-turn history, and a tracker that stays right when a resample
rewrites a private event it had already read."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy", reason="kiti.rl needs numpy (pip install -e '.[rl]')")

from motu_helpers import first_placement, game  # noqa: E402

import kiti  # noqa: E402
from kiti.core.tensors import Encoder  # noqa: E402
from kiti.games.motu.cards import ISLAND_IDS  # noqa: E402
from kiti.games.motu.island import ROTATIONS  # noqa: E402
from kiti.games.motu.rules import MotuState  # noqa: E402
from kiti.games.motu.sources import SOURCES  # noqa: E402
from kiti.games.motu.tensors import SYMBOL, TRAVELER_IDS, frame  # noqa: E402
from kiti.rl.tensors import encoder_for  # noqa: E402

CARD = {c: i for i, c in enumerate(ISLAND_IDS)}
STAR = 3 + SYMBOL["star"]  # the star's plane (after the three terrains)


def _encoder(state: MotuState) -> Encoder:
    return encoder_for(kiti.Game(type(state), state.players, state.options))


def _two_seats() -> MotuState:
    """2 seats, row I01-I04, pile A starting I05, I06; villages V1, V2; Travelers T1, T2;
    Destinies D01, D04, D06 on the table.  Seat 0 takes I02 (position 2: one coconut onto
    I01), is placing it."""
    state = game(
        2,
        row=["I01", "I02", "I03", "I04"],
        piles={"A": ["I05", "I06"]},
        villages=["V1", "V2"],
        travelers=["T1", "T2"],
        destinies=["D01", "D04", "D06"],
        first=0,
    )
    state.play(0, "take 2")
    return state


def test_the_card_in_hand_and_its_spots() -> None:
    state = _two_seats()
    enc = _encoder(state)
    lay = enc.observation_layout
    obs = enc.observation(state, 1)  # another seat sees the placing too: it is public
    seg = lambda name: lay.view(obs, name)  # noqa: E731
    assert seg("phase").tolist() == [0, 1, 0, 0, 0, 0], "place"
    assert seg("turn").tolist() == [0, 1], "seat 0 is one place after seat 1"
    assert seg("holding").argmax() == CARD["I02"] and seg("holding").sum() == 1
    assert seg("row").argmax(axis=1).tolist()[:3] == [CARD["I01"], CARD["I03"], CARD["I04"]]
    assert not seg("row")[3].any(), "the row is refilled after the placement"
    assert seg("row_coconuts").tolist() == [1, 0, 0, 0] and seg("row_cost").tolist() == [0, 1, 2, 0]
    assert seg("banks").tolist() == [5, 4] and seg("supply")[0] == 26
    assert _spots(enc, obs, row=1) == _legal(state) and len(_legal(state)) == 42
    state.play(0, first_placement(state))  # I02 at (-2, -3): seat 0's frame moves
    state.play(0, "done")
    state.play(1, "take 1")
    obs = enc.observation(state, 0)
    assert _spots(enc, obs, row=1) == _legal(state), "seat 1's spots, in seat 1's frame"


def _legal(state: MotuState) -> set[tuple[int, int, int]]:
    return {(m.rotation, m.x, m.y) for m in state.legal_moves(state.turn)}


def _spots(enc: Encoder, obs: object, row: int) -> set[tuple[int, int, int]]:
    """The placements the spots segment shows, read in the frame of the island at ``row``."""
    lay = enc.observation_layout
    vx, vy = lay.view(obs, "village_at")[row]
    cells = np.nonzero(lay.view(obs, "spots"))
    return {(ROTATIONS[r], int(c - vx), int(y - vy)) for r, y, c in zip(*cells)}


def test_islands_sources_and_destinies_after_a_turn() -> None:
    state = _two_seats()
    state.play(0, first_placement(state))  # I02 at (-2, -3)
    state.play(0, "buy D06")
    enc = _encoder(state)
    lay = enc.observation_layout
    obs = enc.observation(state, 1)
    seg = lambda name: lay.view(obs, name)  # noqa: E731
    assert seg("village_at").tolist() == [[3, 3], [5, 6]], "seat 0's island grew 2 left and 3 up"
    islands = seg("islands")
    assert islands.shape == (2, 22, *frame(9)[::-1])
    assert [list(zip(*np.nonzero(islands[r, STAR]))) for r in (0, 1)] == [[(4, 4)], [(7, 6)]], (
        "each village star at its village's top-left + (1, 1)"
    )
    assert islands[1, 3 + SYMBOL["totem7"], 6 - 3, 5 - 2] == 1, "I02's totem at (-2, -3)"
    assert seg("layers")[1, 3, 3] == 1 and seg("layers")[1].max() == 1
    assert seg("sources").tolist() == [[2, 0, 0, 5, 1, 0], [0, 3, 0, 3, 1, 2]], "coconut: 5 and 3 banked"
    assert seg("sources")[1].tolist() == [state.source_value(0, s) for s in SOURCES]
    assert seg("beach").tolist() == [1, 1] and seg("banks").tolist() == [5, 3]
    assert seg("row_coconuts").tolist() == [1, 0, 0, 1], "the Destiny's price went onto the row"
    assert seg("owned")[1].nonzero()[0].tolist() == [5] and seg("destinies").nonzero()[0].tolist() == [0, 3]
    assert seg("phase")[2] == 1 and seg("bought")[0] == 1


def test_a_traveler_is_seen_by_its_owner_and_by_all_once_played() -> None:
    state = _two_seats()
    state.play(0, first_placement(state))
    enc = _encoder(state)
    lay = enc.observation_layout
    seen = lambda seat: lay.view(enc.observation(state, seat), "traveler")  # noqa: E731
    assert seen(0)[0].argmax() == TRAVELER_IDS.index("T1") and not seen(0)[1].any()
    assert seen(1)[0].argmax() == TRAVELER_IDS.index("T2") and not seen(1)[1].any()
    state.play(0, "travel")
    other = enc.observation(state, 1)
    assert lay.view(other, "traveler")[1].argmax() == TRAVELER_IDS.index("T1")
    assert lay.view(other, "traveler_played").tolist() == [0, 1]
    assert lay.view(other, "traveler_points")[1] == state.traveler_points[0]


def test_the_history_keeps_each_turn() -> None:
    state = _two_seats()
    state.play(0, first_placement(state))
    state.play(0, "buy D06")
    state.play(0, "done")
    state.play(1, "take 1")
    enc = _encoder(state)
    lay = enc.info_state_layout
    info = enc.info_state(state, 1)  # rows: seat 1, seat 0
    seg = lambda name: lay.view(info, name)  # noqa: E731
    assert seg("h_seat")[:3].tolist() == [[0, 1], [1, 0], [0, 0]]
    assert seg("h_take")[0].tolist() == [0, 1, 0, 0, 0] and seg("h_take")[1].tolist() == [1, 0, 0, 0, 0]
    assert seg("h_card")[0].argmax() == CARD["I02"] and seg("h_card")[1].argmax() == CARD["I01"]
    assert seg("h_coconuts")[:2].tolist() == [[1, 0], [0, 1]], "I01 carried the coconut paid for I02"
    assert seg("h_rotation")[0].tolist() == [1, 0, 0, 0] and seg("h_spot")[0].tolist() == [-2, -3]
    assert seg("h_buy")[0].nonzero()[0].tolist() == [5] and not seg("h_travel").any()
    assert not seg("h_rotation")[1].any(), "seat 1 has not placed yet"


def test_solo_table_and_the_other_cards_fate() -> None:
    state = game(1, piles={"A": ["I01", "I02", "I03", "I04"]})
    enc = _encoder(state)
    lay = enc.observation_layout
    seg = lambda obs, name: lay.view(obs, name)  # noqa: E731
    obs = enc.observation(state, 0)
    assert seg(obs, "shown").argmax(axis=1).tolist() == [CARD["I01"], CARD["I02"]]
    assert seg(obs, "shown_change").tolist() == [-1, 1] and seg(obs, "hut")[0] == 3
    state.play(0, "take left")
    state.play(0, first_placement(state))
    obs = enc.observation(state, 0)
    assert seg(obs, "phase")[3] == 1 and seg(obs, "other").argmax() == CARD["I02"]
    assert seg(obs, "banks")[0] == 5 and seg(obs, "hut")[0] == 4
    state.play(0, "give")
    obs = enc.observation(state, 0)
    assert seg(obs, "opponent_size")[0] == 1 and not seg(obs, "opponent_pile").any(), (
        "the Opponent's cards are face down until the end"
    )
    info = enc.info_state(state, 0)
    hist = enc.info_state_layout
    assert hist.view(info, "h_shown")[0].argmax(axis=1).tolist() == [CARD["I01"], CARD["I02"]]
    assert hist.view(info, "h_fate")[0].tolist() == [1, 0], "given to the Opponent"
    assert hist.view(info, "h_take")[0].tolist() == [1, 0, 0], "the left card taken"


def test_a_tracker_stays_right_when_a_resample_rewrites_a_private_event() -> None:
    """A resample for seat 0 redraws seat 1's face-down Traveler and rewrites its early log
    entry in place; seat 1's tracker, which read that entry, goes on from its last entry."""
    state = _two_seats()
    enc = _encoder(state)
    tracker = enc.info_state_tracker(1)
    tracker(state)
    guess = state.resample(0, random.Random(5))
    assert guess.travelers[1] != state.travelers[1], "the resample redrew seat 1's Traveler"
    got = tracker(guess)
    assert tracker.rebuilds == 0, "the log's last entry is the one read: no rebuild"
    assert (got == enc.info_state(guess, 1)).all()
