"""Balance studies: one game's options and seat counts played on the same deals (``kiti balance``).

Design:

* **Cells.**  A study crosses every value of each ``--grid`` option with every seat count of
  ``--players``; each combination is a *cell*.  A cell the game refuses (Mauw's teams with 3
  players) is left out and named in the report.
* **Paired deals.**  Deal ``i`` has the same game seed in every cell (the tournament's
  :func:`~kiti.sim.tournament.deal_seed`), so two cells differ only by what the grid changes:
  an option's effect is the mean over deals of the paired difference of per-deal figures,
  with a 95% Student-t interval (:func:`kiti.sim.stats.paired_difference`).
* **Bots.**  One spec fills every seat.  Several are rotated over the seats (over the teams
  in a team game) as tournaments do: the places take the specs in turn (A, B, A, B, ...) and
  every deal is replayed once per cyclic rotation of the places, so every seat sees every
  bot.  ``--games`` is per cell, rounded up to whole deals.
* **Reproducible.**  Game and bot seeds derive from ``--seed`` alone; games are farmed out by
  :func:`kiti.sim.runner.run_ordered` and come back in order, so ``games.csv`` is the same
  byte for byte whatever ``--jobs`` and ``--backend``.
* **Figures** (:func:`summarize`): per cell, win share by seat and by turn order, mean score
  by seat, length, truncation, margin, ties, half-time leaders, each bot's share and the
  skill gap; the option effects; the card values.  Intervals treat a deal as one sample
  (:mod:`kiti.sim.stats`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.chance import derive_seed
from ..core.errors import KitiError, quoted
from ..core.game import State
from ..core.options import parse_int
from . import stats
from .playout import Deal, Playout, hooks
from .runner import RunnerError, check_backend, run_ordered
from .tournament import deal_seed, lineups, places

MAX_GAMES = 1_000_000  # all cells together


class BalanceError(KitiError, ValueError):
    """A study that cannot be run as asked (the message names what was wrong)."""


@dataclass
class BalanceConfig:
    game: str
    bots: list[str]
    players: list[int]
    grid: dict[str, list[Any]] = field(default_factory=dict)  # option -> values (first: baseline)
    games: int = 200  # per cell
    seed: int = 0
    jobs: int | None = None
    backend: str = "local"
    address: str | None = None


@dataclass(frozen=True)
class Cell:
    """One combination of the grid's options with a seat count."""

    players: int
    options: dict[str, Any]
    specs: tuple[str, ...]  # the bot of each place before rotation
    places: tuple[tuple[int, ...], ...]
    rotations: tuple[tuple[int, ...], ...]
    deals: int

    @property
    def games(self) -> int:
        return self.deals * len(self.rotations)


@dataclass
class Plan:
    config: BalanceConfig
    cls: type[State]
    cells: list[Cell]
    refused: list[str]  # the cells the game refused, and why

    @property
    def total(self) -> int:
        return sum(c.games for c in self.cells)


def parse_players(text: str, cls: type[State]) -> list[int]:
    """``4``, ``3..6`` or ``3,5``: the seat counts, each one the game allows, none repeated."""
    low, high = cls.info.min_seats, cls.info.max_seats
    what = f"--players {quoted(text)}"
    t = text.strip()
    if ".." in t:
        a, _, b = t.partition("..")
        first, last = parse_int(a, what), parse_int(b, what)
        if first > last:
            raise BalanceError(f"{what}: the range must go up ({first}..{last} is empty)")
        counts = [first, last]  # its ends checked before the range is built (3..10**11)
    else:
        counts = [parse_int(part, what) for part in t.split(",")]
    for n in counts:
        if not low <= n <= high:
            raise BalanceError(f"{what}: {cls.info.name} is for {low}-{high} players, not {n}")
    if ".." in t:
        return list(range(counts[0], counts[1] + 1))
    if len(set(counts)) != len(counts):
        raise BalanceError(f"{what}: a seat count is repeated")
    return sorted(counts)


def parse_grid(args: Sequence[str], cls: type[State]) -> dict[str, list[Any]]:
    """``name=v1,v2`` per argument: each a game option, each value checked by the option."""
    specs = {s.name: s for s in cls.info.options}
    grid: dict[str, list[Any]] = {}
    for arg in args:
        if "=" not in arg:
            raise BalanceError(f"--grid {quoted(arg)} must be written option=value1,value2")
        name, _, values = arg.partition("=")
        key = name.strip().replace("-", "_")
        if key not in specs:
            known = ", ".join(sorted(specs)) or "none"
            raise BalanceError(f"--grid: {cls.info.name} has no option {quoted(name)} (options: {known})")
        if key in grid:
            raise BalanceError(f"--grid: option {key} is given twice")
        parsed = [specs[key].coerce(v) for v in values.split(",")]
        if len(set(map(repr, parsed))) != len(parsed):
            raise BalanceError(f"--grid {quoted(arg)}: a value is repeated")
        grid[key] = parsed
    return grid


def plan_balance(config: BalanceConfig) -> Plan:
    """Check the whole study before any game is played (BalanceError naming the problem)."""
    from ..bots.registry import BotSpecError, make_bot
    from ..games import get_game

    try:
        cls = get_game(config.game)
        hooks(cls)
        for spec in config.bots:
            make_bot(spec, cls, 0)
    except (KitiError, BotSpecError) as exc:
        raise BalanceError(str(exc)) from None
    if not config.bots:
        raise BalanceError("--bots: give at least one bot")
    try:
        check_backend(config.backend, config.address, config.jobs)
    except RunnerError as exc:
        raise BalanceError(str(exc)) from None
    cells, refused = [], []
    for players, options in _combinations(config):
        try:
            cells.append(_cell(cls, config, players, options))
        except KitiError as exc:
            refused.append(f"{options_words(options)} with {players} players: {exc}")
    if not cells:
        raise BalanceError("the game refuses every cell of the study: " + "; ".join(refused))
    plan = Plan(config, cls, cells, refused)
    if plan.total > MAX_GAMES:
        raise BalanceError(f"the study would play {plan.total:,} games; at most {MAX_GAMES:,}: play fewer")
    return plan


def _combinations(config: BalanceConfig) -> Iterator[tuple[int, dict[str, Any]]]:
    names = list(config.grid)
    for players in config.players:
        for values in itertools.product(*(config.grid[n] for n in names)):
            yield players, dict(zip(names, values))


def _cell(cls: type[State], config: BalanceConfig, players: int, options: dict[str, Any]) -> Cell:
    teams = places(cls, players, options)  # the game checks the options here
    k = len(config.bots)
    specs = tuple(config.bots[j % k] for j in range(len(teams)))
    rots = lineups(len(teams)) if k > 1 else [tuple(range(len(teams)))]
    deals = max(1, math.ceil(config.games / len(rots)))
    return Cell(players, options, specs, tuple(teams), tuple(rots), deals)


def options_words(options: dict[str, Any]) -> str:
    """``open_baskets=true, kiwi=2`` (``default options`` when none)."""
    if not options:
        return "default options"
    return ", ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in options.items())


def deals_of(plan: Plan) -> list[tuple[int, int, int, Deal]]:
    """Every game of the study, in order: (cell, deal, rotation, what to play)."""
    cfg = plan.config
    out = []
    for c, cell in enumerate(plan.cells):
        opts = tuple(sorted(cell.options.items()))
        for d in range(cell.deals):
            for r, lineup in enumerate(cell.rotations):
                seat_spec = [""] * cell.players
                for place, contestant in enumerate(lineup):
                    for s in cell.places[place]:
                        seat_spec[s] = cell.specs[contestant]
                seeds = tuple(derive_seed(cfg.seed, "bot", d, r, s) for s in range(cell.players))
                deal = Deal(cfg.game, cell.players, opts, tuple(seat_spec), deal_seed(cfg.seed, d), seeds)
                out.append((c, d, r, deal))
    return out


@dataclass(frozen=True)
class Game:
    """A played game of the study."""

    cell: int
    deal: int
    rotation: int
    seed: int  # the game seed (the deal's)
    specs: tuple[str, ...]
    out: Playout


def run_balance(plan: Plan, progress: Callable[[int, int], None] | None = None) -> list[Game]:
    """Play every game of the study (in order, whatever the backend)."""
    from .playout import play

    cfg = plan.config
    work = deals_of(plan)
    games = []
    results = run_ordered(play, [w[3] for w in work], backend=cfg.backend, jobs=cfg.jobs, address=cfg.address)
    for (c, d, r, deal), out in zip(work, results):
        games.append(Game(c, d, r, deal.seed, deal.specs, out))
        if progress is not None:
            progress(len(games), len(work))
    return games


# ------------------------------------------------------------------ figures
def summarize(plan: Plan, games: list[Game]) -> dict[str, Any]:
    """Everything summary.json holds (see the module docstring)."""
    hook = hooks(plan.cls)
    by_cell: dict[int, list[Game]] = {}
    for g in games:
        by_cell.setdefault(g.cell, []).append(g)
    cells = [_cell_figures(cell, by_cell.get(i, []), plan.config.bots) for i, cell in enumerate(plan.cells)]
    return {
        "config": _config(plan, hook),
        "cells": cells,
        "effects": effects(plan, games),
        "cards": card_values(games, hook),
        "refused": plan.refused,
        "warnings": _warnings(plan, games),
    }


def _config(plan: Plan, hook: Any) -> dict[str, Any]:
    cfg = plan.config
    specs = {s.name: s for s in plan.cls.info.options}
    return {
        "game": cfg.game,
        "name": plan.cls.info.name,
        "bots": list(cfg.bots),
        "players": list(cfg.players),
        "grid": {k: list(v) for k, v in cfg.grid.items()},
        "grid_help": {k: specs[k].help for k in cfg.grid},
        "games_per_cell": cfg.games,
        "games": plan.total,
        "seed": cfg.seed,
        "unit": hook.UNIT,
        "order": hook.ORDER,
        "card_verb": hook.CARD_VERB,
    }


def _cell_figures(cell: Cell, games: list[Game], bots: list[str]) -> dict[str, Any]:
    deals = [g.deal for g in games]
    n = cell.players
    parties = len(games[0].out.parties) if games else n
    seat_share = [stats.share_ci([g.out.shares[s] for g in games], deals).to_dict() for s in range(n)]
    order_share = [
        stats.share_ci([_share_at(g.out, place) for g in games], deals).to_dict() for place in range(n)
    ]
    return {
        "players": n,
        "options": cell.options,
        "label": f"{n} players, {options_words(cell.options)}",
        "games": len(games),
        "deals": cell.deals,
        "fair_share": 1.0 / parties,
        "win_share_by_seat": seat_share,
        "win_share_by_turn_order": order_share,
        "mean_score_by_seat": [
            stats.block_ci([g.out.scores[s] for g in games], deals).to_dict() for s in range(n)
        ],
        "length": spread([float(g.out.length) for g in games], deals),
        "moves": spread([float(g.out.moves) for g in games], deals),
        "truncated": stats.share_ci([float(g.out.truncated) for g in games], deals).to_dict(),
        "margin": _margin_figures(games),
        "ties": stats.share_ci([float(g.out.tie) for g in games], deals).to_dict(),
        "half_time_leader_wins": _leader_figures(games),
        "bots": _bot_figures(games, bots) if len(bots) > 1 else None,
    }


def _first_edge(g: Game) -> float:
    """How much more than an even share the seat that starts won (a team game's even share is
    one in the number of teams)."""
    return _share_at(g.out, 0) - 1.0 / len(g.out.parties)


def _share_at(out: Playout, place: int) -> float:
    """The share of the victory of the seat ``place``-th in the turn order."""
    return out.shares[out.turn_order.index(place)]


def _margin_figures(games: list[Game]) -> dict[str, Any]:
    kept = [g for g in games if g.out.margin is not None]
    return spread([float(g.out.margin or 0.0) for g in kept], [g.deal for g in kept])


def _leader_figures(games: list[Game]) -> dict[str, Any]:
    led = [g for g in games if g.out.half_leader_share is not None and not g.out.truncated]
    ci = stats.share_ci([float(g.out.half_leader_share or 0.0) for g in led], [g.deal for g in led])
    return dict(ci.to_dict(), games=len(led))


def _bot_figures(games: list[Game], bots: list[str]) -> dict[str, Any]:
    """Each bot's share of the victory per seat it played, and the first bot's lead over the rest."""
    rows = []
    for spec in dict.fromkeys(bots):
        values = [g.out.shares[s] for g in games for s, b in enumerate(g.specs) if b == spec]
        blocks = [g.deal for g in games for b in g.specs if b == spec]
        rows.append({"bot": spec, "win_share": stats.share_ci(values, blocks).to_dict()})
    gap = stats.mean_ci([v for _, v in sorted(_deal_means(games, lambda g: _skill_gap(g, bots[0])).items())])
    return {"by_bot": rows, "skill_gap": gap.to_dict(), "first_bot": bots[0]}


def _skill_gap(g: Game, first: str) -> float | None:
    """The first bot's mean share per seat minus the other bots' (None: not both seated)."""
    mine = [g.out.shares[s] for s, b in enumerate(g.specs) if b == first]
    rest = [g.out.shares[s] for s, b in enumerate(g.specs) if b != first]
    if not mine or not rest:
        return None
    return math.fsum(mine) / len(mine) - math.fsum(rest) / len(rest)


def spread(values: list[float], deals: list[int]) -> dict[str, Any]:
    """Mean (95% interval over deals), standard deviation and quantiles."""
    ci = stats.block_ci(values, deals)
    out: dict[str, Any] = {
        "games": len(values),
        "mean": ci.mean if values else None,
        "low": ci.low,
        "high": ci.high,
    }
    if not values:
        return dict(out, sd=None, **dict.fromkeys(QUANTILES))
    mean = math.fsum(values) / len(values)
    out["sd"] = math.sqrt(math.fsum((x - mean) ** 2 for x in values) / max(1, len(values) - 1))
    ordered = sorted(values)
    for name, q in QUANTILES.items():
        h = (len(ordered) - 1) * q
        lo = math.floor(h)
        hi = min(lo + 1, len(ordered) - 1)
        out[name] = ordered[lo] + (h - lo) * (ordered[hi] - ordered[lo])
    return out


QUANTILES = {"min": 0.0, "p10": 0.1, "p25": 0.25, "median": 0.5, "p75": 0.75, "p90": 0.9, "max": 1.0}


def _warnings(plan: Plan, games: list[Game]) -> list[str]:
    out = []
    deals = min(c.deals for c in plan.cells)
    if deals < stats.FEW_DEALS:
        out.append(f"only {deals} deal(s) per cell: intervals are wide; play at least {stats.FEW_DEALS}")
    truncated = sum(1 for g in games if g.out.truncated)
    if truncated:
        out.append(f"{truncated} game(s) reached the move limit and were scored as draws")
    return out


def metrics(plan: Plan) -> dict[str, tuple[str, Callable[[Game], float | None]]]:
    """The figures an option's effect is measured on: key -> (words, per-game value)."""
    unit = hooks(plan.cls).UNIT
    out: dict[str, tuple[str, Callable[[Game], float | None]]] = {
        "first_edge": ("starting seat's win share minus an even share", _first_edge),
        "length": (f"game length ({unit})", lambda g: float(g.out.length)),
        "margin": ("winner's margin (points)", lambda g: g.out.margin),
        "ties": ("share of games tied", lambda g: float(g.out.tie)),
    }
    bots = plan.config.bots
    if len(set(bots)) > 1:
        out["skill_gap"] = (f"skill gap ({bots[0]} minus the others)", lambda g: _skill_gap(g, bots[0]))
    return out


def effects(plan: Plan, games: list[Game]) -> list[dict[str, Any]]:
    """Each grid value against the option's first value, per seat count and figure: the mean
    paired difference over the deals both played (other options averaged within a deal)."""
    by_cell: dict[int, list[Game]] = {}
    for g in games:
        by_cell.setdefault(g.cell, []).append(g)
    out = []
    figures = {k: v for k, v in metrics(plan).items() if len({v[1](g) for g in games}) > 1}  # not constant
    for name, values in plan.config.grid.items():
        for value, n in itertools.product(values[1:], plan.config.players):
            mine = _games_where(plan, by_cell, n, name, value)
            base = _games_where(plan, by_cell, n, name, values[0])
            for key, (words, metric) in figures.items():
                diff = _paired(mine, base, metric)
                if diff is None:
                    continue
                out.append(
                    {
                        "option": name,
                        "value": value,
                        "baseline": values[0],
                        "players": n,
                        "metric": key,
                        "words": words,
                        "difference": diff.to_dict(),
                        "significant": diff.excludes(0.0),
                    }
                )
    return out


def _games_where(
    plan: Plan, by_cell: dict[int, list[Game]], players: int, name: str, value: Any
) -> list[Game]:
    """The games of the cells with ``players`` seats and the option ``name`` set to ``value``."""
    return [
        g
        for i, c in enumerate(plan.cells)
        if c.players == players and c.options[name] == value
        for g in by_cell.get(i, [])
    ]


def _paired(
    mine: list[Game], base: list[Game], metric: Callable[[Game], float | None]
) -> stats.Interval | None:
    a, b = _deal_means(mine, metric), _deal_means(base, metric)
    both = sorted(set(a) & set(b))
    if not both:
        return None
    return stats.paired_difference([a[d] for d in both], [b[d] for d in both])


def _deal_means(games: list[Game], metric: Callable[[Game], float | None]) -> dict[int, float]:
    sums: dict[int, list[float]] = {}
    for g in games:
        v = metric(g)
        if v is not None:
            sums.setdefault(g.deal, []).append(v)
    return {d: math.fsum(v) / len(v) for d, v in sums.items()}


def card_values(games: list[Game], hook: Any) -> list[dict[str, Any]]:
    """Per card: the share of the victory, score and points of the seats that had it (over
    every cell), against the even share of those games; best first."""
    rows: dict[str, dict[str, list[float]]] = {}
    for g in games:
        fair = 1.0 / len(g.out.parties)
        for seat, facts in enumerate(g.out.cards):
            for code, points in facts:
                row = rows.setdefault(code, {"share": [], "deal": [], "fair": [], "score": [], "points": []})
                row["share"].append(g.out.shares[seat])
                row["deal"].append(g.deal)
                row["fair"].append(fair)
                row["score"].append(g.out.scores[seat])
                if points is not None:
                    row["points"].append(points)
    out = []
    for code, row in rows.items():
        deals = [int(d) for d in row["deal"]]
        share = stats.share_ci(row["share"], deals)
        fair = math.fsum(row["fair"]) / len(row["fair"])
        pts = stats.block_ci(row["points"], deals).to_dict() if len(row["points"]) == len(deals) else None
        out.append(
            {
                "card": code,
                "name": hook.card_name(code),
                "games": len(deals),
                "win_share": share.to_dict(),
                "fair_share": fair,
                "lift": share.mean - fair,
                "above_fair": share.low is not None and share.low > fair,
                "below_fair": share.high is not None and share.high < fair,
                "points": pts,
                "mean_score": stats.block_ci(row["score"], deals).to_dict(),
            }
        )
    out.sort(key=lambda r: (-r["lift"], r["card"]))
    return out
