"""Issue 16, MOTU item 4: the island model takes a Beach cell on a card's edge to leave the card
there. A beach that runs along an edge would then be refused against any card beside it, so the
card validator refuses such a card, naming it, the cells and the edge; beaches that meet an edge
end-on (every shipped card) stay valid. Also: the validator quotes bad values short."""

from __future__ import annotations

from typing import Any

import pytest

from kiti.games.motu import cards as C
from kiti.games.motu.cards import CardDataError, along_edge, make_card, validate
from kiti.games.motu.island import new_island, placement_problem

ALONG_LEFT = ["LLL", "BLL", "BLL", "LLL"]
ALONG_RIGHT_AND_IN = ["LLL", "BBB", "LLB", "LLL"]
END_ON = ["LLL", "BBB", "LLL", "LLL"]


def with_rows(rows: list[str]) -> dict[str, Any]:
    raw = C.raw_data()
    validate(raw)  # premise: the copy is fine before it is changed
    card = next(c for c in raw["cards"]["islands"] if c["id"] == "I01")
    card["rows"] = rows
    return raw


@pytest.mark.parametrize(
    ("rows", "words"),
    [
        (ALONG_LEFT, ["I01", "[0, 1] and [0, 2]", "left edge", "end-on"]),
        (ALONG_RIGHT_AND_IN, ["I01", "[2, 1] and [2, 2]", "right edge"]),
    ],
)
def test_a_beach_along_an_edge_is_refused_with_a_clear_error(rows: list[str], words: list[str]) -> None:
    with pytest.raises(CardDataError) as caught:
        validate(with_rows(rows))
    for word in words:
        assert word in str(caught.value), str(caught.value)


def test_why_it_is_refused_the_model_would_refuse_it_beside_land() -> None:
    """Laid without the validator, a card whose beach runs along its left edge cannot go where
    the same card with Land there could: the model takes both beach cells to leave the card
    leftwards, into the Land beside them."""
    symbols = {(1, 0): "bird", (1, 3): "fish"}
    along, land = make_card("X1", ALONG_LEFT, symbols), make_card("X2", ["LLL"] * 4, symbols)
    island = new_island("V5")
    assert all(c.terrain == "L" for c in island.cells.values()), "premise: an all-Land village"
    refused = [
        (x, y)
        for x in range(-4, 4)
        for y in range(-4, 5)
        if placement_problem(island, land, 0, x, y) is None
        and "beach" in (placement_problem(island, along, 0, x, y) or "")
    ]
    assert refused, "the along-edge beach is refused beside Land where a Land card fits"


def test_a_beach_that_meets_the_edges_end_on_is_valid() -> None:
    validate(with_rows(END_ON))
    assert along_edge(END_ON) is None
    assert all(along_edge(c.rows) is None for c in C.CARDS.values()), "every shipped card is end-on"
    assert along_edge(ALONG_LEFT) == ((0, 1), (0, 2), (-1, 0))


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (
            lambda r: r["cards"]["islands"][2].update(symbols=[{"at": ["a", 0], "symbol": "bird"}]),
            ["I03", "not a cell"],
        ),
        (
            lambda r: r["cards"]["islands"][2].update(symbols=[{"at": [0, 0], "symbol": ["bird"] * 100}]),
            ["I03", "unknown symbol kind", "..."],
        ),
        (lambda r: r["travelers"]["travelers"][3].update(per=["x"] * 100), ["T4", "'per'", "..."]),
        (lambda r: r["destinies"]["destinies"][0].update(price="9" * 500), ["D01", "price", "..."]),
    ],
)
def test_the_validator_quotes_bad_values_short_and_never_crashes(change: Any, words: list[str]) -> None:
    raw = C.raw_data()
    change(raw)
    with pytest.raises(CardDataError) as caught:
        validate(raw)
    message = str(caught.value)
    assert len(message) < 300, message
    for word in words:
        assert word in message, message
