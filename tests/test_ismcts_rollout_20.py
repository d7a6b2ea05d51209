"""ISMCTS on Miaui made cheaper (issue 20): the search `kiti bench` measures (random
rollouts, every seat's tree, heuristic priors at the roots) and the No Fighting catches a
taker orders, inside the tree and in rollouts, choose move for move and visit for visit as
the frozen reference search (tests/ismcts_reference.py) for the same seed."""

from __future__ import annotations

import random
from typing import Any

import pytest
from ismcts_reference import ReferenceISMCTS

from kiti.bots.ismcts import ISMCTSBot
from kiti.core.game import State
from kiti.core.registry import game_ids, get_game
from kiti.core.seatview import SeatView, seat_view
from kiti.core.turns import turns

ORDERED = {"no_fighting": True, "taker_chooses_order": True}

# (seats, table options, bot parameters, iterations)
CASES = [
    (4, {}, {"rollout": "random"}, 80),
    (4, ORDERED, {"rollout": "random"}, 60),
    (3, {"no_fighting": True}, {"rollout": "random", "reward": "margin", "keys": "own"}, 40),
    (5, {"open_baskets": True}, {"prior": 0.0}, 40),
]


def _positions(players: int, options: dict[str, Any], seed: int) -> list[SeatView]:
    """Decisions of one random Miaui game: its first, every ninth after it, and the first
    catch whose order a taker chooses (where the table has one)."""
    rng = random.Random(seed)
    state = get_game("miaui").new(players, options, seed)
    found: list[SeatView] = []
    ordering = False
    for n, seat in enumerate(turns(state)):
        many = len(state.legal_actions(seat)) > 1
        if many and state.pending and not ordering:  # type: ignore[attr-defined]
            ordering = True
            found.append(seat_view(state, seat))
        elif many and n % 9 == 0 and len(found) < 3:
            found.append(seat_view(state, seat))
        state.step(seat, state.random_action(seat, rng))
    return found


@pytest.mark.parametrize(("players", "options", "params", "iters"), CASES)
def test_miaui_search_matches_the_reference(
    players: int, options: dict[str, Any], params: dict[str, Any], iters: int
) -> None:
    views = _positions(players, options, 11) + _positions(players, options, 12)
    for k, view in enumerate(views):
        new, old = ISMCTSBot(k, iters=iters, **params), ReferenceISMCTS(k, iters=iters, **params)
        assert new.root_statistics(view, iters) == old.root_statistics(view, iters), (players, options, k)
        assert new.choose(view) == old.choose(view), (players, options, k)


def test_the_cases_reach_a_taker_ordering_a_catch() -> None:
    """The No Fighting table really offers a search from a catch to order (Take moves)."""
    views = _positions(4, ORDERED, 11) + _positions(4, ORDERED, 12)
    assert any(str(m).startswith("take") for v in views for m in v.legal_moves)


def test_own_legal_actions_follow_the_legal_moves() -> None:
    """ISMCTS lists a node's moves with the game's own ``legal_actions`` where it has one
    (Miaui): its order must be that of the legal moves (edges are opened, drawn and
    tie-broken in that order), in every position of random games, No Fighting catches
    included."""
    checked = 0
    for game_id in game_ids():
        cls = get_game(game_id)
        if cls.legal_actions is State.legal_actions:
            continue  # listed through its legal moves: nothing to compare
        tables: list[tuple[int, dict[str, Any]]] = [
            (p, {}) for p in range(cls.info.min_seats, cls.info.max_seats + 1)
        ]
        tables += [(p, ORDERED) for p in (3, 4) if game_id == "miaui"]
        for players, options in tables:
            for seed in range(6):
                rng = random.Random(seed)
                state = cls.new(players, options, seed)
                index = state.codec().index
                for seat in turns(state):
                    for s in range(players):
                        assert state.legal_actions(s) == [index[m] for m in state.legal_moves(s)], (
                            game_id,
                            seed,
                        )
                    checked += 1
                    state.step(seat, state.random_action(seat, rng))
    assert checked > 1000  # Miaui's tables at least


def test_motu_rollouts_through_its_interim_choice_match_the_reference(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Random rollouts long enough to reach MOTU's interim (every seat chooses its Sources
    at once, applied as one choice) keep the reference search's statistics and choices."""
    from test_ismcts_speed import _positions as motu_positions

    whole = []
    advance_all = State._advance_all

    def counted(self: State, pairs: list[tuple[int, Any]]) -> None:
        whole.append(len(pairs))
        advance_all(self, pairs)

    monkeypatch.setattr(State, "_advance_all", counted)
    params: dict[str, Any] = {"rollout": "random", "depth": 400}
    for k, view in enumerate(motu_positions("motu", 3)):
        new, old = ISMCTSBot(k, iters=12, **params), ReferenceISMCTS(k, iters=12, **params)
        assert new.root_statistics(view, 12) == old.root_statistics(view, 12), k
        assert new.choose(view) == old.choose(view), k
    assert whole and max(whole) > 1  # the rollouts did apply simultaneous choices at once
