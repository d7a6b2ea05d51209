"""The conformance suite, for any game: ``check_game("mauw")`` checks that a game keeps
every promise the engine, the bots and the front ends rely on (``docs/testing.md``).

>>> from kiti.testing import check_game
>>> report = check_game("miaui", players=3)          # doctest: +SKIP
>>> report.cases, report.checks_run                   # doctest: +SKIP

A *case* is a game, a seat count, its options and a seed (:class:`Case`).  Options are
covered pairwise by default (every value and every pair of values of two options, plus the
game's ``GameInfo.notable_options``); ``options="full"`` checks every combination instead.
Each check is also a public function of :mod:`kiti.testing.checks`,
:mod:`kiti.testing.fronts` or :mod:`kiti.testing.tensors`, taking one case
(:data:`CASE_CHECKS`) or one game class (:data:`GAME_CHECKS`), so a test runner can name
each (tests/conformance does).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..core.game import State
from . import checks, fronts, tensors
from .cases import MODES, Case, cases, game_class, option_combinations, pairwise
from .support import Skipped

CaseCheck = Callable[[Case], None]
GameCheck = Callable[[type[State]], None]

#: Every check of one case, in the order check_game runs them.
CASE_CHECKS: tuple[CaseCheck, ...] = (
    checks.random_game_keeps_every_promise,
    checks.records_replay_to_the_identical_state,
    checks.integer_fast_path_plays_the_same_game,
    checks.whole_simultaneous_choice_plays_the_same_game,
    checks.copies_are_independent_and_resamples_hide_nothing,
    checks.bad_input_is_refused_and_changes_nothing,
    checks.event_cursors_and_information_states,
    checks.undo_restores_the_exact_state,
    checks.move_steps_rebuild_the_legal_moves,
    fronts.views_and_events_match_the_schema,
    fronts.front_ends_restate_no_rule,
    *tensors.TENSOR_CHECKS,  # skipped for a game without a tensors part, or without numpy
)
#: Every check of a game as a whole.
GAME_CHECKS: tuple[GameCheck, ...] = (fronts.declares_view_and_events, fronts.words_import_no_rich)


@dataclass
class Report:
    """What :func:`check_game` did: cases, checks passed, and the checks skipped (why)."""

    game: str
    cases: int = 0
    checks_run: int = 0
    skipped: list[str] = field(default_factory=list)


def check_game(
    game: str | type[State],
    players: int | Iterable[int] | None = None,
    options: str | Iterable[Mapping[str, Any]] = "pairwise",
    seeds: Iterable[int] = (0,),
    checks: Iterable[CaseCheck | GameCheck] | None = None,
) -> Report:
    """Check ``game`` (a registered id, or a State subclass) against the conformance suite.

    ``players``: a seat count or several (None: every one the game allows); ``options``:
    ``"pairwise"``, ``"full"`` or the option mappings to check; ``seeds``: offsets added to
    every seed a check uses (0 is the suite's own); ``checks``: a selection of
    :data:`CASE_CHECKS` and :data:`GAME_CHECKS` (None: all).  Raises AssertionError naming
    the case and the check at the first failure (the original error chained); a check that
    does not apply (e.g. the schema check of a game without a typed view) is skipped and
    listed in the report.
    """
    cls = game_class(game)
    chosen = list(CASE_CHECKS + GAME_CHECKS if checks is None else checks)
    report = Report(cls.info.id)
    for game_check in [c for c in chosen if c in GAME_CHECKS]:
        _run(report, game_check, cls, cls.info.id)
    case_checks = [c for c in chosen if c not in GAME_CHECKS]
    for case in cases(cls, players, options, seeds):
        report.cases += 1
        for case_check in case_checks:
            _run(report, case_check, case, case.id)
    return report


def _run(report: Report, check: Callable[[Any], None], subject: Any, name: str) -> None:
    title = f"{name}: {getattr(check, '__name__', check)}"
    try:
        check(subject)
    except Skipped as why:
        report.skipped.append(f"{title} ({why})")
        return
    except Exception as exc:  # a crash inside the game is a failure of this case too
        raise AssertionError(f"{title} failed: {type(exc).__name__}: {exc}") from exc
    report.checks_run += 1


__all__ = [
    "CASE_CHECKS",
    "GAME_CHECKS",
    "MODES",
    "Case",
    "CaseCheck",
    "GameCheck",
    "Report",
    "Skipped",
    "cases",
    "check_game",
    "checks",
    "fronts",
    "option_combinations",
    "pairwise",
    "tensors",
]
