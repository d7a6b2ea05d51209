"""The PettingZoo faces (kiti.rl.pettingzoo) and the actions they share (kiti.rl.spaces):
PettingZoo's own api_test, parallel_api_test, seed_test and max_cycles_test over the
conformance cases of every game with a tensors part (a few per game by default; the whole
matrix with KITI_CONFORMANCE=pairwise or full), then the rules these envs keep: secret
choices stay secret until complete, NOOP, the illegal-action policies, rewards, truncation,
seeding, observation kinds and factored actions."""

from __future__ import annotations

import os
import random
import types
import warnings
from typing import Any

import pytest

pytest.importorskip("numpy", reason="kiti.rl needs the [rl] extra (pip install -e '.[rl]')")
pytest.importorskip("gymnasium", reason="kiti.rl's envs need the [rl] extra (pip install -e '.[rl]')")
pytest.importorskip("pettingzoo", reason="kiti.rl.pettingzoo needs the [rl] extra (pip install -e '.[rl]')")

import numpy as np
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, seed_test
from pettingzoo.utils.conversions import parallel_to_aec

import kiti
from kiti.core.registry import game_ids, get_game, has_part
from kiti.rl import pettingzoo as kpz
from kiti.rl.spaces import END, FactoredActions, IllegalActionError
from kiti.rl.tensors import encoder_for
from kiti.testing import Case, cases

GAMES = [g for g in game_ids() if has_part(get_game(g), "tensors")]
MODE = os.environ.get("KITI_CONFORMANCE", "").strip()


def _few(game: str) -> list[Case]:
    """By default: the defaults at every seat count, and the game's notable combinations
    at its fewest seats where they are valid there."""
    every = cases(game)
    first = {}
    for case in every:
        first.setdefault(case.players, case)
    defaults = {s.name: s.default for s in get_game(game).info.options}
    notable = [c for c in every if c.options != defaults and c.players == every[0].players][:2]
    return [*first.values(), *notable]


CASES = [c for g in GAMES for c in (cases(g, options=MODE) if MODE else _few(g))]


def _env(case: Case, **kw: object) -> kpz.KitiAEC:
    return kpz.env(case.game, case.players, dict(case.options), **kw)


def _par(case: Case, **kw: object) -> kpz.KitiParallel:
    return kpz.parallel_env(case.game, case.players, dict(case.options), **kw)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_pettingzoo_own_tests(case: Case) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # advice for other kinds of envs (dict observations, ...)
        api_test(_env(case), num_cycles=60)
        parallel_api_test(_par(case), num_cycles=200)
        seed_test(lambda: _env(case), num_cycles=60)

        def par(**kw: object) -> kpz.KitiParallel:  # max_cycles_test samples without a mask
            e = _par(case, illegal="random", **kw)
            e.reset(seed=case.seed)
            return e

        # Its AEC half counts one turn per agent per cycle: the parallel env's own AEC form
        # (every agent asked at every step, NOOP when not to act); the native AEC env's
        # per-agent bound is test_truncation_from_the_move_limit_and_max_cycles's.
        aec = lambda **kw: parallel_to_aec(par(**kw))  # noqa: E731
        max_cycles_test(types.SimpleNamespace(env=aec, parallel_env=par))


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("observation", ["info_state", "dict"])
def test_other_observations_pass_api_test(game: str, observation: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(kpz.env(game, observation=observation), num_cycles=30)


def noop_of(e: kpz.KitiParallel) -> int:
    return int(e.action_space("player_0").n) - 1


def _random_game(e: kpz.KitiAEC, seed: int) -> dict[str, float]:
    """Play ``e`` to the end with a random masked policy; each agent's total reward."""
    rng = random.Random(seed)
    e.reset(seed=seed)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += reward
        legal = np.flatnonzero(obs["action_mask"])
        e.step(None if term or trunc else int(rng.choice(legal)))
    return totals


def test_a_simultaneous_choice_is_secret_until_complete() -> None:
    e = kpz.env("miaui", 4)
    e.reset(seed=3)
    state = e.state
    assert state.to_act() == {0, 1, 2, 3}
    before = e.observe("player_1")["observation"].copy()
    for seat in range(3):
        assert e.agent_selection == f"player_{seat}", "the choosers are asked lowest seat first"
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[-1]))
        assert not state.history, "nothing is played before every chooser has chosen"
        if seat == 0:
            after = e.observe("player_1")["observation"]
            assert np.array_equal(before, after), "seat 1 sees nothing of seat 0's choice"
    e.step(int(np.flatnonzero(e.observe("player_3")["action_mask"])[0]))
    assert [s for s, _ in state.history] == [0, 1, 2, 3], "the choice is applied together, in seat order"


def test_parallel_env_masks_noop_for_seats_not_to_act() -> None:
    e = kpz.parallel_env("mauw", 3)
    obs, _ = e.reset(seed=1)
    noop = e.action_space("player_0").n - 1
    acting = e.state.to_act()
    assert len(acting) == 1
    for agent in e.agents:
        mask = obs[agent]["action_mask"]
        if e.table.seat[agent] in acting:
            assert mask.sum() >= 1 and not mask[noop]
        else:
            assert mask.tolist() == [0] * noop + [1], "a seat not to act may only send NOOP"
    (seat,) = acting
    actions = dict.fromkeys(e.agents, noop)
    actions[f"player_{seat}"] = int(np.flatnonzero(obs[f"player_{seat}"]["action_mask"])[0])
    other = f"player_{(seat + 1) % 3}"
    with pytest.raises(IllegalActionError, match=f"seat {(seat + 1) % 3} may not play action 0 .*not to act"):
        e.step({**actions, other: 0})
    assert not e.state.history, "a refused step changes nothing"
    e.step(actions)
    assert len(e.state.history) == 1


def test_illegal_action_policies() -> None:
    e = kpz.env("miaui", 3)
    e.reset(seed=2)
    legal = np.flatnonzero(e.observe("player_0")["action_mask"])
    bad = e.action_space("player_0").n - 1  # NOOP, for a seat that must act
    with pytest.raises(
        IllegalActionError, match=r"seat 0 may not play action 12 \(NOOP\).*legal now: 0 \(dive 1\)"
    ):
        e.step(bad)
    with pytest.raises(IllegalActionError, match="seat 0: 'x' is not an action"):
        e.step("x")
    assert e.agent_selection == "player_0" and not e.state.history, "a refused action changes nothing"

    pen = kpz.env("miaui", 3, illegal="penalty", penalty=-5)
    pen.reset(seed=2)
    pen.step(bad)
    assert all(pen.terminations.values()), "a penalty ends the episode"
    assert pen._cumulative_rewards == {"player_0": -5.0, "player_1": 0.0, "player_2": 0.0}

    rnd = kpz.env("miaui", 3, illegal="random")
    played = set()
    for seed in range(20):
        rnd.reset(seed=seed)
        rnd.step(bad)
        assert rnd.agent_selection == "player_1" and rnd.infos["player_0"]["illegal_action"] == bad
        played.add(rnd.infos["player_0"]["played"])
    assert played <= set(legal.tolist()) and len(played) > 3, "a random legal action is played instead"
    par = kpz.parallel_env("mauw", 2, illegal="random")
    par.reset(seed=0)
    waiting = next(a for a in par.agents if par.table.seat[a] not in par.state.to_act())
    _, _, _, _, infos = par.step(dict.fromkeys(par.agents, 0))
    assert infos[waiting] == {"illegal_action": 0, "played": noop_of(par)}, "a seat not to act plays NOOP"
    with pytest.raises(kiti.core.KitiError, match="illegal must be one of raise, penalty, random"):
        kpz.env("miaui", 3, illegal="ignore")


@pytest.mark.parametrize(("game", "players", "options"), [("mauw", 4, {"teams": True}), ("motu", 1, {})])
def test_rewards_are_the_returns_at_the_end(game: str, players: int, options: dict[str, object]) -> None:
    e = kpz.env(game, players, options)
    totals = _random_game(e, seed=4)
    assert e.state.over and not e.state.truncated
    returns = e.state.returns()
    assert [totals[f"player_{s}"] for s in range(players)] == returns
    if options.get("teams"):
        team = next(t for t in e.state.teams() if returns[t[0]] > 0)
        assert all(returns[s] == 1.0 for s in team), "each seat of the winning team gets 1"


def test_truncation_from_the_move_limit_and_max_cycles() -> None:
    e = kpz.env("mauw", 2)
    e.reset(seed=5)
    e.state.limit = 3  # the engine stops the game at its move limit
    for _ in range(3):
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    assert all(e.truncations.values()) and not any(e.terminations.values())
    assert e.state.truncated

    short = kpz.env("miaui", 3, max_cycles=2)
    totals = _random_game(short, seed=1)
    assert len(short.state.history) == 6 and totals == dict.fromkeys(short.possible_agents, 0.0)


def test_reset_seeds_the_game() -> None:
    a, b = kpz.env("motu", 2), kpz.env("motu", 2)
    _random_game(a, 9)
    _random_game(b, 9)
    assert a.state.record() == b.state.record() and a.state.seed == 9
    a.reset(seed=9)
    a.reset()
    b.reset(seed=9)
    b.reset()
    assert a.state.seed == b.state.seed != 9, "reset() without a seed draws the next one from the last"


def test_observation_kinds_read_the_seat() -> None:
    game = kiti.load("miaui", players=4)
    for kind, expect in [
        ("tensor", lambda s, seat: encoder_for(game).observation(s, seat)),
        ("info_state", lambda s, seat: encoder_for(game).info_state(s, seat)),
        ("dict", lambda s, seat: s.observation(seat)),
    ]:
        e = kpz.env(game, observation=kind)
        rng = random.Random(0)
        e.reset(seed=6)
        for _ in range(9):
            agent = e.agent_selection
            obs = e.observe(agent)
            want = expect(e.state, e.table.seat[agent])
            same = obs["observation"] == want if kind == "dict" else np.array_equal(obs["observation"], want)
            assert same, f"{kind} observation of {agent}"
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("players", [1, 3])
def test_factored_actions_follow_the_move_steps(players: int) -> None:
    game = kiti.load("motu", players=players)
    fac = FactoredActions(game)
    assert len(fac.heads) == 2 and fac.heads[0][-4:] == ("place 0", "place 90", "place 180", "place 270")
    state = game.new_state(3)
    rng = random.Random(1)
    seen_place = False
    while not state.over and len(state.history) < 30:
        seat = min(state.to_act())
        reached = set()
        for first in np.flatnonzero(fac.mask(state, seat)):
            action = fac.action([first])
            if action is not None:
                reached.add(action)
                continue
            seen_place = True
            for second in np.flatnonzero(fac.mask(state, seat, [first])):
                reached.add(fac.action([first, second]))
        assert reached == set(state.legal_actions(seat)), "the heads' masks give exactly the legal moves"
        state.step(seat, state.random_action(seat, rng))
    assert seen_place
    assert fac.tokens(fac.action([fac.heads[0].index("place 90"), 0]) or 0) == (
        fac.heads[0].index("place 90"),
        0,
    )


@pytest.mark.parametrize(
    ("name", "players", "options"), [("mauw", 2, {}), ("mauw", 4, {"teams": True}), ("miaui", 3, {})]
)
def test_factored_heads_reach_exactly_the_legal_moves(
    name: str, players: int, options: dict[str, Any]
) -> None:
    """Token by token, the heads' masks reach every legal move and nothing else, and a prefix
    is a whole move or not, never both (Mauw: the answer ``B5`` and the play ``B5 0A``)."""
    game = kiti.load(name, players=players, **options)
    fac = FactoredActions(game)
    state = game.new_state(5)
    rng = random.Random(2)
    ended = 0
    while not state.over and len(state.history) < 150:
        for seat in sorted(state.to_act()):
            reached: set[int] = set()
            frontier: list[list[int]] = [[]]
            while frontier:
                prefix = frontier.pop()
                for token in np.flatnonzero(fac.mask(state, seat, prefix)):
                    path = [*prefix, int(token)]
                    action = fac.action(path, state, seat)
                    if action is not None:
                        if len(path) < len(fac.heads):
                            assert not fac.mask(state, seat, path).any(), "a whole move goes no further"
                        reached.add(action)
                        ended += fac.heads[len(prefix)][token] == END
                    else:
                        frontier.append(path)
            assert reached == set(state.legal_actions(seat)), f"seat {seat} after {len(state.history)} moves"
        seat = min(state.to_act())
        state.step(seat, state.random_action(seat, rng))
    if name == "mauw":
        assert ended, "the premise: a move that is also the start of a longer one was reached"
