"""MOTU's typed view carries the rule facts front ends show (issue 18), each the rules' own:
what a row card costs, what a solo take pays to or wins from the Beach Hut, the discard price,
the rounds, how many Sources an interim scores, the ruler's bands, where the card in hand may go
and the step each button picks. Each test checks the fact against what the rules then do,
and that the words and the terminal show the view's value (a doctored view shows the doctored
value: nothing is worked out again there). The solo game is a variant of named hooks."""

from __future__ import annotations

import inspect
import io
from dataclasses import replace

import pytest
from motu_helpers import first_placement, game, play_until
from rich.console import Console

from kiti.core.events import REFEREE
from kiti.games.motu import rules as R
from kiti.games.motu import words as W
from kiti.games.motu.sources import ruler_points
from kiti.games.motu.terminal import render_view
from kiti.games.motu.view import MotuView


def tokens(s: R.MotuState, seat: int, *prefix: str) -> set[str]:
    return {st.token for st in s.move_steps(seat, prefix)}


def step_move(s: R.MotuState, seat: int, *path: str) -> object:
    """The move the steps ``path`` make for ``seat`` (each token must be offered)."""
    *prefix, last = path
    (step,) = [st for st in s.move_steps(seat, tuple(prefix)) if st.token == last]
    assert step.move is not None, path
    return step.move


def solo(**kwargs: object) -> R.MotuState:
    return game(1, **kwargs)  # type: ignore[arg-type]


def drawn(view: MotuView) -> str:
    console = Console(width=80, file=io.StringIO(), color_system=None)
    console.print(render_view(view))
    return console.file.getvalue()  # type: ignore[attr-defined]


# ------------------------------------------------------------------ the row's take costs
def test_each_row_card_costs_what_taking_it_pays() -> None:
    for position in range(4):
        s = game(3, seed=position)
        card = s.observation(0)["row"][position]
        bank = s.banks[0]
        s.apply(0, step_move(s, 0, card["step"]))
        assert s.holding == card["card"]
        assert bank - s.banks[0] == card["cost"] - card["coconuts"], position


def test_the_take_costs_are_the_views_in_words() -> None:
    view = game(3).view(0)
    assert "costs 0 1 2 3 coconuts" in W.asked(view)
    row = view.row
    view = replace(view, row=(*row[:2], replace(row[2], cost=7), *row[3:]))
    assert "costs 0 1 7 3 coconuts" in W.asked(view)


# ------------------------------------------------------------------ the Beach Hut
def test_a_solo_take_changes_the_bank_as_the_view_says() -> None:
    for side in ("left", "right"):
        s = solo(piles={"A": ["I01", "I02", "I03", "I04"]})
        offer = next(o for o in s.observation(0)["solo_table"]["offers"] if o["side"] == side)
        bank, hut = s.banks[0], s.hut
        s.apply(0, step_move(s, 0, offer["step"]))
        assert (s.banks[0] - bank, hut - s.hut) == (offer["change"], offer["change"]), side
    assert [o["change"] for o in solo().observation(0)["solo_table"]["offers"]] == [-1, 1]


def test_an_empty_beach_hut_pays_nothing_and_the_words_say_so() -> None:
    s = solo(piles={"A": ["I01", "I02"]})
    s.supply, s.hut = s.supply + s.hut, 0
    view = s.view(0)
    table = view.solo_table
    assert table is not None
    assert [o.change for o in table.offers] == [-1, 0]
    assert "left (pay 1 to the Beach Hut) or right (gain nothing)" in W.asked(view)
    assert "right I02 (gain nothing)" in drawn(view)
    offers = (table.offers[0], replace(table.offers[1], change=2))
    view = replace(view, solo_table=replace(table, offers=offers))
    assert "right I02 (gain 2)" in drawn(view) and "or right (gain 2)" in W.asked(view)


def test_the_discard_price_is_what_discarding_costs() -> None:
    s = solo(piles={"A": ["I01", "I02", "I03", "I04"]})
    s.play(0, "take right")
    s.play(0, first_placement(s))
    view = s.view(0)
    table = view.solo_table
    assert table is not None
    price = table.discard_price
    bank = s.banks[0]
    s.play(0, "discard")
    assert bank - s.banks[0] == price
    view = replace(view, solo_table=replace(table, discard_price=5))
    assert "discard (pay 5)" in W.asked(view)


# ------------------------------------------------------------------ rounds and interims
@pytest.mark.parametrize(
    ("players", "options", "rounds"), [(3, {}, 9), (1, {}, 18), (1, {"solo_piles": "short"}, 9)]
)
def test_the_rounds_are_the_cards_each_seat_places(players: int, options: dict, rounds: int) -> None:  # type: ignore[type-arg]
    s = R.MotuState.new(players, options, 4)
    assert s.observation(0)["rounds"] == rounds
    placed_most = play_until(s, lambda t: t.over, seed=4)
    assert max(len(isl.placements) - 1 for isl in placed_most.islands) <= rounds
    assert s.observation(None)["rounds"] == rounds


def test_the_terminal_header_shows_the_views_rounds() -> None:
    view = game(3).view(0)
    assert "round 1/9" in drawn(view)
    view = replace(view, rounds=12)
    assert "round 1/12" in drawn(view)


def test_the_picks_are_how_many_sources_an_interim_scores() -> None:
    s = play_until(game(2), lambda t: t.phase == "interim")
    for pile in range(2):
        view = s.view(0)
        assert view.pile == R.PILES[pile]
        assert {len(m.sources) for m in s.legal_moves(0)} == {view.picks}  # type: ignore[attr-defined]
        for seat in (0, 1):
            choices = s.observation(seat)["choices"]
            assert {step_move(s, seat, c["step"]) for c in choices} == set(s.legal_moves(seat))
            assert all(step_move(s, seat, c["step"]) == R.Score(tuple(c["sources"])) for c in choices)
        assert s.observation(None)["choices"] == [] and s.observation(REFEREE)["choices"] == []
        assert f"score {view.picks} Source(s)" in W.asked(view)
        view = replace(view, picks=5)
        assert "score 5 Source(s)" in W.asked(view)
        for seat in (0, 1):
            s.apply(seat, s.legal_moves(seat)[0])
        if pile == 0:
            play_until(s, lambda t: t.phase == "interim")


# ------------------------------------------------------------------ the ruler, placements, moves
def test_the_ruler_bands_are_the_ones_the_volcanoes_score_by() -> None:
    bands = game(2).observation(0)["ruler"]
    assert bands and [b["up_to"] for b in bands] == sorted(b["up_to"] for b in bands)
    for band in bands:
        assert ruler_points(band["up_to"]) == band["points"]
    assert ruler_points(bands[-1]["up_to"] + 0.01) == 0


def test_the_spots_are_the_legal_placements_and_name_their_steps() -> None:
    s = game(2)
    s.play(0, "take 1")
    for viewer in (0, 1, None, REFEREE):
        placing = (s.observation(REFEREE) if viewer == REFEREE else s.observation(viewer))["placing"]
        assert placing["seat"] == 0 and placing["card"] == s.holding and "notation" not in placing
        assert [r["step"] for r in placing["rotations"]] == [st.token for st in s.move_steps(0)]
        stepped = [
            (r["rotation"], p["x"], p["y"], step_move(s, 0, r["step"], p["step"]))
            for r in placing["rotations"]
            for p in r["spots"]
        ]
        assert all(move == R.Place(r, x, y) for r, x, y, move in stepped)
        assert {move for *_, move in stepped} == set(s.legal_moves(0))
    s.play(0, first_placement(s))
    assert s.observation(0)["placing"] is None


def test_the_steps_a_view_names_are_the_legal_moves() -> None:
    s = game(3, destinies=["D01", "D02", "D03", "D04"])
    view = s.observation(0)
    assert {step_move(s, 0, c["step"]) for c in view["row"]} == set(s.legal_moves(0))
    assert [step_move(s, 0, c["step"]) for c in view["row"]] == [R.Take(i) for i in range(4)]
    play_until(s, lambda t: t.phase == "extras" and any(isinstance(m, R.Buy) for m in t.legal_moves(t.turn)))
    steps = s.observation(s.turn)["destinies"]["steps"]
    assert set(steps) == set(s.table_destinies)
    bought = {d: step_move(s, s.turn, token) for d, token in steps.items() if token in tokens(s, s.turn)}
    assert bought and all(move == R.Buy(d) for d, move in bought.items())
    assert set(bought.values()) == {m for m in s.legal_moves(s.turn) if isinstance(m, R.Buy)}


# ------------------------------------------------------------------ the solo variant
def test_the_solo_game_is_a_variant_of_named_hooks() -> None:
    assert isinstance(solo().variant, R.Solo) and type(game(2).variant) is R.Table
    assert issubclass(R.Solo, R.Table)
    source = inspect.getsource(R.MotuState)
    assert "if self.solo" not in source and "self.solo else" not in source
    assert R.variant_for(1).option_applies("difficulty") and not R.variant_for(3).option_applies("difficulty")
