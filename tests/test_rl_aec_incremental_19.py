"""The AEC env's kept tables (issue 19) change no value: Miaui's shared table and Mauw's
board and piles, brought up to date in place state after state (each game's ``Mirror``),
give what is made from scratch, and every observation and mask the env hands out equals the
encoder's and the rules' own, over many random games (jumping between games too)."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy", reason="kiti.rl needs numpy (pip install -e '.[rl]')")
pytest.importorskip("pettingzoo", reason="the PettingZoo env needs pettingzoo")

import kiti  # noqa: E402
from kiti.rl.pettingzoo import env as aec_env  # noqa: E402
from kiti.rl.tensors import encoder_for  # noqa: E402

MAUW = [(2, {}), (4, {"teams": True}), (5, {"kiwi": 4, "ninox": 4})]
#: More Mauw tables the env is played at (its kept tables and turn masks at every seat count)
MAUW_MORE = [
    (3, {"kiwi": 4, "ninox": 4, "tuatura": 4}),
    (4, {}),
    (6, {"teams": True, "ninox": 4, "tuatura": 4}),
]
MIAUI = [
    (3, {}),
    (4, {}),
    (5, {"open_baskets": True, "no_fighting": True, "taker_chooses_order": True}),
    (6, {"no_fighting": True, "taker_chooses_order": True}),
]


def _games(game: kiti.Game, games: int, seed: int, setups: tuple = (None,)) -> list[list]:
    """Every state of random games, game by game (each from the next of ``setups``)."""
    rng = random.Random(seed)
    out = []
    for g in range(games):
        setup = setups[g % len(setups)]
        state = game.rules.new(game.players, game.options, seed * 1000 + g, setup)
        states = [state.clone()]
        while not state.over:
            seat = min(state.acting)
            state.step(seat, rng.choice(state.legal_actions(seat)))
            states.append(state.clone())
        out.append(states)
    return out


@pytest.mark.parametrize(("players", "options"), MIAUI)
def test_miaui_mirror_equals_the_shared_table_made_anew(players: int, options: dict) -> None:
    game = kiti.load("miaui", players=players, **options)
    encoder = encoder_for(game)
    games = _games(game, 12, players)
    rng = random.Random(players)
    order = [s for states in games for s in states]  # game after game, as an env plays
    order += [rng.choice(order) for _ in range(300)]  # and any state after any other
    mirror = encoder.mirror()
    for state in order:
        assert mirror.update(state).tobytes() == encoder.shared(state).tobytes(), len(state.history)


@pytest.mark.parametrize(("players", "options"), [*MAUW, (6, {"teams": True})])
def test_mauw_observations_from_the_mirror_equal_those_made_anew(players: int, options: dict) -> None:
    game = kiti.load("mauw", players=players, **options)
    encoder = encoder_for(game)
    seatings = (None, {"teams": [0, 1, 0, 2, 1, 2]}) if players == 6 else (None,)  # teams change
    games = _games(game, 12, players, seatings)
    rng = random.Random(players)
    order = [s for states in games for s in states]
    order += [rng.choice(order) for _ in range(300)]
    mirror = encoder.mirror()
    for state in order:
        shared = mirror.update(state)
        for seat in range(players):
            got = encoder._new(state, seat, shared).tobytes()
            assert got == encoder.observation(state, seat).tobytes(), (seat, len(state.history))


@pytest.mark.parametrize(
    ("game_id", "players", "options"),
    [("miaui", p, o) for p, o in MIAUI] + [("mauw", p, o) for p, o in [*MAUW, *MAUW_MORE]],
)
def test_the_env_hands_out_the_encoder_observation_and_the_rules_mask(
    game_id: str, players: int, options: dict
) -> None:
    env = aec_env(game_id, players, options)
    encoder, actions = env.table.encoder, env.table.actions
    rng = random.Random(players + 7)
    for game in range(15 if game_id == "miaui" else 5):
        env.reset(seed=game)
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            seat = env.table.seat[agent]
            state = env.state
            assert obs["observation"].tobytes() == encoder.observation(state, seat).tobytes()
            want = np.zeros(actions.size, np.int8)
            want[list(actions.legal(state, seat))] = 1
            assert obs["action_mask"].tolist() == want.tolist()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
