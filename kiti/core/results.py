"""The results model: parties, scores, tie-breaks, winners and returns, for every game.

A game ends with a :class:`Result` over *parties*.  A party is a team of seats (each seat
alone by default; Mauw's teams share a score), or a contestant that is not a seat at all
(MOTU's solo Opponent, ``seats == ()``).  Parties are ranked by score, then by the game's
declared tie-breaks (MOTU: most coconuts); parties still equal share the victory.  A game
may end with no seat winning (the Opponent wins).

**Truncation.**  Every game declares a maximum number of moves.  A game that reaches it is
stopped there: ``truncated`` is true and the result is a draw: every party shares the
victory (``returns`` 1/k for each of the k parties), whatever the scores, so that stalling
never pays.  Scores are still reported as they stood.

Tournaments, ratings, search rewards and end-of-game screens all read this one model.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Party:
    """A contestant: a team of seats, or no seat at all (``seats == ()``)."""

    name: str
    seats: tuple[int, ...]


class Result:
    """How a game ended (or stands): per party scores, ranks and the winners."""

    __slots__ = ("_keys", "parties", "scores", "tiebreaks", "truncated", "winners")

    def __init__(
        self,
        parties: tuple[Party, ...],
        scores: tuple[float, ...],
        tiebreaks: tuple[tuple[float, ...], ...],
        winners: tuple[int, ...],
        truncated: bool,
        keys: list[Any],
    ) -> None:
        self.parties = parties
        self.scores = scores
        self.tiebreaks = tiebreaks
        self.winners = winners  # indexes of the parties sharing the victory
        self.truncated = truncated
        self._keys = keys

    @property
    def ranks(self) -> tuple[float, ...]:
        """Rank per party: 1 = first; tied parties share the mean of their places."""
        return tuple(rank(self._keys))

    def winning_seats(self) -> list[int]:
        return sorted(s for i in self.winners for s in self.parties[i].seats)

    def seat_returns(self, players: int) -> list[float]:
        """Each seat's share of the victory: 1/k for every seat of each of k winning parties."""
        share = 1.0 / len(self.winners) if self.winners else 0.0
        out = [0.0] * players
        for i in self.winners:
            for s in self.parties[i].seats:
                out[s] = share
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "parties": [
                {"name": p.name, "seats": list(p.seats), "score": sc, "rank": rk, "tiebreaks": list(tb)}
                for p, sc, rk, tb in zip(self.parties, self.scores, self.ranks, self.tiebreaks)
            ],
            "winners": list(self.winners),
            "truncated": self.truncated,
        }

    def __repr__(self) -> str:
        return f"Result(winners={self.winners}, scores={self.scores}, truncated={self.truncated})"


def rank(keys: Sequence[Any]) -> list[float]:
    """Rank per entry, 1 = best (highest key); equal keys share the mean of their places."""
    order = sorted(keys, reverse=True)
    first: dict[Any, int] = {}
    count: dict[Any, int] = {}
    for place, k in enumerate(order, 1):
        first.setdefault(k, place)
        count[k] = count.get(k, 0) + 1
    return [first[k] + (count[k] - 1) / 2 for k in keys]


def make_result(
    parties: Sequence[Party],
    scores: Sequence[float],
    tiebreaks: Sequence[Sequence[float]] | None = None,
    truncated: bool = False,
) -> Result:
    """Rank ``parties`` by (score, *tie-breaks); the first place shares the victory."""
    if tiebreaks is None:
        tbs: tuple[tuple[float, ...], ...] = ((),) * len(parties)
        keys: list[Any] = [float(s) for s in scores]
    else:
        tbs = tuple(tuple(t) for t in tiebreaks)
        keys = [(float(s), *t) for s, t in zip(scores, tbs)]
    if truncated:
        winners = tuple(range(len(parties)))
    else:
        best = max(keys)
        winners = tuple(i for i, k in enumerate(keys) if k == best)
    return Result(tuple(parties), tuple(map(float, scores)), tbs, winners, truncated, keys)


@functools.lru_cache(maxsize=256)
def seat_parties(teams: tuple[tuple[int, ...], ...]) -> tuple[Party, ...]:
    """One party per team, named for people: ``seat 2``, or ``team 1 (seats 0, 2)``."""
    out = []
    for i, team in enumerate(teams):
        seats = tuple(team)
        if len(seats) == 1:
            out.append(Party(f"seat {seats[0]}", seats))
        else:
            out.append(Party(f"team {i + 1} (seats {', '.join(map(str, seats))})", seats))
    return tuple(out)
