"""The cases the conformance suite checks: a game, a seat count, options and a seed.

Options are covered **pairwise** by default: for every seat count, a set of option
combinations in which every value of every option (its ``OptionSpec.samples``) appears, and
every pair of values of two options appears together, wherever some valid combination holds
that pair.  The game's defaults always come first, and the combinations its rulings single
out (``GameInfo.notable_options``) are added.  ``"full"`` is every combination of sample
values instead (the full product).  Options that cannot change a game of that many seats
(``State.option_applies``) keep their defaults; combinations the game refuses with an
:class:`~kiti.core.errors.OptionError` are never cases.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import OptionError
from ..core.game import State
from ..core.registry import get_game

#: How options are covered: "pairwise" (the default) or "full" (the full product).
MODES = ("pairwise", "full")

Row = tuple[int, ...]  # one combination: an index into each factor's values
Target = tuple[tuple[int, int], ...]  # one value (i, a) or a pair ((i, a), (j, b)) to cover


@dataclass(frozen=True)
class Case:
    """One game to check: its class, seat count, options (all of them, resolved) and a seed
    offset added to every seed a check uses (0: the seeds the suite has always used)."""

    cls: type[State]
    players: int
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 0

    @property
    def game(self) -> str:
        return self.cls.info.id

    @property
    def id(self) -> str:
        """A short name: ``mauw-4-kiwi=4,teams=True`` (options at their default left out)."""
        defaults = {s.name: s.default for s in self.cls.info.options}
        on = (
            ",".join(f"{k}={v}" for k, v in sorted(self.options.items()) if v != defaults.get(k))
            or "defaults"
        )
        return f"{self.game}-{self.players}-{on}" + (f"-seed{self.seed}" if self.seed else "")

    def new(self, seed: int) -> State:
        """A new game of this case with ``seed`` (plus the case's offset)."""
        return self.cls.new(self.players, dict(self.options), seed + self.seed)

    def __str__(self) -> str:
        return self.id


def game_class(game: str | type[State]) -> type[State]:
    """The class of ``game``: a registered game's id, or a State subclass itself."""
    return get_game(game) if isinstance(game, str) else game


def seat_counts(cls: type[State], players: int | Iterable[int] | None = None) -> list[int]:
    """Every seat count of the game, or those asked for (checked against its range)."""
    every = list(range(cls.info.min_seats, cls.info.max_seats + 1))
    if players is None:
        return every
    wanted = [players] if isinstance(players, int) else list(players)
    for n in wanted:
        if n not in every:
            raise ValueError(f"{cls.info.name} is for {every[0]}-{every[-1]} players, not {n!r}")
    return wanted


def cases(
    game: str | type[State],
    players: int | Iterable[int] | None = None,
    options: str | Iterable[Mapping[str, Any]] = "pairwise",
    seeds: Iterable[int] = (0,),
) -> list[Case]:
    """The cases of one game: every seat count asked for, times the option combinations of
    ``options`` (a mode of :data:`MODES`, or the combinations themselves), times ``seeds``."""
    cls = game_class(game)
    out: list[Case] = []
    for n in seat_counts(cls, players):
        if isinstance(options, str):
            combos = option_combinations(cls, n, options)
        else:
            combos = [c for c in map(dict, options) if _valid(cls, n, c)]
        out.extend(Case(cls, n, combo, s) for combo in combos for s in seeds)
    return out


def option_combinations(cls: type[State], players: int, mode: str = "pairwise") -> list[dict[str, Any]]:
    """The option combinations checked for ``players`` seats (complete option mappings)."""
    if mode not in MODES:
        raise ValueError(f"options must be one of {', '.join(MODES)}, not {mode!r}")
    specs = cls.info.options
    names = [s.name for s in specs]
    values = [s.samples() if cls.option_applies(s.name, players) else (s.default,) for s in specs]
    defaults = tuple(v.index(s.default) if s.default in v else 0 for s, v in zip(specs, values))

    def valid(row: Row) -> bool:
        return _valid(cls, players, {n: v[i] for n, v, i in zip(names, values, row)})

    if mode == "full":
        rows = [r for r in itertools.product(*(range(len(v)) for v in values)) if valid(r)]
    else:
        rows = pairwise([len(v) for v in values], valid, defaults)
    out = [{n: v[i] for n, v, i in zip(names, values, row)} for row in rows]
    for extra in notable_combinations(cls, players):
        if extra not in out:
            out.append(extra)
    return out


def notable_combinations(cls: type[State], players: int) -> list[dict[str, Any]]:
    """The game's ``notable_options`` that are valid for ``players`` seats and whose named
    options all apply there, each completed with the defaults."""
    defaults = {s.name: s.default for s in cls.info.options}
    out = []
    for partial in cls.info.notable_options:
        combo = {**defaults, **partial}
        if all(cls.option_applies(k, players) for k in partial) and _valid(cls, players, combo):
            out.append(combo)
    return out


def _valid(cls: type[State], players: int, options: Mapping[str, Any]) -> bool:
    try:
        cls.new(players, options, 0)
    except OptionError:
        return False
    return True


# ---------------------------------------------------------------- all pairs
#: Up to this many combinations in all, each new row is the best of all of them, and the
#: shortest of :data:`TRIES` covers is kept.
EXHAUSTIVE = 512
TRIES = 12


def pairwise(sizes: Sequence[int], valid: Callable[[Row], bool], first: Row | None = None) -> list[Row]:
    """Rows (a value index per factor) covering every value and every pair of values of two
    factors that some valid row holds; ``first`` (if valid) is the first row.  Greedy: each
    new row is the valid row that covers the most targets still uncovered, among every row
    (up to :data:`EXHAUSTIVE` rows in all), else among rows holding the first uncovered
    target (each of them up to 256, else 64 drawn with a fixed seed); a target that no valid
    row holds is dropped."""
    if not sizes:  # no option varies: the one combination there is
        return [()] if valid(()) else []
    known: dict[Row, bool] = {}

    def ok(row: Row) -> bool:
        if row not in known:
            known[row] = valid(row)
        return known[row]

    total = 1
    for n in sizes:
        total *= n
    if total > EXHAUSTIVE:
        return _greedy(sizes, ok, first, None, random.Random(0))
    every = list(itertools.product(*map(range, sizes)))
    tries = []
    for seed in range(TRIES):  # ties broken in another order each time: keep the shortest
        random.Random(seed).shuffle(every)
        tries.append(_greedy(sizes, ok, first, every, random.Random(seed)))
    return min(tries, key=len)


def _greedy(
    sizes: Sequence[int],
    ok: Callable[[Row], bool],
    first: Row | None,
    every: list[Row] | None,
    rng: random.Random,
) -> list[Row]:
    uncovered = dict.fromkeys(_targets(sizes))
    rows: list[Row] = []
    if first is not None and ok(first):
        rows.append(first)
        _cover(uncovered, first)
    while uncovered:
        target = next(iter(uncovered))
        pool = every if every is not None else _holding(sizes, target, rng)
        row = next((r for r in _best_first(pool, uncovered) if ok(r)), None)
        if row is None or not any(t in uncovered for t in covered(row)):
            if every is not None:
                break  # no valid row covers anything still uncovered
            del uncovered[target]
        else:
            rows.append(row)
            _cover(uncovered, row)
    return rows


def covered(row: Row) -> list[Target]:
    """Every value and pair of values that ``row`` holds."""
    cells = list(enumerate(row))
    return [(c,) for c in cells] + list(itertools.combinations(cells, 2))


def _targets(sizes: Sequence[int]) -> list[Target]:
    pairs = [
        ((i, a), (j, b))
        for i, j in itertools.combinations(range(len(sizes)), 2)
        for a in range(sizes[i])
        for b in range(sizes[j])
    ]
    return pairs + [((i, a),) for i, n in enumerate(sizes) for a in range(n)]


def _cover(uncovered: dict[Target, None], row: Row) -> None:
    for target in covered(row):
        uncovered.pop(target, None)


def _best_first(rows: Iterable[Row], uncovered: dict[Target, None]) -> list[Row]:
    return sorted(rows, key=lambda r: -sum(t in uncovered for t in covered(r)))


def _holding(sizes: Sequence[int], target: Target, rng: random.Random) -> list[Row]:
    """Rows holding ``target``: all of them when at most 256, else 64 drawn at random."""
    fixed = dict(target)
    free = [i for i in range(len(sizes)) if i not in fixed]
    count = 1
    for i in free:
        count *= sizes[i]
    if count <= 256:
        fills: Iterable[tuple[int, ...]] = itertools.product(*(range(sizes[i]) for i in free))
    else:
        fills = [tuple(rng.randrange(sizes[i]) for i in free) for _ in range(64)]
    rows = []
    for fill in fills:
        values = {**fixed, **dict(zip(free, fill))}
        rows.append(tuple(values[i] for i in range(len(sizes))))
    return rows
