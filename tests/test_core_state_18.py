"""The State API (issue 18, item 5): one checked entry for a Move (``apply``), one for notation
(``play``), one unchecked fast path (``step``), and copies that take exactly the declared
attributes.  A small game declared here exercises the core alone; the registered games too
where they declare their attributes."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from kiti.core.errors import IllegalMoveError, NotationError, NotYourTurnError
from kiti.core.events import REFEREE, Viewer
from kiti.core.game import GameInfo, State, check_notation
from kiti.core.moves import Move
from kiti.core.records import replay
from kiti.core.registry import game_ids, get_game
from kiti.core.turns import play_random_actions, play_random_game


@dataclass(frozen=True, slots=True)
class Add(Move):
    n: int

    def __str__(self) -> str:
        return f"add {self.n}"


class CountState(State):
    """Seats take turns adding 1 or 2 to a running total; the game ends at 10 or more."""

    info = GameInfo("count18", "Count", 1, 4, "1", event_types={})

    total: int
    turn: int
    added: list[int]  # per seat: what it added (mutable: copied by _copy_parts)

    def _setup(self, options: dict[str, Any], setup: dict[str, Any] | None) -> None:
        self.total, self.turn, self.added = 0, 0, [0] * self.players
        self.acting = frozenset({0})

    @classmethod
    def parse_move(cls, text: str) -> Move:
        word, _, n = check_notation(text).partition(" ")
        if word != "add" or n not in ("1", "2"):
            raise NotationError(f"{text!r}: a move is 'add 1' or 'add 2'")
        return Add(int(n))

    @classmethod
    def all_moves(cls, players: int, options: Mapping[str, Any]) -> list[Move]:
        return [Add(1), Add(2)]

    def legal_moves(self, seat: int) -> list[Move]:
        return [Add(1), Add(2)] if seat in self.acting else []

    def _illegal_reason(self, seat: int, move: Move) -> str | None:
        return None if isinstance(move, Add) and move.n in (1, 2) else "add 1 or 2"

    def _apply(self, seat: int, move: Move) -> None:
        assert isinstance(move, Add)
        self.total += move.n
        self.added[seat] += move.n
        self.turn = (seat + 1) % self.players
        self.over = self.total >= 10
        self.acting = frozenset() if self.over else frozenset({self.turn})

    def scores(self) -> list[float]:
        return [float(a) for a in self.added]

    def _view(self, viewer: Viewer) -> Any:
        return {"viewer": viewer, "total": self.total, "added": list(self.added)}

    def _copy_parts(self, new: State) -> None:
        assert isinstance(new, CountState)
        new.added = self.added.copy()

    def resample(self, seat: int, rng: random.Random) -> State:
        return self._resampled_copy(rng)


def test_play_parses_notation_and_applies_it_checked() -> None:
    state = CountState.new(2, seed=1)
    assert state.play(0, " ADD  2 ") == Add(2) and state.history == [(0, Add(2))]
    before = (state.observation(REFEREE), list(state.history))
    for bad, error in (("add 3", NotationError), (["add 1"], NotationError), ("add 1", None)):
        with pytest.raises(error or NotYourTurnError):
            state.play(0 if error is None else 1, bad)  # type: ignore[arg-type]
    assert (state.observation(REFEREE), list(state.history)) == before, "a refusal changed the state"
    with pytest.raises(IllegalMoveError):
        state.apply(1, Add(5))
    state.apply(1, Add(1))
    assert state.history[-1] == (1, Add(1)) and state.total == 3


def test_step_is_the_same_game_as_apply_on_the_codec_integers() -> None:
    by_step = play_random_actions(CountState.new(3, seed=7), random.Random(3))
    by_apply = CountState.new(3, seed=7)
    codec = by_step.codec()
    for seat, move in by_step.history:
        assert codec.moves[codec.index[move]] == move
        by_apply.apply(seat, move)
    assert by_apply.observation(REFEREE) == by_step.observation(REFEREE) and by_apply.over


def test_clone_and_undo_copy_the_declared_attributes() -> None:
    state = CountState.new(2, seed=3)
    state.play(0, "add 2")
    copy = state.clone()
    names = [n for n in CountState._attributes if n not in ("_rng", "_seen")]  # each has its own
    assert "added" in names and {n: getattr(copy, n) for n in names} == {n: getattr(state, n) for n in names}
    assert copy._rng is not state._rng and copy._rng.getstate() == state._rng.getstate()
    assert copy._seen is not state._seen  # its own index of who saw which event
    copy.play(1, "add 1")  # the copy's moves leave the original alone
    assert (state.total, state.added, len(state.history)) == (2, [2, 0], 1)
    assert (copy.total, copy.added, copy.turn) == (3, [2, 1], 0)
    copy.undo(1)
    assert copy.observation(REFEREE) == state.observation(REFEREE) and copy.turn == state.turn == 1


@pytest.mark.parametrize("game", [*game_ids(), "count18"])
def test_a_game_holds_only_declared_attributes(game: str) -> None:
    """What clone and undo copy is what the class declares: an attribute set anywhere else
    would be shared between copies (or lost by undo)."""
    cls = CountState if game == "count18" else get_game(game)
    state = cls.new(cls.info.min_seats, seed=5)
    seen = set(vars(state))
    for copy in (
        state.clone(),
        play_random_game(state.clone(), random.Random(5)),
        state.resample(0, random.Random(1)),
    ):
        seen |= set(vars(copy))
    assert seen <= set(cls._attributes), f"undeclared: {sorted(seen - set(cls._attributes))}"


def test_the_one_replay_rebuilds_a_record_through_play() -> None:
    state = play_random_game(CountState.new(2, seed=2), random.Random(2))
    record = state.record()
    assert record["moves"] == [[s, str(m)] for s, m in state.history]
    again = replay(record, lambda game_id: CountState)
    assert again.observation(REFEREE) == state.observation(REFEREE) and again.over


@pytest.mark.parametrize("game", [*game_ids(), "count18"])
def test_legal_actions_are_the_codec_numbers_of_the_legal_moves(game: str) -> None:
    """The integer path offers exactly the legal moves (its encoding skips the moves' own
    __hash__/__eq__, so it is checked against the codec's index here)."""
    cls = CountState if game == "count18" else get_game(game)
    state, rng, checked = cls.new(max(2, cls.info.min_seats), seed=11), random.Random(11), 0
    index = state.codec().index
    while not state.over and checked < 150:
        for seat in sorted(state.to_act()):
            assert state.legal_actions(seat) == sorted(index[m] for m in state.legal_moves(seat))
            checked += 1
        seat = min(state.to_act())
        state.step(seat, index[state.random_move(seat, rng)])


@pytest.mark.parametrize("game", [*game_ids(), "count18"])
def test_random_action_is_the_codec_number_of_random_move(game: str) -> None:
    """The integer playout draws what the object playout draws: the same random move, as
    its action (a game's own faster ``random_action`` included), always a legal one."""
    cls = CountState if game == "count18" else get_game(game)
    state = cls.new(max(2, cls.info.min_seats), seed=12)
    index = state.codec().index
    for turn in range(300):
        if state.over:
            break
        seat = min(state.to_act())
        action = state.random_action(seat, random.Random(turn))
        assert action == index[state.random_move(seat, random.Random(turn))]
        assert action in state.legal_actions(seat)
        state.step(seat, action)
