"""Issue 20 (item 7): Mauw's cheaper random play changes no game.

Digests of seeded random games, taken before the speed-up (move loops, logging and drawing
rewritten for fewer calls), through every path that plays Mauw: the core's random playout
(``random_move``), the integer path (``random_action``), and the checked path (a uniform
choice among ``legal_moves``, applied by ``apply``) with every seat's view along the way.
Each digest covers the moves, every logged event (every seat's and the referee's), the
scores and the winners; a deliberate change of the rules updates them.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest

from kiti.core.contract import to_json
from kiti.core.events import REFEREE
from kiti.core.registry import get_game
from kiti.core.turns import play_random_actions, play_random_game

G = get_game("mauw")

#: (seats, options): plain tables, the expert animals, teams with every option.
TABLES: list[tuple[int, dict[str, Any] | None]] = [
    (2, None),
    (3, None),
    (4, None),
    (7, None),
    (2, {"kiwi": 4, "ninox": 4, "tuatura": 4}),
    (5, {"kiwi": 2, "ninox": 3, "tuatura": 1, "open_slot_block": True}),
    (4, {"teams": True}),
    (6, {"teams": True, "kiwi": 4, "ninox": 4, "tuatura": 4, "open_slot_block": True, "ties": "nines"}),
]


def _finish(digest: Any, state: Any) -> None:
    digest.update(" ".join(f"{seat}:{move}" for seat, move in state.history).encode())
    digest.update(repr(state.log).encode())
    digest.update(repr((state.scores(), state.winners(), state.end_reason)).encode())
    state.check_invariants()


def playout_digest(play: Any, players: int, options: dict[str, Any] | None, seeds: range) -> str:
    """Random games of ``play`` (the core's playout loops), one generator for them all."""
    digest = hashlib.sha256()
    rng = random.Random(players)
    for seed in seeds:
        _finish(digest, play(G.new(players, options, seed), rng))
    return digest.hexdigest()[:16]


def checked_digest(players: int, options: dict[str, Any] | None, seed: int) -> str:
    """A game of uniform choices among ``legal_moves`` through ``apply``, with every seat's
    (and the referee's) view every few moves, and a clone played on from the middle."""
    digest = hashlib.sha256()
    state = G.new(players, options, seed)
    rng = random.Random(seed)
    while not state.over:
        if len(state.history) % 7 == 0:
            for viewer in (*range(players), None, REFEREE):
                digest.update(json.dumps(to_json(state.view(viewer)), sort_keys=True).encode())
        if len(state.history) == 40:
            twin = state.clone()
            play_random_game(twin, random.Random(seed))
            _finish(digest, twin)
        seat = min(state.to_act())
        state.apply(seat, rng.choice(state.legal_moves(seat)))
    _finish(digest, state)
    return digest.hexdigest()[:16]


def all_digests() -> dict[str, list[str]]:
    return {
        f"{players} {options}": [
            playout_digest(play_random_game, players, options, range(25)),
            playout_digest(play_random_actions, players, options, range(100, 110)),
            checked_digest(players, options, 5),
        ]
        for players, options in TABLES
    }


FROZEN: dict[str, list[str]] = {
    "2 None": ["33d7e2789443d02d", "779568a4ad1edff5", "2274bc483e651497"],
    "3 None": ["04be1fcff82773fe", "e418f96690f47b1d", "d1191d2c002498af"],
    "4 None": ["cc7ccc3c3d99fa59", "440ac26d0d817e1b", "518366187529e3a2"],
    "7 None": ["9689206d81bba196", "920cc6a21edcacd2", "efc59d8430aa0bc0"],
    "2 {'kiwi': 4, 'ninox': 4, 'tuatura': 4}": ["3710d564d91baa52", "b2308814b1cef5f7", "9679c180ef7b15b9"],
    "5 {'kiwi': 2, 'ninox': 3, 'tuatura': 1, 'open_slot_block': True}": [
        "3296f5180ff348f7",
        "f8b71c389f1be517",
        "31879490c361335f",
    ],
    "4 {'teams': True}": ["c196438194422a26", "339a8da771586d79", "f1e2daea42681fb3"],
    "6 {'teams': True, 'kiwi': 4, 'ninox': 4, 'tuatura': 4, 'open_slot_block': True, 'ties': 'nines'}": [
        "cd201ebdddbd5d55",
        "bb15245239ba06d3",
        "4f38ad32b9b30f26",
    ],
}


@pytest.mark.parametrize(("players", "options"), TABLES)
def test_seeded_games_play_as_before_the_speed_up(players: int, options: dict[str, Any] | None) -> None:
    got = [
        playout_digest(play_random_game, players, options, range(25)),
        playout_digest(play_random_actions, players, options, range(100, 110)),
        checked_digest(players, options, 5),
    ]
    assert got == FROZEN[f"{players} {options}"]


if __name__ == "__main__":
    print(json.dumps(all_digests(), indent=4))
