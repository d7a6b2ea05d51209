"""MOTU's faster tensors for the PettingZoo env (issue 19) write what a player's view holds:
through whole random games (solo, 2, 3 and 4 seats), one encoder kept warm all game long
(islands grown card by card, pieces kept per card, rotation and layer, values kept per
island) writes each seat's islands, layers, village places and row exactly as the
island's visible cells and the row say, equals a fresh encoder's observation, and writes
a mask (``write_legal``) holding exactly the rules' legal actions; the env's observations
are arrays of their own that later steps never change."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy", reason="kiti.rl needs numpy (pip install -e '.[rl]')")

from kiti.core.load import load  # noqa: E402
from kiti.games.motu.cards import DIRECTIONS, ISLAND_IDS, SYMBOL_NAME, card  # noqa: E402
from kiti.games.motu.island import bounds  # noqa: E402
from kiti.games.motu.rules import GROWTH, ROW, MotuState, take_cost  # noqa: E402
from kiti.games.motu.tensors import MotuEncoder  # noqa: E402

TERRAINS = "LBS"
SYMBOLS = tuple(SYMBOL_NAME)


def _states(players: int, games: int, seed: int) -> list[MotuState]:
    """Every state of ``games`` random games, as copies, in the order they were played."""
    game = load("motu", players=players)
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        state = game.new_state(rng.randrange(1 << 30))
        out.append(state.clone())
        while not state.over:
            seat = rng.choice(sorted(state.acting))
            state.step(seat, state.random_action(seat, rng))
            out.append(state.clone())
    return out


def _islands_as_seen(encoder: MotuEncoder, state: MotuState, seat: int) -> dict[str, np.ndarray]:
    """The islands, layers and village places that ``seat`` should see, straight from each
    island's visible cells (the module doc's frame: GROWTH cells left of and above it)."""
    n = state.players
    planes = len(TERRAINS) + len(SYMBOLS) + len(DIRECTIONS)
    islands = np.zeros((n, planes, encoder.h, encoder.w), np.float32)
    layers = np.zeros((n, encoder.h, encoder.w), np.float32)
    village = np.zeros((n, 2), np.float32)
    for s, island in enumerate(state.islands):
        r = (s - seat) % n
        x0, y0 = bounds(island)[:2] if island.cells else (0, 0)
        ox, oy = GROWTH - x0, GROWTH - y0
        village[r] = (ox, oy)
        for (x, y), cell in island.cells.items():
            at = (y + oy, x + ox)
            islands[(r, TERRAINS.index(cell.terrain), *at)] = 1
            if cell.symbol:
                islands[(r, len(TERRAINS) + SYMBOLS.index(cell.symbol), *at)] = 1
            for way in cell.ways:
                islands[(r, len(TERRAINS) + len(SYMBOLS) + DIRECTIONS.index(way), *at)] = 1
            layers[(r, *at)] = cell.layer
    return {"islands": islands, "layers": layers, "village_at": village}


def _row_as_seen(state: MotuState) -> dict[str, np.ndarray]:
    """The row's segments straight from the row: cards, their features, coconuts, costs."""
    k = len(ISLAND_IDS)
    cards = np.zeros((ROW, k), np.float32)
    features = np.zeros((ROW, len(SYMBOLS) + 1), np.float32)
    coconuts = np.zeros(ROW, np.float32)
    costs = np.zeros(ROW, np.float32)
    for i, (c, on) in enumerate(zip(state.row, state.row_coconuts)):
        cards[i, ISLAND_IDS.index(c)] = 1
        counts = card(c).symbol_counts()
        features[i] = [counts.get(s, 0) for s in SYMBOLS] + [card(c).has_beach]
        coconuts[i] = on
        costs[i] = take_cost(i)
    return {"row": cards, "row_features": features, "row_coconuts": coconuts, "row_cost": costs}


@pytest.mark.parametrize(("players", "games"), [(1, 2), (2, 4), (3, 2), (4, 2)])
def test_a_warm_encoder_writes_what_the_cells_and_the_row_say(players: int, games: int) -> None:
    states = _states(players, games, seed=40 + players)
    encoder = MotuEncoder(load("motu", players=players))
    layout = encoder.observation_layout
    mask = np.zeros(encoder.game.codec.size + 1, np.int8)
    grown = 0
    for i, state in enumerate(states):
        grown += state.phase == "take"
        for seat in range(players):
            where = f"{players} seats, state {i}, seat {seat}"
            obs = encoder.observation(state, seat)
            for name, want in _islands_as_seen(encoder, state, seat).items():
                assert np.array_equal(layout.view(obs, name), want), f"{name}: {where}"
            if players > 1:
                for name, want in _row_as_seen(state).items():
                    assert np.array_equal(layout.view(obs, name), want), f"{name}: {where}"
            if i % 3 == 0:  # a fresh encoder (islands read from their cells) writes the same
                fresh = MotuEncoder(encoder.game).observation(state, seat)
                assert np.array_equal(obs, fresh), where
            if seat in state.acting:
                mask[:] = 0
                encoder.write_legal(state, seat, mask.data.cast("B"))
                assert np.flatnonzero(mask).tolist() == sorted(state.legal_actions(seat)), where
    assert grown > 10 * games  # islands grew card by card through the checked states


def test_env_observations_are_arrays_that_later_steps_never_change() -> None:
    from kiti.rl.pettingzoo import env as aec_env

    env = aec_env("motu", 4)
    env.reset(seed=7)
    rng = random.Random(7)
    handed: list[tuple[np.ndarray, np.ndarray]] = []
    for _agent in env.agent_iter():
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        handed.append((obs["observation"], obs["observation"].copy()))
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
    assert len(handed) > 50
    assert len({id(o) for o, _ in handed}) == len(handed)  # no array handed out twice
    for k, (given, copy) in enumerate(handed):
        assert np.array_equal(given, copy), f"observation {k} changed after it was handed out"
