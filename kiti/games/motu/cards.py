"""MOTU's cards and scoring numbers, loaded from the JSON files in ``data/``.

Those files are the one place card data lives: nothing here names a card. ``validate`` checks the
raw data (counts, shapes, terrain, symbols, Travelers, Destinies, scoring tables) and raises
:class:`CardDataError` naming the file, the card and the problem. It runs when this module is
imported, so broken data never reaches a game.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from typing import Any

from ...core.errors import quoted

Pos = tuple[int, int]

WIDTH, HEIGHT = 3, 4  # columns x rows of an unrotated card
CENTRE: Pos = (1, 1)  # a village's star cell: the middle column, the upper of the two middle rows
TERRAIN_NAME = {"L": "Land", "B": "Beach", "S": "Sea"}
DIRECTIONS: tuple[Pos, ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))  # up, right, down, left
SIDE_NAME: dict[Pos, str] = {(0, -1): "top", (1, 0): "right", (0, 1): "bottom", (-1, 0): "left"}
PAIR_LEADERS = ("fisherman", "hunter", "canoe")
COUNTS = {"islands": 58, "villages": 6, "travelers": 6, "destinies": 10}
ID_FORMAT = {"islands": "I{:02d}", "villages": "V{}", "travelers": "T{}", "destinies": "D{:02d}"}
#: Things a Traveler may score per, or a Destiny may ask for, beyond a single symbol kind.
GROUPS = {
    "totem": "totems of every kind",
    "beach_card": "cards that show Beach",
    "coconut": "coconuts (banked, plus a played Traveler's)",
}
#: The coconuts that count for a player's points (the Coconut Source and bonus, a Destiny, the
#: tie-break), in words: :meth:`.rules.MotuState.coconut_count` counts them.
COCONUTS_COUNTED = "coconuts (banked, plus those printed on a played Traveler; not those left on row cards)"


class CardDataError(ValueError):
    """The MOTU data files break a rule; the message names the file, the card and the problem."""


# ------------------------------------------------------------------ loading
def raw_data() -> dict[str, Any]:
    """A fresh copy of the four data files, keyed 'cards', 'travelers', 'destinies', 'scoring'."""
    return copy.deepcopy(_RAW)


def _load() -> dict[str, Any]:
    folder = resources.files(__package__).joinpath("data")
    names = ("cards", "travelers", "destinies", "scoring")
    return {n: json.loads(folder.joinpath(f"{n}.json").read_text("utf-8")) for n in names}


_RAW = _load()


# ------------------------------------------------------------------ the card types
@dataclass(frozen=True)
class IslandCard:
    """An island or village card: terrain rows (top to bottom) and its symbols by cell."""

    id: str
    rows: tuple[str, ...]
    symbols: tuple[tuple[Pos, str], ...]
    village: bool = False

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def height(self) -> int:
        return len(self.rows)

    @cached_property
    def symbol_at(self) -> dict[Pos, str]:
        return dict(self.symbols)

    def terrain(self, pos: Pos) -> str:
        return self.rows[pos[1]][pos[0]]

    @property
    def has_beach(self) -> bool:
        return any("B" in row for row in self.rows)

    def symbol_counts(self) -> Counter[str]:
        return Counter(kind for _, kind in self.symbols)


@dataclass(frozen=True)
class Traveler:
    """Once played: adds symbols to the island count and coconuts to the bank; scores at once."""

    id: str
    adds: Mapping[str, int]
    coconuts: int
    points: int
    per: str  # a symbol kind, 'totem' or 'beach_card'


@dataclass(frozen=True)
class Destiny:
    """Points for having the most of its components at the end; a penalty otherwise."""

    id: str
    components: tuple[str, ...]
    price: int
    most: int
    otherwise: int
    most_of_one: int | None = None


def reading_order(pos: Pos) -> tuple[int, int]:
    """Sort key: row by row, left to right."""
    return pos[1], pos[0]


def make_card(
    card_id: str,
    rows: list[str] | tuple[str, ...],
    symbols: Mapping[Pos, str] | None = None,
    village: bool = False,
) -> IslandCard:
    """An :class:`IslandCard` from rows of terrain letters and {(column, row): symbol kind}."""
    marks = tuple(sorted((symbols or {}).items(), key=lambda item: reading_order(item[0])))
    return IslandCard(card_id, tuple(rows), marks, village)


def _card(raw: Mapping[str, Any], village: bool) -> IslandCard:
    marks = {(s["at"][0], s["at"][1]): s["symbol"] for s in raw["symbols"]}
    return make_card(raw["id"], raw["rows"], marks, village)


# ------------------------------------------------------------------ beaches inside a card
def beach_exits(rows: tuple[str, ...] | list[str], pos: Pos) -> list[Pos]:
    """Directions in which the Beach cell ``pos`` leaves its card: every edge it lies on (none
    unless it is on an edge). The model takes a Beach cell on an edge to leave the card there, so
    the validator refuses a beach that runs along an edge (see :func:`along_edge`)."""
    c, r = pos
    return [(dx, dy) for dx, dy in DIRECTIONS if not (0 <= c + dx < len(rows[0]) and 0 <= r + dy < len(rows))]


def along_edge(rows: tuple[str, ...] | list[str]) -> tuple[Pos, Pos, Pos] | None:
    """Two Beach cells side by side on the same edge of the card, and that edge's outward
    direction (the first such pair in reading order), or None.

    Such a beach runs along the edge instead of leaving the card through it, but the model
    (:func:`beach_exits`) would take both cells to leave the card there and refuse any card laid
    against that side; a card whose beaches meet its edges only end-on has no such pair.
    """
    cells = sorted(
        ((c, r) for r, row in enumerate(rows) for c, t in enumerate(row) if t == "B"), key=reading_order
    )
    for c, r in cells:
        for d in beach_exits(rows, (c, r)):
            nxt = (c + abs(d[1]), r + abs(d[0]))  # the next cell along that edge
            if nxt in cells and d in beach_exits(rows, nxt):
                return (c, r), nxt, d
    return None


def beaches(rows: tuple[str, ...] | list[str]) -> list[set[Pos]]:
    """The card's beaches: its Beach cells grouped by orthogonal contact."""
    return connected({(c, r) for r, row in enumerate(rows) for c, t in enumerate(row) if t == "B"})


def connected(cells: Iterable[Pos]) -> list[set[Pos]]:
    """The cells grouped into pieces that touch up, down, left or right."""
    left = set(cells)
    found: list[set[Pos]] = []
    while left:
        todo, group = [left.pop()], set()
        while todo:
            x, y = todo.pop()
            group.add((x, y))
            for dx, dy in DIRECTIONS:
                if (x + dx, y + dy) in left:
                    left.remove((x + dx, y + dy))
                    todo.append((x + dx, y + dy))
        found.append(group)
    return found


# ------------------------------------------------------------------ validation
def validate(data: Mapping[str, Any] | None = None) -> None:
    """Check the raw data (default: the files); raise CardDataError on the first problem."""
    data = _RAW if data is None else data
    kinds = _check_symbol_kinds(data["cards"])
    for group in ("villages", "islands"):
        _check_ids("cards.json", group, data["cards"][group])
        for raw in data["cards"][group]:
            _check_card(raw, kinds, village=group == "villages")
    _check_ids("travelers.json", "travelers", data["travelers"]["travelers"])
    for raw in data["travelers"]["travelers"]:
        _check_traveler(raw, kinds)
    _check_ids("destinies.json", "destinies", data["destinies"]["destinies"])
    for raw in data["destinies"]["destinies"]:
        _check_destiny(raw, kinds)
    _check_scoring(data["scoring"], kinds)


def _fail(where: str, problem: str) -> CardDataError:
    return CardDataError(f"{where}: {problem}")


def _check_symbol_kinds(cards: Mapping[str, Any]) -> set[str]:
    kinds = set(cards["symbols"])
    needed = {"fisherman", "fish", "hunter", "bird", "canoe", "palm", "volcano", "star"}
    needed |= {f"totem{i}" for i in range(1, 8)}
    if kinds != needed:
        raise _fail("cards.json, symbols", f"the symbol kinds must be exactly {sorted(needed)}")
    for kind, info in cards["symbols"].items():
        if not (
            isinstance(info.get("name"), str)
            and isinstance(info.get("mark"), str)
            and len(info["mark"]) == 2
            and isinstance(info.get("verified"), bool)
        ):
            raise _fail(f"cards.json, symbol {kind}", "needs a name, a two-letter mark and 'verified'")
    marks = [info["mark"] for info in cards["symbols"].values()]
    if len(set(marks)) != len(marks):
        raise _fail("cards.json, symbols", "two symbol kinds share a mark; each needs its own")
    return kinds


def _check_ids(file: str, group: str, items: list[Any]) -> None:
    want = [ID_FORMAT[group].format(i) for i in range(1, COUNTS[group] + 1)]
    got = [item.get("id") for item in items]
    if len(got) != len(want):
        raise _fail(f"{file}, {group}", f"there must be {len(want)}, not {len(got)}")
    if got != want:
        wrong = next(g for g, w in zip(got, want) if g != w)
        raise _fail(f"{file}, {group}", f"card {wrong} is out of place: ids run {want[0]}..{want[-1]}")
    for item in items:
        if not isinstance(item.get("verified"), bool):
            raise _fail(f"{file}, card {item['id']}", 'needs "verified": true or false')


def _check_card(raw: Mapping[str, Any], kinds: set[str], village: bool) -> None:
    where = f"cards.json, card {raw['id']}"
    rows = raw.get("rows")
    if (
        not isinstance(rows, list)
        or len(rows) != HEIGHT
        or any(not isinstance(r, str) or len(r) != WIDTH for r in rows)
    ):
        raise _fail(where, f"'rows' must be {HEIGHT} rows of {WIDTH} terrain letters")
    bad = {t for row in rows for t in row} - set(TERRAIN_NAME)
    if bad:
        raise _fail(where, f"unknown terrain letter {quoted(sorted(bad)[0])} (use L, B or S)")
    _check_card_symbols(where, raw.get("symbols"), kinds, village)
    _check_terrain(where, rows)


def _check_card_symbols(where: str, symbols: Any, kinds: set[str], village: bool) -> None:
    if not isinstance(symbols, list):
        raise _fail(where, "'symbols' must be a list")
    seen: set[Pos] = set()
    for mark in symbols:
        if not isinstance(mark, dict):
            raise _fail(
                where,
                f"each symbol needs the form {{'at': [column, row], 'symbol': kind}}, not {quoted(mark)}",
            )
        at, kind = mark.get("at"), mark.get("symbol")
        if not (
            isinstance(at, list)
            and len(at) == 2
            and _is_int(at[0], 0, WIDTH - 1)
            and _is_int(at[1], 0, HEIGHT - 1)
        ):
            raise _fail(where, f"symbol {quoted(kind)} at {quoted(at)} is not a cell of the card")
        if not isinstance(kind, str) or kind not in kinds:
            raise _fail(where, f"unknown symbol kind {quoted(kind)} at {quoted(at)}")
        if (at[0], at[1]) in seen:
            raise _fail(where, f"two symbols on the cell {at}; a cell holds at most one")
        seen.add((at[0], at[1]))
    stars = [m["at"] for m in symbols if m["symbol"] == "star"]
    if village and stars != [list(CENTRE)]:
        raise _fail(where, f"a village needs exactly one star, in its centre cell {list(CENTRE)}")
    if not village and stars:
        raise _fail(where, f"a star at {stars[0]}: only village cards have a star")


def _check_terrain(where: str, rows: list[str]) -> None:
    for r, row in enumerate(rows):
        for c, t in enumerate(row):
            for dx, dy in DIRECTIONS:
                n = (c + dx, r + dy)
                if t == "S" and 0 <= n[0] < WIDTH and 0 <= n[1] < HEIGHT and rows[n[1]][n[0]] == "L":
                    raise _fail(where, f"Sea at {[c, r]} touches Land at {list(n)}; put Beach between")
            if t == "B" and len(beach_exits(rows, (c, r))) > 1:
                raise _fail(where, f"Beach in the corner {[c, r]}; corners are Land or Sea")
    along = along_edge(rows)
    if along is not None:
        p, q, d = along
        raise _fail(
            where,
            f"the Beach at {list(p)} and {list(q)} runs along the card's {SIDE_NAME[d]} edge; "
            "a beach may meet an edge only end-on (Kiti takes a Beach cell on an edge to "
            "leave the card there)",
        )
    for beach in beaches(rows):
        if sum(len(beach_exits(rows, p)) for p in beach) < 2:
            first = min(beach, key=reading_order)
            raise _fail(where, f"the beach through {list(first)} must reach the card's edges at least twice")


def _is_int(value: Any, low: int | None = None, high: int | None = None) -> bool:
    return (
        isinstance(value, int)
        and not isinstance(value, bool)
        and (low is None or value >= low)
        and (high is None or value <= high)
    )


def _check_traveler(raw: Mapping[str, Any], kinds: set[str]) -> None:
    where = f"travelers.json, traveler {raw['id']}"
    adds = raw.get("adds")
    if not isinstance(adds, dict):
        raise _fail(where, "'adds' must map symbol kinds to counts")
    for kind, n in adds.items():
        if kind not in kinds - {"star", "volcano"} or not _is_int(n, 1):
            raise _fail(
                where,
                f"cannot add {quoted(n)} x {quoted(kind)}: adds are symbol kinds (not star or "
                "volcano), 1 or more of each",
            )
    if not _is_int(raw.get("coconuts"), 0) or not _is_int(raw.get("points"), 1):
        raise _fail(where, "'coconuts' must be 0 or more and 'points' 1 or more")
    if not isinstance(raw.get("per"), str) or raw["per"] not in (kinds - {"star"}) | {"totem", "beach_card"}:
        raise _fail(where, f"'per' {quoted(raw.get('per'))} must be a symbol kind, 'totem' or 'beach_card'")
    if not adds and not raw["coconuts"]:
        raise _fail(where, "a Traveler must add symbols or coconuts")


def _check_destiny(raw: Mapping[str, Any], kinds: set[str]) -> None:
    where = f"destinies.json, destiny {raw['id']}"
    parts = raw.get("components")
    allowed = (kinds - {"star"}) | set(GROUPS)
    if not (
        isinstance(parts, list)
        and 1 <= len(parts) <= 2
        and all(isinstance(p, str) and p in allowed for p in parts)
        and len(set(parts)) == len(parts)
    ):
        raise _fail(where, f"'components' must be one or two of {sorted(allowed)}, got {quoted(parts)}")
    if not _is_int(raw.get("price"), 1):
        raise _fail(
            where, f"'price' must be a whole number of coconuts, 1 or more, got {quoted(raw.get('price'))}"
        )
    if not _is_int(raw.get("most"), 1) or not _is_int(raw.get("otherwise"), None, -1):
        raise _fail(where, "'most' must be positive and 'otherwise' negative")
    small = raw.get("most_of_one")
    if len(parts) == 2 and not _is_int(small, 1, raw["most"] - 1):
        raise _fail(where, "a two-component Destiny needs 'most_of_one' between 1 and 'most' - 1")
    if len(parts) == 1 and small is not None:
        raise _fail(where, "'most_of_one' belongs to two-component Destinies only")


def _check_scoring(raw: Mapping[str, Any], kinds: set[str]) -> None:
    pairs = raw["pairs"]
    for leader in PAIR_LEADERS:
        pair = pairs.get(leader)
        if not (isinstance(pair, dict) and pair.get("partner") in kinds and _is_int(pair.get("each"), 1)):
            raise _fail(f"scoring.json, pairs, {leader}", "needs a 'partner' symbol kind and 'each' points")
    table = raw["totem_table"]["points"]
    if sorted(table) != [str(n) for n in range(1, 8)] or not all(_is_int(v, 1) for v in table.values()):
        raise _fail("scoring.json, totem_table", "needs points for 1..7 totem kinds")
    if [table[str(n)] for n in range(1, 8)] != sorted(table.values()):
        raise _fail("scoring.json, totem_table", "points must not fall as the number of kinds rises")
    _check_ruler(raw["volcanic_ruler"]["bands"])
    for name in ("coconut_each", "beach_bonus", "coconut_bonus"):
        if not _is_int(raw[name].get("points"), 0) or not isinstance(raw[name].get("verified"), bool):
            raise _fail(f"scoring.json, {name}", "needs whole 'points' (0 or more) and 'verified'")
    solo = raw["solo"]
    if not (
        _is_int(solo.get("opponent_volcano_points"), 0)
        and isinstance(solo.get("start_scores"), dict)
        and all(_is_int(v, 0) for v in solo["start_scores"].values())
    ):
        raise _fail("scoring.json, solo", "needs whole 'opponent_volcano_points' and 'start_scores'")


def _check_ruler(bands: Any) -> None:
    where = "scoring.json, volcanic_ruler"
    if not (isinstance(bands, list) and len(bands) == 5):
        raise _fail(where, "the ruler has exactly five bands")
    if [b.get("points") for b in bands] != [1, 2, 3, 4, 5]:
        raise _fail(where, "the bands score 1, 2, 3, 4, 5 in order, nearest first")
    limits = [b.get("up_to") for b in bands]
    if not all(
        isinstance(u, int | float) and not isinstance(u, bool) and u > 0 for u in limits
    ) or limits != sorted(set(limits)):
        raise _fail(where, f"band limits 'up_to' must be positive and rise strictly, got {quoted(limits)}")


# ------------------------------------------------------------------ the parsed data
validate()

_CARDS = _RAW["cards"]
#: Every island and village card by id.
CARDS: dict[str, IslandCard] = {
    **{raw["id"]: _card(raw, village=True) for raw in _CARDS["villages"]},
    **{raw["id"]: _card(raw, village=False) for raw in _CARDS["islands"]},
}
VILLAGE_IDS: tuple[str, ...] = tuple(raw["id"] for raw in _CARDS["villages"])
ISLAND_IDS: tuple[str, ...] = tuple(raw["id"] for raw in _CARDS["islands"])
SYMBOL_NAME: dict[str, str] = {k: v["name"] for k, v in _CARDS["symbols"].items()}
SYMBOL_MARK: dict[str, str] = {k: v["mark"] for k, v in _CARDS["symbols"].items()}
TOTEMS: tuple[str, ...] = tuple(sorted(k for k in SYMBOL_NAME if k.startswith("totem")))
PROTECTED = frozenset({"star", "volcano"})  # symbols that no card may cover

TRAVELERS: dict[str, Traveler] = {
    t["id"]: Traveler(t["id"], dict(t["adds"]), t["coconuts"], t["points"], t["per"])
    for t in _RAW["travelers"]["travelers"]
}
DESTINIES: dict[str, Destiny] = {
    d["id"]: Destiny(
        d["id"], tuple(d["components"]), d["price"], d["most"], d["otherwise"], d.get("most_of_one")
    )
    for d in _RAW["destinies"]["destinies"]
}

_SCORING = _RAW["scoring"]
#: Pair Sources: leader symbol -> (partner symbol, points per leader).
PAIRS: dict[str, tuple[str, int]] = {
    k: (_SCORING["pairs"][k]["partner"], _SCORING["pairs"][k]["each"]) for k in PAIR_LEADERS
}
#: Number of totem kinds that count -> points (0 kinds -> 0).
TOTEM_POINTS: dict[int, int] = {0: 0, **{int(k): v for k, v in _SCORING["totem_table"]["points"].items()}}
#: The volcanic ruler: (farthest distance of the band, points), nearest band first.
RULER_BANDS: tuple[tuple[float, int], ...] = tuple(
    (float(b["up_to"]), b["points"]) for b in _SCORING["volcanic_ruler"]["bands"]
)
COCONUT_EACH: int = _SCORING["coconut_each"]["points"]
BEACH_BONUS: int = _SCORING["beach_bonus"]["points"]
COCONUT_BONUS: int = _SCORING["coconut_bonus"]["points"]
SOLO_VOLCANO_POINTS: int = _SCORING["solo"]["opponent_volcano_points"]
SOLO_START_SCORES: dict[str, int] = dict(_SCORING["solo"]["start_scores"])


def card(card_id: str) -> IslandCard:
    """The island or village card with this id (KeyError names the id if there is none)."""
    try:
        return CARDS[card_id]
    except KeyError:
        raise KeyError(f"no MOTU island or village card {quoted(card_id)}") from None


def iter_islands() -> Iterator[IslandCard]:
    return (CARDS[i] for i in ISLAND_IDS)
