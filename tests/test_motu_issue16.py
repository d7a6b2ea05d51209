"""Issue 16 for MOTU: a malformed Move object (a field of the wrong type, a huge number) is
refused with IllegalMoveError in every phase, never a TypeError, and changes nothing; every bad
value an error quotes is cut short (``kiti.core.errors.quoted``). The move classes' annotations
say what their fields hold."""

from __future__ import annotations

import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from motu_helpers import G, assert_rejected, game, play_until

from kiti.core.errors import IllegalMoveError, NotationError, SetupError
from kiti.games.motu import rules
from kiti.games.motu.rules import Buy, MotuState, Place, Score, SoloTake, Take, Word

HUGE = 10**4000
MALFORMED: list[Any] = [
    Take(None),
    Take(HUGE),
    Take(-1),
    Take("1"),
    Take(True),
    Take(4),  # type: ignore[arg-type]
    SoloTake(3),
    SoloTake(None),
    SoloTake(["left"]),
    SoloTake("middle"),  # type: ignore[arg-type]
    Place(None, 0, 0),
    Place(0.0, 0, 0),
    Place(45, 0, 0),
    Place(0, None, 0),  # type: ignore[arg-type]
    Place(0, "1", 0),
    Place(90, HUGE, 0),
    Place(90, 0, -HUGE),
    Place(True, 0, 0),  # type: ignore[arg-type]
    Buy(5),
    Buy(None),
    Buy(["D01"]),
    Buy("D99"),  # type: ignore[arg-type]
    Score(None),
    Score("totem"),
    Score(["totem"]),
    Score((["totem"],)),
    Score(("totem", 5)),  # type: ignore[arg-type]
    Score(("totem", "fisherman")),
    Score(("totem", "totem")),
    Score(()),
    Word(5),
    Word(None),
    Word(["done"]),
    Word("dance"),  # type: ignore[arg-type]
]


def phases() -> Iterator[tuple[str, MotuState]]:
    s = game(3, seed=1, travelers=["T1", "T2", "T3"], destinies=["D01", "D02", "D03", "D06"])
    yield "take", s
    s = s.clone()  # type: ignore[assignment]
    s.play(0, "take 1")
    yield "place", s
    s = s.clone()  # type: ignore[assignment]
    s.apply(0, s.legal_moves(0)[0])
    yield "extras", s
    yield "interim", play_until(game(3, seed=2), lambda g: g.phase == "interim")
    solo = game(1, seed=1)
    yield "solo take", solo
    solo = solo.clone()  # type: ignore[assignment]
    solo.play(0, "take right")
    yield "solo place", solo
    solo = solo.clone()  # type: ignore[assignment]
    solo.apply(0, solo.legal_moves(0)[0])
    assert solo.phase == "other"
    yield "solo other", solo


@pytest.mark.parametrize(("phase", "state"), list(phases()), ids=[p for p, _ in phases()])
def test_a_malformed_move_is_refused_in_every_phase(phase: str, state: MotuState) -> None:
    assert state.phase in phase.replace("solo ", "")
    seat = min(state.to_act())
    for move in MALFORMED:
        error = assert_rejected(state, seat, move, error=IllegalMoveError)
        assert len(str(error)) < 300, str(error)
    assert state.illegal_reason(seat, Place(90, HUGE, 0)) is not None


def test_the_reasons_name_the_field_and_quote_it_short() -> None:
    """MOTU's own check (the core may refuse a wrongly typed field before it asks the game)."""
    assert "row position" in str(rules.move_fields_problem(Take(HUGE)))
    assert "about 4,001 digits" in str(rules.move_fields_problem(Take(HUGE)))
    assert "row position" in str(rules.move_fields_problem(Take(True)))
    assert "one-word move" in str(rules.move_fields_problem(Word(5)))  # type: ignore[arg-type]
    long = str(rules.move_fields_problem(Buy(["D01"] * 100)))  # type: ignore[arg-type]
    assert "a Destiny" in long and "..." in long and len(long) < 200
    assert "rotation" in str(rules.move_fields_problem(Place(0.0, 0, 0)))  # type: ignore[arg-type]
    assert rules.move_fields_problem(Place(90, HUGE, 0)) is None, "any whole x: out_of_reach bounds it"
    s = game(2, seed=1)
    s.play(0, "take 1")
    assert_rejected(s, 0, Place(90, HUGE, 0), "covers no symbol", "about 4,001 digits")
    assert_rejected(s, 0, Place(90, 0, -HUGE), "covers no symbol")
    assert_rejected(s, 0, "place 0 40 40", "covers no symbol")


def test_a_take_object_equal_by_value_but_not_an_int_is_refused() -> None:
    s = game(2, seed=1)
    assert Take(True) == Take(1), "premise: a dataclass compares True equal to 1"
    assert_rejected(s, 0, Take(True), error=IllegalMoveError)


def test_move_fields_are_annotated_with_their_types() -> None:
    hints = {cls: typing.get_type_hints(cls) for cls in (Take, SoloTake, Place, Buy, Score, Word)}
    assert hints[Take] == {"position": int}
    assert hints[SoloTake] == {"side": str}
    assert hints[Place] == {"rotation": int, "x": int, "y": int}
    assert hints[Buy] == {"destiny": str}
    assert hints[Score] == {"sources": tuple[str, ...]}
    assert hints[Word] == {"word": str}


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("take " + "9" * 150, NotationError),
        ("place 90 " + "1" * 150 + " 0", NotationError),
        ("buy " + "D" * 150, NotationError),
        ("dance " + "x" * 150, NotationError),
    ],
)
def test_notation_errors_quote_the_text_short(text: str, error: type[Exception]) -> None:
    with pytest.raises(error) as info:
        MotuState.parse_move(text)
    assert len(str(info.value)) < 300 and "..." in str(info.value), str(info.value)


def test_setup_errors_quote_short_and_never_crash() -> None:
    with pytest.raises(SetupError) as info:
        G.new(2, None, 1, {"first": HUGE})
    assert "about 4,001 digits" in str(info.value)
    with pytest.raises(SetupError) as info:
        G.new(2, None, 1, {"deck": ["I" + "9" * 200]})
    assert len(str(info.value)) < 200 and "..." in str(info.value)


def test_no_private_shortener_is_left() -> None:
    source = Path(rules.__file__).read_text(encoding="utf-8")
    assert "!r}" not in source and ")[:12]" not in source
