"""Mauw's heuristic strategy (the ``heuristic`` part of the game), from a seat's view only.

It values every legal move by the points it is expected to change, for its own team
(+) and for the others (-), with the rules' own functions (:func:`rules.column_score`,
:func:`rules.play_effect`, :func:`rules.combo_kind`, :func:`rules.gain_destinations`):

- **Strengthen**: a combo is worth the best place for its gain (a nine: 18, 36 or 72 points
  more on the column it completes; twins: a nine with the Warrior on top) less what the
  Warrior taken off its column was worth; a Warrior on an empty slot is worth its value.
- **Block the leader**: a Spirit on bare nines takes their whole value, a Warrior most of
  it; losses of the opponent with the best score count ``leader`` times more.
- **Attack** when it pays: the gain of the combo, weighted by the chance the attack is not
  stopped (the share of unseen cards that could defend it, over the defender's hand; each
  copy we hold to renew halves that chance), less the points it frees for the defender
  (a Warrior taken off nines leaves bare nines, worth more).
- **Defend** a column worth at least ``guard`` points with a plain card, with a Joker only
  if it is worth at least ``joker_guard`` (a Joker is the best attacking card); play
  Tuatura whenever it is in hand (it also wins a card); renew an attack while holding a
  copy of the value.
- **Pass** when the best play is worth less than ``pass_below`` points: a fresh hand.

Ties between equal values are broken at random (the bot's own generator).  It reads the
seat's typed view (:class:`~.view.MauwView`: its teams, opponents and deck); the cards it
has not seen are worked out once per decision (:class:`Seen`).
"""

from __future__ import annotations

import math
import random
from collections import Counter

from ...core.game import State
from ...core.moves import Move
from ...core.options import OptionSpec
from ...core.seatview import SeatView
from .cards import JOKER, TUATURA, VALUE, WARRIOR_OF_VALUE, is_warrior
from .rules import (
    DECLINE,
    PASS,
    STOP,
    TU,
    Answer,
    KiwiPlay,
    NinoxPlay,
    Play,
    column_score,
    combo_kind,
    gain_destinations,
    play_effect,
)
from .view import MauwView

_PARAM = "bot heuristic parameter"
NINE = column_score(1, None)  # a nine's worth on an empty slot


class MauwHeuristic:
    """The strategy (see the module docstring); its parameters are ``params``."""

    params = (
        OptionSpec(
            "leader",
            float,
            1.5,
            "how much more a loss of the leading opponent counts",
            minimum=0.0,
            maximum=10.0,
            what=_PARAM,
        ),
        OptionSpec(
            "guard",
            float,
            10.0,
            "defend a column worth at least this many points",
            minimum=0.0,
            maximum=1000.0,
            what=_PARAM,
        ),
        OptionSpec(
            "joker_guard",
            float,
            30.0,
            "spend a Joker to defend at least this many points",
            minimum=0.0,
            maximum=1000.0,
            what=_PARAM,
        ),
        OptionSpec(
            "pass_below",
            float,
            1.0,
            "pass when no play is worth this many points",
            minimum=-100.0,
            maximum=100.0,
            what=_PARAM,
        ),
    )

    def __init__(
        self, leader: float = 1.5, guard: float = 10.0, joker_guard: float = 30.0, pass_below: float = 1.0
    ) -> None:
        self.leader = leader
        self.guard = guard
        self.joker_guard = joker_guard
        self.pass_below = pass_below

    # ------------------------------------------------------------------ choice
    def choose(self, view: SeatView, rng: random.Random) -> Move:
        legal = view.legal_moves
        if len(legal) == 1:
            return legal[0]
        v: MauwView = view.view
        seen = Seen(v)
        if v.phase in ("defend", "assist"):
            return self._defend(v, legal)
        if v.phase == "renew":
            return self._renew(legal)
        if v.phase == "place":
            return max(legal, key=lambda m: (place_value(v, m.slot), rng.random()))  # type: ignore[attr-defined]
        scored = [(self.value(v, m, seen), rng.random(), m) for m in legal if m != PASS]
        if not scored:
            return PASS
        best = max(scored, key=lambda x: (x[0], x[1]))
        return best[2] if best[0] >= self.pass_below else PASS

    def priors(self, view: SeatView, rng: random.Random) -> dict[int, dict[Move, float]]:
        """What ISMCTS should start from.  In an answer (a defence, a teammate's defence, a
        renewal) or a gain's placement: most of the weight on the move :meth:`choose` makes,
        so that a short search does not decline a defence by chance.  On a turn in team play:
        a softmax over :meth:`value` (``exp(value / 4)``, a pass valued at ``pass_below``).
        On a turn without teams, nothing: the search does better on its own there (measured,
        see docs/rules/mauw.md).  {} when there is one move."""
        legal = view.legal_moves
        if len(legal) < 2:
            return {}
        v: MauwView = view.view
        if v.phase in ("defend", "assist", "renew", "place"):
            pick = self.choose(view, rng)
            rest = 0.3 / (len(legal) - 1)
            return {view.seat: {m: 0.7 if m == pick else rest for m in legal}}
        if v.teams is None:
            return {}
        seen = Seen(v)
        values = {m: self.pass_below if m == PASS else self.value(v, m, seen) for m in legal}
        top = max(values.values())
        weights = {m: math.exp((x - top) / 4.0) for m, x in values.items()}
        total = sum(weights.values())
        return {view.seat: {m: w / total for m, w in weights.items()}}

    def _defend(self, v: MauwView, legal: list[Move]) -> Move:
        attack = v.attack
        assert attack is not None
        at_stake = v.columns[attack.defender][v.rules.slots.index(attack.slot)].score
        if TU in legal:
            return TU
        plain = [m for m in legal if isinstance(m, Answer) and m.card != JOKER]
        jokers = [m for m in legal if isinstance(m, Answer) and m.card == JOKER]
        if plain and at_stake >= self.guard:
            return plain[0]
        if jokers and at_stake >= self.joker_guard:
            return jokers[0]
        return DECLINE

    def _renew(self, legal: list[Move]) -> Move:
        plain = [m for m in legal if isinstance(m, Answer) and m.card != JOKER]
        return plain[0] if plain else STOP

    # ------------------------------------------------------------------ values
    def value(self, v: MauwView, move: Move, seen: Seen | None = None) -> float:
        """Expected points this move wins for our team, less what it gives the others."""
        seen = seen or Seen(v)
        if isinstance(move, Play):
            return self._play_value(v, seen, move.card, move.decl or move.card, move.seat, move.slot)
        if isinstance(move, KiwiPlay):
            warrior = v.columns[move.src_seat][move.src_slot].top
            before = score_change(v, move.src_seat, move.src_slot, None)
            return self._play_value(v, seen, str(warrior), str(warrior), move.seat, move.slot) + self.weigh(
                v, move.src_seat, before, seen
            )
        if isinstance(move, NinoxPlay):
            freed = score_change(v, move.seat, move.slot, None)
            return seen.own_gain(v, None) + self.weigh(v, move.seat, freed, seen)
        return 0.0

    def _play_value(self, v: MauwView, seen: Seen, card: str, declared: str, seat: int, slot: int) -> float:
        mine = seat == me(v)
        col = v.columns[seat][slot]
        effect = play_effect(declared, mine, col.nines, col.top, True)
        if effect == "place":
            return VALUE.get(declared, 0) * (1.0 if mine else -1.0) - (2.0 if card == JOKER else 0.0)
        if effect in ("block", "strengthen"):
            return self.weigh(v, seat, score_change(v, seat, slot, declared), seen)
        if effect == "unblock":
            return score_change(v, seat, slot, None)
        assert col.top is not None
        gain = self.combo_gain(v, declared, col.top, seen)
        if effect == "combo":
            return gain + score_change(v, seat, slot, None) - (3.0 if card == JOKER else 0.0)
        odds = seen.attack_odds(v, declared, seat)
        return odds * (gain + self.weigh(v, seat, score_change(v, seat, slot, None), seen)) - (
            4.0 if card == JOKER else 1.0
        )

    def combo_gain(self, v: MauwView, declared: str, target: str, seen: Seen) -> float:
        return seen.own_gain(v, None if combo_kind(declared, target) == "pair" else target)

    def weigh(self, v: MauwView, seat: int, change: float, seen: Seen) -> float:
        """A change of ``seat``'s score, from our side: ours counts +, an opponent's -."""
        if not is_opponent(v, seat):
            return change
        factor = self.leader if seat == seen.leader else 1.0
        return -change * factor

    # ------------------------------------------------------------------ rollouts
    def evaluate(self, state: State) -> list[float]:
        """Each party's points as they stand, for a search that stops early: with it, ISMCTS
        cuts its rollouts after two turns of each seat and scores the game there (measured
        stronger at equal iterations than 120-move random rollouts, and ~4x cheaper; see
        docs/bots.md)."""
        return list(state.party_scores())

    def rollout(self, state: State, seat: int, rng: random.Random) -> Move:
        """A cheap rule of thumb on a determinised state, for search rollouts: defend and
        renew when possible, otherwise any card rather than a pass."""
        moves = state.legal_moves(seat)
        answers = [m for m in moves if isinstance(m, Answer)]
        if answers and rng.random() < 0.7:
            return rng.choice(answers)
        plays = [m for m in moves if m != PASS]
        return rng.choice(plays or moves)


# ---------------------------------------------------------------------- the view, read
def me(v: MauwView) -> int:
    assert isinstance(v.viewer, int), "the heuristic reads a seat's view"
    return v.viewer


def is_opponent(v: MauwView, seat: int) -> bool:
    return seat in (v.opponents or ())


def leader(v: MauwView) -> int:
    """The opponent with the best score (ourselves when there is none)."""
    others = v.opponents or ()
    return max(others, key=lambda s: v.scores[s]) if others else me(v)


def score_change(v: MauwView, seat: int, slot: int, new_top: str | None) -> float:
    """How a column's points change when its top becomes ``new_top``."""
    col = v.columns[seat][slot]
    return column_score(col.nines, new_top) - column_score(col.nines, col.top)


def best_gain(v: MauwView, seat: int, nines: int, top: str | None) -> float:
    """The most a gain (a nine, with ``top`` on it or not) can add to ``seat``'s area."""
    area = v.columns[seat]
    counts, tops = [c.nines for c in area], [c.top for c in area]
    places = gain_destinations(counts, tops)
    if not places:
        return 0.0
    return max(column_score(counts[s] + nines, top) - column_score(counts[s], tops[s]) for s in places)


def place_value(v: MauwView, slot: int) -> float:
    col = v.columns[me(v)][slot]
    gain = v.gain
    nines, top = (len(gain.nines), gain.top) if gain is not None else (1, None)
    return column_score(col.nines + nines, top) - column_score(col.nines, col.top)


class Seen:
    """The cards a seat has not seen yet (the deck, less the discards, its hand and the
    columns' tops), worked out once per decision from its view; and the figures a decision
    asks for again and again (a gain's best place, an attack's odds), each worked out once."""

    def __init__(self, v: MauwView) -> None:
        seen: Counter[str] = Counter(v.discard)
        seen.update(v.hands[me(v)])
        seen.update(col.top for area in v.columns for col in area if col.top)
        self.unseen = Counter(v.rules.deck) - seen
        self.hidden_total = max(1, sum(self.unseen.values()))
        self.leader = leader(v)
        self._gains: dict[str | None, float] = {}
        self._odds: dict[tuple[str, int], float] = {}

    def own_gain(self, v: MauwView, top: str | None) -> float:
        """:func:`best_gain` of a nine (with ``top`` on it) for the viewing seat."""
        gain = self._gains.get(top)
        if gain is None:
            gain = self._gains[top] = best_gain(v, me(v), 1, top)
        return gain

    def attack_odds(self, v: MauwView, declared: str, defender: int) -> float:
        """The chance an attack with ``declared`` gets through: no defence in the defender's
        four cards (and her teammate's), each of our copies to renew halving the risk."""
        odds = self._odds.get((declared, defender))
        if odds is None:
            odds = self._odds[declared, defender] = self._attack_odds(v, declared, defender)
        return odds

    def _attack_odds(self, v: MauwView, declared: str, defender: int) -> float:
        code = WARRIOR_OF_VALUE[VALUE[declared]] if is_warrior(declared) else declared
        q = (self.unseen[code] + self.unseen[JOKER] + self.unseen[TUATURA]) / self.hidden_total
        hands = v.rules.hand * (2 if v.teams and any(defender in t and len(t) == 2 for t in v.teams) else 1)
        stopped = 1.0 - (1.0 - min(1.0, q)) ** hands
        mine = sum(1 for c in v.hands[me(v)] if c in (code, JOKER)) - 1
        return 1.0 - stopped * 0.5 ** max(0, mine)
