"""Issue 20 item 7 (ISMCTS on MOTU): the search asks legality as a yes or no
(``State._legal_among``), keeps whether a card fits an island and an island's beach cells
(grown from its parent's), and scores leaves without a Judge. The searches must choose and
count exactly as before (root statistics of searches in random positions, a digest frozen
before these changes), and every shortcut must answer what the long way answers."""

from __future__ import annotations

import hashlib
import random

from test_motu_speed_20 import grown

from kiti.bots.ismcts import ISMCTSBot
from kiti.core.game import State
from kiti.core.registry import get_game
from kiti.core.seatview import seat_view
from kiti.games.motu import island as I
from kiti.games.motu import sources as S
from kiti.games.motu.cards import ISLAND_IDS

MOTU = get_game("motu")


def root_digest() -> str:
    """Root statistics (visits and mean rewards) of searches with random and heuristic rollouts,
    every third position of random games at 1, 2, 3, 4 and 6 seats."""
    digest = hashlib.sha256()
    for players in (1, 2, 3, 4, 6):
        state = MOTU.new(players, None, 1000)
        rng = random.Random(0)
        for k in range(30):
            if state.over:
                break
            seat = min(state.to_act())
            if k % 3 == 0:
                for rollout in ("random", "heuristic"):
                    bot = ISMCTSBot(k, iters=60, rollout=rollout)
                    stats = bot.root_statistics(seat_view(state, seat), 60)
                    digest.update(repr(sorted(stats.items())).encode())
            state.apply(seat, state.random_move(seat, rng))
    return digest.hexdigest()[:16]


def test_searches_count_and_choose_as_before() -> None:
    assert root_digest() == "fceee03a2fa9051c"


def test_legal_among_answers_what_illegal_reason_answers() -> None:
    """MOTU's bit-test answer against the core's (a refusal worded per move), on placements
    legal and not, in every phase of random games."""
    rng = random.Random(3)
    asked = refused = 0
    for players in (1, 2, 4):
        state = MOTU.new(players, None, players)
        codec = state.codec()
        while not state.over:
            seat = min(state.to_act())
            actions = rng.sample(range(len(codec.moves)), 60)
            actions += [codec.index[m] for m in state.legal_moves(seat)[:20]]
            got = state._legal_among(seat, actions)
            assert got == State._legal_among(state, seat, actions)
            asked += len(actions)
            refused += len(actions) - len(got)
            state.apply(seat, state.random_move(seat, rng))
    assert asked > 10_000 and refused > asked // 2


def test_an_islands_sand_grows_as_its_cells_say() -> None:
    rng = random.Random(5)
    laid = 0
    for seed in range(60):
        island = grown(seed % 12, seed)
        S.longest_beach(island)  # its sand kept: the islands laid on it grow theirs
        for _ in range(5):
            name = rng.choice(ISLAND_IDS)
            spot = I.uniform_legal_placement(island, name, rng)
            if spot is None:
                continue
            child = I.lay_card(island, name, *spot)
            assert child._facts is not None and "sand" in child._facts
            assert I.sand(child) == I._sand(child)
            walked = [len({child.cells[p].layer for p in beach}) for beach in S.beaches(child)]
            assert S.longest_beach(child) == max(walked, default=0)
            laid += 1
            island = child
    assert laid > 200


def test_a_kept_fit_is_has_legal_placement() -> None:
    rng = random.Random(9)
    for seed in range(40):
        island = grown(seed % 10, seed)
        for name in rng.sample(ISLAND_IDS, 12):
            assert I.fits(island, name) is I.has_legal_placement(island, name)
            assert I.fits(island, name) is I.has_legal_placement(island, name)  # kept
