"""kiti.testing itself: its pairwise cover misses no value or pair, and check_game finds a
broken game and names the case and the check."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import pytest

import kiti.games  # noqa: F401  (registers every game)
from kiti.core.contract import json_schema
from kiti.core.game import State
from kiti.core.registry import game_ids, game_part, get_game
from kiti.games.miaui import MiauiState
from kiti.testing import Case, check_game, checks, fronts, option_combinations, pairwise
from kiti.testing.cases import covered


def _pairs(combos: list[dict[str, Any]]) -> set[tuple[Any, ...]]:
    out: set[tuple[Any, ...]] = set()
    for combo in combos:
        items = sorted((k, repr(v)) for k, v in combo.items())
        out |= {(i,) for i in items} | set(itertools.combinations(items, 2))
    return out


@pytest.mark.parametrize("game", game_ids())
def test_pairwise_covers_every_value_and_pair_the_full_product_holds(game: str) -> None:
    cls = get_game(game)
    defaults = {s.name: s.default for s in cls.info.options}
    for players in range(cls.info.min_seats, cls.info.max_seats + 1):
        some = option_combinations(cls, players)
        every = option_combinations(cls, players, "full")
        assert _pairs(every) <= _pairs(some), (players, sorted(_pairs(every) - _pairs(some))[:3])
        assert all(c in every for c in some), "a pairwise case the full product does not hold"
        assert len(some) <= len(every)
        assert some[0] == defaults or defaults not in every, "the defaults come first"
        for notable in cls.info.notable_options:
            wanted = {**defaults, **notable}
            assert wanted in some or wanted not in every, (players, notable)


def test_pairwise_skips_what_no_valid_row_holds() -> None:
    rows = pairwise([2, 3, 2], lambda r: not (r[0] == 1 and r[1] == 2))
    held = {t for r in rows for t in covered(r)}
    wanted = {
        t
        for r in itertools.product(range(2), range(3), range(2))
        if not (r[0] == 1 and r[1] == 2)
        for t in covered(r)
    }
    assert held == wanted and all(not (r[0] == 1 and r[1] == 2) for r in rows)
    assert len(rows) < 2 * 3 * 2
    assert pairwise([], lambda r: True) == [()]
    assert sorted(pairwise([3], lambda r: True)) == [(0,), (1,), (2,)]
    big = pairwise([3] * 12, lambda r: True)  # past the exhaustive size: still every pair
    assert len({t for r in big for t in covered(r) if len(t) == 2}) == 66 * 9 and len(big) < 40


class SharingMiaui(MiauiState):
    """Miaui whose clones share their fish piles with the original."""

    def _copy_parts(self, new: State) -> None:
        super()._copy_parts(new)
        assert isinstance(new, MiauiState)
        new.piles = self.piles


def test_check_game_names_the_case_and_the_check_that_failed() -> None:
    with pytest.raises(
        AssertionError,
        match=r"miaui-3-defaults: copies_are_independent_and_resamples"
        r"_hide_nothing failed: .*a clone shares \['state\.piles",
    ):
        check_game(
            SharingMiaui,
            players=3,
            options=[{}],
            checks=[checks.copies_are_independent_and_resamples_hide_nothing],
        )
    report = check_game(
        MiauiState,
        players=3,
        options=[{}],
        seeds=(0, 1),
        checks=[checks.copies_are_independent_and_resamples_hide_nothing],
    )
    assert (report.cases, report.checks_run, report.skipped) == (2, 2, [])


def test_the_words_check_refuses_terminal_markup(monkeypatch: pytest.MonkeyPatch) -> None:
    cls = get_game("miaui")
    case = Case(cls, 3, {s.name: s.default for s in cls.info.options})
    fronts.front_ends_restate_no_rule(case)
    monkeypatch.setattr(game_part(cls, "words"), "describe_event", lambda *a: "[bold]Ann[/bold] dives")
    with pytest.raises(AssertionError, match="is told as"):
        fronts.front_ends_restate_no_rule(case)


@dataclass(frozen=True)
class _Inner:
    n: int


@dataclass(frozen=True)
class _View:
    inner: _Inner
    loose: Any
    counts: dict[str, int]


def test_undescribed_keys_finds_what_the_schema_leaves_open() -> None:
    schema = json_schema(_View)
    view = {"inner": {"n": 1}, "loose": 3, "counts": {"a": 1}}
    assert fronts.undescribed_keys(view, schema, schema) == []
    view = {"inner": {"n": 1, "extra": 2}, "loose": {"rule": 9}, "counts": {"a": 1}}
    assert fronts.undescribed_keys(view, schema, schema) == ["view.inner.extra", "view.loose.rule"]


class _Stateless:
    __slots__ = ()


class _Plain:
    pass


def test_shared_mutables_spares_only_what_holds_nothing() -> None:
    from kiti.testing.support import shared_mutables

    hooks, plain, raw = _Stateless(), _Plain(), bytearray(b"x")
    a = {"hooks": hooks, "plain": plain, "raw": raw, "own": []}
    b = {"hooks": hooks, "plain": plain, "raw": raw, "own": []}
    assert shared_mutables(a, b) == ["state['plain']", "state['raw']"]
