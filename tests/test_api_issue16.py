"""Issue 16, the API: a malformed Move is refused with IllegalMoveError (never a TypeError or
a crash deep in a rule) and changes nothing; errors quote a bad value at a readable length;
undo refusals are said in plain words.

The malformed moves are made from every Move class each registered game declares
(``info.move_types``), from legal moves met in random games (so they reach the game's own
rules), field by field, from each field's declared type: a new game is covered as it is.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import random
import types
import typing
from typing import Any

import pytest

from kiti.core.errors import IllegalMoveError, KitiError, OptionError, SetupError
from kiti.core.events import REFEREE
from kiti.core.game import State
from kiti.core.options import parse_option_args
from kiti.games import game_ids, get_game

HUGE = 10**4000  # a 4,001-digit integer
MB = "x" * 1_000_000
LONGEST = 300  # the longest message a refusal may be (a quoted value is about 80 characters)
KEEP_AT = {1, 7, 60, 500}  # which sightings of a move class keep their position for the test


# ------------------------------------------------------------------ bad values per declared type
def odd_values(kind: Any) -> list[Any]:
    """Values of the declared type that are no move's: huge, negative, empty, unknown."""
    if kind is int:
        return [HUGE, -HUGE, 2**64, 10**6, -(10**6)]
    if kind is str:
        return [MB, "", "zz", "\x00"]
    if kind is float:
        return [math.inf, -1e308]
    if kind is bool:
        return []
    args = typing.get_args(kind)
    if _is_union(kind):
        return [v for a in args if a is not type(None) for v in odd_values(a)]
    if typing.get_origin(kind) is tuple and len(args) == 2 and args[1] is Ellipsis:
        return [(), *[(v,) for v in odd_values(args[0])], tuple(odd_values(args[0])[-1:]) * 100_000]
    raise AssertionError(f"teach this test the annotation {kind!r}")


def wrong_values(kind: Any) -> list[Any]:
    """Values that are not of the declared type at all."""
    out: list[Any] = [[1], {"a": 1}, b"x", frozenset()]
    if not (_is_union(kind) and type(None) in typing.get_args(kind)):
        out.append(None)
    base = [a for a in typing.get_args(kind) if a is not type(None)] if _is_union(kind) else [kind]
    if int not in base and float not in base:
        out += [7, HUGE, 1.5]
    if int in base:
        out += [True, "3", 1.5]
    if str not in base:
        out += ["3", MB]
    if typing.get_origin(base[0]) is tuple:
        out += [list(odd_values(base[0])[1]), (None,), (MB,)]
    return out


def _is_union(kind: Any) -> bool:
    return typing.get_origin(kind) in (typing.Union, types.UnionType)


# ------------------------------------------------------------------ positions where moves are legal
def configurations(cls: type[State]) -> list[dict[str, Any]]:
    """Default options, each other value alone, and every pair (Miaui's ``take`` needs two)."""
    singles = [(o.name, v) for o in cls.info.options for v in o.samples() if v != o.default]
    pairs = [dict([a, b]) for a, b in itertools.combinations(singles, 2) if a[0] != b[0]]
    return [{}, *[dict([a]) for a in singles], *pairs]


def positions(cls: type[State]) -> tuple[dict[type, list[tuple[State, int, Any]]], list[tuple[State, dict]]]:
    """Per Move class, a few (state, seat, legal move) from random games with every seat count
    and configuration; and a few simultaneous choices (state, {seat: legal move})."""
    found: dict[type, list[tuple[State, int, Any]]] = {}
    seen: dict[type, int] = {}
    choices: list[tuple[State, dict]] = []
    for players in range(cls.info.min_seats, cls.info.max_seats + 1):
        for options in configurations(cls):
            try:
                state = cls.new(players, options, seed=players)
            except KitiError:
                continue  # a combination the game refuses
            rng = random.Random(players)
            while not state.over:
                acting = sorted(state.to_act())
                for seat in acting:
                    moves = (
                        [state.random_move(seat, rng) for _ in range(3)]
                        if state.many_moves(seat)
                        else state.legal_moves(seat)
                    )
                    for move in moves:
                        seen[type(move)] = seen.get(type(move), 0) + 1
                        if seen[type(move)] in KEEP_AT:
                            found.setdefault(type(move), []).append((state.clone(), seat, move))
                if len(acting) > 1 and len(choices) < 6 and rng.random() < 0.1:
                    choices.append((state.clone(), {s: state.random_move(s, rng) for s in acting}))
                seat = acting[0]
                state.step(seat, state.codec().index[state.random_move(seat, rng)])
    return found, choices


def fingerprint(state: State) -> Any:
    return (
        len(state.history),
        len(state.log),
        state.log[-1:],
        state._rng.getstate(),
        state.to_act(),
        state.over,
        state._chance_at,
        state._undo_mark,
    )


def variants(move: Any) -> list[tuple[str, Any, bool, Any]]:
    """(field, value, whether the value is of a wrong type, the malformed move) for every
    field of ``move`` and every bad value of its declared type."""
    hints = typing.get_type_hints(type(move))
    out = []
    for f in dataclasses.fields(move):
        for wrong, values in ((False, odd_values(hints[f.name])), (True, wrong_values(hints[f.name]))):
            out.extend((f.name, v, wrong, dataclasses.replace(move, **{f.name: v})) for v in values)
    return out


def assert_refused(state: State, seat: int, move: Any, field: str, wrong: bool) -> None:
    before = fingerprint(state)
    with pytest.raises(IllegalMoveError) as info:
        state.apply(seat, move)
    assert type(info.value) is IllegalMoveError, info.value  # the seat is to act: a bad move
    message = str(info.value)
    assert len(message) <= LONGEST, (type(move).__name__, field, message[:200], len(message))
    if wrong:
        assert field in message and "must be" in message, message
    assert fingerprint(state) == before, f"refusing {type(move).__name__}.{field} changed the state"
    assert state.illegal_reason(seat, move) == info.value.reason


CACHE: dict[str, Any] = {}


def game_positions(game: str) -> Any:
    if game not in CACHE:
        CACHE[game] = positions(get_game(game))
    return CACHE[game]


# ------------------------------------------------------------------ the tests
@pytest.mark.parametrize("game", game_ids())
def test_every_move_class_is_met_legal_in_random_games(game: str) -> None:
    """The premise of the next tests: each declared Move class is reached where it is legal,
    so its malformed copies meet the game's own rules, not only the declared check."""
    found, _choices = game_positions(game)
    assert set(found) == set(get_game(game).info.move_types)
    assert all(dataclasses.is_dataclass(cls) for cls in found)


@pytest.mark.parametrize("game", game_ids())
def test_malformed_moves_are_refused_as_illegal_and_change_nothing(game: str) -> None:
    found, _ = game_positions(game)
    for places in found.values():
        for state, seat, move in places:
            table = json.dumps(state.observation(REFEREE), sort_keys=True, default=str)
            for field, _value, wrong, bad in variants(move):
                assert_refused(state, seat, bad, field, wrong)
            assert json.dumps(state.observation(REFEREE), sort_keys=True, default=str) == table
            state.apply(seat, move)  # the legal move is still taken afterwards


@pytest.mark.parametrize("game", game_ids())
def test_malformed_moves_in_a_whole_simultaneous_choice(game: str) -> None:
    _, choices = game_positions(game)
    if not choices:
        pytest.skip(f"{game} has no simultaneous choices")
    for state, moves in choices:
        before = fingerprint(state)
        seat = max(moves)
        for field, _value, wrong, bad in variants(moves[seat])[::3]:
            with pytest.raises(IllegalMoveError) as info:
                state.apply_all({**moves, seat: bad})
            assert len(str(info.value)) <= LONGEST and (not wrong or field in str(info.value))
            assert fingerprint(state) == before
        for odd in (
            {**moves, "x": moves[seat]},
            {**moves, None: moves[seat]},
            list(moves.values()),
            {**moves, HUGE: moves[seat]},
        ):
            with pytest.raises(IllegalMoveError) as info:
                state.apply_all(odd)  # type: ignore[arg-type]
            assert len(str(info.value)) <= LONGEST
            assert fingerprint(state) == before
        state.apply_all(moves)  # the good choice is still taken


def test_the_issue_examples() -> None:
    from kiti.games.mauw.rules import Place, Word

    state = get_game("mauw").new(2, seed=1)
    for move, words in (
        (Word(None), "Word's word must be text"),  # type: ignore[arg-type]
        (Place(None), "Place's slot must be an integer, not None"),  # type: ignore[arg-type]
        (Place("B"), "Place's slot must be an integer, not 'B'"),
    ):  # type: ignore[arg-type]
        before = fingerprint(state)
        with pytest.raises(IllegalMoveError, match=words):
            state.apply(0, move)
        assert fingerprint(state) == before


def test_a_refusal_quotes_a_huge_field_briefly() -> None:
    from kiti.games.mauw.rules import Word

    state = get_game("mauw").new(2, seed=1)
    with pytest.raises(IllegalMoveError) as info:
        state.apply(0, Word(MB))
    assert "at most 200 characters" in str(info.value) and "..." in str(info.value)
    assert len(str(info.value)) <= LONGEST


@pytest.mark.parametrize(
    "call",
    [
        lambda: get_game("miaui").new(MB),  # type: ignore[arg-type]
        lambda: get_game("miaui").new(3, seed=MB),  # type: ignore[arg-type]
        lambda: get_game("miaui").new(3).codec().decode(HUGE),
        lambda: get_game("miaui").new(3).codec().decode(-(10**3000)),
        lambda: get_game("miaui").new(3).codec().encode(get_game("miaui").parse_move("dive 3").__class__(MB)),  # type: ignore[call-arg]
        lambda: get_game("miaui").new(3).apply(0, [MB]),  # type: ignore[arg-type]
        lambda: get_game("miaui").new(3).play(0, [MB]),  # type: ignore[arg-type]
        lambda: get_game("miaui").new(3).play(0, MB),
        lambda: parse_option_args([MB]),
        lambda: parse_option_args(["=" + MB]),
    ],
)
def test_api_errors_quote_bad_values_briefly(call: Any) -> None:
    with pytest.raises((IllegalMoveError, SetupError, OptionError, KitiError)) as info:
        call()
    assert len(str(info.value)) <= LONGEST, str(info.value)[:200]


def test_an_option_bound_is_written_in_full() -> None:
    from kiti.bots.registry import BotSpecError, make_bot

    with pytest.raises(BotSpecError) as info:
        make_bot("ismcts:iters=100000000000", get_game("miaui"))
    assert "iters must be at most 100000, not 100000000000" in str(info.value)


# ------------------------------------------------------------------ undo in plain words
def undo_refusals(game: str, players: int, seed: int) -> list[str]:
    """Every undo refusal met in a random game played through the checked apply."""
    state = get_game(game).new(players, seed=seed)
    rng = random.Random(seed)
    out = []
    while not state.over:
        seat = min(state.to_act())
        state.apply(seat, state.random_move(seat, rng))
        out.extend(r for s in range(players) if (r := state.undo_refusal(s)) is not None)
    return out


@pytest.mark.parametrize(
    ("game", "players"), [("miaui", 3), ("mauw", 2), ("mauw", 4), ("motu", 1), ("motu", 3)]
)
def test_undo_refusals_name_no_event_kind(game: str, players: int) -> None:
    refusals = undo_refusals(game, players, seed=players)
    shown = [r for r in refusals if "has already been shown to" in r]
    assert shown, "the premise: some move's result was shown to others"
    for refusal in set(refusals):
        assert "event" not in refusal and "(the " not in refusal, refusal


def test_undo_refusal_says_who_saw_what_the_move_led_to() -> None:
    state = get_game("mauw").new(2, seed=1)
    move = state.legal_moves(0)[0]
    state.apply(0, move)
    assert state.undo_refusal(0) == f"what {move} led to has already been shown to another player"


def test_undo_refusal_in_a_solo_game_names_the_spectators() -> None:
    refusals = undo_refusals("motu", 1, seed=1)
    assert any(r.endswith("has already been shown to the spectators") for r in refusals)
    assert not any("another player" in r for r in refusals)  # there is none


@pytest.mark.parametrize("game", game_ids())
def test_an_overlong_move_text_is_refused_in_one_whole_sentence(game: str) -> None:
    from kiti.core.game import MAX_NOTATION

    cls = get_game(game)
    state = cls.new(cls.info.min_seats, None, 3)
    seat = sorted(state.to_act())[0]
    before = state.observation(REFEREE)
    with pytest.raises(KitiError) as refused:
        state.play(seat, "dive " + "9" * 5000)
    message = str(refused.value)
    assert message.endswith(f"no move is longer than {MAX_NOTATION}"), message
    assert len(message) < 120 and state.observation(REFEREE) == before
