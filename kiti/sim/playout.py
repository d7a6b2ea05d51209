"""One game played by bots, reduced to the plain facts a balance study counts.

:func:`play` is the task :func:`kiti.sim.runner.run_ordered` farms out for ``kiti balance``:
it plays one :class:`Deal` the way tournaments do (:func:`kiti.sim.tournament.play_game`:
every decision is ``bot.choose(seat_view(state, seat))``; the same game seed and bot seeds
give the same game) and returns a :class:`Playout`, a small picklable record.

The game's own facts come from its ``balance`` part (:mod:`kiti.core.registry`), a module
with:

- ``UNIT``: the game's unit of length in players' words, plural (``"rounds"``, ``"turns"``);
- ``ORDER``: what a seat's place in the turn order means for this game;
- ``CARD_VERB``: what a seat did with the cards measured (``"caught"``, ``"played"``);
- ``turn_order(state)``: each seat's place at the start of the game (0: starts);
- ``length(state)``: the game's length in ``UNIT`` once it is over;
- ``card_facts(state)``: per seat, each card it took, held or played (its code) -> the points
  that card gave it at the end (None where a card has no points of its own);
- ``card_name(code)``: a card's name for people.

**Half time** is after half of the game's moves (rounded down): the game is replayed from its
seed to that point and the party ranked first alone there, if any, is the half-time leader.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Any

from ..core.game import State
from ..core.registry import game_part, get_game


@dataclass(frozen=True)
class Deal:
    """One game to play: the game, seats, options, the bot of each seat and every seed."""

    game: str
    players: int
    options: tuple[tuple[str, Any], ...]  # sorted (name, value) pairs: hashable, picklable
    specs: tuple[str, ...]  # the bot spec of each seat
    seed: int  # the game seed (the deal)
    bot_seeds: tuple[int, ...]


@dataclass(frozen=True)
class Party:
    """A party's end of the game (a seat, a team, or MOTU's solo Opponent)."""

    name: str
    seats: tuple[int, ...]
    score: float
    rank: float
    share: float  # its share of the victory: 1/k for each of k winners


@dataclass(frozen=True)
class Playout:
    """The facts of one game, per seat where a list (index: seat)."""

    scores: tuple[float, ...]  # the score of the seat's party
    ranks: tuple[float, ...]
    shares: tuple[float, ...]
    turn_order: tuple[int, ...]  # 0: the seat that starts (the game's balance hook)
    moves: int
    length: int  # in the game's own unit (rounds, turns)
    truncated: bool
    tie: bool  # several parties share the victory (a finished game)
    margin: float | None  # the first's score minus the best behind (0: all first; None: truncated)
    half_leader: int | None  # the party first alone at half time (None: nobody alone)
    half_leader_share: float | None  # that party's final share of the victory
    parties: tuple[Party, ...]
    cards: tuple[tuple[tuple[str, float | None], ...], ...]  # per seat: sorted (card, points)


def hooks(cls: type[State]) -> ModuleType:
    """The game's balance hooks (MissingPartError naming the game if it declares none)."""
    part: ModuleType = game_part(cls, "balance")
    return part


def play(deal: Deal) -> Playout:
    """Play ``deal`` with its bots and return its facts (see the module docstring)."""
    from ..bots.registry import make_bot
    from .tournament import play_game

    cls = get_game(deal.game)
    options = dict(deal.options)
    bots = [make_bot(spec, cls, seed) for spec, seed in zip(deal.specs, deal.bot_seeds)]
    hook = hooks(cls)
    order = hook.turn_order(cls.new(deal.players, options, deal.seed))
    state = play_game(cls, deal.players, options, deal.seed, bots)
    result = state.result()
    parties = tuple(
        Party(p.name, tuple(p.seats), float(result.scores[i]), float(result.ranks[i]), _share(result, i))
        for i, p in enumerate(result.parties)
    )
    seat_party = {s: p for p in parties for s in p.seats}
    leader = _half_time_leader(cls, deal, options, state)
    return Playout(
        scores=tuple(seat_party[s].score for s in range(deal.players)),
        ranks=tuple(seat_party[s].rank for s in range(deal.players)),
        shares=tuple(seat_party[s].share for s in range(deal.players)),
        turn_order=tuple(order),
        moves=len(state.history),
        length=int(hook.length(state)),
        truncated=bool(result.truncated),
        tie=len(result.winners) > 1 and not result.truncated,
        margin=None if result.truncated else _margin(parties),
        half_leader=leader,
        half_leader_share=None if leader is None else parties[leader].share,
        parties=parties,
        cards=tuple(tuple(sorted(facts.items())) for facts in hook.card_facts(state)),
    )


def _share(result: Any, party: int) -> float:
    return 1.0 / len(result.winners) if party in result.winners else 0.0


def _margin(parties: tuple[Party, ...]) -> float | None:
    """The first party's score minus the best score behind it, as tournaments count it (0
    when all share first; None for a single party)."""
    if len(parties) < 2:
        return None
    best = min(p.rank for p in parties)
    rest = [p.score for p in parties if p.rank != best]
    if not rest:
        return 0.0
    return max(p.score for p in parties if p.rank == best) - max(rest)


def _half_time_leader(cls: type[State], deal: Deal, options: dict[str, Any], state: State) -> int | None:
    """The party first alone after half the moves, replayed from the seed (None: a tie)."""
    half = cls.new(deal.players, options, deal.seed)
    for seat, move in state.history[: len(state.history) // 2]:
        half.apply(seat, move)
    winners = half.result().winners
    return winners[0] if len(winners) == 1 else None
