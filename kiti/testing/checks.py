"""The promises every game keeps, one public check each: ``check(case)`` plays the case's
game and raises AssertionError naming what broke (:class:`~kiti.testing.cases.Case`).

Records and notation round-trip; copies are independent and share nothing mutable;
``resample`` changes only what a seat cannot see (its sight, and every spectator's, stay
identical); bad input is refused with a typed error and changes nothing (generator
included); the turn rule holds; every seat to act has a legal move; random games end within
the declared maximum; the action codec agrees with the moves; undo restores the exact
state; the game's own invariants hold after every move.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from ..core.errors import (
    GameOverError,
    IllegalMoveError,
    KitiError,
    NotationError,
    NotYourTurnError,
    SetupError,
)
from ..core.events import REFEREE
from ..core.game import State
from ..core.moves import Move
from ..core.records import dump_record, parse_record, replay
from ..core.registry import get_game
from ..core.turns import play_random_actions, play_random_game
from .cases import Case
from .support import checkpoints, raises, random_playout, seat_sight, shared_mutables, snapshot


def _lookup(case: Case) -> Callable[[str], type[State]]:
    """Find games by id for a replay (the case's class even if it is not registered)."""
    return lambda game: case.cls if game == case.game else get_game(game)


# ------------------------------------------------------------------ a whole checked game
def random_game_keeps_every_promise(case: Case) -> None:
    """A random game ends within its limit; after every move: invariants, the turn rule,
    notation, the codec and the legal moves agree; someone wins and returns add up."""
    state = case.new(101)
    codec = state.codec()
    steps = [0]

    def each(s: State, seat: int, move: Move, before: frozenset[int]) -> None:
        steps[0] += 1
        s.check_invariants()
        # The one turn rule: in a simultaneous choice a commit removes exactly that seat.
        if len(before) > 1 and s.to_act():
            assert s.to_act() == before - {seat} or not (before - {seat}), (before, seat, s.to_act())
        again = s.parse_move(str(move))
        assert move == again and hash(move) == hash(again), f"{move} does not read back from its notation"
        if not s.over:
            _legal_moves_agree(s, codec, steps[0])

    random_playout(state, random.Random(7), each)
    assert state.over and not state.truncated, "a random game must end within the move limit"
    assert len(state.history) <= state.limit
    result = state.result()
    assert result.winners, "somebody wins (or shares) every game"
    assert (
        abs(
            sum(state.returns())
            - sum(len(result.parties[i].seats) for i in result.winners) / len(result.winners)
        )
        < 1e-9
    ), "the returns do not add up to the winners' share"


def _legal_moves_agree(s: State, codec: Any, step: int) -> None:
    for actor in s.to_act():
        legal = s.legal_moves(actor)
        assert legal, f"seat {actor} is to act with no legal move"
        assert s.legal_actions(actor) == sorted(codec.encode(m) for m in legal), "legal actions differ"
        for m in legal:
            assert codec.decode(codec.encode(m)) == m, f"the codec does not round-trip {m}"
            assert s.parse_move(str(m)) == m and s.illegal_reason(actor, m) is None, f"{m} is refused"
        assert s.illegal_reason(actor, s.random_move(actor, random.Random(step))) is None, (
            "random_move chose a refused move"
        )
    for idle in set(range(s.players)) - s.to_act():
        assert s.legal_moves(idle) == [], f"seat {idle} is not to act but has legal moves"


def records_replay_to_the_identical_state(case: Case) -> None:
    """A record (through its file form), whole or half, replays to the identical state, and
    is a fresh copy."""
    state = random_playout(case.new(202), random.Random(3))
    record = state.record()
    again = replay(parse_record(dump_record(record).encode()), _lookup(case))
    assert snapshot(again) == snapshot(state), "the replayed record differs"
    half = dict(record, moves=record["moves"][: len(record["moves"]) // 2])
    assert snapshot(replay(half, _lookup(case))) == snapshot(
        replay(json.loads(json.dumps(half)), _lookup(case))
    ), "half a record replays differently through JSON"
    # The record is a fresh copy: changing it changes nothing in the game.
    record["moves"].clear()
    record["options"].clear()
    assert state.record()["moves"] and state.record()["options"] == dict(state.options), (
        "changing a record changed the game"
    )


def integer_fast_path_plays_the_same_game(case: Case) -> None:
    """Actions through ``step`` play the same game as Moves; the Move fast path ends too."""
    a = play_random_actions(case.new(303), random.Random(5))
    assert a.over
    b = case.new(303)
    for seat, move in a.history:
        b.step(seat, a.codec().encode(move))
    assert snapshot(a) == snapshot(b), "the same actions stepped again give another game"
    c = play_random_game(case.new(303), random.Random(5))
    assert c.over and not c.truncated, "a random game must end within the move limit"


def whole_simultaneous_choice_plays_the_same_game(case: Case) -> None:
    """``apply_all`` (what ``play_random_game`` uses) equals applying seat by seat; checked,
    it takes every seat of the choice, each move legal, or changes nothing at all."""
    a = play_random_game(case.new(313), random.Random(6))
    b = case.new(313)
    codec = b.codec()
    rng = random.Random(6)
    joint = 0
    while not b.over:
        acting = sorted(b.to_act())
        joint += len(acting) > 1
        for seat in acting:
            b.step(seat, codec.encode(b.random_move(seat, rng)))
    assert snapshot(a) == snapshot(b), "a whole choice at once plays another game than seat by seat"
    state = case.new(313)
    for seat, move in a.history:
        acting = sorted(state.to_act())
        if len(acting) > 1:
            break
        state.apply(seat, move)
    else:
        assert not joint, "the game had a simultaneous choice"
        return
    _refused_choices(state, acting)


def _refused_choices(state: State, acting: list[int]) -> None:
    before = snapshot(state)
    moves = {s: state.legal_moves(s)[0] for s in acting}
    with raises(IllegalMoveError, "a choice missing a seat", match=f"no move for seat {acting[-1]}"):
        state.apply_all({s: m for s, m in moves.items() if s != acting[-1]})
    idle = set(range(state.players)) - set(acting)
    if idle:
        with raises(NotYourTurnError, "a choice with a seat not to act"):
            state.apply_all({**moves, min(idle): moves[acting[0]]})
    with raises(KitiError, "a choice holding junk"):
        state.apply_all({**moves, acting[-1]: "xyzzy 3"})  # type: ignore[dict-item]
    assert snapshot(state) == before, "a refused choice changed the state"
    state.apply_all(moves)
    assert state.history[-len(acting) :] == sorted(moves.items()), "the choice was not applied in seat order"


# ------------------------------------------------------------------ copies and hidden information
def copies_are_independent_and_resamples_hide_nothing(case: Case) -> None:
    """A clone shares nothing mutable and playing it changes nothing in the original; a
    resample (a seat's guess at what it cannot see) changes nothing that seat or a spectator
    sees, and cannot be recorded."""
    rng = random.Random(11)
    differed = False
    for state in checkpoints(lambda: case.new(404), 404 + case.seed, 4):
        clone = state.clone()
        assert not shared_mutables(state, clone), f"a clone shares {shared_mutables(state, clone)[:3]}"
        assert snapshot(clone) == snapshot(state), "a clone differs from its original"
        before = snapshot(state)
        random_playout(clone, random.Random(rng.random()))
        assert snapshot(state) == before, "playing a clone changed the original"
        for seat in range(state.players):
            guess = state.resample(seat, random.Random(rng.random()))
            assert not shared_mutables(state, guess), f"a resample shares {shared_mutables(state, guess)[:3]}"
            assert seat_sight(guess, seat) == seat_sight(state, seat), f"seat {seat} sees the resample"
            assert seat_sight(guess, None) == seat_sight(state, None), "a spectator sees the resample"
            differed |= guess.observation(REFEREE) != state.observation(REFEREE)
            with raises(SetupError, "recording a resample"):
                guess.record()
    assert differed, "no resample ever changed a hidden card: the premise of this check failed"


# ------------------------------------------------------------------ bad input
_BAD_SEATS: tuple[Any, ...] = (-1, "0", True, None, 1.0)
_BAD_TEXTS: tuple[Any, ...] = ("", "   ", "xyzzy 3", "\x00", "9" * 5000, "dive", 42)


def bad_input_is_refused_and_changes_nothing(case: Case) -> None:
    """Bad seats, seats not to act, junk notation, illegal moves and non-moves are refused
    with a typed error and change nothing (the generator included); so is a move after the end."""
    state = case.new(505)
    rng = random.Random(13)
    for _ in range(12):
        if state.over:
            break
        before = snapshot(state)
        _refuse_bad_input(state, rng)
        assert snapshot(state) == before, "a refused move changed the state"
        for _ in range(rng.randrange(1, 12)):  # on to another position
            if not state.over:
                actor = rng.choice(sorted(state.to_act()))
                state.apply(actor, state.random_move(actor, rng))
    random_playout(state, rng)
    before = snapshot(state)
    first = state.codec().moves[0]
    with raises(GameOverError, "a move after the end"):
        state.apply(0, first)
    assert state.illegal_reason(0, first), "no reason is given for a move after the end"
    assert snapshot(state) == before, "a refused move changed the state"


def _refuse_bad_input(state: State, rng: random.Random) -> None:
    codec = state.codec()
    seat = min(state.to_act())
    good = state.legal_moves(seat)[0]
    for bad_seat in (*_BAD_SEATS, state.players):
        with raises(IllegalMoveError, f"a move by seat {bad_seat!r}"):
            state.apply(bad_seat, good)
        assert state.illegal_reason(bad_seat, good), f"no reason is given for seat {bad_seat!r}"
    for idle in set(range(state.players)) - state.to_act():
        with raises(NotYourTurnError, f"a move by seat {idle}, not to act"):
            state.apply(idle, good)
    for text in _BAD_TEXTS:
        with raises((NotationError, IllegalMoveError), f"applying {text!r:.20}"):
            state.apply(seat, text)
        with raises((NotationError, IllegalMoveError), f"playing {text!r:.20}"):
            state.play(seat, text)
    tries = [codec.moves[rng.randrange(codec.size)] for _ in range(40)]
    for m in [m for m in tries if state.illegal_reason(seat, m) is not None][:5]:
        with raises(IllegalMoveError, f"the illegal move {m}"):
            state.apply(seat, m)
        with raises(KitiError, f"the illegal move {m} in notation"):
            state.play(seat, str(m))
    junks: tuple[Any, ...] = (object(), 3, None)
    for junk in junks:
        with raises(IllegalMoveError, f"the non-move {junk!r}"):
            state.apply(seat, junk)


# ------------------------------------------------------------------ events and undo
def event_cursors_and_information_states(case: Case) -> None:
    """Every viewer's event count and ``since`` cursor agree with its events; a seat's
    information state is exactly its events and its observation."""
    for state in checkpoints(lambda: case.new(606), 606 + case.seed, 4):
        for v in [*range(state.players), None, REFEREE]:
            everything = state.events(v)
            assert state.event_count(v) == len(everything), f"event_count({v}) is wrong"
            k = len(everything) // 2
            assert state.events(v, since=k) == everything[k:], f"events({v}, since={k}) is wrong"
        for s in (*range(state.players), None):
            assert state.information_state(s) == {
                "seat": s,
                "events": state.events(s),
                "now": state.observation(s),
            }, f"the information state of {s} is not its events and observation"


def undo_restores_the_exact_state(case: Case) -> None:
    """Whatever the game lets be taken back restores the exact state before (generator
    included); only the seat that moved last may undo, and never after the end."""
    undo_walk(case)


def undo_walk(case: Case) -> int:
    """:func:`undo_restores_the_exact_state`, returning how many moves it took back."""
    state = case.new(606)
    rng = random.Random(17)
    undone = 0
    while not state.over:
        seat = rng.choice(sorted(state.to_act()))
        before = None if len(state.history) % 5 else snapshot(state)
        move = state.random_move(seat, rng)
        state.apply(seat, move)
        if state.undo_refusal(seat) is None:
            before = before or _snapshot_before(case, state)
            assert state.undo(seat) == move, "undo took back another move"
            assert snapshot(state) == before, "undo did not restore the exact state"
            undone += 1
            state.apply(seat, move)
        for other in set(range(state.players)) - {seat}:
            assert state.undo_refusal(other), "only the seat that made the last move may undo"
    assert state.undo_refusal(state.history[-1][0]), "no take-back after the end"
    return undone


def _snapshot_before(case: Case, state: State) -> str:
    record = state.record()
    record["moves"] = record["moves"][:-1]
    return snapshot(replay(record, _lookup(case)))


def move_steps_rebuild_the_legal_moves(case: Case) -> None:
    """Following ``move_steps`` token by token finds exactly the legal moves."""
    state = case.new(707)
    rng = random.Random(19)
    for _ in range(12):
        if state.over:
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
            assert found == set(state.legal_moves(seat)), "the steps do not give the legal moves"
        state.apply(seat, state.random_move(seat, rng))
