"""The conformance suite (:mod:`kiti.testing.checks`) for every registered game: one test
per check and case (game, seat count, options; see conformance_kit for the cover).

A game gets all of this by registering, and cannot be added without passing it:
records and notation round-trip; copies are independent and share nothing mutable;
``resample`` changes only what a seat cannot see; bad input is refused with a typed error
and changes nothing; the turn rule holds; every seat to act has a legal move; random games
end within the declared maximum; the action codec agrees with the moves; undo restores the
exact state; the game's own invariants hold after every move.
"""

from __future__ import annotations

from conformance_kit import CASES, PARAMS, run

from kiti.core.registry import game_ids, get_game
from kiti.testing import Case, checks


def test_every_game_has_cases() -> None:
    for game in game_ids():
        cls = get_game(game)
        for players in range(cls.info.min_seats, cls.info.max_seats + 1):
            assert any(c.game == game and c.players == players for c in CASES), (game, players)


@PARAMS
def test_random_game_keeps_every_promise(case: Case) -> None:
    run(checks.random_game_keeps_every_promise, case)


@PARAMS
def test_records_replay_to_the_identical_state(case: Case) -> None:
    run(checks.records_replay_to_the_identical_state, case)


@PARAMS
def test_integer_fast_path_plays_the_same_game(case: Case) -> None:
    run(checks.integer_fast_path_plays_the_same_game, case)


@PARAMS
def test_a_whole_simultaneous_choice_at_once_plays_the_same_game(case: Case) -> None:
    run(checks.whole_simultaneous_choice_plays_the_same_game, case)


@PARAMS
def test_copies_are_independent_and_resamples_hide_nothing(case: Case) -> None:
    run(checks.copies_are_independent_and_resamples_hide_nothing, case)


@PARAMS
def test_bad_input_is_refused_and_changes_nothing(case: Case) -> None:
    run(checks.bad_input_is_refused_and_changes_nothing, case)


@PARAMS
def test_event_cursors(case: Case) -> None:
    run(checks.event_cursors_and_information_states, case)


@PARAMS
def test_undo_restores_the_exact_state(case: Case) -> None:
    undone = checks.undo_walk(case)
    assert undone or case.game != "miaui", "Miaui's secret dives can be taken back"


@PARAMS
def test_move_steps_rebuild_the_legal_moves(case: Case) -> None:
    run(checks.move_steps_rebuild_the_legal_moves, case)
