"""The AEC env's cheaper paths (issue 19) change no value: Mauw's board (nines, tops, points,
seat and team scores), gathered from kept area blocks, equals the rules' columns read one by
one; Miaui's piles (counted in C) equal the rules' piles; Mauw's masks, written column by
column, hold exactly the rules' legal actions; and the env's own generator, seeded only once
asked, draws what a generator seeded at reset draws."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy", reason="kiti.rl needs numpy (pip install -e '.[rl]')")
pytest.importorskip("pettingzoo", reason="the PettingZoo env needs pettingzoo")

import kiti  # noqa: E402
from kiti.core.game import MAX_SEED  # noqa: E402
from kiti.games.mauw.rules import SLOTS, column_score  # noqa: E402
from kiti.games.mauw.tensors import TOPS  # noqa: E402
from kiti.games.miaui.rules import CODES, pile_score  # noqa: E402
from kiti.rl.pettingzoo import env as aec_env  # noqa: E402
from kiti.rl.tensors import encoder_for  # noqa: E402

MAUW = [
    (2, {}),
    (4, {"teams": True, "kiwi": 4, "ninox": 4, "tuatura": 4}),
    (7, {"kiwi": 4, "ninox": 4}),
]


def _random_states(game: kiti.Game, games: int, seed: int) -> list:
    """States along random games, a few per game (every phase turns up)."""
    rng = random.Random(seed)
    states = []
    for g in range(games):
        state = game.new_state(g)
        while not state.over:
            (seat, *_) = sorted(state.acting)
            if rng.random() < 0.3:
                states.append(state.clone())
            state.step(seat, rng.choice(state.legal_actions(seat)))
    states.append(state)
    return states


def _board(state, seat: int) -> dict[str, np.ndarray]:
    """The board segments as the rules' columns give them, row 0 the viewer."""
    n, s_count = state.players, len(SLOTS)
    nines = np.zeros((n, s_count))
    top = np.zeros((n, s_count, len(TOPS)))
    points = np.zeros((n, s_count))
    for s in range(n):
        r = (s - seat) % n
        for slot in range(s_count):
            k, t = len(state.nines[s][slot]), state.tops[s][slot]
            nines[r, slot] = k
            if t is not None:
                top[r, slot, TOPS.index(t)] = 1
            points[r, slot] = column_score(k, t)
    score = points.sum(axis=1)
    mates = [state.teammate((r + seat) % n) for r in range(n)]
    team = np.array([score[r] + (0 if m is None else score[(m - seat) % n]) for r, m in enumerate(mates)])
    return {"nines": nines, "top": top, "column_score": points, "score": score, "team_score": team}


@pytest.mark.parametrize(("players", "options"), MAUW)
def test_mauw_board_equals_the_rules_columns(players: int, options: dict) -> None:
    game = kiti.load("mauw", players=players, **options)
    encoder = encoder_for(game)
    lay = encoder.observation_layout
    for state in _random_states(game, 5, players):
        for seat in range(players):
            for obs in (encoder._new(state, seat), encoder.observation(state, seat)):
                for name, want in _board(state, seat).items():
                    assert lay.view(obs, name).tolist() == want.tolist(), (name, seat, len(state.history))


@pytest.mark.parametrize(
    ("players", "options"), [(3, {}), (5, {"open_baskets": True, "no_fighting": True}), (6, {})]
)
def test_miaui_piles_equal_the_rules_piles(players: int, options: dict) -> None:
    game = kiti.load("miaui", players=players, **options)
    encoder = encoder_for(game)
    lay = encoder.observation_layout
    for state in _random_states(game, 4, players):
        shown = state.over or bool(options.get("open_baskets"))
        for seat in range(players):
            obs = encoder.observation(state, seat)
            for r in range(players):
                pile = state.piles[(r + seat) % players]
                seen = r == 0 or shown or len(pile) <= 1  # else only its top card shows
                cards = [CODES.index(c) for c in (pile if seen else pile[-1:])]
                assert (
                    lay.view(obs, "pile_cards")[r].tolist()
                    == np.bincount(cards, minlength=len(CODES)).tolist()
                )
                assert lay.view(obs, "pile_size")[r] == len(pile)
                assert lay.view(obs, "score")[r] == (pile_score(pile) if seen else 0)
                assert lay.view(obs, "score_known")[r] == (1 if seen else 0)


@pytest.mark.parametrize(("players", "options"), MAUW)
def test_mauw_masks_hold_the_rules_legal_actions(players: int, options: dict) -> None:
    env = aec_env("mauw", players, options)
    actions = env.table.actions
    for state in _random_states(env.table.game, 5, players + 10):
        for seat in range(players):
            want = (
                state.legal_actions(seat) if seat in state.acting else ([] if state.over else [actions.noop])
            )
            ok, mask = actions.legal_mask(state, seat)
            assert np.flatnonzero(mask).tolist() == sorted(want), (seat, len(state.history))
            assert [a for a in range(actions.size) if ok[a]] == sorted(want)


def test_the_env_generator_draws_as_if_seeded_at_reset() -> None:
    env = aec_env("mauw", 2)
    env.reset(seed=41)
    env.reset()  # the next game's seed: the generator seeded with 41 draws it
    assert env.state.seed == random.Random(41).randrange(MAX_SEED)
    env.reset(seed=7)
    env.reset(seed=8)  # a seed given again replaces the one not yet used
    env.reset()
    assert env.state.seed == random.Random(8).randrange(MAX_SEED)
    penalised = aec_env("mauw", 2, illegal="random")
    penalised.reset(seed=3)
    mask = penalised.last()[0]["action_mask"]
    legal = np.flatnonzero(mask)
    penalised.step(-1)  # replaced by a legal action drawn from the generator seeded with 3
    assert (
        penalised.state.history[0][1]
        == penalised.table.actions.moves[int(legal[int(random.Random(3).random() * len(legal))])]
    )
