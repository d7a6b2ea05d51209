"""Tournament plots (PNG, matplotlib with the Agg backend, imported lazily).

Every plot says in its title what was played (game, games, seed) and labels its axes in
words a player understands.
"""

from __future__ import annotations

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
