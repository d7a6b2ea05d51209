"""Tournament plots (PNG, matplotlib with the Agg backend, imported lazily)."""

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


def make_plots(summary: dict[str, Any], out: Path) -> list[Path]:
    """scores.png (score distribution per bot), seats.png (win share per seat),
    ratings.png (openskill mu with 95% intervals).  Returns the files written."""
    plt = _pyplot()
    written = []
    bots = summary["bots"]
    labels = [b["bot"] for b in bots]

    fig, ax = plt.subplots(figsize=(max(5, 1.6 * len(bots)), 4))
    ax.boxplot([b["scores"] for b in bots], showmeans=True)
    ax.set_xticks(range(1, len(labels) + 1), labels, rotation=15)
    ax.set_ylabel("final score")
    ax.set_title("Score distribution per bot")
    written.append(_save(plt, fig, out / "scores.png"))

    seats = summary["seats"]
    fig, ax = plt.subplots(figsize=(max(5, 1.2 * len(seats)), 4))
    means = [s["win_share"]["mean"] for s in seats]
    err = [[m - s["win_share"]["low"] for m, s in zip(means, seats)],
           [s["win_share"]["high"] - m for m, s in zip(means, seats)]]
    ax.bar([str(s["seat"]) for s in seats], means, yerr=err, capsize=4, color="#4c72b0")
    ax.axhline(summary["fair_share"], color="grey", linestyle="--", label="fair share")
    ax.set_xlabel("seat")
    ax.set_ylabel("win share (95% CI)")
    ax.set_title("Win share per seat")
    ax.legend()
    written.append(_save(plt, fig, out / "seats.png"))

    rat = summary.get("ratings")
    if rat:
        fig, ax = plt.subplots(figsize=(6, max(2.5, 0.7 * len(rat))))
        ys = list(range(len(rat)))
        mus = [r["mu"] for r in rat]
        ax.errorbar(mus, ys, xerr=[[m - r["low"] for m, r in zip(mus, rat)],
                                   [r["high"] - m for m, r in zip(mus, rat)]],
                    fmt="o", capsize=4)
        ax.set_yticks(ys, [r["bot"] for r in rat])
        ax.set_xlabel("openskill Plackett-Luce mu (+/- 1.96 sigma)")
        ax.set_title("Rating")
        written.append(_save(plt, fig, out / "ratings.png"))
    return written
