"""Tournaments: duplicate deals with rotated seats (or teams), in parallel, reproducible.

Design:

* **Contestants** are the entries of the bot lineup (``--bots``): one per seat, or in a
  team game (a game whose ``teams()`` has a team of several seats, e.g. Mauw with team
  play) one per *team*, every seat of that team played by its own copy of that bot.  The
  same spec twice gives two contestants (``heuristic#1``, ``heuristic#2``).
* **Parties** come from the core's results model: each contestant's result is its party's
  (its team's) score, rank and share of the victory; a party that is not a seat (MOTU's
  solo Opponent) takes part in the ranking and can win, and has a line of its own.
* **Duplicate deals.**  Deal ``i`` is a game seed derived from the tournament seed.  It is
  replayed once for every *rotation* of the lineup over the seats (or over the teams):
  with ``cyclic`` rotations (default) rotation ``r`` puts contestant ``(j + r) mod k`` in
  place ``j``, so in every deal each contestant sits in every place once; with ``all``
  every distinct permutation is played.  The deck depends only on the game seed, so the
  luck of the cards and of the seats cancels.  ``games`` is rounded up to whole deals.
* **Reproducibility.**  Every game's seed and every bot's seed are pure functions of
  (tournament seed, deal, rotation, seat); deals are farmed out by
  :func:`kiti.sim.runner.run_ordered` (a local process pool, or Ray) and come back in
  deal order, so the figures depend neither on ``jobs`` nor on the backend.
* **Deals on file** (:mod:`kiti.sim.tournament_file`): with an output folder, each deal's
  games are appended to ``deals.jsonl`` as soon as the deal and every deal before it are
  done, so a stopped run resumes where it stopped; ``shard=(k, n)`` plays only the deals
  ``i`` with ``i % n == k - 1``, and shards merge into the figures of one run.
* **Game length and margin**: every game records its length (moves made, all seats
  together) and the winner's margin (the first party's score minus the best score among
  the parties behind it; 0 when every party shares first place; none for a game stopped
  at the move limit).
* **Bots see views only**: every decision is ``bot.choose(seat_view(state, seat))``.
* **Statistics** (:mod:`kiti.sim.stats`): intervals over deal blocks (a win share's never
  leaves [0, 1]); with fewer than 10 deals the summary warns that nothing can be told
  apart; the openskill Plackett-Luce rating is updated game by game in deal order over the
  parties (contestants, plus any non-seat party), its interval ``mu +/- 1.96 sigma``.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..bots.registry import BotSpecError, check_table, make_bot, parse_bot_spec
from ..core.chance import derive_seed
from ..core.errors import KitiError, quoted
from ..core.game import State
from ..core.registry import game_part, has_part
from ..core.seatview import seat_view
from ..core.turns import turns
from . import stats
from .runner import RAY_MISSING, RunnerError, check_backend, run_ordered


class TournamentError(KitiError, ValueError):
    """A tournament that cannot be run as asked."""


@dataclass
class TournamentConfig:
    game: str
    bots: list[str]
    games: int = 2000
    players: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    jobs: int | None = None
    seed: int = 0
    rotation: str = "cyclic"
    save_records: bool = False
    backend: str = "local"
    address: str | None = None
    shard: tuple[int, int] | None = None  # (k, n): only the deals i with i % n == k - 1


def lineups(n_bots: int, mode: str = "cyclic", labels: list[str] | None = None) -> list[tuple[int, ...]]:
    """Seat -> contestant index, one tuple per rotation of a deal block.

    ``cyclic``: the n rotations.  ``all``: every distinct permutation (contestants with the
    same spec are interchangeable, so permutations that only swap them count once).
    """
    if mode == "cyclic":
        return [tuple((j + r) % n_bots for j in range(n_bots)) for r in range(n_bots)]
    if mode == "all":
        if n_bots > 6:
            raise TournamentError("rotation 'all' is limited to 6 seats (720 permutations)")
        labels = labels or [str(i) for i in range(n_bots)]
        seen: set[tuple[str, ...]] = set()
        out = []
        for perm in itertools.permutations(range(n_bots)):
            key = tuple(labels[i] for i in perm)
            if key not in seen:
                seen.add(key)
                out.append(perm)
        # Give each copy of a repeated spec every seat equally often: cycle the copies.
        return _spread_copies(out, labels)
    raise TournamentError(f"rotation must be cyclic or all, not {mode!r}")


def _spread_copies(perms: list[tuple[int, ...]], labels: list[str]) -> list[tuple[int, ...]]:
    """Repeat the distinct permutations with the copies of each spec cycled, so that each
    contestant (not only each spec) sits in every seat equally often."""
    groups: dict[str, list[int]] = {}
    for i, lab in enumerate(labels):
        groups.setdefault(lab, []).append(i)
    k = math.lcm(*(len(g) for g in groups.values()))
    out = []
    for shift in range(k):
        for perm in perms:
            new = []
            for c in perm:
                g = groups[labels[c]]
                new.append(g[(g.index(c) + shift) % len(g)])
            out.append(tuple(new))
    return out


def parse_shard(text: str) -> tuple[int, int]:
    """``"K/N"`` (1 <= K <= N) as ``(K, N)``; TournamentError naming what is wrong."""
    parts = [p.strip() for p in text.split("/")]
    if len(parts) != 2 or not all(p.isascii() and p.isdigit() and len(p) <= 9 for p in parts):
        raise TournamentError(f"--shard must be K/N, e.g. 1/3 (shard 1 of 3), not {quoted(text)}")
    k, n = int(parts[0]), int(parts[1])
    if n < 1 or not 1 <= k <= n:
        raise TournamentError(
            f"--shard K/N needs 1 <= K <= N (shards are numbered from 1), not {quoted(text)}"
        )
    return k, n


def _csv(x: Any) -> str:
    if x is None:
        return ""
    return f"{x:.6g}" if isinstance(x, float) else str(x)


def deal_seed(seed: int, deal: int) -> int:
    return derive_seed(seed, "deal", deal)


def play_game(
    cls: type[State], players: int, options: dict[str, Any], game_seed: int, bots: list[Any]
) -> State:
    """Play one game; each bot only ever gets ``seat_view(state, seat)``."""
    state = cls.new(players, options, game_seed)
    for seat in turns(state):
        state.apply(seat, bots[seat].choose(seat_view(state, seat)))
    return state


def places(cls: type[State], players: int, options: dict[str, Any]) -> list[tuple[int, ...]]:
    """The places contestants rotate over: the game's teams (each seat alone by default)."""
    return [tuple(team) for team in cls.new(players, options, 0).teams()]


def _play_deal(
    args: tuple[str, list[str], int, dict[str, Any], int, int, list[tuple[int, ...]], bool],
) -> list[dict[str, Any]]:
    game, specs, players, options, seed, deal, rots, keep = args
    from ..games import get_game

    cls = get_game(game)
    teams = places(cls, players, options)
    hooks = game_part(cls, "balance") if has_part(cls, "balance") else None
    gseed = deal_seed(seed, deal)
    out = []
    for r, lineup in enumerate(rots):
        seat_of = [0] * players  # contestant of each seat
        for place, c in enumerate(lineup):
            for s in teams[place]:
                seat_of[s] = c
        bots = [
            make_bot(specs[seat_of[s]], cls, derive_seed(seed, "bot", deal, r, s)) for s in range(players)
        ]
        state = play_game(cls, players, options, gseed, bots)
        res = {"deal": deal, "rotation": r, "seed": gseed, "lineup": list(lineup)}
        res.update(game_facts(state, seat_of, hooks))
        if keep:
            res["record"] = state.record()
        out.append(res)
    return out


def game_facts(state: State, seat_of: list[int], hooks: Any = None) -> dict[str, Any]:
    """What a tournament keeps of a finished game: scores, parties (score, rank, share),
    moves, the winner's margin, and where the game declares them (its ``balance`` part)
    its length in its own unit and each seat's place in the turn order (0: first)."""
    result = state.result()
    parties = []
    for i, party in enumerate(result.parties):
        share = 1.0 / len(result.winners) if i in result.winners else 0.0
        parties.append(
            {
                "name": party.name,
                "seats": list(party.seats),
                "contestant": seat_of[party.seats[0]] if party.seats else None,
                "score": result.scores[i],
                "rank": result.ranks[i],
                "share": share,
            }
        )
    return {
        "scores": list(state.scores()),
        "returns": list(state.returns()),
        "parties": parties,
        "truncated": result.truncated,
        "moves": len(state.history),
        "length": hooks.length(state) if hooks is not None else None,
        "turn_order": list(hooks.turn_order(state)) if hooks is not None else None,
        "margin": winners_margin(parties, result.truncated),
    }


def winners_margin(parties: list[dict[str, Any]], truncated: bool) -> float | None:
    """The first party's score minus the best score behind it (0 when all share first);
    None for a truncated game or a single party."""
    if truncated or len(parties) < 2:
        return None
    best = min(p["rank"] for p in parties)
    rest = [p["score"] for p in parties if p["rank"] != best]
    if not rest:
        return 0.0
    top = max(p["score"] for p in parties if p["rank"] == best)
    return float(top - max(rest))


@dataclass
class Plan:
    """A checked tournament, ready to play (:func:`plan_tournament`)."""

    config: TournamentConfig
    players: int
    teams: list[tuple[int, ...]]
    labels: list[str]
    rotations: list[tuple[int, ...]]
    deals: int  # in the whole tournament (every shard)
    version: str = ""  # the game's rules version

    @property
    def deal_ids(self) -> range:
        """The deals this run plays: all of them, or its shard's."""
        k, n = self.config.shard or (1, 1)
        return range(k - 1, self.deals, n)

    @property
    def total(self) -> int:
        """Games this run plays (its shard's, if sharded)."""
        return len(self.deal_ids) * len(self.rotations)

    def describe(self) -> dict[str, Any]:
        """Everything that decides the figures (not jobs, backend or shard): the summary's
        ``config``, and what a resume or a merge must find unchanged."""
        c = self.config
        return {
            "game": c.game,
            "bots": list(c.bots),
            "players": self.players,
            "options": dict(c.options),
            "teams": [list(t) for t in self.teams],
            "seed": c.seed,
            "rotation": c.rotation,
            "deals": self.deals,
            "games": self.deals * len(self.rotations),
            "games_per_deal": len(self.rotations),
        }


def plan_tournament(config: TournamentConfig) -> Plan:
    """Check everything about a tournament before any game is played (TournamentError)."""
    from ..games import get_game

    try:
        cls = get_game(config.game)
    except KitiError as exc:
        raise TournamentError(str(exc)) from None
    specs = list(config.bots)
    if not specs:
        raise TournamentError("no bots given")
    players = config.players if config.players is not None else len(specs)
    if not cls.info.min_seats <= players <= cls.info.max_seats:
        raise TournamentError(
            f"{cls.info.name} is for {cls.info.min_seats}-{cls.info.max_seats} players, not {players}"
        )
    for spec in specs:  # fail early, in this process, on a bad spec
        try:
            make_bot(spec, cls, 0)
        except (BotSpecError, ValueError) as exc:
            raise TournamentError(str(exc)) from None
    try:
        teams = places(cls, players, config.options)  # validates the options too
    except KitiError as exc:
        raise TournamentError(str(exc)) from None
    if len(specs) != len(teams):
        what = "team" if len(teams) < players else "seat"
        raise TournamentError(
            f"{len(specs)} bot(s) given for {len(teams)} {what}s: give exactly one bot per {what}"
        )
    for spec in specs:  # a learned policy plays only the tables it was trained for
        try:
            check_table(spec, cls, players, config.options)
        except KitiError as exc:
            raise TournamentError(str(exc)) from None
    rots = lineups(len(teams), config.rotation, [repr(parse_bot_spec(s)) for s in specs])
    deals = max(1, math.ceil(config.games / len(rots)))
    plan = Plan(config, players, teams, contestant_labels(specs), rots, deals, cls.info.version)
    _check_running(plan)
    return plan


def _check_running(plan: Plan) -> None:
    """The shard and the backend, checked before any game (TournamentError)."""
    config = plan.config
    if config.shard is not None and not plan.deal_ids:
        k, n = config.shard
        raise TournamentError(
            f"--shard {k}/{n}: the tournament has only {plan.deals} deal(s), so shard {k} would "
            f"play none; split it into at most {plan.deals} shards"
        )
    try:
        check_backend(config.backend, config.address, config.jobs)
    except RunnerError as exc:
        raise TournamentError(str(exc)) from None
    if config.backend == "ray":
        try:
            import ray  # noqa: F401
        except ImportError:
            raise TournamentError(RAY_MISSING) from None


def deal_task(plan: Plan, deal: int) -> tuple[Any, ...]:
    """The arguments :func:`_play_deal` needs for one deal (picklable)."""
    c = plan.config
    return (c.game, list(c.bots), plan.players, dict(c.options), c.seed, deal, plan.rotations, c.save_records)


def run_tournament(
    config: TournamentConfig | Plan,
    progress: Callable[[int, int], None] | None = None,
    store: Any = None,
) -> dict[str, Any]:
    """Play the tournament (the deals of its shard, if any); return its ``summary``, its
    ``games`` in deal order and ``run`` (how it ran: timing, jobs, backend).

    ``store`` (a :class:`kiti.sim.tournament_file.DealFile`) holds the deals already played
    (a resume) and gets each new deal as soon as it and every deal before it are done."""
    plan = config if isinstance(config, Plan) else plan_tournament(config)
    config = plan.config
    blocks: dict[int, list[dict[str, Any]]] = dict(store.done) if store is not None else {}
    resumed = len(blocks)
    todo = [d for d in plan.deal_ids if d not in blocks]
    count = sum(len(b) for b in blocks.values())
    if progress is not None and count:
        progress(count, plan.total)
    start = time.perf_counter()
    tasks = [deal_task(plan, d) for d in todo]
    for block in run_ordered(
        _play_deal, tasks, backend=config.backend, jobs=config.jobs, address=config.address
    ):
        if store is not None:
            store.append(block)
        blocks[block[0]["deal"]] = block
        count += len(block)
        if progress is not None:
            progress(count, plan.total)
    elapsed = time.perf_counter() - start
    games = [g for d in plan.deal_ids for g in blocks[d]]
    played = len(todo) * len(plan.rotations)
    run = {
        "backend": config.backend,
        "jobs": config.jobs or (os.cpu_count() or 1 if config.backend == "local" else None),
        "shard": list(config.shard) if config.shard else None,
        "deals_played": len(todo),
        "deals_resumed": resumed,
        "elapsed_s": round(elapsed, 3),
        "games_per_s": round(played / elapsed, 2) if elapsed > 0 and played else None,
    }
    return {"summary": tournament_summary(plan.describe(), games), "games": games, "run": run}


def tournament_summary(described: dict[str, Any], games: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures of ``games`` (see :func:`summarize`) with the tournament's ``config``."""
    from ..games import get_game

    summary = summarize(games, contestant_labels(described["bots"]))
    cls = get_game(described["game"])
    summary["length"]["unit"] = game_part(cls, "balance").UNIT if has_part(cls, "balance") else None
    summary["config"] = described
    return summary


def contestant_labels(specs: list[str]) -> list[str]:
    counts: dict[str, int] = {}
    for s in specs:
        counts[s] = counts.get(s, 0) + 1
    seen: dict[str, int] = {}
    out = []
    for s in specs:
        if counts[s] > 1:
            seen[s] = seen.get(s, 0) + 1
            out.append(f"{s}#{seen[s]}")
        else:
            out.append(s)
    return out


def summarize(games: list[dict[str, Any]], labels: list[str]) -> dict[str, Any]:
    """Per contestant, per other party and per place statistics (intervals over deals), and
    ratings; see the module docstring."""
    n = len(labels)
    per: list[dict[str, list[float]]] = [{"win": [], "score": [], "rank": [], "deal": []} for _ in range(n)]
    extra: dict[str, dict[str, list[float]]] = {}  # non-seat parties by name
    place_win: dict[int, list[float]] = {}
    place_deal: dict[int, list[int]] = {}
    for g in games:
        for place, party in enumerate(g["parties"]):
            c = party["contestant"]
            row = (
                per[c]
                if c is not None
                else extra.setdefault(party["name"], {"win": [], "score": [], "rank": [], "deal": []})
            )
            row["win"].append(party["share"])
            row["score"].append(party["score"])
            row["rank"].append(party["rank"])
            row["deal"].append(g["deal"])
            place_win.setdefault(place, []).append(party["share"])
            place_deal.setdefault(place, []).append(g["deal"])
    parties = len(games[0]["parties"]) if games else 1
    fair = 1.0 / parties
    bots = [_line(labels[c], per[c], fair, parties) for c in range(n)]
    others = [_line(name, row, fair, parties) for name, row in extra.items()]
    seats = []
    for place in sorted(place_win):
        ci = stats.share_ci(place_win[place], place_deal[place])
        name = games[0]["parties"][place]["name"]
        seats.append(
            {
                "seat": place,
                "place": name,
                "games": len(place_win[place]),
                "win_share": ci.to_dict(),
                "differs_from_fair": ci.excludes(fair),
            }
        )
    by_deal = [stats.block_means(per[c]["win"], [int(d) for d in per[c]["deal"]]) for c in range(n)]
    pairs = []
    for a in range(n):
        for b in range(a + 1, n):
            diff = stats.paired_difference(by_deal[a], by_deal[b])
            pairs.append(
                {
                    "a": labels[a],
                    "b": labels[b],
                    "win_share_difference": diff.to_dict(),
                    "significant": diff.excludes(0.0),
                }
            )
    deals = len({g["deal"] for g in games})
    warnings = []
    if deals < stats.FEW_DEALS:
        warnings.append(
            f"only {deals} deal(s): too few games to tell the bots apart (play {stats.FEW_DEALS} or more)"
        )
    truncated = sum(1 for g in games if g.get("truncated"))
    if truncated:
        warnings.append(f"{truncated} game(s) reached the move limit and were scored as draws")
    ended = [g for g in games if g.get("margin") is not None]
    measured = [g for g in games if g.get("length") is not None]
    return {
        "fair_share": fair,
        "bots": bots,
        "others": others,
        "seats": seats,
        "pairs": pairs,
        "ratings": ratings(games, labels),
        "moves": spread([g["moves"] for g in games], [g["deal"] for g in games]),
        "length": spread([g["length"] for g in measured], [g["deal"] for g in measured]),
        "margin": spread([g["margin"] for g in ended], [g["deal"] for g in ended]),
        "truncated": truncated,
        "warnings": warnings,
    }


def spread(values: list[float], deals: list[int]) -> dict[str, Any]:
    """Mean (95% interval over deals), standard deviation and quantiles of per-game values."""
    ci = stats.block_ci(values, deals, bounds=(0.0, math.inf))  # lengths and margins are >= 0
    out: dict[str, Any] = {"games": len(values), "mean": ci.mean if values else None}
    out.update(low=ci.low, high=ci.high)
    if not values:
        return dict(out, sd=None, **dict.fromkeys(_QUANTILES))
    mean = math.fsum(values) / len(values)
    sd = math.sqrt(math.fsum((x - mean) ** 2 for x in values) / (len(values) - 1)) if len(values) > 1 else 0.0
    ordered = sorted(values)
    out["sd"] = sd
    for name, q in _QUANTILES.items():
        out[name] = _quantile(ordered, q)
    return out


_QUANTILES = {"min": 0.0, "p10": 0.1, "p25": 0.25, "median": 0.5, "p75": 0.75, "p90": 0.9, "max": 1.0}


def _quantile(ordered: list[float], q: float) -> float:
    """Linear interpolation between the closest ranks (numpy's default method)."""
    h = (len(ordered) - 1) * q
    lo = math.floor(h)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (h - lo) * (ordered[hi] - ordered[lo])


def _line(label: str, row: dict[str, list[float]], fair: float, parties: int) -> dict[str, Any]:
    deals = [int(d) for d in row["deal"]]
    win = stats.share_ci(row["win"], deals)
    k = len(row["win"])
    return {
        "bot": label,
        "games": k,
        "wins": math.fsum(row["win"]),
        "win_share": win.to_dict(),
        "beats_fair_share": win.low is not None and win.low > fair,
        "below_fair_share": win.high is not None and win.high < fair,
        "mean_score": stats.block_ci(row["score"], deals).to_dict(),
        "mean_rank": stats.block_ci(row["rank"], deals, bounds=(1.0, float(parties))).to_dict(),
        "scores": row["score"],
    }


def ratings(games: list[dict[str, Any]], labels: list[str]) -> list[dict[str, Any]] | None:
    """openskill Plackett-Luce ratings, updated game by game in deal order (None without openskill)."""
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        return None
    model = PlackettLuce()
    names = list(labels)
    for g in games[:1]:
        names += [p["name"] for p in g["parties"] if p["contestant"] is None]
    current = {name: model.rating(name=name) for name in names}
    for g in games:
        keys = [labels[p["contestant"]] if p["contestant"] is not None else p["name"] for p in g["parties"]]
        new = model.rate([[current[k]] for k in keys], ranks=[p["rank"] for p in g["parties"]])
        for k, team in zip(keys, new):
            current[k] = team[0]
    return [
        {
            "bot": name,
            "mu": r.mu,
            "sigma": r.sigma,
            "ordinal": r.ordinal(),
            "low": r.mu - 1.96 * r.sigma,
            "high": r.mu + 1.96 * r.sigma,
        }
        for name, r in current.items()
    ]


def slim_summary(summary: dict[str, Any]) -> dict[str, Any]:
    """The summary without the per-game score lists (for results.json and ``--json``)."""

    def strip(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{k: v for k, v in row.items() if k != "scores"} for row in rows]

    return dict(summary, bots=strip(summary["bots"]), others=strip(summary["others"]))


#: games.csv's columns: those of ``kiti balance``'s games.csv that mean the same, in its order.
GAMES_CSV_COLUMNS = (
    "options",
    "deal",
    "game_seed",
    "rotation",
    "seat",
    "turn_order",
    "bot",
    "score",
    "rank",
    "share",
    "moves",
    "length",
    "truncated",
    "margin",
)


def options_text(options: dict[str, Any]) -> str:
    """The options as given, ``name=value`` pairs separated by spaces (games.csv)."""
    return " ".join(f"{k}={v}" for k, v in options.items())


def games_csv(games: list[dict[str, Any]], described: dict[str, Any]) -> str:
    """One row per game and seat (and per party that is no seat, e.g. MOTU's Opponent, its
    seat and turn order empty): the game's seed, the seat's place in the turn order (1:
    first) and score, its party's rank and share, the game's moves, length (in the game's
    unit, where it declares one) and margin."""
    labels = contestant_labels(described["bots"])
    opts = _quote(options_text(described["options"]))
    rows = [",".join(GAMES_CSV_COLUMNS)]
    for g in games:
        head = f"{opts},{g['deal']},{g['seed']},{g['rotation']}"
        tail = f"{g['moves']},{_csv(g['length'])},{str(g['truncated']).lower()},{_csv(g['margin'])}"
        for p in g["parties"]:
            bot = _quote(labels[p["contestant"]] if p["contestant"] is not None else p["name"])
            rank, share = _csv(p["rank"]), _csv(p["share"])
            seats = [(str(s), _csv(g["scores"][s])) for s in p["seats"]] or [("", _csv(p["score"]))]
            for seat, score in seats:
                order = _csv(g["turn_order"][int(seat)] + 1) if seat and g.get("turn_order") else ""
                rows.append(f"{head},{seat},{order},{bot},{score},{rank},{share},{tail}")
    return "\n".join(rows) + "\n"


def _quote(text: str) -> str:
    """A CSV field: quoted when it holds a comma, a quote or a space."""
    if any(ch in text for ch in ',"\n '):
        return '"' + text.replace('"', '""') + '"'
    return text


def write_outputs(result: dict[str, Any], out: str | Path, records: bool = False) -> list[Path]:
    """Write results.json, results.csv, games.csv, run.json, plots and (optionally) one
    record per game under ``out``."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    summary = result["summary"]
    written = []
    p = out / "games.csv"
    p.write_text(games_csv(result["games"], summary["config"]), "utf-8")
    written.append(p)
    written.append(write_run(result, out))
    slim = slim_summary(summary)
    p = out / "results.json"
    p.write_text(json.dumps(slim, indent=2, allow_nan=False) + "\n", "utf-8")
    written.append(p)
    p = out / "results.csv"
    rows = [
        "bot,games,wins,win_share,win_low,win_high,mean_score,score_low,score_high,"
        "mean_rank,rank_low,rank_high,mu,sigma,ordinal"
    ]
    rat = {r["bot"]: r for r in (summary["ratings"] or [])}
    for b in summary["bots"] + summary["others"]:
        r = rat.get(b["bot"], {})
        w, sc, rk = b["win_share"], b["mean_score"], b["mean_rank"]
        label = '"' + b["bot"].replace('"', '""') + '"'
        rows.append(
            ",".join(
                [label]
                + [
                    _csv(x)
                    for x in (
                        b["games"],
                        b["wins"],
                        w["mean"],
                        w["low"],
                        w["high"],
                        sc["mean"],
                        sc["low"],
                        sc["high"],
                        rk["mean"],
                        rk["low"],
                        rk["high"],
                        r.get("mu", ""),
                        r.get("sigma", ""),
                        r.get("ordinal", ""),
                    )
                ]
            )
        )
    p.write_text("\n".join(rows) + "\n", "utf-8")
    written.append(p)
    from .plots import make_plots

    written.extend(make_plots(summary, out))
    if records:
        rec_dir = out / "records"
        rec_dir.mkdir(exist_ok=True)
        for g in result["games"]:
            if "record" in g:
                p = rec_dir / record_name(g)
                p.write_text(json.dumps(g["record"]) + "\n", "utf-8")
        written.append(rec_dir)
    return written


def record_name(game: dict[str, Any]) -> str:
    """The file in ``records/`` of one game (its deal and rotation)."""
    return f"deal{game['deal']:05d}-rot{game['rotation']:02d}.json"


def write_run(result: dict[str, Any], out: str | Path) -> Path:
    """run.json: how the run went (backend, jobs, time, deals resumed), apart from the
    figures so that results.json depends only on the arguments."""
    p = Path(out) / "run.json"
    p.write_text(json.dumps(result.get("run", {}), indent=2, allow_nan=False) + "\n", "utf-8")
    return p
