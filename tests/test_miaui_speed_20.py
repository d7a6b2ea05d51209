"""Issue 20, item 7: the Miaui heuristic evaluates its dive profiles by outcome tables, and
still makes the very choices it made when it resolved every profile for every diver.

``Reference`` below is a frozen copy of the heuristic's decision as it stood before the
change (resolving the depths once per sampled profile and diver, the unseen pool card by
card); the tests play games with the current heuristic and ask both, with the same
generator state, at every decision.
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from kiti.core.seatview import SeatView, seat_view
from kiti.games.miaui import heuristic as H
from kiti.games.miaui.cards import COUNT, VALUE
from kiti.games.miaui.rules import (
    DIVERS,
    Dive,
    MiauiState,
    add_to_pile,
    remembered_dives,
    remembered_piles,
    resolve_depths,
)


# ----------------------------------------------------------- the frozen reference
def ref_pile_gain(
    pile: Sequence[str], cards: Sequence[str], jelly_unseen: int = 0, last: bool = False
) -> float:
    new = list(pile)
    before = sum(VALUE[c] for c in new)
    bonus = 0.0
    for card in cards:
        if card[0] == "L" and not last:
            bonus += 1.0
        add_to_pile(new, card)
    gain = sum(VALUE[c] for c in new) - before
    jellies = sum(1 for c in new if c[0] == "J")
    if jellies == 2 and jelly_unseen and not last and any(c[0] == "J" for c in cards):
        bonus += 3.0
    return gain + bonus


def ref_remember(view: Any, events: Sequence[dict[str, Any]]) -> dict[str, Any]:
    seat, n = view.viewer, view.players
    piles = remembered_piles(events, n, bool(view.options.get("taker_chooses_order")))
    if "?" not in view.piles[seat]:
        piles[seat] = list(view.piles[seat])
    hands = [sorted(set(DIVERS) - set(p)) for p in remembered_dives(events, n)]
    hands[seat] = sorted(d for d in view.hands[seat] if d != "?")
    seen: Counter[str] = Counter()
    for e in events:
        if e["type"] == "catch":
            seen.update(e["cards"])
    seen.update(c for cards in view.lagoon for c in cards if c != "?")
    unseen = sorted((COUNT - seen).elements())
    return {"piles": piles, "hands": hands, "unseen": unseen, "jelly": sum(1 for c in unseen if c[0] == "J")}


def ref_mean_unknown(mem: dict[str, Any], seat: int) -> float:
    if not mem["unseen"]:
        return 0.0
    return sum(ref_pile_gain(mem["piles"][seat], [c]) for c in mem["unseen"]) / len(mem["unseen"])


def ref_space_gain(view: Any, mem: dict[str, Any], seat: int, space: int) -> float:
    cards = view.lagoon[space]
    if not cards:
        return 0.0
    known = [c for c in cards if c != "?"]
    unknown = len(cards) - len(known)
    gain = ref_pile_gain(mem["piles"][seat], known, mem["jelly"], view.round >= view.rounds)
    return gain + unknown * ref_mean_unknown(mem, seat) if unknown else gain


class Reference:
    """The decision of MiauiHeuristic (default parameters) before issue 20, frozen."""

    samples, beta, temp, margin, naive = 32, 0.6, 3.0, 8.0, 0.2

    def choose(self, view: SeatView, rng: random.Random) -> Any:
        legal = view.legal_moves
        if len(legal) == 1:
            return legal[0]
        now = view.view
        mem = ref_remember(now, view.info["events"])
        if now.pending_take:
            return None  # ordering a catch did not change (no generator draw either)
        gains = [[ref_space_gain(now, mem, s, sp) for sp in range(3)] for s in range(now.players)]
        models = self.models(now, mem, gains, rng)
        utils = self.utilities(now, mem, gains, now.viewer, mem["hands"][now.viewer], models, rng)
        pairs = self.weights(utils)
        return Dive(rng.choices([d for d, _ in pairs], [p for _, p in pairs])[0])

    def models(self, now: Any, mem: dict[str, Any], gains: Any, rng: random.Random) -> list[Any]:
        uniform = [[(d, 1.0 / len(h)) for d in h] if h else [(1, 1.0)] for h in mem["hands"]]
        models = list(uniform)
        for s in range(now.players):
            if s == now.viewer or len(mem["hands"][s]) <= 1:
                continue
            utils = self.utilities(
                now, mem, gains, s, mem["hands"][s], uniform, rng, max(8, self.samples // 2)
            )
            smart = dict(self.weights(utils))
            models[s] = [(d, self.naive * p + (1 - self.naive) * smart.get(d, 0.0)) for d, p in uniform[s]]
        return models

    def utilities(
        self, now: Any, mem: Any, gains: Any, me: int, mine: Any, models: Any, rng: Any, samples: int = 0
    ) -> dict[int, float]:
        n, k = now.players, samples or self.samples
        others = [s for s in range(n) if s != me]
        draws = {s: rng.choices([d for d, _ in models[s]], [p for _, p in models[s]], k=k) for s in others}
        avg = max(0.0, ref_mean_unknown(mem, me))
        cost = self.beta * avg * min(1.0, (now.rounds - now.round) / 3.0)
        out: dict[int, float] = {}
        dives = [0] * n
        for d in mine:
            total = 0.0
            for i in range(k):
                for s in others:
                    dives[s] = draws[s][i]
                dives[me] = d
                for space, winner, _ in resolve_depths(dives, n, now.kiti)[0]:
                    g = gains[winner][space]
                    total += g - cost if winner == me else -g / (n - 1)
            out[d] = total / k
        return out

    def weights(self, utils: dict[int, float]) -> list[tuple[int, float]]:
        best = max(utils.values())
        near = {d: u for d, u in utils.items() if u >= best - self.margin - 1e-9}
        w = {d: math.exp((u - best) / self.temp) for d, u in near.items()}
        total = sum(w.values())
        return [(d, x / total) for d, x in sorted(w.items())]


# ------------------------------------------------------------------------ tests
OPTION_SETS = [
    {},
    {"no_fighting": True},
    {"open_baskets": True, "no_fighting": True, "taker_chooses_order": True},
]


def decisions(players: int, options: dict[str, Any], seed: int):  # type: ignore[no-untyped-def]
    """Every decision of a game the current heuristic plays against itself: (view, seed)."""
    state = MiauiState.new(players, options, seed)
    strategy, rng = H.MiauiHeuristic(), random.Random(seed)
    while not state.over:
        seat = min(state.to_act())
        view = seat_view(state, seat)
        draw = rng.getrandbits(32)
        yield view, draw
        state.apply(seat, strategy.choose(view, random.Random(draw)))


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("options", OPTION_SETS, ids=["plain", "no_fighting", "all_rulings"])
def test_the_same_choices_as_before_for_the_same_seed(players: int, options: dict[str, Any]) -> None:
    compared = 0
    for game in range(2):
        for view, draw in decisions(players, options, 20 + 7 * game + players):
            new_rng, old_rng = random.Random(draw), random.Random(draw)
            move = H.MiauiHeuristic().choose(view, new_rng)
            before = Reference().choose(view, old_rng)
            if before is None:  # a taker ordering her catch
                continue
            assert move == before, f"{players} seats {options} round {view.view.round}: {move} != {before}"
            assert new_rng.getstate() == old_rng.getstate(), "the generator was not drawn as before"
            compared += 1
    assert compared >= 2 * 10 * players


@pytest.mark.parametrize("players", [3, 4, 6])
def test_the_same_expected_gains_as_before(players: int) -> None:
    """Each diver's expected gain against the same sampled profiles, to rounding."""
    new, old = H.MiauiHeuristic(), Reference()
    for view, draw in decisions(players, {} if players != 4 else {"no_fighting": True}, 5 + players):
        now = view.view
        if now.pending_take or len(view.legal_moves) == 1:
            continue
        seat, events = now.viewer, view.info["events"]
        mem, ref = H.remember(now, events), ref_remember(now, events)
        gains = [[H.space_gain(now, mem, s, sp) for sp in range(3)] for s in range(players)]
        assert gains == [[ref_space_gain(now, ref, s, sp) for sp in range(3)] for s in range(players)]
        assert [H.mean_unknown(mem, s) for s in range(players)] == [
            ref_mean_unknown(ref, s) for s in range(players)
        ]
        models = old.models(now, ref, gains, random.Random(draw))
        got = new.utilities(now, mem, gains, seat, mem.hands[seat], models, random.Random(draw))
        want = old.utilities(now, ref, gains, seat, ref["hands"][seat], models, random.Random(draw))
        assert got.keys() == want.keys()
        for d in got:
            assert got[d] == pytest.approx(want[d], rel=1e-12, abs=1e-12), f"diver {d}"


def test_the_outcome_tables_are_the_rules_answer() -> None:
    """For random dives (ties included) of every seat count and Kiti (or No Fighting), the
    winners the heuristic reads for each diver are resolve_depths' own."""
    rng = random.Random(20)
    for _ in range(400):
        players = rng.randint(3, 6)
        kiti = rng.choice([None, *range(players)])
        me = rng.randrange(players)
        others = [rng.choice((1, 2, 3, 6, 6, 7, 11, 12)) for _ in range(players - 1)]
        got = H.winners_by_diver(others, players, kiti, me)
        for d in DIVERS:
            dives = [*others[:me], d, *others[me:]]
            want = [-1, -1, -1]
            for space, winner, _ in resolve_depths(dives, players, kiti)[0]:
                want[space] = winner
            assert got[d - 1] == tuple(want), f"{dives} kiti={kiti}"


def test_a_decision_resolves_each_order_of_dives_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The work of a decision grows with the orders of the dives met, not with samples x
    divers: a first 4-seat decision (~560 resolutions before) asks the rule at most once per
    seat evaluated (4), order of the others' dives (13) and place of the diver among them
    (7), and a repeated decision not at all."""
    calls = []

    def counting(dives: Sequence[int], players: int, kiti: int | None) -> Any:
        calls.append(tuple(dives))
        return resolve_depths(dives, players, kiti)

    monkeypatch.setattr(H, "resolve_depths", counting)
    H._forget()
    view = seat_view(MiauiState.new(4, None, 3), 0)
    H.MiauiHeuristic().choose(view, random.Random(1))
    assert 0 < len(calls) <= 4 * 13 * 7
    calls.clear()
    H.MiauiHeuristic().choose(view, random.Random(1))
    assert calls == []


@pytest.mark.parametrize("players", [3, 4, 6])
@pytest.mark.parametrize("options", OPTION_SETS, ids=["plain", "no_fighting", "all_rulings"])
def test_random_action_draws_random_moves_move_as_its_action(players: int, options: dict[str, Any]) -> None:
    """At every decision of random games (dives and, with ``taker_chooses_order``, a taker's
    order): ``random_action`` returns the action of the move ``random_move`` draws from the
    same generator state, and draws from the generator alike."""
    for seed in range(3):
        state = MiauiState.new(players, options, seed)
        codec, rng = state.codec(), random.Random(seed)
        while not state.over:
            for seat in sorted(state.to_act()):
                moves, ints = (
                    random.Random(seed + len(state.history)),
                    random.Random(seed + len(state.history)),
                )
                move = state.random_move(seat, moves)
                assert codec.moves[state.random_action(seat, ints)] == move
                assert ints.getstate() == moves.getstate(), "random_action used the generator differently"
            seat = min(state.to_act())
            state.apply(seat, state.random_move(seat, rng))


def test_uniform_draws_are_rng_choices() -> None:
    """A uniform model's draws (its sums turned into thresholds on ``random()`` itself) are
    ``rng.choices``' own, for every hand size, at every threshold and one step either side,
    and for random generator states."""
    for size in range(1, 13):
        hand = list(range(13 - size, 13))
        model, sampler = H._uniform(hand)
        cum = list(itertools.accumulate(p for _, p in model))
        total = cum[-1] + 0.0
        _, least, _ = sampler
        edges = [x for u in least for x in (math.nextafter(u, 0.0), u, math.nextafter(u, 1.0))]
        for u in [*edges, 0.0, math.nextafter(1.0, 0.0)]:
            want = bisect.bisect_right(cum, u * total, 0, size - 1)
            assert bisect.bisect_right(least, u) == want, (size, u)
        for seed in range(20):
            ours, theirs = random.Random(seed), random.Random(seed)
            assert H._sample(sampler, ours, 50) == theirs.choices(hand, [p for _, p in model], k=50)
            assert ours.getstate() == theirs.getstate()


def ref_weights(utils: dict[int, float], temp: float, margin: float) -> list[tuple[int, float]]:
    """``MiauiHeuristic.weights`` before issue 20, frozen (any temperature and margin)."""
    best = max(utils.values())
    near = {d: u for d, u in utils.items() if u >= best - margin - 1e-9}
    if temp <= 0:
        top = [d for d, u in near.items() if u >= best - 1e-9]
        return [(d, 1.0 / len(top)) for d in top]
    w = {d: math.exp((u - best) / temp) for d, u in near.items()}
    total = sum(w.values())
    return [(d, x / total) for d, x in sorted(w.items())]


def test_the_quantal_response_and_its_draw_are_as_before() -> None:
    """For random gains (ties, whole numbers and a margin's edge included), at any
    temperature: the same weights and the same diver drawn, from the same generator state."""
    rng = random.Random(20)
    for _ in range(3000):
        divers = sorted(rng.sample(DIVERS, rng.randint(1, 12)))
        utils = {d: rng.choice([rng.uniform(-9, 9), float(rng.randint(-9, 9))]) for d in divers}
        temp, margin = rng.choice([0.0, 0.5, 3.0]), rng.choice([0.0, 2.0, 8.0])
        strategy = H.MiauiHeuristic(temp=temp, margin=margin)
        want = ref_weights(utils, temp, margin)
        assert strategy.weights(utils) == want, (utils, temp, margin)
        seed = rng.getrandbits(32)
        ours, theirs = random.Random(seed), random.Random(seed)
        assert strategy.draw(utils, ours) == theirs.choices([d for d, _ in want], [p for _, p in want])[0]
        assert ours.getstate() == theirs.getstate()
