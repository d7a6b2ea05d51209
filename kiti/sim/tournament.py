"""Tournaments: duplicate deals with rotated seats, in parallel, reproducible from a seed.

Design:

* **Contestants** are the entries of the bot lineup (``--bots``), one per seat; the same
  spec twice gives two contestants (``heuristic#1``, ``heuristic#2``), each with its own
  statistics and fair share ``1/players``.
* **Duplicate deals.**  Deal ``i`` is a game seed derived from the tournament seed.  It is
  replayed once for every *rotation* of the lineup over the seats: with ``cyclic``
  rotations (default) rotation ``r`` seats contestant ``(j + r) mod n`` in seat ``j``, so
  in every deal each contestant sits in every seat exactly once; with ``all`` every
  distinct permutation of the lineup is played (only for small seat counts).  The
  deck depends only on the game seed, so the luck of the cards and of the seats cancels.
  ``games`` is rounded up to whole deal blocks.
* **Reproducibility.**  Every game's seed and every bot's seed are pure functions of
  (tournament seed, deal, rotation, seat); deals are farmed out to worker processes and
  the results are put back in deal order, so the numbers do not depend on ``jobs``.
* **Bots see views only**: every decision is ``bot.choose(seat_view(state, seat))``.
* **Statistics** (:mod:`kiti.sim.stats`): per contestant and per seat, intervals treat a
  deal block as one sample; the openskill Plackett-Luce rating is updated game by game in
  deal order, its interval is ``mu +/- 1.96 sigma``.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.seatview import seat_view
from ..bots.registry import BotSpecError, make_bot, parse_bot_spec
from ..core.errors import KitiError
from ..core.game import State
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


def _derive(seed: int, *parts: int | str) -> int:
    return random.Random(":".join(map(str, ("kiti", seed, *parts)))).getrandbits(63)


def deal_seed(seed: int, deal: int) -> int:
    return _derive(seed, "deal", deal)


def play_game(cls: type[State], players: int, options: dict[str, Any], game_seed: int,
              bots: list[Any]) -> State:
    """Play one game; each bot only ever gets ``seat_view(state, seat)``."""
    state = cls.new(players, options, game_seed)
    for seat in turns(state):
        state.apply(seat, bots[seat].choose(seat_view(state, seat)))
    if not state.is_over():  # pragma: no cover - a game that stalls
        raise TournamentError("the game stopped without ending")
    return state


def _play_deal(args: tuple[str, list[str], int, dict[str, Any], int, int, list[tuple[int, ...]], bool]
               ) -> list[dict[str, Any]]:
    game, specs, players, options, seed, deal, rots, keep = args
    from ..games import get_game

    cls = get_game(game)
    gseed = deal_seed(seed, deal)
    out = []
    for r, lineup in enumerate(rots):
        bots = [make_bot(specs[c], cls, _derive(seed, "bot", deal, r, j)) for j, c in enumerate(lineup)]
        state = play_game(cls, players, options, gseed, bots)
        res = {
            "deal": deal,
            "rotation": r,
            "seed": gseed,
            "lineup": list(lineup),
            "scores": list(state.scores()),
            "returns": list(state.returns()),
        }
        if keep:
            res["record"] = state.record()
        out.append(res)
    return out


def run_tournament(config: TournamentConfig,
                   progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Play the tournament; return the raw games and the summary (see :func:`summarize`)."""
    from ..games import get_game

    cls = get_game(config.game)
    specs = list(config.bots)
    if not specs:
        raise TournamentError("no bots given")
    players = config.players if config.players is not None else len(specs)
    if len(specs) != players:
        raise TournamentError(
            f"{len(specs)} bot(s) given for {players} seats: give exactly one bot per seat")
    if not cls.info.min_seats <= players <= cls.info.max_seats:
        raise TournamentError(
            f"{cls.info.name} is for {cls.info.min_seats}-{cls.info.max_seats} players, not {players}")
    for spec in specs:  # fail early, in this process, on a bad spec
        try:
            make_bot(spec, cls, 0)
        except (BotSpecError, ValueError) as exc:
            raise TournamentError(str(exc)) from None
    cls.new(players, config.options, 0)  # validate options early
    labels = contestant_labels(specs)
    rots = lineups(players, config.rotation, [repr(parse_bot_spec(s)) for s in specs])
    per_deal = len(rots)
    deals = max(1, math.ceil(config.games / per_deal))
    total = deals * per_deal
    jobs = config.jobs or os.cpu_count() or 1
    tasks = [(config.game, specs, players, dict(config.options), config.seed, d, rots,
              config.save_records) for d in range(deals)]
    results: list[list[dict[str, Any]]] = [[] for _ in range(deals)]
    start = time.perf_counter()
    done = 0
    for block in _map(tasks, jobs):
        results[block[0]["deal"]] = block
        done += len(block)
        if progress is not None:
            progress(done, total)
    elapsed = time.perf_counter() - start
    games = [g for block in results for g in block]
    summary = summarize(games, labels, players)
    summary["config"] = {
        "game": config.game, "bots": specs, "players": players, "options": dict(config.options),
        "seed": config.seed, "rotation": config.rotation, "deals": deals,
        "games": total, "games_per_deal": per_deal, "jobs": jobs,
    }
    summary["elapsed_s"] = round(elapsed, 3)
    summary["games_per_s"] = round(total / elapsed, 2) if elapsed > 0 else None
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


def summarize(games: list[dict[str, Any]], labels: list[str], players: int) -> dict[str, Any]:
    """Per contestant and per seat statistics (intervals over deal blocks) and ratings."""
    n = len(labels)
    per: list[dict[str, list[float]]] = [
        {"win": [], "score": [], "rank": [], "deal": []} for _ in range(n)]
    seat_win: list[list[float]] = [[] for _ in range(players)]
    seat_deal: list[list[int]] = [[] for _ in range(players)]
    for g in games:
        ranks = stats.average_ranks(g["scores"])
        for seat, c in enumerate(g["lineup"]):
            p = per[c]
            p["win"].append(g["returns"][seat])
            p["score"].append(g["scores"][seat])
            p["rank"].append(ranks[seat])
            p["deal"].append(g["deal"])
            seat_win[seat].append(g["returns"][seat])
            seat_deal[seat].append(g["deal"])
    fair = 1.0 / players
    bots = []
    for c in range(n):
        p = per[c]
        deals = [int(d) for d in p["deal"]]
        win = stats.block_ci(p["win"], deals)
        k = len(p["win"])
        bots.append({
            "bot": labels[c],
            "games": k,
            "wins": math.fsum(p["win"]),
            "wins_ci": [win.low * k, win.high * k],
            "win_share": win.to_dict(),
            "beats_fair_share": win.low > fair,
            "below_fair_share": win.high < fair,
            "mean_score": stats.block_ci(p["score"], deals).to_dict(),
            "mean_rank": stats.block_ci(p["rank"], deals).to_dict(),
            "scores": p["score"],
        })
    seats = []
    for s in range(players):
        ci = stats.block_ci(seat_win[s], seat_deal[s])
        seats.append({"seat": s, "games": len(seat_win[s]), "win_share": ci.to_dict(),
                      "differs_from_fair": ci.excludes(fair)})
    # Paired comparisons by deal between every two contestants.
    by_deal = [stats.block_means(per[c]["win"], [int(d) for d in per[c]["deal"]]) for c in range(n)]
    pairs = []
    for a in range(n):
        for b in range(a + 1, n):
            diff = stats.paired_difference(by_deal[a], by_deal[b])
            pairs.append({"a": labels[a], "b": labels[b], "win_share_difference": diff.to_dict(),
                          "significant": diff.excludes(0.0)})
    return {"fair_share": fair, "bots": bots, "seats": seats, "pairs": pairs,
            "ratings": ratings(games, labels)}


def ratings(games: list[dict[str, Any]], labels: list[str]) -> list[dict[str, Any]] | None:
    """openskill Plackett-Luce ratings, updated game by game in deal order (None without openskill)."""
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        return None
    model = PlackettLuce()
    current = [model.rating(name=lab) for lab in labels]
    for g in games:
        order = g["lineup"]
        teams = [[current[c]] for c in order]
        ranks = stats.average_ranks(g["scores"])
        new = model.rate(teams, ranks=ranks)
        for seat, c in enumerate(order):
            current[c] = new[seat][0]
    return [{"bot": lab, "mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal(),
             "low": r.mu - 1.96 * r.sigma, "high": r.mu + 1.96 * r.sigma}
            for lab, r in zip(labels, current)]


def write_outputs(result: dict[str, Any], out: str | Path, records: bool = False) -> list[Path]:
    """Write results.json, results.csv, plots and (optionally) one record per game under ``out``."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    summary = result["summary"]
    written = []
    slim = dict(summary, bots=[{k: v for k, v in b.items() if k != "scores"} for b in summary["bots"]])
    p = out / "results.json"
    p.write_text(json.dumps(slim, indent=2) + "\n", "utf-8")
    written.append(p)
    p = out / "results.csv"
    rows = ["bot,games,wins,win_share,win_low,win_high,mean_score,score_low,score_high,"
            "mean_rank,rank_low,rank_high,mu,sigma,ordinal"]
    rat = {r["bot"]: r for r in (summary["ratings"] or [])}
    for b in summary["bots"]:
        r = rat.get(b["bot"], {})
        w, sc, rk = b["win_share"], b["mean_score"], b["mean_rank"]
        label = '"' + b["bot"].replace('"', '""') + '"'
        rows.append(",".join([label] + [f"{x:.6g}" if isinstance(x, float) else str(x) for x in (
            b["games"], b["wins"], w["mean"], w["low"], w["high"], sc["mean"], sc["low"], sc["high"],
            rk["mean"], rk["low"], rk["high"], r.get("mu", ""), r.get("sigma", ""),
            r.get("ordinal", ""))]))
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
