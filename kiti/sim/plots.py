"""Tournament plots (PNG, matplotlib with the Agg backend, imported lazily).

Every plot says in its title what was played (game, games, seed) and labels its axes in
words a player understands.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise ImportError(
            "plots need matplotlib: pip install 'kiti[sim]' (or pip install matplotlib)"
        ) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(plt: Any, fig: Any, path: Path) -> Path:
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def _what(summary: dict[str, Any]) -> str:
    cfg = summary.get("config", {})
    return f"{cfg.get('game', '?')}: {cfg.get('games', '?')} games, seed {cfg.get('seed', '?')}"


def _errors(rows: list[dict[str, Any]], key: str) -> tuple[list[float], list[list[float]]]:
    means = [r[key]["mean"] for r in rows]
    low = [m - (r[key]["low"] if r[key]["low"] is not None else m) for m, r in zip(means, rows)]
    high = [(r[key]["high"] if r[key]["high"] is not None else m) - m for m, r in zip(means, rows)]
    return means, [low, high]


def make_plots(summary: dict[str, Any], out: Path) -> list[Path]:
    """scores.png (final scores per bot), seats.png (wins per seat or team), ratings.png
    (skill ratings).  Returns the files written."""
    plt = _pyplot()
    written = []
    rows = summary["bots"] + summary.get("others", [])
    labels = [b["bot"] for b in rows]

    fig, ax = plt.subplots(figsize=(max(5, 1.6 * len(rows)), 4))
    ax.boxplot([b["scores"] for b in rows], showmeans=True)
    ax.set_xticks(range(1, len(labels) + 1), labels, rotation=15)
    ax.set_ylabel("final score (points)")
    ax.set_title(f"Final scores of each bot ({_what(summary)})", fontsize=10)
    written.append(_save(plt, fig, out / "scores.png"))

    seats = summary["seats"]
    fig, ax = plt.subplots(figsize=(max(5, 1.2 * len(seats)), 4))
    means, err = _errors(seats, "win_share")
    ax.bar([str(s.get("place", s["seat"])) for s in seats], means, yerr=err, capsize=4, color="#4c72b0")
    ax.axhline(summary["fair_share"], color="grey", linestyle="--", label="an even share")
    ax.set_ylim(0, 1)
    ax.set_xlabel("seat (or team)")
    ax.set_ylabel("share of games won (bars: 95% range)")
    ax.set_title(f"Does the seat matter? ({_what(summary)})", fontsize=10)
    ax.legend()
    written.append(_save(plt, fig, out / "seats.png"))

    rat = summary.get("ratings")
    if rat:
        fig, ax = plt.subplots(figsize=(6, max(2.5, 0.7 * len(rat))))
        ys = list(range(len(rat)))
        mus = [r["mu"] for r in rat]
        ax.errorbar(
            mus,
            ys,
            xerr=[[m - r["low"] for m, r in zip(mus, rat)], [r["high"] - m for m, r in zip(mus, rat)]],
            fmt="o",
            capsize=4,
        )
        ax.set_yticks(ys, [r["bot"] for r in rat])
        ax.set_xlabel("skill rating (higher is stronger; bars: 95% range)")
        ax.set_title(f"Skill ratings ({_what(summary)})", fontsize=10)
        written.append(_save(plt, fig, out / "ratings.png"))
    return written


# ------------------------------------------------------------------ kiti balance
def _bars(rows: list[dict[str, Any]]) -> tuple[list[float], list[list[float]]]:
    """Means and error bar lengths of intervals (never negative: rounding can put a bound a
    hair past its mean)."""
    means, err = _errors([{"i": r} for r in rows], "i")
    return means, [[max(0.0, e) for e in side] for side in err]


def _study(summary: dict[str, Any]) -> str:
    cfg = summary["config"]
    return f"{cfg['name']}: {cfg['games']:,} games, seed {cfg['seed']}"


def _grid(count: int, width: float = 3.4, height: float = 2.8) -> tuple[int, int, tuple[float, float]]:
    cols = min(4, count)
    rows = (count + cols - 1) // cols
    return rows, cols, (width * cols, height * rows + 0.6)


def balance_plots(summary: dict[str, Any], samples: dict[str, list[list[float]]], out: Path) -> list[Path]:
    """The plots of a balance study (:mod:`kiti.sim.balance_report`); returns the files."""
    plt = _pyplot()
    written = [_balance_seats(plt, summary, out)]
    unit = summary["config"]["unit"]
    lengths = {v for vals in samples["length"] for v in vals}
    if len(lengths) == 1 and "moves" in samples:  # every game as long: its moves say more
        what, values = f"game length (moves; every game lasted {lengths.pop():g} {unit})", samples["moves"]
    else:
        what, values = f"game length ({unit})", samples["length"]
    written.append(_balance_hist(plt, summary, values, what, out / "length.png"))
    written.append(
        _balance_hist(plt, summary, samples["margin"], "winner's margin (points)", out / "margin.png")
    )
    if summary["effects"]:
        written.append(_balance_effects(plt, summary, out / "effects.png"))
    if summary["cards"]:
        written.append(_balance_cards(plt, summary, out / "cards.png"))
    return written


def _balance_seats(plt: Any, summary: dict[str, Any], out: Path) -> Path:
    cells = summary["cells"]
    rows, cols, size = _grid(len(cells))
    highs = [
        d["high"] if d["high"] is not None else d["mean"] for c in cells for d in c["win_share_by_turn_order"]
    ]
    top = min(1.0, 1.15 * max([*highs, *(c["fair_share"] for c in cells)]))  # room for the bars, no more
    fig, axes = plt.subplots(rows, cols, figsize=size, squeeze=False, sharey=True)
    for ax, cell in zip(axes.flat, cells):
        shares = cell["win_share_by_turn_order"]
        means, err = _bars(shares)
        ax.bar([str(i + 1) for i in range(len(shares))], means, yerr=err, capsize=3, color="#4c72b0")
        ax.axhline(cell["fair_share"], color="grey", linestyle="--", label="an even share")
        ax.set_title(cell["label"], fontsize=8, wrap=True)
        ax.set_xlabel("place in turn order", fontsize=8)
        ax.set_ylim(0, top)
    for ax in axes.flat[len(cells) :]:
        ax.axis("off")
    axes[0][0].set_ylabel("share of games won")
    axes[0][0].legend(fontsize=7)
    fig.suptitle(f"Does the turn order matter? (bars: 95% range; {_study(summary)})", fontsize=10)
    return _save(plt, fig, out / "seats.png")


def _balance_hist(
    plt: Any, summary: dict[str, Any], values: list[list[float]], what: str, path: Path
) -> Path:
    cells = summary["cells"]
    rows, cols, size = _grid(len(cells))
    fig, axes = plt.subplots(rows, cols, figsize=size, squeeze=False, sharex=True)
    edges = _edges([v for vals in values for v in vals])
    for ax, cell, vals in zip(axes.flat, cells, values):
        if vals:
            ax.hist(vals, bins=edges, color="#55a868")
            ax.axvline(sum(vals) / len(vals), color="black", linestyle="--", linewidth=1)
        ax.set_title(cell["label"], fontsize=8, wrap=True)
        ax.set_xlabel(what, fontsize=8)
    for ax in axes.flat[len(cells) :]:
        ax.axis("off")
    for ax in axes.flat:
        ax.yaxis.get_major_locator().set_params(integer=True)
    axes[0][0].set_ylabel("games")
    fig.suptitle(f"{what.capitalize()} (dashed: the mean; {_study(summary)})", fontsize=10)
    return _save(plt, fig, path)


def _edges(values: list[float], most: int = 40) -> list[float]:
    """The same bins for every panel: whole-number wide, at most ``most`` of them."""
    if not values:
        return [0.0, 1.0]
    low, high = math.floor(min(values)), math.ceil(max(values))
    width = max(1, math.ceil((high - low + 1) / most))
    return [low - 0.5 + width * i for i in range((high - low) // width + 2)]


def _balance_effects(plt: Any, summary: dict[str, Any], path: Path) -> Path:
    by_metric: dict[str, list[dict[str, Any]]] = {}
    for e in summary["effects"]:
        by_metric.setdefault(e["words"], []).append(e)
    count = len(by_metric)
    height = max(len(v) for v in by_metric.values())
    cols = min(3, count)
    lines = (count + cols - 1) // cols
    size = (4.2 * cols + 2.0, (0.4 * height + 1.4) * lines + 0.5)
    fig, axes = plt.subplots(lines, cols, figsize=size, squeeze=False, sharey=True)
    for ax in axes.flat[count:]:
        ax.axis("off")
    for ax, (words, rows) in zip(axes.flat, by_metric.items()):
        ys = list(range(len(rows)))[::-1]
        means, err = _bars([r["difference"] for r in rows])
        colours = ["#c44e52" if r["significant"] else "#4c72b0" for r in rows]
        for y, m, lo, hi, c in zip(ys, means, err[0], err[1], colours):
            ax.errorbar([m], [y], xerr=[[lo], [hi]], fmt="o", color=c, capsize=3)
        ax.axvline(0, color="grey", linestyle="--")
        ax.set_title(words, fontsize=9)
        ax.set_xlabel("difference from the baseline", fontsize=8)
        labels = [
            f"{r['option']}={_value(r['value'])} vs {_value(r['baseline'])}, {r['players']}p" for r in rows
        ]
        ax.set_yticks(ys, labels, fontsize=8)
    fig.suptitle(f"What each option changes (95% ranges; red: leaves out 0; {_study(summary)})", fontsize=10)
    return _save(plt, fig, path)


def _value(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def _balance_cards(plt: Any, summary: dict[str, Any], path: Path, top: int = 12) -> Path:
    cards = summary["cards"]
    shown = cards if len(cards) <= 2 * top else cards[:top] + cards[-top:]
    cells = []
    for r in shown:
        w, p = r["win_share"], r["points"]
        rng = "" if w["low"] is None else f" ({100 * w['low']:.0f}-{100 * w['high']:.0f})"
        pts = "none" if p is None or p["mean"] is None else f"{p['mean']:.1f}"
        cells.append(
            [
                r["name"],
                f"{r['games']:,}",
                f"{100 * w['mean']:.1f}%{rng}",
                f"{100 * r['fair_share']:.1f}%",
                pts,
            ]
        )
    colours = ["#d8f0d8" if r["above_fair"] else "#f6d6d6" if r["below_fair"] else "white" for r in shown]
    if len(shown) < len(cards):  # a line says how many cards are left out in the middle
        cells.insert(top, [f"... {len(cards) - len(shown)} more cards ...", "", "", "", ""])
        colours.insert(top, "#eeeeee")
    fig, ax = plt.subplots(figsize=(9, 0.26 * (len(cells) + 1) + 0.7))
    ax.axis("off")
    table = ax.table(
        cellText=cells,
        colLabels=["card", "seat-games", "win share (95%)", "even share", "points"],
        colWidths=[0.36, 0.13, 0.21, 0.13, 0.17],
        bbox=(0.0, 0.0, 1.0, 1.0),
        cellLoc="left",
    )
    table.auto_set_font_size(False)
    table.set_fontsize(8)
    for i, colour in enumerate(colours, start=1):
        for j in range(5):
            table[i, j].set_facecolor(colour)
    verb = summary["config"]["card_verb"]
    fig.suptitle(
        f"Win share of the seats that {verb} each card (green/red: above/below an even share; {_study(summary)})",
        fontsize=9,
    )
    return _save(plt, fig, path)
