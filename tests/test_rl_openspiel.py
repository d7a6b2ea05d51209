"""Kiti's games as OpenSpiel games (kiti.rl.openspiel) and the openspiel-ismcts bot.

OpenSpiel's own random_sim_test runs over a few cases of every game (its fewest and most
seats, and a case with other options), in the turn-based shape, the simultaneous shape and
the simultaneous shape through convert_to_turn_based; KITI_CONFORMANCE=full runs it over
every case of the conformance matrix (docs/testing.md)."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open-spiel is not installed (pip install 'kiti[rl]')")
pytest.importorskip("numpy", reason="numpy is not installed (pip install 'kiti[rl]')")

import numpy as np  # noqa: E402

import kiti  # noqa: E402
from kiti.bots.registry import BotSpecError, make_bot  # noqa: E402
from kiti.core.errors import IllegalMoveError  # noqa: E402
from kiti.core.registry import game_ids, get_game, has_part  # noqa: E402
from kiti.core.seatview import seat_view  # noqa: E402
from kiti.rl.openspiel import DEAL_NODES, register_all, short_name  # noqa: E402
from kiti.sim.tournament import play_game  # noqa: E402
from kiti.testing import Case, cases  # noqa: E402

FULL = os.environ.get("KITI_CONFORMANCE", "").strip() == "full"


def _few(game: str) -> list[Case]:
    every = cases(game)
    most = max(c.players for c in every)
    picked = [every[0], next(c for c in every if c.players == most)]
    picked += [c for c in every[1:] if c.players == every[0].players][:1]
    return list({c.id: c for c in picked}.values())


CASES = [c for g in game_ids() for c in (cases(g, options="full") if FULL else _few(g))]
SHAPES = ["turns", "simultaneous", "convert_to_turn_based"]


def spiel_game(case: Case, simultaneous: bool = False) -> object:
    register_all()
    params = {"players": case.players, "simultaneous": simultaneous, **case.options}
    return pyspiel.load_game(short_name(case.game), params)


def dealt(game: object, seed: int) -> object:
    """A state after the deal of Kiti seed ``seed``."""
    state = game.new_initial_state()
    for byte in seed.to_bytes(DEAL_NODES, "big"):
        state.apply_action(byte)
    return state


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_random_sim_test(case: Case, shape: str) -> None:
    """OpenSpiel's own API test passes for every game, in each shape."""
    game = spiel_game(case, simultaneous=shape != "turns")
    if shape == "convert_to_turn_based":
        game = pyspiel.convert_to_turn_based(game)
    pyspiel.random_sim_test(game, num_sims=1, serialize=shape == "turns", verbose=False)


@pytest.mark.parametrize("case", [c for g in game_ids() for c in _few(g)[:1]], ids=lambda c: c.id)
def test_resample_from_infostate_keeps_what_the_seat_knows(case: Case) -> None:
    """Every resample for a seat gives it the same information string and tensor and the same
    player to act, carries no OpenSpiel history (the true deal never leaks), and redraws what
    the seat does not know."""
    game = spiel_game(case)
    rng = random.Random(3)
    state = dealt(game, 11)
    draw = random.Random(5).random
    steps = redrawn = 0
    while not state.is_terminal() and steps < 60:
        for p in range(game.num_players()):
            other = state.resample_from_infostate(p, draw)
            redrawn += other.kiti_state.observation("referee") != state.kiti_state.observation("referee")
            assert other.information_state_string(p) == state.information_state_string(p)
            if game.get_type().provides_information_state_tensor:
                assert other.information_state_tensor(p) == state.information_state_tensor(p)
            assert other.current_player() == state.current_player()
            assert other.history() == []
        state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    assert redrawn, "every resample was the state itself: the search would see its hidden cards"


def test_the_deal_is_the_kiti_seed() -> None:
    """The four deal bytes spell the Kiti seed: the same game as kiti.load(...).new_state(seed)."""
    game = spiel_game(Case(get_game("miaui"), 4))
    state = dealt(game, 0x01020304)
    direct = kiti.load("miaui", players=4).new_state(0x01020304)
    assert state.kiti_state.seed == 0x01020304
    assert state.kiti_state.observation(0) == direct.observation(0)
    assert state.history() == [1, 2, 3, 4]
    assert not state.is_chance_node()
    assert state.current_player() >= 0


def test_clone_goes_through_state_clone(monkeypatch: pytest.MonkeyPatch) -> None:
    """An OpenSpiel clone is one State.clone of the Kiti state (the cached codec shared)."""
    game = spiel_game(Case(get_game("miaui"), 3))
    state = dealt(game, 7)
    state.apply_action(state.legal_actions()[0])
    rules = type(state.kiti_state)
    calls = []
    real = rules.clone

    def counting(self: kiti.core.game.State) -> kiti.core.game.State:
        calls.append(self)
        return real(self)

    monkeypatch.setattr(rules, "clone", counting)
    copy = state.clone()
    assert calls == [state.kiti_state]
    assert copy.kiti_state is not state.kiti_state
    assert copy.kiti_state.codec() is state.kiti_state.codec()
    assert str(copy) == str(state)


def test_registration_parameters_and_declarations() -> None:
    """Players and options are parameters; shapes, action counts, lengths and utilities follow them."""
    names = register_all()
    assert names == [short_name(g) for g in game_ids()]
    for game_id in game_ids():
        spec = pyspiel.load_game(short_name(game_id)).get_type().parameter_specification
        assert {"players", "simultaneous", *(o.name for o in get_game(game_id).info.options)} <= set(spec)
    utility = pyspiel.GameType.Utility
    miaui = pyspiel.load_game("kiti_miaui", {"players": 5, "simultaneous": True})
    codec = kiti.load("miaui", players=5).codec
    assert miaui.num_players() == 5
    assert miaui.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    assert miaui.num_distinct_actions() == codec.size + 1  # NOOP
    assert miaui.max_game_length() == kiti.load("miaui", players=5).move_limit
    assert (miaui.get_type().utility, miaui.utility_sum()) == (utility.CONSTANT_SUM, 1.0)
    teams = pyspiel.load_game("kiti_mauw", {"players": 4, "teams": True})
    assert (teams.get_type().utility, teams.utility_sum()) == (utility.CONSTANT_SUM, 2.0)
    odd = pyspiel.load_game("kiti_mauw", {"players": 5, "teams": True})
    assert odd.get_type().utility == utility.GENERAL_SUM
    solo = pyspiel.load_game("kiti_motu", {"players": 1})
    assert (solo.get_type().utility, solo.num_players()) == (utility.GENERAL_SUM, 1)
    turns = pyspiel.load_game("kiti_motu", {"players": 3})
    assert turns.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert turns.num_distinct_actions() == kiti.load("motu", players=3).codec.size


def test_bad_parameters_are_refused_with_their_name() -> None:
    register_all()
    with pytest.raises(Exception, match="7"):
        pyspiel.load_game("kiti_miaui", {"players": 7})
    with pytest.raises(Exception, match="ties"):
        pyspiel.load_game("kiti_mauw", {"ties": "sometimes"})


def test_actions_are_the_codec_moves() -> None:
    game = spiel_game(Case(get_game("miaui"), 3))
    state = dealt(game, 2)
    codec = kiti.load("miaui", players=3).codec
    seat = state.current_player()
    assert state.legal_actions() == state.kiti_state.legal_actions(seat)
    assert [state.action_to_string(seat, a) for a in state.legal_actions()] == [
        str(codec.moves[a]) for a in state.legal_actions()
    ]


def test_a_bad_action_is_refused_and_changes_nothing() -> None:
    game = spiel_game(Case(get_game("miaui"), 3), simultaneous=True)
    state = dealt(game, 2)
    assert state.current_player() == pyspiel.PlayerId.SIMULTANEOUS
    before = str(state)
    legal = [state.legal_actions(p) for p in range(3)]
    with pytest.raises(IllegalMoveError):
        state.apply_actions([legal[0][0], legal[1][0], 99])
    assert str(state) == before
    state.apply_actions([legal[0][0], legal[1][0], legal[2][0]])
    assert str(state) != before


def test_tensors_are_the_encoders_by_segment() -> None:
    from kiti.rl.tensors import encoder_for

    for game_id in game_ids():
        cls = get_game(game_id)
        if not has_part(cls, "tensors"):
            continue
        case = Case(cls, cls.info.min_seats)
        game = spiel_game(case)
        encoder = encoder_for(kiti.load(game_id, players=case.players))
        state = dealt(game, 5)
        seat = state.current_player()
        assert np.array_equal(
            np.asarray(state.observation_tensor(seat), np.float32),
            encoder.observation(state.kiti_state, seat),
        )
        assert game.information_state_tensor_shape() == [encoder.info_state_layout.size]
        from open_spiel.python.observation import make_observation

        obs = make_observation(game)
        assert list(obs.dict) == encoder.observation_layout.names


def test_a_process_that_registered_the_games_exits_cleanly() -> None:
    """OpenSpiel keeps the games' creators to the end of the process: it must still exit 0."""
    code = "import pyspiel; from kiti.rl.openspiel import register_all; register_all(); "
    code += "pyspiel.load_game('kiti_miaui').new_initial_state()"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]


# ------------------------------------------------------------------ the bot
@pytest.mark.parametrize("game_id", game_ids())
def test_openspiel_ismcts_plays_a_whole_game(game_id: str) -> None:
    cls = get_game(game_id)
    players = max(2, cls.info.min_seats)
    bots = [make_bot("openspiel-ismcts:sims=8", cls, 1)] + [
        make_bot("random", cls, s) for s in range(1, players)
    ]
    state = play_game(cls, players, {}, 3, bots)
    assert state.over


@pytest.mark.parametrize("game_id", game_ids())
def test_openspiel_ismcts_sees_only_the_seats_information(game_id: str) -> None:
    """Two states the seat cannot tell apart get the same move from the same bot seed."""
    cls = get_game(game_id)
    players = max(2, cls.info.min_seats)
    state = kiti.load(game_id, players=players).new_state(4)
    rng = random.Random(1)
    for _ in range(6):  # a little way into the game
        seat = min(state.to_act())
        state.step(seat, state.random_action(seat, rng))
    seat = min(state.to_act())
    twin = state.resample(seat, random.Random(9))
    moves = [make_bot("openspiel-ismcts:sims=20", cls, 5).choose(seat_view(s, seat)) for s in (state, twin)]
    assert moves[0] == moves[1]


def test_bot_spec_parameters_are_checked() -> None:
    cls = get_game("miaui")
    with pytest.raises(BotSpecError, match="sims"):
        make_bot("openspiel-ismcts:sims=0", cls)
    with pytest.raises(BotSpecError, match="parameter 'depth'"):
        make_bot("openspiel-ismcts:depth=3", cls)


def test_without_open_spiel_the_bot_is_refused_saying_why(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    with pytest.raises(BotSpecError, match=r"needs open-spiel"):
        make_bot("openspiel-ismcts", get_game("miaui"))
