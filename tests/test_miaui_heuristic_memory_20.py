"""Issue 20, item 7: what a seat remembers is made faster, never different.

``remembered_piles`` lets a quiet card join a pile directly, ``remembered_dives`` takes the
reveals' columns, and the heuristic keeps the unseen pool by the cards a seat has seen (the
seats of a round share it).  Over random games of every seat count and option set, at every
point and for every seat, they still give what the plain rebuild gives: every caught card
through ``add_to_pile``, every reveal seat by seat, and the pool counted afresh
(``ref_remember``, the frozen heuristic memory of test_miaui_speed_20).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

import pytest
from test_miaui_speed_20 import OPTION_SETS, ref_remember

from kiti.games.miaui import heuristic as H
from kiti.games.miaui.rules import (
    MiauiState,
    add_to_pile,
    catch_needs_order,
    remembered_dives,
    remembered_piles,
)


def plain_piles(events: Iterable[Mapping[str, Any]], players: int, taker_chooses: bool) -> list[list[str]]:
    """The piles rebuilt card by card through the rules' ``add_to_pile`` (as before)."""
    piles: list[list[str]] = [[] for _ in range(players)]
    for e in events:
        if e["type"] == "catch" and not catch_needs_order(e["cards"], taker_chooses):
            for card in e["cards"]:
                add_to_pile(piles[e["seat"]], card)
        elif e["type"] == "take":
            add_to_pile(piles[e["seat"]], e["card"])
    return piles


def plain_dives(events: Iterable[Mapping[str, Any]], players: int) -> list[list[int]]:
    """Each seat's divers played, reveal by reveal (as before)."""
    played: list[list[int]] = [[] for _ in range(players)]
    for e in events:
        if e["type"] == "reveal":
            for seat, dive in enumerate(e["dives"]):
                played[seat].append(dive)
    return played


@pytest.mark.parametrize("players", [3, 4, 6])
@pytest.mark.parametrize("options", OPTION_SETS, ids=["plain", "no_fighting", "all_rulings"])
def test_remembered_piles_and_pools_are_the_plain_rebuild(players: int, options: dict[str, Any]) -> None:
    taker = bool(options.get("taker_chooses_order"))
    checked = 0
    for seed in range(4):
        state, rng = MiauiState.new(players, options, 300 + seed), random.Random(seed)
        while not state.over:
            for seat in range(players):
                events = state.events(seat)
                assert remembered_piles(events, players, taker) == plain_piles(events, players, taker)
                assert remembered_dives(events, players) == plain_dives(events, players)
                view = state.view(seat)
                mem, ref = H.remember(view, events), ref_remember(view, events)
                assert (mem.piles, mem.hands, mem.unseen) == (ref["piles"], ref["hands"], ref["unseen"])
                assert mem.jelly_unseen == ref["jelly"]
                checked += 1
            seat = min(state.to_act())
            state.apply(seat, state.random_move(seat, rng))
    assert checked >= 4 * 10 * players
