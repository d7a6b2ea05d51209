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
  (tournament seed, deal, rotation, seat); deals are farmed out to worker processes and
  put back in deal order, so the numbers do not depend on ``jobs``.
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
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..bots.registry import BotSpecError, make_bot, parse_bot_spec
from ..core.chance import derive_seed
from ..core.errors import KitiError
from ..core.game import State
from ..core.seatview import seat_view
from ..core.turns import turns
from . import stats


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
        res = {
            "deal": deal,
            "rotation": r,
            "seed": gseed,
            "lineup": list(lineup),
            "scores": list(state.scores()),
            "returns": list(state.returns()),
            "parties": parties,
            "truncated": result.truncated,
        }
        if keep:
            res["record"] = state.record()
        out.append(res)
    return out


@dataclass
class Plan:
    """A checked tournament, ready to play (:func:`plan_tournament`)."""

    config: TournamentConfig
    players: int
    teams: list[tuple[int, ...]]
    labels: list[str]
    rotations: list[tuple[int, ...]]
    deals: int

    @property
    def total(self) -> int:
        return self.deals * len(self.rotations)


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
    rots = lineups(len(teams), config.rotation, [repr(parse_bot_spec(s)) for s in specs])
    deals = max(1, math.ceil(config.games / len(rots)))
    return Plan(config, players, teams, contestant_labels(specs), rots, deals)


def run_tournament(
    config: TournamentConfig | Plan, progress: Callable[[int, int], None] | None = None
) -> dict[str, Any]:
    """Play the tournament; return the raw games and the summary (see :func:`summarize`)."""
    plan = config if isinstance(config, Plan) else plan_tournament(config)
    config = plan.config
    jobs = config.jobs or os.cpu_count() or 1
    tasks = [
        (
            config.game,
            list(config.bots),
            plan.players,
            dict(config.options),
            config.seed,
            d,
            plan.rotations,
            config.save_records,
        )
        for d in range(plan.deals)
    ]
    results: list[list[dict[str, Any]]] = [[] for _ in range(plan.deals)]
    start = time.perf_counter()
    done = 0
    for block in _map(tasks, jobs):
        results[block[0]["deal"]] = block
        done += len(block)
        if progress is not None:
            progress(done, plan.total)
    elapsed = time.perf_counter() - start
    games = [g for block in results for g in block]
    summary = summarize(games, plan.labels)
    summary["config"] = {
        "game": config.game,
        "bots": list(config.bots),
        "players": plan.players,
        "options": dict(config.options),
        "teams": [list(t) for t in plan.teams],
        "seed": config.seed,
        "rotation": config.rotation,
        "deals": plan.deals,
        "games": plan.total,
        "games_per_deal": len(plan.rotations),
        "jobs": jobs,
    }
    summary["elapsed_s"] = round(elapsed, 3)
    summary["games_per_s"] = round(plan.total / elapsed, 2) if elapsed > 0 else None
    return {"summary": summary, "games": games}


def _map(tasks: list[Any], jobs: int) -> Iterator[list[dict[str, Any]]]:
    if jobs <= 1 or len(tasks) <= 1:
        for t in tasks:
            yield _play_deal(t)
        return
    import multiprocessing as mp

    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
    with ctx.Pool(min(jobs, len(tasks))) as pool:
        yield from pool.imap_unordered(_play_deal, tasks, chunksize=1)


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
            f"only {deals} deal(s): too few games to tell the bots apart; "
            f"play at least {stats.FEW_DEALS} deals"
        )
    truncated = sum(1 for g in games if g.get("truncated"))
    if truncated:
        warnings.append(f"{truncated} game(s) reached the move limit and were scored as draws")
    return {
        "fair_share": fair,
        "bots": bots,
        "others": others,
        "seats": seats,
        "pairs": pairs,
        "ratings": ratings(games, labels),
        "warnings": warnings,
    }


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


def write_outputs(result: dict[str, Any], out: str | Path, records: bool = False) -> list[Path]:
    """Write results.json, results.csv, plots and (optionally) one record per game under ``out``."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    summary = result["summary"]
    written = []
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
                p = rec_dir / f"deal{g['deal']:05d}-rot{g['rotation']:02d}.json"
                p.write_text(json.dumps(g["record"]) + "\n", "utf-8")
        written.append(rec_dir)
    return written
