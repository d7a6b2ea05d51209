"""What one move costs the server: apply it, then build and encode every viewer's message.

    python tools/message_cost.py [--games 8]

Random games of each built-in game (Miaui 3 seats, Mauw 4, MOTU 2); for every move, the time
to apply it and to build each seat's and a spectator's ``state`` message
(``kiti.server.messages.build_state``, events since that viewer's cursor) and encode it as
JSON text (``kiti.core.contract.dumps``), as the server does after a move.  Prints microseconds per move for each game.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from kiti.core.contract import dumps
from kiti.core.registry import get_game
from kiti.server.messages import build_state

GAMES = (("miaui", 3), ("mauw", 4), ("motu", 2))


def table(game: str, players: int) -> dict[str, Any]:
    seats = [{"name": f"p{i}", "kind": "human", "bot_plays": False} for i in range(players)]
    return {"id": "t", "game": game, "status": "playing", "seats": seats}


def per_move(game: str, players: int, games: int) -> float:
    """Mean seconds for one move and every viewer's message, over ``games`` random games."""
    cls, rng, spent, moves = get_game(game), random.Random(1), 0.0, 0
    viewers: list[int | None] = [*range(players), None]
    for seed in range(games):
        state, info = cls.new(players, None, seed), table(game, players)
        cursors: dict[int | None, int] = dict.fromkeys(viewers, 0)
        while not state.over:
            seat = min(state.to_act())
            move = state.random_move(seat, rng)
            start = time.perf_counter()
            state.apply(seat, move)
            for viewer in viewers:
                message, cursors[viewer] = build_state(state, info, viewer, cursors[viewer], None)
                dumps(message)
            spent += time.perf_counter() - start
            moves += 1
    return spent / max(1, moves)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=8, help="random games per game")
    args = parser.parse_args()
    for game, players in GAMES:
        print(f"{game} ({players} seats): {1e6 * per_move(game, players, args.games):,.0f} µs per move")


if __name__ == "__main__":
    main()
