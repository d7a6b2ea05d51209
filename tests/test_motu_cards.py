"""MOTU card data: the files pass the validator, broken copies fail naming the card, and the
designed set gives every Source of harmony something to build on."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from kiti.games.motu import cards as C
from kiti.games.motu.cards import CardDataError, validate


def all_symbols() -> Counter[str]:
    total: Counter[str] = Counter()
    for card in C.iter_islands():
        total += card.symbol_counts()
    return total


# ------------------------------------------------------------------ the data as shipped
def test_the_data_files_pass_the_validator():
    validate()
    validate(C.raw_data())


def test_the_box_holds_what_the_rulebook_lists():
    assert len(C.ISLAND_IDS) == 58 and C.ISLAND_IDS[0] == "I01" and C.ISLAND_IDS[-1] == "I58"
    assert C.VILLAGE_IDS == ("V1", "V2", "V3", "V4", "V5", "V6")
    assert list(C.TRAVELERS) == [f"T{i}" for i in range(1, 7)]
    assert list(C.DESTINIES) == [f"D{i:02d}" for i in range(1, 11)]


def test_every_card_is_three_columns_by_four_rows():
    for card in C.CARDS.values():
        assert (card.width, card.height) == (3, 4), card.id


def test_each_village_has_one_star_in_its_centre_and_island_cards_have_none():
    for vid in C.VILLAGE_IDS:
        stars = [pos for pos, kind in C.CARDS[vid].symbols if kind == "star"]
        assert stars == [(1, 1)], vid
        assert C.CARDS[vid].terrain((1, 1)) == "L", "the village itself stands on land"
    assert all_symbols()["star"] == 0


def test_seven_totem_kinds_with_names():
    assert tuple(f"totem{i}" for i in range(1, 8)) == C.TOTEMS
    names = [C.SYMBOL_NAME[t] for t in C.TOTEMS]
    assert len(set(names)) == 7 and all(names)


def test_every_source_has_symbols_worth_pursuing():
    total = all_symbols()
    for leader, (partner, _) in C.PAIRS.items():
        assert 0 < total[leader] <= total[partner], f"{leader}s should not outnumber {partner}s"
    assert all(total[t] >= 2 for t in C.TOTEMS), "every totem kind exists and can be doubled"
    assert total["volcano"] >= 6


def test_beaches_cross_cards():
    """Most cards have a beach, and a beach leaves its card through two edges or more."""
    with_beach = [card for card in C.iter_islands() if card.has_beach]
    assert len(with_beach) >= 29
    for card in with_beach:
        for beach in C.beaches(card.rows):
            assert sum(len(C.beach_exits(card.rows, p)) for p in beach) >= 2, card.id


def test_traveler_examples_of_the_rulebook():
    t1, t2, t3 = C.TRAVELERS["T1"], C.TRAVELERS["T2"], C.TRAVELERS["T3"]
    assert (dict(t1.adds), t1.coconuts, t1.points, t1.per) == ({"canoe": 1, "fish": 1}, 0, 3, "beach_card")
    assert (dict(t2.adds), t2.coconuts, t2.points, t2.per) == ({"palm": 1}, 2, 4, "palm")
    assert (dict(t3.adds), t3.coconuts, t3.points, t3.per) == ({"fish": 3}, 0, 2, "fish")


def test_destiny_examples_of_the_rulebook():
    by_parts = {d.components: d for d in C.DESTINIES.values()}
    assert any(
        (d.most, d.most_of_one, d.otherwise) == (10, 2, -8)
        for d in C.DESTINIES.values()
        if len(d.components) == 2
    )
    for parts, most, penalty in [
        (("beach_card",), 6, -4),
        (("totem",), 6, -4),
        (("coconut",), 4, -3),
        (("volcano",), 6, -4),
    ]:
        assert (by_parts[parts].most, by_parts[parts].otherwise) == (most, penalty)


def test_scoring_tables():
    assert C.TOTEM_POINTS == {0: 0, 1: 1, 2: 2, 3: 4, 4: 7, 5: 11, 6: 16, 7: 22}
    assert [points for _, points in C.RULER_BANDS] == [1, 2, 3, 4, 5]
    limits = [up_to for up_to, _ in C.RULER_BANDS]
    assert limits == sorted(limits) and len(set(limits)) == 5
    assert C.BEACH_BONUS == 5 and C.COCONUT_BONUS == 5
    assert C.PAIRS == {"fisherman": ("fish", 2), "hunter": ("bird", 3), "canoe": ("palm", 4)}


def test_designed_values_are_marked_unverified():
    raw = C.raw_data()
    assert all(card["verified"] is False for card in raw["cards"]["islands"] + raw["cards"]["villages"])
    assert all(raw["cards"]["symbols"][t]["verified"] is False for t in C.TOTEMS)
    assert all(d["verified"] is False for d in raw["destinies"]["destinies"])
    assert [t["verified"] for t in raw["travelers"]["travelers"]] == [True] * 3 + [False] * 3
    for table in ("totem_table", "volcanic_ruler", "coconut_bonus"):
        assert raw["scoring"][table]["verified"] is False
        assert table in " ".join(raw["scoring"]["_comment"])


# ------------------------------------------------------------------ broken copies
def island(raw: dict[str, Any], card_id: str) -> dict[str, Any]:
    group = "villages" if card_id.startswith("V") else "islands"
    return next(c for c in raw["cards"][group] if c["id"] == card_id)


def traveler(raw: dict[str, Any], tid: str) -> dict[str, Any]:
    return next(t for t in raw["travelers"]["travelers"] if t["id"] == tid)


def destiny(raw: dict[str, Any], did: str) -> dict[str, Any]:
    return next(d for d in raw["destinies"]["destinies"] if d["id"] == did)


def set_symbols(raw: dict[str, Any], card_id: str, *marks: tuple[int, int, str]) -> None:
    island(raw, card_id)["symbols"] = [{"at": [c, r], "symbol": k} for c, r, k in marks]


BREAKAGES: list[tuple[str, Callable[[dict[str, Any]], None], list[str]]] = [
    ("57 island cards", lambda r: r["cards"]["islands"].pop(), ["islands", "58"]),
    ("ids out of order", lambda r: island(r, "I02").update(id="I03"), ["I03", "out of place"]),
    ("a row too short", lambda r: island(r, "I07").update(rows=["LLL", "LL", "LLL", "LLL"]), ["I07", "rows"]),
    ("five rows", lambda r: island(r, "I08").update(rows=["LLL"] * 5), ["I08", "4 rows"]),
    ("unknown terrain", lambda r: island(r, "I12").update(rows=["LLL", "LXL", "LLL", "LLL"]), ["I12", "'X'"]),
    ("unknown symbol", lambda r: set_symbols(r, "I03", (0, 0, "dragon")), ["I03", "dragon"]),
    ("symbol off the card", lambda r: set_symbols(r, "I11", (3, 0, "bird")), ["I11", "not a cell"]),
    (
        "two symbols in a cell",
        lambda r: set_symbols(r, "I05", (0, 0, "bird"), (0, 0, "hunter")),
        ["I05", "two symbols"],
    ),
    ("star on an island card", lambda r: set_symbols(r, "I09", (1, 1, "star")), ["I09", "only village"]),
    ("village star off centre", lambda r: set_symbols(r, "V2", (1, 2, "star")), ["V2", "centre"]),
    ("village without star", lambda r: set_symbols(r, "V3", (0, 0, "bird")), ["V3", "exactly one star"]),
    (
        "sea next to land",
        lambda r: island(r, "I20").update(rows=["LSS", "LBS", "LBS", "LBS"]),
        ["I20", "Sea at [1, 0]"],
    ),
    (
        "beach in a corner",
        lambda r: island(r, "I01").update(rows=["BLL", "BLL", "LLL", "LLL"]),
        ["I01", "corner"],
    ),
    (
        "beach with one end",
        lambda r: island(r, "I01").update(rows=["LLL", "BBL", "LLL", "LLL"]),
        ["I01", "edges"],
    ),
    ("no verified flag", lambda r: island(r, "I10").pop("verified"), ["I10", "verified"]),
    ("traveler per nothing", lambda r: traveler(r, "T4").update(per="sunsets"), ["T4", "per"]),
    ("traveler adds a volcano", lambda r: traveler(r, "T2").update(adds={"volcano": 1}), ["T2", "volcano"]),
    ("traveler adds nothing", lambda r: traveler(r, "T5").update(adds={}, coconuts=0), ["T5", "must add"]),
    ("destiny without small bonus", lambda r: destiny(r, "D03").pop("most_of_one"), ["D03", "most_of_one"]),
    ("destiny without penalty", lambda r: destiny(r, "D05").update(otherwise=2), ["D05", "negative"]),
    ("destiny for free", lambda r: destiny(r, "D07").update(price=0), ["D07", "price"]),
    (
        "destiny of three things",
        lambda r: destiny(r, "D01").update(components=["fish", "bird", "palm"]),
        ["D01", "components"],
    ),
    ("totem table short", lambda r: r["scoring"]["totem_table"]["points"].pop("7"), ["totem_table", "1..7"]),
    (
        "totem table falling",
        lambda r: r["scoring"]["totem_table"]["points"].update({"7": 3}),
        ["totem_table", "fall"],
    ),
    ("two marks alike", lambda r: r["cards"]["symbols"]["fish"].update(mark="FM"), ["symbols", "mark"]),
    ("solo without scores", lambda r: r["scoring"]["solo"].pop("start_scores"), ["solo", "start_scores"]),
    (
        "ruler of four bands",
        lambda r: r["scoring"]["volcanic_ruler"]["bands"].pop(),
        ["volcanic_ruler", "five"],
    ),
    (
        "ruler bands out of order",
        lambda r: r["scoring"]["volcanic_ruler"]["bands"][1].update(up_to=1),
        ["volcanic_ruler", "rise"],
    ),
]


@pytest.mark.parametrize(("what", "breaks", "words"), BREAKAGES, ids=[b[0] for b in BREAKAGES])
def test_a_broken_copy_fails_naming_the_card_and_the_problem(what, breaks, words):
    raw = C.raw_data()
    validate(raw)  # premise: the copy is fine before we break it
    breaks(raw)
    with pytest.raises(CardDataError) as caught:
        validate(raw)
    for word in words:
        assert word in str(caught.value), f"{what}: {caught.value}"


def test_raw_data_is_a_copy():
    raw = C.raw_data()
    raw["cards"]["islands"].clear()
    validate()
    assert len(C.raw_data()["cards"]["islands"]) == 58
