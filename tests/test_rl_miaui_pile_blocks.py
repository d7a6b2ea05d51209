"""Miaui's pile blocks, packed from a list since issue 19 item 10, are the bytes the former
memoryview writer made (kept here as the reference), for every pile of random games, shown
or not; and every seat's observation shows each pile's top card as the rules' pile ends."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy", reason="kiti.rl needs numpy (pip install -e '.[rl]')")

import kiti  # noqa: E402
from kiti.games.miaui import tensors as mt  # noqa: E402
from kiti.games.miaui.rules import CODES, pile_score  # noqa: E402
from kiti.rl.tensors import encoder_for  # noqa: E402


def _reference_block(pile: list[str], shown: bool) -> bytes:
    """The block as the encoder wrote it before (through a memoryview of float32 bytes)."""
    block = bytearray(4 * mt.PILE_SIZE)
    out = memoryview(block).cast("f")
    if not pile:
        out[mt._KNOWN] = 1.0
        return bytes(block)
    for card in pile:
        out[mt._FULL + mt.CODE[card]] += 1.0
    top = mt.CODE[pile[-1]]
    out[mt._TOP + top] = 1.0
    score = float(pile_score(pile))
    out[mt._SIZE], out[mt._FULL_SCORE] = float(len(pile)), score
    if shown or len(pile) <= 1:
        out[mt._SHOWN : mt._SHOWN + mt.C] = out[mt._FULL : mt._FULL + mt.C]
        out[mt._SHOWN_SCORE], out[mt._KNOWN] = score, 1.0
    else:
        out[mt._SHOWN + top] = 1.0
    return bytes(block)


def _random_states(game: kiti.Game, games: int, seed: int) -> list:
    rng = random.Random(seed)
    states = []
    for _ in range(games):
        state = game.new_state(rng.randrange(1 << 30))
        while not state.over:
            for seat in sorted(state.acting):
                if seat in state.acting:
                    state.apply(seat, state.random_move(seat, rng))
            states.append(state.clone())
    return states


@pytest.mark.parametrize(("players", "options"), [(4, {}), (5, {"no_fighting": True, "open_baskets": True})])
def test_pile_blocks_are_the_former_writers_bytes(players: int, options: dict) -> None:
    game = kiti.load("miaui", players=players, **options)
    piles = {tuple(p) for state in _random_states(game, 30, players) for p in state.piles}
    assert len(piles) > 300
    for pile in piles:
        for shown in (False, True):
            assert mt._pile_block(list(pile), shown) == _reference_block(list(pile), shown), (pile, shown)


def test_every_seat_sees_each_piles_top_card() -> None:
    game = kiti.load("miaui", players=4)
    encoder = encoder_for(game)
    lay = encoder.observation_layout
    for state in _random_states(game, 4, 7):
        for seat in range(4):
            tops = lay.view(encoder.observation(state, seat), "pile_top")
            for r in range(4):
                pile = state.piles[(r + seat) % 4]
                want = [0.0] * len(CODES)
                if pile:
                    want[CODES.index(pile[-1])] = 1.0
                assert tops[r].tolist() == want
