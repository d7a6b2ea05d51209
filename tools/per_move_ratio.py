"""One game's random play per move against another's, in interleaved same-run rounds.

    nice -n 19 python tools/per_move_ratio.py motu miaui --players 2,4 --against-players 4

For each seat count of the first game: random games of both through the path ``kiti bench``
times (:func:`kiti.sim.bench.kiti_runner`, ``random_move`` through the core's unchecked path),
in ``--rounds`` rounds of about ``--seconds`` each, the two taking turns to go first
(:func:`kiti.sim.bench.interleaved`); prints each game's median moves per second and the
median, lowest and highest of the per-round ratios (how many times the second game's per-move
rate is the first's: the first game's cost per move in units of the second's).
"""

from __future__ import annotations

import argparse
import statistics

from kiti.core.registry import get_game
from kiti.sim.bench import _games_per_round, interleaved, kiti_runner


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game")
    parser.add_argument("against")
    parser.add_argument("--players", default="4", help="seat counts of GAME, comma-separated")
    parser.add_argument("--against-players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument(
        "--seconds", type=float, default=1.0, help="about how long one round of one game runs"
    )
    args = parser.parse_args()
    other = kiti_runner(get_game(args.against), args.against_players)
    other_games = _games_per_round(other, args.seconds)
    for players in (int(p) for p in args.players.split(",")):
        mine = kiti_runner(get_game(args.game), players)
        rates = interleaved(
            {"mine": (mine, _games_per_round(mine, args.seconds)), "other": (other, other_games)}, args.rounds
        )
        ratios = sorted(b[1] / a[1] for a, b in zip(rates["mine"], rates["other"]))
        print(
            f"{args.game} {players} seats: {statistics.median(r[1] for r in rates['mine']):.0f} moves/s; "
            f"{args.against} {args.against_players} seats: "
            f"{statistics.median(r[1] for r in rates['other']):.0f} moves/s; per move {args.game} costs "
            f"{statistics.median(ratios):.2f}x {args.against} (rounds {ratios[0]:.2f}-{ratios[-1]:.2f}, "
            f"{args.rounds} rounds)"
        )


if __name__ == "__main__":
    main()
