"""Tensors for reinforcement learning (kiti.rl.tensors, Miaui's tensors part): a fixed Miaui
scenario read segment by segment, the conformance suite's tensor checks over every game
that declares tensors, and the errors a caller gets."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import pytest

np = pytest.importorskip("numpy", reason="kiti.rl needs numpy (pip install -e '.[rl]')")

from miaui_helpers import rounds_deck  # noqa: E402

import kiti  # noqa: E402
from kiti.core.errors import KitiError, MissingPartError  # noqa: E402
from kiti.core.registry import game_ids, get_game, has_part  # noqa: E402
from kiti.core.tensors import Layout  # noqa: E402
from kiti.games.miaui.rules import CODES, INFO, MiauiState  # noqa: E402
from kiti.rl.tensors import encoder_for  # noqa: E402
from kiti.testing import Case, cases, tensors  # noqa: E402

C = {code: i for i, code in enumerate(CODES)}


def _scenario() -> MiauiState:
    """4 seats, Kiti right of seat 0.  Round 1: dives 12, 11, 1, 5: seat 0 catches E15
    (Deepest), seat 1 the Lantern L7 (Deep: the next Deep card lies face down, seen by seat
    1 only), seat 2 T6 (Shallow).  Round 2 is stocked K2, K3 (face down), E10, and seat 2
    has chosen diver 3."""
    deck = rounds_deck("K1", [("E15", "L7", "T6"), ("K2", "K3", "E10"), ("K4", "T7", "T8")])
    state = MiauiState.new(4, {}, 0, {"deck": deck, "kiti": 0})
    for seat, n in enumerate((12, 11, 1, 5)):
        state.play(seat, f"dive {n}")
    state.play(2, "dive 3")
    return state


def test_observation_segments_of_a_fixed_scenario() -> None:
    state = _scenario()
    enc = encoder_for(kiti.load("miaui", players=4))
    lay = enc.observation_layout
    me = enc.observation(state, 0)
    seg = lambda name: lay.view(me, name)  # noqa: E731
    assert seg("round").argmax() == 1 and seg("round").sum() == 1, "round 2"
    assert seg("kiti").tolist() == [0, 1, 0, 0], "Kiti moved on: right of seat 1, one after me"
    assert seg("hand").tolist() == [1.0] * 11 + [0.0], "my divers left: 1-11"
    assert not seg("my_dive").any(), "I have not chosen yet"
    assert seg("committed").tolist() == [0, 0, 1, 0], "only seat 2 (two after me) has chosen"
    assert seg("to_act").tolist() == [1, 1, 0, 1]
    lagoon = seg("lagoon")  # depth, slot, code + hidden + peeked
    assert lagoon[0, 0, C["K2"]] == 1 and lagoon[2, 0, C["E10"]] == 1
    assert lagoon[1, 0].tolist() == [0] * len(CODES) + [1, 0], "the Deep card is face down, unseen by me"
    assert seg("pile_top")[0, C["E15"]] == 1 and seg("score")[0] == 15 and seg("score_known")[0] == 1
    assert seg("pile_size").tolist() == [1, 1, 1, 0]
    assert seg("score").tolist() == [15, 7, 6, 0], "piles of one card (or none) are known to all"
    assert not seg("discards").any(), "discards are face down without Open Baskets"
    assert seg("deck")[0] == 37 - 1 - 6 and seg("box")[0] == 0

    seer = enc.observation(state, 1)
    lagoon = lay.view(seer, "lagoon")
    assert lagoon[1, 0, C["K3"]] == 1 and lagoon[1, 0, -1] == 1, "seat 1 peeked at the face-down K3"
    assert lay.view(seer, "pile_top")[3, C["E15"]] == 1, "seat 0 is three places after seat 1"

    chooser = enc.observation(state, 2)
    assert lay.view(chooser, "my_dive").argmax() == 2, "seat 2 chose diver 3"
    assert lay.view(chooser, "committed").tolist() == [1, 0, 0, 0]


def test_hidden_piles_show_only_their_top() -> None:
    state = _scenario()
    for seat, n in ((0, 11), (1, 10), (3, 2)):  # seat 0 catches K2, seat 1 K3, seat 3 E10
        state.play(seat, f"dive {n}")
    enc = encoder_for(kiti.load("miaui", players=4))
    lay = enc.observation_layout
    obs = enc.observation(state, 2)  # rows: seat 2, 3, 0, 1
    assert lay.view(obs, "pile_size").tolist() == [1, 1, 2, 2]
    assert lay.view(obs, "pile_cards")[2].sum() == 1 and lay.view(obs, "pile_cards")[2, C["K2"]] == 1
    assert lay.view(obs, "score_known").tolist() == [1, 1, 0, 0] and lay.view(obs, "score")[2] == 0
    own = lay.view(enc.observation(state, 0), "pile_cards")[0]
    assert own[C["E15"]] == 1 and own[C["K2"]] == 1, "my own pile is wholly visible to me"


def test_information_state_remembers_reveals_and_catches() -> None:
    state = _scenario()
    enc = encoder_for(kiti.load("miaui", players=4))
    lay = enc.info_state_layout
    info = enc.info_state(state, 3)  # rows: seat 3, 0, 1, 2
    dives = lay.view(info, "dives")[0]  # round 1
    assert [int(row.argmax()) + 1 for row in dives] == [5, 12, 11, 1]
    assert not lay.view(info, "dives")[1].any(), "round 2 is not revealed yet"
    assert lay.view(info, "catcher")[0].argmax(axis=1).tolist() == [1, 2, 3]
    assert lay.view(info, "caught")[0, 1, C["L7"]] == 1
    assert (info[: enc.observation_layout.size] == enc.observation(state, 3)).all(), (
        "it starts with the observation"
    )


def test_tracker_follows_a_game_and_a_clone() -> None:
    state = _scenario()
    enc = encoder_for(kiti.load("miaui", players=4))
    tracker = enc.info_state_tracker(1)
    first = tracker(state).copy()
    branch = state.clone()
    for seat, n in ((0, 11), (1, 10), (3, 2)):
        branch.play(seat, f"dive {n}")
    assert (tracker(branch) == enc.info_state(branch, 1)).all()
    assert (tracker(state) == first).all() and tracker.rebuilds == 1, "back on the shorter log: rebuilt"


@pytest.mark.parametrize(
    "case",
    [c for g in game_ids() if has_part(get_game(g), "tensors") for c in cases(g)],
    ids=str,
)
@pytest.mark.parametrize("check", tensors.TENSOR_CHECKS, ids=lambda c: c.__name__)
def test_tensor_conformance(case: Case, check: object) -> None:
    check(case)  # type: ignore[operator]


def test_errors_a_caller_gets() -> None:
    enc = encoder_for("miaui", players=3)
    state = kiti.load("miaui", players=4).new_state(seed=1)
    with pytest.raises(KitiError, match="this encoder is for"):
        enc.observation(state, 0)
    with pytest.raises(KitiError, match="no seat 3"):
        enc.observation(kiti.load("miaui", players=3).new_state(seed=1), 3)
    with pytest.raises(ValueError, match="float32 of shape"):
        enc.observation(kiti.load("miaui", players=3).new_state(seed=1), 0, np.zeros(5, np.float32))
    bare = type("BareMiaui", (MiauiState,), {"info": dataclasses.replace(INFO, id="bare-miaui")})
    with pytest.raises(MissingPartError, match="no tensors"):
        encoder_for(kiti.Game(bare, 3, kiti.load("miaui").options))


def test_layout_describes_and_bounds_its_segments() -> None:
    lay = encoder_for("miaui", players=4).observation_layout
    text = lay.describe()
    assert all(s.name in text for s in lay) and f"total: {lay.size} float32" in text
    assert lay.low.dtype == np.float32 and lay.high.shape == lay.shape
    with pytest.raises(ValueError, match="same name"):
        Layout.of([("a", 1, "", 0, 1), ("a", 2, "", 0, 1)])


def test_the_core_imports_no_numpy() -> None:
    code = (
        "import sys, kiti, kiti.testing, kiti.core.registry as r\n"
        "[r.get_game(g) for g in r.game_ids()]\n"
        "assert 'numpy' not in sys.modules, 'numpy was imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
