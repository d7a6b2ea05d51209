"""The conformance suite: every registered game, every seat count, every option combination.

A game gets all of this by registering, and cannot be added without passing it:
records and notation round-trip; copies are independent and share nothing mutable;
``resample`` changes only what a seat cannot see (its sight, and every spectator's, stay
identical); bad input is refused with a typed error and changes nothing (generator
included); the turn rule holds; every seat to act has a legal move; random games end within
the declared maximum; the action codec agrees with the moves; undo restores the exact
state; the game's own invariants hold after every move.
"""

from __future__ import annotations

import json
import random

import pytest
from conformance_kit import (
    case_id,
    cases,
    random_playout,
    seat_sight,
    shared_mutables,
    snapshot,
)

from kiti.core.errors import (
    GameOverError,
    IllegalMoveError,
    KitiError,
    NotationError,
    NotYourTurnError,
    SetupError,
)
from kiti.core.events import REFEREE
from kiti.core.records import dump_record, parse_record, replay
from kiti.core.registry import game_ids, get_game
from kiti.core.turns import play_random_actions, play_random_game

CASES = cases()
PARAMS = pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])


def new(case, seed):  # type: ignore[no-untyped-def]
    game, players, options = case
    return get_game(game).new(players, options, seed)


def test_every_game_has_cases() -> None:
    for game in game_ids():
        cls = get_game(game)
        for players in range(cls.info.min_seats, cls.info.max_seats + 1):
            assert any(c[0] == game and c[1] == players for c in CASES), (game, players)


# ------------------------------------------------------------------ a whole checked game
@PARAMS
def test_random_game_keeps_every_promise(case) -> None:  # type: ignore[no-untyped-def]
    state = new(case, 101)
    rng = random.Random(7)
    codec = state.codec()
    steps = [0]

    def each(s, seat, move, before):  # type: ignore[no-untyped-def]
        steps[0] += 1
        s.check_invariants()
        # The one turn rule: in a simultaneous choice a commit removes exactly that seat.
        if len(before) > 1 and s.to_act():
            assert s.to_act() == before - {seat} or not (before - {seat}), (before, seat, s.to_act())
        assert move == s.parse_move(str(move)) and hash(move) == hash(s.parse_move(str(move)))
        if s.is_over():
            return
        for actor in s.to_act():
            legal = s.legal_moves(actor)
            assert legal, f"seat {actor} is to act with no legal move"
            assert s.legal_actions(actor) == sorted(codec.encode(m) for m in legal)
            for m in legal:
                assert codec.decode(codec.encode(m)) == m
                assert s.parse_move(str(m)) == m and s.illegal_reason(actor, m) is None
            assert s.is_legal(actor, s.random_move(actor, random.Random(steps[0])))
        for idle in set(range(s.players)) - s.to_act():
            assert s.legal_moves(idle) == []

    random_playout(state, rng, each)
    assert state.is_over() and not state.truncated, "a random game must end within the move limit"
    assert len(state.history) <= state.limit
    result = state.result()
    assert result.winners, "somebody wins (or shares) every game"
    assert abs(sum(state.returns()) - sum(len(result.parties[i].seats) for i in result.winners)
               / len(result.winners)) < 1e-9


@PARAMS
def test_records_replay_to_the_identical_state(case) -> None:  # type: ignore[no-untyped-def]
    state = random_playout(new(case, 202), random.Random(3))
    record = state.record()
    again = replay(parse_record(dump_record(record).encode()), get_game)
    assert snapshot(again) == snapshot(state)
    # Half way through, too.
    half = dict(record, moves=record["moves"][: len(record["moves"]) // 2])
    assert snapshot(replay(half, get_game)) == snapshot(replay(json.loads(json.dumps(half)), get_game))
    # The record is a fresh copy: changing it changes nothing in the game.
    record["moves"].clear()
    record["options"].clear()
    assert state.record()["moves"] and state.record()["options"] == dict(state.options)


@PARAMS
def test_integer_fast_path_plays_the_same_game(case) -> None:  # type: ignore[no-untyped-def]
    a = play_random_actions(new(case, 303), random.Random(5))
    assert a.is_over()
    b = new(case, 303)
    for seat, move in a.history:
        b.step(seat, a.codec().encode(move))
    assert snapshot(a) == snapshot(b)
    c = play_random_game(new(case, 303), random.Random(5))
    assert c.is_over() and not c.truncated


@PARAMS
def test_a_whole_simultaneous_choice_at_once_plays_the_same_game(case) -> None:  # type: ignore[no-untyped-def]
    """``apply_all`` (what ``play_random_game`` uses) equals applying seat by seat."""
    a = play_random_game(new(case, 313), random.Random(6))
    b = new(case, 313)
    rng = random.Random(6)
    joint = 0
    while not b.is_over():
        acting = sorted(b.to_act())
        joint += len(acting) > 1
        for seat in acting:
            b.apply(seat, b.random_move(seat, rng), False)
    assert snapshot(a) == snapshot(b)
    # Checked: every seat of the choice, each move legal, or nothing changes at all.
    state = new(case, 313)
    for seat, move in a.history:
        acting = sorted(state.to_act())
        if len(acting) > 1:
            break
        state.apply(seat, move)
    else:
        assert not joint, "the game had a simultaneous choice"
        return
    before = snapshot(state)
    moves = {s: state.legal_moves(s)[0] for s in acting}
    with pytest.raises(IllegalMoveError, match=f"no move for seat {acting[-1]}"):
        state.apply_all({s: m for s, m in moves.items() if s != acting[-1]})
    idle = set(range(state.players)) - set(acting)
    if idle:
        with pytest.raises(NotYourTurnError):
            state.apply_all({**moves, min(idle): moves[acting[0]]})
    with pytest.raises(KitiError):
        state.apply_all({**moves, acting[-1]: "xyzzy 3"})
    assert snapshot(state) == before, "a refused choice changed the state"
    state.apply_all({s: str(m) for s, m in moves.items()})
    assert state.history[-len(acting):] == sorted(moves.items())


# ------------------------------------------------------------------ copies and hidden information
def checkpoints(case, seed, count=6):  # type: ignore[no-untyped-def]
    """States along one random game: ``count`` points spread over it, the end included."""
    length = len(random_playout(new(case, seed), random.Random(seed)).history)
    marks = sorted({length * k // count for k in range(count)})
    state = new(case, seed)
    rng = random.Random(seed)
    done = 0
    for mark in marks:
        while done < mark:
            seat = rng.choice(sorted(state.to_act()))
            state.apply(seat, state.random_move(seat, rng))
            done += 1
        yield state


@PARAMS
def test_copies_are_independent_and_resamples_hide_nothing(case) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(11)
    differed = False
    for state in checkpoints(case, 404, 4):
        # A clone shares nothing mutable, and playing it changes nothing in the original.
        clone = state.clone()
        assert not shared_mutables(state, clone)
        assert snapshot(clone) == snapshot(state)
        before = snapshot(state)
        random_playout(clone, random.Random(rng.random()))
        assert snapshot(state) == before
        for seat in range(state.players):
            guess = state.resample(seat, random.Random(rng.random()))
            assert not shared_mutables(state, guess)
            assert seat_sight(guess, seat) == seat_sight(state, seat), f"seat {seat} sees the resample"
            assert seat_sight(guess, None) == seat_sight(state, None), "a spectator sees the resample"
            differed |= guess.table() != state.table()
            with pytest.raises(SetupError):
                guess.record()
    assert differed, "no resample ever changed a hidden card: the premise of this test failed"


# ------------------------------------------------------------------ bad input
@PARAMS
def test_bad_input_is_refused_and_changes_nothing(case) -> None:  # type: ignore[no-untyped-def]
    state = new(case, 505)
    rng = random.Random(13)
    codec = state.codec()
    for _ in range(12):
        if state.is_over():
            break
        before = snapshot(state)
        acting = sorted(state.to_act())
        seat = acting[0]
        good = state.legal_moves(seat)[0]
        for bad_seat in (-1, state.players, "0", True, None, 1.0):
            with pytest.raises(IllegalMoveError):
                state.apply(bad_seat, good)  # type: ignore[arg-type]
            assert state.illegal_reason(bad_seat, good)  # type: ignore[arg-type]
        for idle in set(range(state.players)) - state.to_act():
            with pytest.raises(NotYourTurnError):
                state.apply(idle, good)
        for text in ("", "   ", "xyzzy 3", "\x00", "9" * 5000, "dive", 42):
            with pytest.raises((NotationError, IllegalMoveError)):
                state.apply(seat, text)  # type: ignore[arg-type]
        tries = [codec.moves[rng.randrange(codec.size)] for _ in range(40)]
        illegal = [m for m in tries if state.illegal_reason(seat, m) is not None][:5]
        for m in illegal:
            with pytest.raises(IllegalMoveError):
                state.apply(seat, m)
            with pytest.raises(KitiError):
                state.apply(seat, str(m))
        for junk in (object(), 3, None):
            with pytest.raises(IllegalMoveError):
                state.apply(seat, junk)  # type: ignore[arg-type]
        assert snapshot(state) == before, "a refused move changed the state"
        for _ in range(rng.randrange(1, 12)):  # on to another position
            if not state.is_over():
                actor = rng.choice(sorted(state.to_act()))
                state.apply(actor, state.random_move(actor, rng))
    random_playout(state, rng)
    before = snapshot(state)
    with pytest.raises(GameOverError):
        state.apply(0, codec.moves[0])
    assert state.illegal_reason(0, codec.moves[0])
    assert snapshot(state) == before


# ------------------------------------------------------------------ events and undo
@PARAMS
def test_event_cursors(case) -> None:  # type: ignore[no-untyped-def]
    for state in checkpoints(case, 606, 4):
        for v in [*range(state.players), None, REFEREE]:
            everything = state.events(v)
            assert state.event_count(v) == len(everything)
            k = len(everything) // 2
            assert state.events(v, since=k) == everything[k:]
        for v in (*range(state.players), None):
            assert state.information_state(v) == {"seat": v, "events": state.events(v),
                                                   "now": state.observation(v)}


@PARAMS
def test_undo_restores_the_exact_state(case) -> None:  # type: ignore[no-untyped-def]
    state = new(case, 606)
    rng = random.Random(17)
    undone = 0
    while not state.is_over():
        seat = rng.choice(sorted(state.to_act()))
        before = None if len(state.history) % 5 else snapshot(state)
        move = state.random_move(seat, rng)
        state.apply(seat, move)
        if state.undo_refusal(seat) is None:
            before = before or _snapshot_before(state)
            assert state.undo(seat) == move
            assert snapshot(state) == before, "undo did not restore the exact state"
            undone += 1
            state.apply(seat, move)
        for other in set(range(state.players)) - {seat}:
            assert state.undo_refusal(other), "only the seat that made the last move may undo"
    assert state.undo_refusal(state.history[-1][0]), "no take-back after the end"
    assert undone or state.info.id not in ("miaui",), "Miaui's secret dives can be taken back"


def _snapshot_before(state):  # type: ignore[no-untyped-def]
    record = state.record()
    record["moves"] = record["moves"][:-1]
    return snapshot(replay(record, get_game))


@PARAMS
def test_move_steps_rebuild_the_legal_moves(case) -> None:  # type: ignore[no-untyped-def]
    state = new(case, 707)
    rng = random.Random(19)
    for _ in range(12):
        if state.is_over():
            break
        seat = min(state.to_act())
        if not state.many_moves(seat):
            found = set()
            frontier: list[tuple[str, ...]] = [()]
            while frontier:
                prefix = frontier.pop()
                for step in state.move_steps(seat, prefix):
                    if step.move is not None:
                        found.add(step.move)
                    if step.count > (step.move is not None):
                        frontier.append((*prefix, step.token))
            assert found == set(state.legal_moves(seat))
        state.apply(seat, state.random_move(seat, rng))
