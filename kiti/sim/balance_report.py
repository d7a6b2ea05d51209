"""What ``kiti balance`` writes: games.csv, summary.json, report.md and the plots.

``games.csv`` has one row per game and seat, in the order the games were planned (cell,
deal, rotation, seat), with numbers written the same way every time: the same seed gives
the same file byte for byte, whatever the backend or the number of jobs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .balance import Game, Plan

CSV_HEAD = (
    "cell,players,{options}deal,game_seed,rotation,seat,turn_order,bot,score,rank,share,"
    "moves,length,truncated,margin"
)


def _num(x: float | int | None) -> str:
    if x is None:
        return ""
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, float) and x.is_integer():
        return str(int(x))
    return f"{x:.6g}" if isinstance(x, float) else str(x)


def _text(value: Any) -> str:
    text = _num(value) if isinstance(value, (bool, int, float)) else str(value)
    if any(c in text for c in ',"\n'):
        return '"' + text.replace('"', '""') + '"'
    return text


def games_csv(plan: Plan, games: list[Game]) -> str:
    """One row per game x seat (turn_order: 1 for the seat that starts)."""
    names = list(plan.config.grid)
    lines = [CSV_HEAD.format(options="".join(n + "," for n in names))]
    for g in games:
        cell = plan.cells[g.cell]
        out = g.out
        head = [str(g.cell), str(cell.players), *(_text(cell.options[n]) for n in names)]
        for seat in range(cell.players):
            row = [
                *head,
                str(g.deal),
                str(g.seed),
                str(g.rotation),
                str(seat),
                str(out.turn_order[seat] + 1),
                _text(g.specs[seat]),
                _num(out.scores[seat]),
                _num(out.ranks[seat]),
                _num(out.shares[seat]),
                str(out.moves),
                str(out.length),
                _num(out.truncated),
                _num(out.margin),
            ]
            lines.append(",".join(row))
    return "\n".join(lines) + "\n"


def write_outputs(plan: Plan, games: list[Game], summary: dict[str, Any], out: str | Path) -> list[Path]:
    """Write games.csv, summary.json, the plots and report.md under ``out``."""
    from .plots import balance_plots

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    p = folder / "games.csv"
    p.write_text(games_csv(plan, games), "utf-8")
    written.append(p)
    p = folder / "summary.json"
    p.write_text(json.dumps(summary, indent=2, allow_nan=False) + "\n", "utf-8")
    written.append(p)
    samples: dict[str, list[list[float]]] = {
        key: [[] for _ in plan.cells] for key in ("length", "moves", "margin")
    }
    for g in games:
        samples["length"][g.cell].append(float(g.out.length))
        samples["moves"][g.cell].append(float(g.out.moves))
        if g.out.margin is not None:
            samples["margin"][g.cell].append(g.out.margin)
    plots = balance_plots(summary, samples, folder)
    written.extend(plots)
    p = folder / "report.md"
    p.write_text(report(summary, [x.name for x in plots]), "utf-8")
    written.append(p)
    return written


def _pct(d: dict[str, Any] | None) -> str:
    if d is None or d.get("mean") is None:
        return "n/a"
    if d.get("low") is None or d.get("high") is None:
        return f"{100 * d['mean']:.1f}%"
    return f"{100 * d['mean']:.1f}% ({100 * d['low']:.1f}-{100 * d['high']:.1f})"


def _val(d: dict[str, Any] | None, digits: int = 1) -> str:
    if d is None or d.get("mean") is None:
        return "n/a"
    if d.get("low") is None or d.get("high") is None:
        return f"{d['mean']:.{digits}f}"
    return f"{d['mean']:.{digits}f} ({d['low']:.{digits}f} to {d['high']:.{digits}f})"


def report(summary: dict[str, Any], plots: list[str]) -> str:
    """report.md: readable on its own (what was played, then each figure in words)."""
    parts = [_intro(summary), _cells(summary), _effects(summary), _cards(summary)]
    parts.append("## Plots\n\n" + "\n".join(f"![{p}]({p})" for p in plots) + "\n")
    return "\n".join(parts)


def _intro(s: dict[str, Any]) -> str:
    c = s["config"]
    lines = [
        f"# Balance of {c['name']}",
        "",
        f"{c['games']:,} games played by bots ({', '.join(c['bots'])}) with seed {c['seed']}: "
        f"about {c['games_per_cell']:,} games for each combination of seat count "
        f"({', '.join(map(str, c['players']))} players) and option values below. Every combination "
        "plays the same deals (the same shuffles), so the differences between them come from the "
        "options, not from the cards.",
        "",
        "Figures are means with a 95% range in brackets (the range treats one deal as one sample).",
        "",
    ]
    if c["grid"]:
        lines.append("Options compared (the first value of each is the baseline):")
        lines.append("")
        for name, values in c["grid"].items():
            shown = ", ".join(_text(v) for v in values)
            lines.append(f"- `{name}` = {shown}: {c['grid_help'][name]}")
        lines.append("")
    lines.extend(f"- Not played: {what}." for what in s["refused"])
    lines.extend(f"- Warning: {w}." for w in s["warnings"])
    return "\n".join(lines) + "\n"


def _cells(s: dict[str, Any]) -> str:
    c = s["config"]
    unit = c["unit"]
    lines = [
        "## Each combination",
        "",
        f"Turn order: {c['order']}. An even share of the victory is 1 in the number of players "
        "(ties split a win).",
        "",
    ]
    for cell in s["cells"]:
        lines += [f"### {cell['label']} ({cell['games']:,} games)", ""]
        lines.append("| place in turn order | win share | even share |")
        lines.append("|---|---|---|")
        for i, d in enumerate(cell["win_share_by_turn_order"]):
            lines.append(f"| {i + 1} | {_pct(d)} | {100 * cell['fair_share']:.1f}% |")
        lines.append("")
        length, margin = cell["length"], cell["margin"]
        lines += [
            f"- Win share by seat: {', '.join(f'seat {i} {_pct(d)}' for i, d in enumerate(cell['win_share_by_seat']))}.",
            f"- Mean score by seat: {', '.join(f'seat {i} {_val(d)}' for i, d in enumerate(cell['mean_score_by_seat']))}.",
            f"- Length: {_val(length)} {unit} (spread {length['sd'] or 0:.1f}; half the games between "
            f"{length['p25']:.0f} and {length['p75']:.0f}, from {length['min']:.0f} to {length['max']:.0f}); "
            f"{_val(cell['moves'], 0)} moves.",
            f"- Winner's margin: {_val(margin)} points (median {_num(margin['median'])}).",
            f"- Ties: {_pct(cell['ties'])} of games; cut off at the move limit: {_pct(cell['truncated'])}.",
            f"- The leader at half time went on to win {_pct(cell['half_time_leader_wins'])} "
            f"(of {cell['half_time_leader_wins']['games']:,} games with a single leader; "
            f"an even share is {100 * cell['fair_share']:.1f}%).",
        ]
        if cell["bots"]:
            shares = ", ".join(f"{b['bot']} {_pct(b['win_share'])}" for b in cell["bots"]["by_bot"])
            lines.append(f"- Win share per seat by bot: {shares}.")
            lines.append(
                f"- Skill gap ({cell['bots']['first_bot']} minus the others, per seat): "
                f"{_val(cell['bots']['skill_gap'], 3)}."
            )
        lines.append("")
    return "\n".join(lines)


def _effects(s: dict[str, Any]) -> str:
    if not s["effects"]:
        return "## What the options change\n\nNo option was varied (use --grid).\n"
    lines = [
        "## What the options change",
        "",
        "Each value against the option's baseline, on the same deals (the other options "
        "averaged): the mean difference and its 95% range. **Bold**: the range leaves out 0.",
        "",
        "| option | players | figure | difference |",
        "|---|---|---|---|",
    ]
    for e in s["effects"]:
        diff = _val(e["difference"], 3 if e["metric"] in ("first_edge", "ties", "skill_gap") else 1)
        if e["significant"]:
            diff = f"**{diff}**"
        change = f"{e['option']}={_text(e['value'])} vs {_text(e['baseline'])}"
        lines.append(f"| {change} | {e['players']} | {e['words']} | {diff} |")
    return "\n".join(lines) + "\n"


def _cards(s: dict[str, Any], top: int = 12) -> str:
    c = s["config"]
    cards = s["cards"]
    if not cards:
        return "## Card value\n\nNo card facts were recorded.\n"
    shown = cards if len(cards) <= 2 * top else cards[:top] + cards[-top:]
    points = any(r["points"] is not None for r in cards)
    lines = [
        "## Card value",
        "",
        f"For each card: the games in which a seat {c['card_verb']} it (all combinations together) "
        "and that seat's win share against an even share of those games"
        + (
            ", and the points the card gave it at the end (where it has points of its own)."
            if points
            else "."
        )
        + ("" if shown is cards else f" The {top} best and {top} worst of {len(cards)} cards."),
        "",
        "| card | seat-games | win share | even share |" + (" points |" if points else ""),
        "|---|---|---|---|" + ("---|" if points else ""),
    ]
    for i, r in enumerate(shown):
        if i == top and len(shown) < len(cards):
            lines.append(f"| ... {len(cards) - len(shown)} more cards ... | | | |" + (" |" if points else ""))
        share = _pct(r["win_share"])
        if r["above_fair"] or r["below_fair"]:
            share = f"**{share}**"
        row = f"| {r['name']} | {r['games']:,} | {share} | {100 * r['fair_share']:.1f}% |"
        lines.append(row + (f" {_val(r['points'])} |" if points else ""))
    return "\n".join(lines) + "\n\n**Bold**: the range leaves out the even share.\n"
