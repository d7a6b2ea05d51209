"""Mauw's AEC env kept tables (issue 19 item 10) change no value, at every table: the
:class:`~kiti.games.mauw.tensors.Mirror` brought up to date state after state (game after
game, then jumping between any states) gives every seat the observation made from scratch
and, per seat, the plays that the columns allow as the rules' own bits say; the turn's mask
written from it (and from a mirror left behind, which write_legal must not trust), and the
masks looked up by ``legal_key`` outside a turn, hold the rules' legal actions."""

from __future__ import annotations

import random
from typing import Any, cast

import pytest

np = pytest.importorskip("numpy", reason="kiti.rl needs numpy (pip install -e '.[rl]')")
pytest.importorskip("pettingzoo", reason="the PettingZoo env needs pettingzoo")

import kiti  # noqa: E402
from kiti.games.mauw.rules import _COLUMN_MASKS, SLOTS, _turn_play_actions  # noqa: E402
from kiti.games.mauw.tensors import MauwEncoder  # noqa: E402
from kiti.rl.spaces import Actions  # noqa: E402
from kiti.rl.tensors import encoder_for  # noqa: E402

TABLES = [
    (2, {}),
    (3, {"kiwi": 4, "ninox": 4, "tuatura": 4}),
    (4, {}),
    (4, {"teams": True, "kiwi": 4, "ninox": 4, "open_slot_block": True}),
    (5, {"ninox": 4, "ties": "nines"}),
    (6, {"kiwi": 4}),
    (6, {"teams": True, "ninox": 4, "tuatura": 4}),
]


def _order(game: kiti.Game, games: int, seed: int) -> list[Any]:
    """Every state of random games, game by game (6 seats in teams: two seatings in turn),
    then 200 states drawn among them (an env jumping between states)."""
    rng = random.Random(seed)
    seatings: tuple[Any, ...] = (None,)
    if game.players == 6 and game.options["teams"]:
        seatings = (None, {"teams": [0, 1, 0, 2, 1, 2]})
    order = []
    for g in range(games):
        state = game.rules.new(game.players, game.options, seed * 1000 + g, seatings[g % len(seatings)])
        order.append(state.clone())
        while not state.over:
            seat = min(state.acting)
            state.step(seat, rng.choice(state.legal_actions(seat)))
            order.append(state.clone())
    return order + [rng.choice(order) for _ in range(200)]


def _rules_mask(actions: Actions, state: Any, seat: int) -> bytes:
    want = np.zeros(actions.size, np.int8)
    want[list(actions.legal(state, seat))] = 1
    return bytes(want.tobytes())


def _column_plays(state: Any, seat: int, size: int, pass_action: int) -> bytes:
    """The plays that every column allows ``seat`` whatever its hand (the rules' column
    bits, a teammate's columns none), and the pass, as a mask."""
    theirs, mine = _COLUMN_MASKS[state.options["open_slot_block"]]
    n = state.players
    areas = [s for s in range(n) if s == seat or state.is_opponent(seat, s)]
    masks = [
        (mine if s == seat else theirs)[state.tops[s][slot]][not state.nines[s][slot]]
        for s in areas
        for slot in range(len(SLOTS))
    ]
    want = np.zeros(size, np.int8)
    want[_turn_play_actions(n, areas, masks)] = 1
    want[pass_action] = 1
    return bytes(want.tobytes())


@pytest.mark.parametrize(("players", "options"), TABLES)
def test_the_mirror_gives_every_seat_its_observation_and_plays(players: int, options: dict[str, Any]) -> None:
    game = kiti.load("mauw", players=players, **options)
    encoder = cast(MauwEncoder, encoder_for(game))
    mirror = encoder.mirror()
    for state in _order(game, 6, players):
        shared = mirror.update(state)
        for seat in range(players):
            got = encoder._new(state, seat, shared).tobytes()
            assert got == encoder.observation(state, seat).tobytes(), (seat, len(state.history))
            plays = mirror.plays[seat].tobytes()
            assert plays == _column_plays(state, seat, encoder._mask_size, encoder._pass), seat


@pytest.mark.parametrize(("players", "options"), TABLES)
def test_masks_from_the_mirror_and_by_key_hold_the_rules_legal_actions(
    players: int, options: dict[str, Any]
) -> None:
    game = kiti.load("mauw", players=players, **options)
    encoder = cast(MauwEncoder, encoder_for(game))
    actions = Actions(game, encoder.legal_actions, encoder.write_legal, encoder.legal_key)
    mirror = encoder.mirror()
    order = _order(game, 6, players + 10)
    behind = order[0]
    turns = 0
    for state in order:
        for seat in sorted(state.acting):
            want = _rules_mask(actions, state, seat)
            mirror.update(state)  # the mirror holds this state: its plays are read
            assert actions.legal_mask(state, seat)[1].tobytes() == want, (seat, len(state.history))
            mirror.update(behind)  # a mirror left behind: never trusted unless it holds the board
            assert actions.legal_mask(state, seat)[1].tobytes() == want, (seat, len(state.history))
            turns += state.phase == "turn"
        behind = state
    assert turns > 100  # the premise: turns were asked


def test_a_mirror_of_other_teams_is_not_trusted() -> None:
    """Turns of 6 seats in teams, asked after the mirror took the same state with other
    teammates (so other columns closed to the seat to act): the same board, other plays."""
    game = kiti.load("mauw", players=6, teams=True)
    encoder = cast(MauwEncoder, encoder_for(game))
    actions = Actions(game, encoder.legal_actions, encoder.write_legal, encoder.legal_key)
    mirror = encoder.mirror()
    rng = random.Random(6)
    differ = 0
    for state in _order(game, 4, 40):
        if state.phase != "turn" or state.over:
            continue
        other = state.clone()
        other.team_of = [0, 1, 0, 2, 1, 2] if state.team_of != [0, 1, 0, 2, 1, 2] else [0, 1, 2, 0, 1, 2]
        (seat,) = state.acting
        differ += set(state.legal_actions(seat)) != set(other.legal_actions(seat))
        for asked, behind in ((state, other), (other, state)):
            mirror.update(behind if rng.random() < 0.9 else asked)
            assert actions.legal_mask(asked, seat)[1].tobytes() == _rules_mask(actions, asked, seat)
    assert differ > 20  # the premise: the teams decide plays


@pytest.mark.parametrize(("players", "options"), TABLES)
def test_a_legal_key_decides_the_legal_actions(players: int, options: dict[str, Any]) -> None:
    game = kiti.load("mauw", players=players, **options)
    encoder = cast(MauwEncoder, encoder_for(game))
    decided: dict[Any, frozenset[int]] = {}
    for state in _order(game, 8, players + 20):
        for seat in range(players):
            key = encoder.legal_key(state, seat)
            if state.phase == "turn" or seat not in state.acting:
                assert key is None
                continue
            legal = frozenset(state.legal_actions(seat))
            assert decided.setdefault(key, legal) == legal, key
    assert len(decided) > 10  # the premise: attacks and gains were met


def test_a_mirror_brought_up_to_date_in_another_thread_is_not_read() -> None:
    """write_legal reads the turn's plays from the mirror this thread last brought up to
    date: an env stepped in another thread (the encoder is shared) cannot change which."""
    import threading

    game = kiti.load("mauw", players=4)
    encoder = cast(MauwEncoder, encoder_for(game))
    turns = [s for s in _order(game, 3, 4) if s.phase == "turn" and not s.over]
    mine, theirs = turns[5], next(s for s in turns[6:] if s.tops != turns[5].tops)
    seat = min(mine.acting)
    encoder.mirror().update(mine)
    other = threading.Thread(target=lambda: encoder.mirror().update(theirs))
    other.start()
    other.join()

    def refuse(*_args: Any) -> None:
        raise AssertionError("this thread's own mirror holds the board: no column-by-column writing")

    encoder._write_plays = refuse  # type: ignore[method-assign]
    try:
        actions = Actions(game, None, encoder.write_legal)
        out = np.zeros(actions.size, np.int8)
        encoder.write_legal(mine, seat, out.data.cast("B"))
        assert bytes(out.tobytes()) == _rules_mask(actions, mine, seat)
    finally:
        del encoder._write_plays
