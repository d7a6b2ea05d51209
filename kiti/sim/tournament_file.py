"""A tournament's deals on file (``deals.jsonl``): what lets a run resume, and shards merge.

The file has one JSON object per line.  The first line is the header: what decides the
figures (the summary's ``config``: game, bots, seats, options, seed, rotation, deals), the
game's rules version and the shard (``[k, n]``, or null for the whole tournament).  Every
other line is one deal: ``{"deal": i, "games": [...]}``, the deal's games in rotation
order, exactly as :func:`kiti.sim.tournament.run_tournament` returns them (without game
records, which go to ``records/`` as each deal finishes).

Deals are appended in the order the run plays them (deal order) as soon as a deal and
every deal before it are done, and each line is flushed at once, so a run stopped at any
moment (Ctrl-C, a closed terminal, ``kill -9``) leaves whole lines and at most one torn
last line.  A resume keeps the whole lines, drops a torn one, checks that the header
matches the arguments of the resumed run, and plays the rest; since JSON gives floats back
exactly, the figures equal an uninterrupted run's.  :func:`merge_deals` puts complete
shards back together into the file of one unsharded run.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from ..core.errors import quoted
from .tournament import Plan, TournamentError, record_name, tournament_summary

DEALS = "deals.jsonl"
KIND = "kiti tournament deals"
FORMAT = 1

#: What a resume or a merge checks, and how to name it to a person.
_ARGUMENTS = {
    "game": "GAME",
    "bots": "--bots",
    "players": "--players",
    "options": "--option",
    "seed": "--seed",
    "rotation": "--rotation",
    "games": "--games",
    "version": "the game's rules version",
    "shard": "--shard",
}


def header_for(plan: Plan) -> dict[str, Any]:
    """The first line of ``deals.jsonl`` for ``plan``."""
    shard = list(plan.config.shard) if plan.config.shard else None
    return {
        "kind": KIND,
        "format": FORMAT,
        "config": plan.describe(),
        "version": plan.version,
        "shard": shard,
    }


class DealFile:
    """``deals.jsonl`` open for appending, with the deals it already holds (``done``)."""

    def __init__(self, out: Path, handle: TextIO, done: dict[int, list[dict[str, Any]]]) -> None:
        self.out = out
        self.handle = handle
        self.done = done

    def append(self, block: list[dict[str, Any]]) -> None:
        """Write one deal: its records (if kept) first, then its line, flushed."""
        for g in block:
            record = g.pop("record", None)
            if record is not None:
                folder = self.out / "records"
                folder.mkdir(exist_ok=True)
                (folder / record_name(g)).write_text(json.dumps(record) + "\n", "utf-8")
        self.handle.write(_line({"deal": block[0]["deal"], "games": block}))
        self.handle.flush()

    def close(self) -> None:
        self.handle.close()


def _line(obj: dict[str, Any]) -> str:
    return json.dumps(obj, allow_nan=False, separators=(",", ":")) + "\n"


def open_deals(out: str | Path, plan: Plan, resume: bool = False) -> DealFile:
    """Start ``out/deals.jsonl`` afresh, or (``resume``) continue the one there: its whole
    lines are kept when its header matches ``plan`` (TournamentError naming each
    difference otherwise), a torn last line is dropped."""
    out = Path(out)
    path = out / DEALS
    header = header_for(plan)
    done: dict[int, list[dict[str, Any]]] = {}
    found = read_deals(path) if resume and path.exists() else (None, [], 0)
    old, blocks, good = found
    if old is None:
        out.mkdir(parents=True, exist_ok=True)
        handle = path.open("w", encoding="utf-8")
        handle.write(_line(header))
        handle.flush()
        return DealFile(out, handle, done)
    differences = _differences(old, header, "there", "now")
    if differences:
        raise TournamentError(
            f"--resume: {path} holds a tournament played with other arguments ("
            + "; ".join(differences)
            + "): give the same arguments, or another --out folder"
        )
    expected = iter(plan.deal_ids)
    for lineno, block in blocks:
        _check_block(path, lineno, block, next(expected, None), header["config"])
        done[block["deal"]] = block["games"]
    if plan.config.save_records:
        _check_records(out, done)
    handle = path.open("r+", encoding="utf-8")
    handle.truncate(good)  # drop a torn last line
    handle.seek(good)
    return DealFile(out, handle, done)


def _check_records(out: Path, done: dict[int, list[dict[str, Any]]]) -> None:
    """With ``--save-records``, a resumed run's deals on file must have their records: a run
    begun without them would end with a records folder that lacks its first deals."""
    missing = [
        g for games in done.values() for g in games if not (out / "records" / record_name(g)).is_file()
    ]
    if missing:
        raise TournamentError(
            f"--save-records: {len(missing)} game(s) on file in {out / DEALS} have no record in "
            f"{out / 'records'} (the run began without --save-records): resume without it, or "
            "start afresh without --resume"
        )


def read_deals(path: Path) -> tuple[dict[str, Any] | None, list[tuple[int, dict[str, Any]]], int]:
    """(header, [(line number, deal line)], bytes of whole lines) of a deal file; the header is
    None when not even it was written whole.  A torn last line is left out."""
    data = path.read_bytes()
    whole = data[: data.rfind(b"\n") + 1]
    lines = whole.split(b"\n")[:-1]
    if not lines:
        return None, [], 0
    try:
        header = json.loads(lines[0])
    except ValueError:
        header = None
    if not isinstance(header, dict) or header.get("kind") != KIND:
        raise TournamentError(f"{path} is not the deal file of a Kiti tournament")
    if header.get("format") != FORMAT:
        raise TournamentError(f"{path} is in format {quoted(header.get('format'))}; this Kiti reads {FORMAT}")
    if not _header_ok(header):
        raise TournamentError(f"{path}, line 1, is damaged (not the header a tournament writes)")
    blocks = []
    for lineno, raw in enumerate(lines[1:], start=2):
        try:
            blocks.append((lineno, json.loads(raw)))
        except ValueError:
            raise TournamentError(f"{path}, line {lineno}, is damaged (not JSON)") from None
    return header, blocks, len(whole)


def _check_block(path: Path, lineno: int, block: Any, deal: int | None, config: dict[str, Any]) -> None:
    """A deal line as this tournament (its header's ``config``) writes it: the deal expected,
    its games in rotation order, every figure of the type and range a game gives it
    (TournamentError naming the line otherwise: a damaged or hand-edited file)."""
    games = config["games_per_deal"]
    ok = isinstance(block, dict) and isinstance(block.get("games"), list) and len(block["games"]) == games
    if not ok:
        raise TournamentError(f"{path}, line {lineno}, is not a deal of {games} game(s)")
    if block.get("deal") != deal:
        where = "no further deal" if deal is None else f"deal {deal}"
        raise TournamentError(
            f"{path}, line {lineno}, holds deal {quoted(block.get('deal'))} where {where} was expected"
        )
    for rotation, game in enumerate(block["games"]):
        if not _game_ok(game, deal, rotation, config["players"], len(config["bots"])):
            raise TournamentError(
                f"{path}, line {lineno}, is damaged (game {rotation + 1} of deal {deal} is not as "
                "a tournament writes it): delete it and the lines after it, then --resume"
            )


def _game_ok(g: Any, deal: int | None, rotation: int, players: int, bots: int) -> bool:
    """One game of a deal line as :func:`kiti.sim.tournament.game_facts` gives it (its parties
    two at least, each seat in one of them: the ratings rank them)."""
    if not isinstance(g, dict):
        return False
    parties = g.get("parties")
    return (
        g.get("deal") == deal
        and g.get("rotation") == rotation
        and _is_int(g.get("seed"))
        and _ints(g.get("lineup"), bots)
        and _nums(g.get("scores"))
        and _nums(g.get("returns"))
        and len(g["scores"]) == len(g["returns"]) == players
        and isinstance(parties, list)
        and len(parties) >= 2
        and all(_party_ok(p, players, bots) for p in parties)
        and sorted(s for p in parties for s in p["seats"]) == list(range(players))  # each seat once
        and isinstance(g.get("truncated"), bool)
        and _is_int(g.get("moves"))
        and (g.get("length") is None or _is_num(g["length"]))
        and (
            g.get("turn_order") is None
            or (_ints(g["turn_order"], players) and len(g["turn_order"]) == players)
        )
        and (g.get("margin") is None or _is_num(g["margin"]))
    )


def _party_ok(p: Any, players: int, bots: int) -> bool:
    return (
        isinstance(p, dict)
        and isinstance(p.get("name"), str)
        and _ints(p.get("seats"), players)
        and (p.get("contestant") is None or _ints([p["contestant"]], bots))
        and all(_is_num(p.get(k)) for k in ("score", "rank", "share"))
    )


def _header_ok(header: dict[str, Any]) -> bool:
    """The header's parts a resume or a merge reads: the game, its options, the bots, the
    tournament's size and its shard."""
    config, shard = header.get("config"), header.get("shard")
    return (
        isinstance(config, dict)
        and isinstance(config.get("game"), str)
        and isinstance(config.get("options"), dict)
        and all(_is_int(config.get(k)) and config[k] >= 1 for k in ("deals", "games_per_deal", "players"))
        and isinstance(config.get("bots"), list)
        and len(config["bots"]) >= 1
        and all(isinstance(b, str) for b in config["bots"])
        and (shard is None or (_ints(shard, 10**9 + 1) and len(shard) == 2 and 1 <= shard[0] <= shard[1]))
    )


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_num(x: Any) -> bool:
    return (_is_int(x) or isinstance(x, float)) and abs(x) != float("inf") and x == x


def _ints(x: Any, below: int) -> bool:
    """A list of integers 0 to ``below - 1`` (seats, contestants)."""
    return isinstance(x, list) and all(_is_int(v) and 0 <= v < below for v in x)


def _nums(x: Any) -> bool:
    return isinstance(x, list) and all(_is_num(v) for v in x)


def _differences(old: dict[str, Any], new: dict[str, Any], there: str, here: str) -> list[str]:
    """Each argument that differs between two headers, named as on the command line."""
    a = dict(old.get("config", {}), version=old.get("version"), shard=old.get("shard"))
    b = dict(new.get("config", {}), version=new.get("version"), shard=new.get("shard"))
    out = []
    for key, name in _ARGUMENTS.items():
        if a.get(key) != b.get(key):
            out.append(f"{name}: {_show(key, a.get(key))} {there}, {_show(key, b.get(key))} {here}")
    if not out and a != b:
        out.append(f"the tournament's settings differ {there} and {here}")
    return out


def _show(key: str, value: Any) -> str:
    if key == "shard":
        return "none" if value is None else f"{value[0]}/{value[1]}"
    if key == "bots" and isinstance(value, list):
        return quoted(",".join(map(str, value)))
    if key == "options" and isinstance(value, dict):
        return quoted(" ".join(f"{k}={v}" for k, v in value.items())) if value else "none"
    return quoted(value)


def merge_deals(folders: Sequence[str | Path], out: str | Path) -> dict[str, Any]:
    """Put the shards in ``folders`` (each a finished ``--shard`` run's ``--out``) together:
    check that they belong to one tournament and hold every deal once, write
    ``out/deals.jsonl`` as one unsharded run would (records copied too) and return the
    result (summary and games) of the whole tournament."""
    out = Path(out)
    paths = [Path(f) for f in folders]
    if not paths:
        raise TournamentError("give the folders of the shards to merge")
    if any(p.resolve() == out.resolve() for p in paths):
        raise TournamentError(f"--out {out} is one of the shards: write the merge to a new folder")
    shards = [_read_shard(p) for p in paths]
    first, first_header, _ = shards[0]
    for folder, header, _ in shards[1:]:
        diff = _differences(
            dict(first_header, shard=None), dict(header, shard=None), f"in {first}", f"in {folder}"
        )
        if diff:
            raise TournamentError(
                f"{folder} is not a shard of the tournament in {first} (" + "; ".join(diff) + ")"
            )
    blocks = _cover(shards, first_header["config"]["deals"])
    with_records = [folder for folder, _, _ in shards if (folder / "records").is_dir()]
    if with_records and len(with_records) != len(shards):
        without = next(folder for folder, _, _ in shards if folder not in with_records)
        raise TournamentError(
            f"{with_records[0]} keeps its games' records and {without} does not: play every shard "
            "with --save-records, or move the records folders away to merge without them"
        )
    out.mkdir(parents=True, exist_ok=True)
    with (out / DEALS).open("w", encoding="utf-8") as handle:
        handle.write(_line(dict(first_header, shard=None)))
        for deal in range(len(blocks)):
            handle.write(_line({"deal": deal, "games": blocks[deal]}))
    for folder, _, _ in shards:
        if (folder / "records").is_dir():
            shutil.copytree(folder / "records", out / "records", dirs_exist_ok=True)
    games = [g for block in blocks for g in block]
    run = {"merged": [str(p) for p in paths], "shards": [h["shard"] for _, h, _ in shards]}
    return {"summary": tournament_summary(first_header["config"], games), "games": games, "run": run}


def _read_shard(folder: Path) -> tuple[Path, dict[str, Any], dict[int, list[dict[str, Any]]]]:
    """A finished run's header and deals (TournamentError if missing or unfinished)."""
    path = folder / DEALS
    if not path.is_file():
        raise TournamentError(f"{folder} holds no {DEALS}: give the --out folders of tournament runs")
    header, blocks, _ = read_deals(path)
    if header is None:
        raise TournamentError(f"{path} is empty: that run stopped before its first deal")
    k, n = header["shard"] or (1, 1)
    expected = range(k - 1, header["config"]["deals"], n)
    deals: dict[int, list[dict[str, Any]]] = {}
    for (lineno, block), deal in zip(blocks, expected):
        _check_block(path, lineno, block, deal, header["config"])
        deals[deal] = block["games"]
    if len(deals) != len(expected):
        which = f"shard {k}/{n}" if header["shard"] else "the tournament"
        raise TournamentError(
            f"{folder} holds {len(deals)} of the {len(expected)} deals of {which}: finish that run "
            "first (the same command with --resume)"
        )
    return folder, header, deals


def _cover(shards: list[tuple[Path, dict[str, Any], dict[int, Any]]], deals: int) -> list[Any]:
    """Every deal's games from the one shard that has it (TournamentError if doubled or missing)."""
    owner: dict[int, Path] = {}
    blocks: list[Any] = [None] * deals
    for folder, _, held in shards:
        for deal, games in held.items():
            if deal in owner:
                raise TournamentError(
                    f"deal {deal} is in both {owner[deal]} and {folder}: give each shard once"
                )
            owner[deal] = folder
            blocks[deal] = games
    missing = [d for d in range(deals) if d not in owner]
    if missing:
        shown = ", ".join(map(str, missing[:8])) + (", ..." if len(missing) > 8 else "")
        n = shards[0][1]["shard"][1] if shards[0][1]["shard"] else 1
        lacking = sorted({d % n + 1 for d in missing})
        hint = ", ".join(f"{k}/{n}" for k in lacking)
        raise TournamentError(
            f"{len(missing)} deal(s) are in none of the folders ({shown}): shard(s) {hint} missing"
        )
    return blocks
