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

Ties between equal values are broken at random (the bot's own generator).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

from ...core.game import State
from ...core.moves import Move
from ...core.options import OptionSpec
from ...core.seatview import SeatView
from .cards import JOKER, TUATURA, VALUE, WARRIOR_OF_VALUE, deck_counts, is_warrior
from .rules import (
    DECLINE,
    PASS,
    SLOTS,
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

_PARAM = "bot heuristic parameter"
NINE = column_score(1, None)  # a nine's worth on an empty slot


class MauwHeuristic:
    """The strategy (see the module docstring); its parameters are ``params``."""

    params = (
        OptionSpec("leader", float, 1.5, "how much more a loss of the leading opponent counts",
                   minimum=0.0, maximum=10.0, what=_PARAM),
        OptionSpec("guard", float, 10.0, "defend a column worth at least this many points",
                   minimum=0.0, maximum=1000.0, what=_PARAM),
        OptionSpec("joker_guard", float, 30.0, "spend a Joker to defend at least this many points",
                   minimum=0.0, maximum=1000.0, what=_PARAM),
        OptionSpec("pass_below", float, 1.0, "pass when no play is worth this many points",
                   minimum=-100.0, maximum=100.0, what=_PARAM),
    )

    def __init__(self, leader: float = 1.5, guard: float = 10.0, joker_guard: float = 30.0,
                 pass_below: float = 1.0) -> None:
        self.leader = leader
        self.guard = guard
        self.joker_guard = joker_guard
        self.pass_below = pass_below

    # ------------------------------------------------------------------ choice
    def choose(self, view: SeatView, rng: random.Random) -> Move:
        legal = view.legal_moves
        if len(legal) == 1:
            return legal[0]
        table = Table(view.info)
        phase = table.view["phase"]
        if phase in ("defend", "assist"):
            return self._defend(table, legal)
        if phase == "renew":
            return self._renew(table, legal)
        if phase == "place":
            return max(legal, key=lambda m: (table.place_value(table.me, m.slot), rng.random()))  # type: ignore[attr-defined]
        scored = [(self.value(table, m), rng.random(), m) for m in legal if m != PASS]
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
        table = Table(view.info)
        if table.view["phase"] in ("defend", "assist", "renew", "place"):
            pick = self.choose(view, rng)
            rest = 0.3 / (len(legal) - 1)
            return {view.seat: {m: 0.7 if m == pick else rest for m in legal}}
        if table.view["teams"] is None:
            return {}
        values = {m: self.pass_below if m == PASS else self.value(table, m) for m in legal}
        top = max(values.values())
        weights = {m: math.exp((v - top) / 4.0) for m, v in values.items()}
        total = sum(weights.values())
        return {view.seat: {m: w / total for m, w in weights.items()}}

    def _defend(self, table: Table, legal: list[Move]) -> Move:
        attack = table.view["attack"]
        at_stake = table.view["columns"][attack["defender"]][SLOTS.index(attack["slot"])]["score"]
        if TU in legal:
            return TU
        plain = [m for m in legal if isinstance(m, Answer) and m.card != JOKER]
        jokers = [m for m in legal if isinstance(m, Answer) and m.card == JOKER]
        if plain and at_stake >= self.guard:
            return plain[0]
        if jokers and at_stake >= self.joker_guard:
            return jokers[0]
        return DECLINE

    def _renew(self, table: Table, legal: list[Move]) -> Move:
        plain = [m for m in legal if isinstance(m, Answer) and m.card != JOKER]
        return plain[0] if plain else STOP

    # ------------------------------------------------------------------ values
    def value(self, table: Table, move: Move) -> float:
        """Expected points this move wins for our team, less what it gives the others."""
        if isinstance(move, Play):
            return self._play_value(table, move.card, move.decl or move.card, move.seat, move.slot)
        if isinstance(move, KiwiPlay):
            warrior = table.top(move.src_seat, move.src_slot)
            before = table.score_change(move.src_seat, move.src_slot, None)
            return self._play_value(table, str(warrior), str(warrior), move.seat, move.slot) + self.weigh(
                table, move.src_seat, before)
        if isinstance(move, NinoxPlay):
            freed = table.score_change(move.seat, move.slot, None)
            return table.best_gain(table.me, 1, None) + self.weigh(table, move.seat, freed)
        return 0.0

    def _play_value(self, table: Table, card: str, declared: str, seat: int, slot: int) -> float:
        mine = seat == table.me
        nines, top = table.nines(seat, slot), table.top(seat, slot)
        effect = play_effect(declared, mine, nines, top, True)
        if effect == "place":
            return VALUE.get(declared, 0) * (1.0 if mine else -1.0) - (2.0 if card == JOKER else 0.0)
        if effect in ("block", "strengthen"):
            return self.weigh(table, seat, table.score_change(seat, slot, declared))
        if effect == "unblock":
            return table.score_change(seat, slot, None)
        assert top is not None
        gain = self.combo_gain(table, declared, top, seat if mine else None)
        if effect == "combo":
            return gain + table.score_change(seat, slot, None) - (3.0 if card == JOKER else 0.0)
        odds = table.attack_odds(declared, seat)
        return odds * (gain + self.weigh(table, seat, table.score_change(seat, slot, None))) - (
            4.0 if card == JOKER else 1.0)

    def combo_gain(self, table: Table, declared: str, target: str, freed_seat: int | None) -> float:
        if combo_kind(declared, target) == "pair":
            return table.best_gain(table.me, 1, None)
        return table.best_gain(table.me, 1, target)

    def weigh(self, table: Table, seat: int, change: float) -> float:
        """A change of ``seat``'s score, from our side: ours counts +, an opponent's -."""
        if table.same_team(seat):
            return change
        factor = self.leader if seat == table.leader() else 1.0
        return -change * factor

    # ------------------------------------------------------------------ rollouts
    def rollout(self, state: State, seat: int, rng: random.Random) -> Move:
        """A cheap rule of thumb on a determinised state, for search rollouts: defend and
        renew when possible, otherwise any card rather than a pass."""
        moves = state.legal_moves(seat)
        answers = [m for m in moves if isinstance(m, Answer)]
        if answers and rng.random() < 0.7:
            return rng.choice(answers)
        plays = [m for m in moves if m != PASS]
        return rng.choice(plays or moves)


class Table:
    """What a seat knows of a Mauw table, read from its information state."""

    def __init__(self, info: dict[str, Any]) -> None:
        self.view = view = info["now"]
        self.me: int = info["seat"]
        self.players: int = view["players"]
        teams = view["teams"] or [[s] for s in range(self.players)]
        self.team = next(t for t in teams if self.me in t)
        options = view["options"]
        counts = deck_counts(options["kiwi"], options["ninox"], options["tuatura"])
        seen: Counter[str] = Counter(view["discard"])
        seen.update(c for c in view["hands"][self.me])
        seen.update(col["top"] for area in view["columns"] for col in area if col["top"])
        self.unseen = counts - seen
        self.hidden_total = max(1, sum(self.unseen.values()))

    def nines(self, seat: int, slot: int) -> int:
        return int(self.view["columns"][seat][slot]["nines"])

    def top(self, seat: int, slot: int) -> str | None:
        return self.view["columns"][seat][slot]["top"]

    def same_team(self, seat: int) -> bool:
        return seat in self.team

    def leader(self) -> int:
        scores = self.view["scores"]
        others = [s for s in range(self.players) if not self.same_team(s)]
        return max(others, key=lambda s: scores[s]) if others else self.me

    def score_change(self, seat: int, slot: int, new_top: str | None) -> float:
        """How a column's points change when its top becomes ``new_top``."""
        k = self.nines(seat, slot)
        return column_score(k, new_top) - column_score(k, self.top(seat, slot))

    def best_gain(self, seat: int, nines: int, top: str | None) -> float:
        """The most a gain (a nine, with ``top`` on it or not) can add to ``seat``'s area."""
        counts = [self.nines(seat, s) for s in range(len(SLOTS))]
        tops = [self.top(seat, s) for s in range(len(SLOTS))]
        places = gain_destinations(counts, tops)
        if not places:
            return 0.0
        return max(column_score(counts[s] + nines, top) - column_score(counts[s], tops[s]) for s in places)

    def place_value(self, seat: int, slot: int) -> float:
        gain = self.view["gain"] or {}
        return column_score(self.nines(seat, slot) + len(gain.get("nines", [1])), gain.get("top")) - \
            column_score(self.nines(seat, slot), self.top(seat, slot))

    def attack_odds(self, declared: str, defender: int) -> float:
        """The chance an attack with ``declared`` gets through: no defence in the defender's
        four cards (and her teammate's), each of our copies to renew halving the risk."""
        code = WARRIOR_OF_VALUE[VALUE[declared]] if is_warrior(declared) else declared
        q = (self.unseen[code] + self.unseen[JOKER] + self.unseen[TUATURA]) / self.hidden_total
        hands = 4 * (2 if self.view["teams"] and any(defender in t and len(t) == 2 for t in self.view["teams"]) else 1)
        stopped = 1.0 - (1.0 - min(1.0, q)) ** hands
        mine = sum(1 for c in self.view["hands"][self.me] if c in (code, JOKER)) - 1
        return 1.0 - stopped * 0.5 ** max(0, mine)

