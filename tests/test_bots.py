"""Bots: view-only guarantee, determinism, strength and spec errors."""

from __future__ import annotations

import random

import pytest

import kiti.games  # noqa: F401  (registers the games)
from kiti.bots.base import SeatView
from kiti.bots.ismcts import ISMCTSBot
from kiti.bots.registry import BotSpecError
from kiti.bots.registry import make_bot as _make_bot
from kiti.core.events import REFEREE
from kiti.core.game import GameInfo
from kiti.core.seatview import seat_view
from kiti.games.miaui.cards import DECK
from kiti.games.miaui.heuristic import remember
from kiti.games.miaui.rules import MiauiState, add_to_pile, resolve_depths


def make_bot(spec: str, seed: int):  # type: ignore[no-untyped-def]
    return _make_bot(spec, MiauiState, seed)


def pile_add(pile: list[str], card: str) -> None:
    add_to_pile(pile, card)


def resolve_dives(dives: list[int], players: int, kiti: int | None) -> list[tuple[int, int]]:
    return [(space, winner) for space, winner, _ in resolve_depths(dives, players, kiti)[0]]


BOT_SPECS = ["random", "heuristic", "ismcts:iters=60", "ismcts:iters=40,rollout=heuristic"]


def _base_order(seed: int) -> list[str]:
    """A deck order whose first 7 cards (burned + round 1 + round 2) hold no Seagull."""
    rng = random.Random(seed)
    while True:
        order = list(DECK)
        rng.shuffle(order)
        if "S" not in order[:7]:
            return order


def _twin_states(seed: int, committed: tuple[int, int]) -> tuple[MiauiState, MiauiState]:
    """Two games identical for seat 0, differing in everything hidden from it: the order
    of the undrawn deck, the burned card, and seat 1's face-down dive this round."""
    order_a = _base_order(seed)
    rng = random.Random(seed + 1)
    rest = order_a[7:]
    rng.shuffle(rest)
    # Swap the burned card with one still in the deck.
    burned, rest[0] = rest[0], order_a[0]
    order_b = [burned, *order_a[1:7], *rest]
    assert order_b != order_a and order_b[0] != order_a[0]
    states = []
    for order, dive in zip((order_a, order_b), committed):
        st = MiauiState.new(4, None, 1, setup={"deck": order})
        for seat, n in enumerate((12, 1, 6, 7)):  # round 1, the same for both
            st.play(seat, f"dive {n}")
        st.play(1, f"dive {dive}")  # round 2: seat 1 commits face down
        states.append(st)
    return states[0], states[1]


def test_twin_states_really_differ_in_hidden_information() -> None:
    a, b = _twin_states(3, (3, 9))
    assert a.observation(REFEREE) != b.observation(REFEREE)
    assert a.observation(REFEREE)["burned"] != b.observation(REFEREE)["burned"]
    assert a.observation(REFEREE)["committed"][1] != b.observation(REFEREE)["committed"][1]
    assert a.information_state(0) == b.information_state(0)


@pytest.mark.parametrize("spec", BOT_SPECS)
@pytest.mark.parametrize("seed", [3, 4])
def test_decision_does_not_depend_on_hidden_information(spec: str, seed: int) -> None:
    a, b = _twin_states(seed, (3, 9))
    move_a = make_bot(spec, 99).choose(seat_view(a, 0))
    move_b = make_bot(spec, 99).choose(seat_view(b, 0))
    assert move_a == move_b


def test_seat_view_holds_no_state() -> None:
    a, _ = _twin_states(3, (3, 9))
    view = seat_view(a, 0)
    assert not hasattr(view, "state")
    assert set(vars(view)) <= {"seat", "game", "info", "legal_moves", "players", "options", "_guess"}
    assert view._guess.resampled and view._guess is not a
    assert isinstance(view, SeatView)
    # The private guess is a resample: it need not agree with the true hidden cards.
    assert (
        view._guess.observation(REFEREE)["burned"]
        == seat_view(_twin_states(3, (5, 11))[1], 0)._guess.observation(REFEREE)["burned"]
    )


@pytest.mark.parametrize("spec", [*BOT_SPECS, "ismcts:iters=30,reward=margin,c=1.2"])
def test_bots_are_deterministic_for_a_seed(spec: str) -> None:
    def play(seed: int) -> list[tuple[int, str]]:
        st = MiauiState.new(4, None, 11)
        bots = [make_bot(spec, seed + s) for s in range(4)]
        for _ in range(3):  # three rounds
            for seat in sorted(st.to_act()):
                st.apply(seat, bots[seat].choose(seat_view(st, seat)))
        return [(s, str(m)) for s, m in st.history]

    assert play(5) == play(5)
    assert any(play(5) != play(k) for k in (6, 7, 8))  # the heuristic too: it plays a mixed strategy


def test_ismcts_time_budget_and_statistics() -> None:
    st = MiauiState.new(4, None, 2)
    bot = ISMCTSBot(1, seconds=0.05)
    move = bot.choose(seat_view(st, 0))
    assert move in st.legal_moves(0)
    assert bot.last_iterations > 0
    stats = ISMCTSBot(1).root_statistics(seat_view(st, 0), 300)
    assert sum(v for v, _ in stats.values()) == 300
    assert set(stats) == {str(m) for m in st.legal_moves(0)}


def test_ismcts_prefers_the_obvious_catch() -> None:
    # Last free round, our hand 1 and 12, all others hold only middle divers: 12 wins the Deepest.
    wins = 0
    for seed in range(5):
        st = MiauiState.new(3, None, seed)
        while st.round < 11:
            for seat in sorted(st.to_act()):
                hand = st.hands[seat]
                n = hand[len(hand) // 2] if seat else next(x for x in hand if x not in (1, 12))
                st.play(seat, f"dive {n}")
        bot = ISMCTSBot(seed, iters=400)
        view = seat_view(st, 0)
        lagoon = st.lagoon
        deepest = sum(int(c[1:]) if c[0] in "KTEL" else -50 for c in lagoon[0])
        shallow = sum(int(c[1:]) if c[0] in "KTEL" else -50 for c in lagoon[2])
        if deepest > shallow and deepest > 0:
            wins += str(bot.choose(view)) == "dive 12"
        else:
            wins += 1
    assert wins >= 4


def test_heuristic_table_reconstruction() -> None:
    st = MiauiState.new(4, None, 21)
    rng = random.Random(0)
    for _ in range(6):
        for seat in sorted(st.to_act()):
            st.apply(seat, rng.choice(st.legal_moves(seat)))
    table = remember(st.view(2), st.events(2))
    assert table.hands == [sorted(h) for h in st.hands]
    assert table.piles == st.piles  # catches are public, so every pile is deducible
    assert "?" not in table.unseen and len(table.unseen) >= len(st.deck) + 1  # deck and burned card


def test_pile_rules_and_resolution() -> None:
    pile = ["J10", "T7"]
    pile_add(pile, "S")
    assert pile == ["J10"]
    pile_add(pile, "J15")
    pile_add(pile, "E12")
    pile_add(pile, "J10")
    assert pile == ["E12"]
    # Kiti at 0 in 4 seats: deep ties go to 0, 3, 2, 1; shallow ties to 1, 2, 3, 0.
    assert resolve_dives([9, 9, 5, 5], 4, 0) == [(0, 0), (1, 1), (2, 2)]
    assert resolve_dives([9, 9, 5, 5], 4, None) == []  # No Fighting: tied divers are out
    assert resolve_dives([9, 7, 5, 5], 4, None) == [(0, 0), (1, 1)]


def test_heuristic_refuses_a_game_without_strategy() -> None:
    class Other:
        info = GameInfo("othergame", "Other", 2, 4, "1")

    with pytest.raises(BotSpecError, match="cannot play Other: Other has no heuristic"):
        _make_bot("heuristic", Other, 1)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("nosuchbot", "unknown bot"),
        ("random:x=1", "random has no parameter 'x'"),
        ("ismcts:iter=10", "no parameter 'iter'"),
        ("ismcts:iters=ten", "iters must be an integer"),
        ("ismcts:iters=0", "iters must be at least 1"),
        ("ismcts:time=-1", "time must be greater than 0"),
        ("ismcts:time=abc", "time must be a number"),
        ("ismcts:rollout=smart", "rollout must be one of auto, random, heuristic"),
        ("ismcts:reward=points", "reward must be one of win, margin"),
        ("ismcts:c=-0.5", "parameter c must be at least 0"),
        ("ismcts:iters", "must be written key=value"),
        ("polcy:miaui", "unknown bot 'polcy'"),  # a misspelled bot, not a parameter
        ("heuristic:samples=0", "samples must be at least 1"),
        ("heuristic:depth=3", "no parameter 'depth'"),
    ],
)
def test_bot_spec_errors(spec: str, words: str) -> None:
    with pytest.raises(BotSpecError, match=words):
        make_bot(spec, 0)


def test_bot_specs_accepted() -> None:
    bot = make_bot("ISMCTS: iters=20, rollout=heuristic, c=1.0, reward=margin", 0)
    assert isinstance(bot, ISMCTSBot)
    assert (bot.iters, bot.rollout, bot.c, bot.reward) == (20, "heuristic", 1.0, "margin")
    assert make_bot("ismcts:time=0.5", 0).seconds == 0.5  # type: ignore[attr-defined]


def test_heuristic_copies_do_not_mirror_each_other() -> None:
    # In a simultaneous game a fixed rule ties with its own copies; with No Fighting a tie
    # catches nothing.  The heuristic mixes: its copies dive alike far less often than a
    # deterministic rule does, and not much more than two random players.
    from kiti.sim.agreement import same_choice_share

    options = {"no_fighting": True}
    mixed = same_choice_share(MiauiState, ["heuristic"] * 3, 8, seed=4, options=options)
    fixed = same_choice_share(MiauiState, ["heuristic:temp=0,naive=1"] * 3, 8, seed=4, options=options)
    rand = same_choice_share(MiauiState, ["random"] * 3, 24, seed=4, options=options)
    assert rand["share"] < 0.12  # premise: random pairs rarely agree
    assert fixed["share"] > 0.4  # premise: a fixed rule mirrors itself
    assert mixed["share"] < 0.3 and mixed["share"] < fixed["share"] / 2


def test_ismcts_trees_tell_apart_what_a_seat_saw() -> None:
    # In Mauw a defender must know which card attacks which column: the events she saw since
    # her last move are the key of her next node, so two different attacks are two nodes.
    from mauw_helpers import position

    from kiti.core.events import key_since

    keys = []
    for target in ("1A", "1B"):
        s = position(
            [["R1", "B4", "B4", "B5"], ["Y2", "Y2", "G3", "G3"]], {"1A": (["G6"], "R8"), "1B": (["G6"], "R8")}
        )
        start = len(s.log)
        s.play(0, f"R1 {target}")
        keys.append(key_since(s.log, 1, start))
    assert keys[0] != keys[1]
    assert all(key for key in keys)  # the attack is something the defender saw


def test_ismcts_on_mauw_ignores_what_it_cannot_see() -> None:
    from kiti.games.mauw.rules import MauwState

    a = MauwState.new(3, None, 7)
    b = a.clone()
    b.draw.reverse()  # a different draw pile order: hidden from everyone
    b.hands[1], b.hands[2] = b.hands[2], b.hands[1]  # and other seats' hands
    assert a.observation(REFEREE) != b.observation(REFEREE)
    move_a = _make_bot("ismcts:iters=40", MauwState, 5).choose(seat_view(a, 0))
    move_b = _make_bot("ismcts:iters=40", MauwState, 5).choose(seat_view(b, 0))
    assert move_a == move_b


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [("miaui", 3, None), ("mauw", 3, None), ("mauw", 4, {"teams": True}), ("motu", 3, None)],
)
def test_heuristic_priors_are_distributions_over_legal_moves(game: str, players: int, options) -> None:
    # ISMCTS starts each seat's root from the game heuristic's priors: they must name only
    # moves that seat may make now, weigh them all non-negatively and sum to one.
    from kiti.bots.heuristic import strategy_class
    from kiti.core.registry import get_game

    cls = get_game(game)
    strategy = strategy_class(cls)()
    rng = random.Random(3)
    checked = 0
    for seed in range(3):
        state = cls.new(players, options, seed)
        while not state.over and checked < 60 * (seed + 1):
            seat = min(state.to_act())
            found = strategy.priors(seat_view(state, seat), rng)
            for s, priors in found.items():
                assert s in state.to_act()
                legal = set(state.legal_moves(s))
                assert set(priors) <= legal, f"priors for moves {s} cannot make: {set(priors) - legal}"
                assert all(p >= 0 for p in priors.values())
                assert abs(sum(priors.values()) - 1.0) < 1e-9
                checked += 1
            for s in sorted(state.to_act()):
                state.apply(s, state.random_move(s, rng))
    assert checked > 20  # the premise: priors were offered at many positions


def test_mauw_priors_lean_towards_the_heuristics_answer() -> None:
    # Searching a defence with a few iterations, ISMCTS should start from what the heuristic
    # would do: defend a valuable column rather than decline.
    from mauw_helpers import position

    from kiti.games.mauw.heuristic import MauwHeuristic

    s = position([["R1", "B4", "B4", "B5"], ["R1", "Y2", "G3", "G3"]], {"1A": (["G6"], "R8")})
    s.play(0, "R1 1A")  # an attack on seat 1's R8 over a nine, worth 16
    assert s.to_act() == frozenset({1})
    view = seat_view(s, 1)
    heuristic = MauwHeuristic()
    choice = heuristic.choose(view, random.Random(0))
    priors = heuristic.priors(view, random.Random(0))[1]
    assert str(choice).startswith("defend")  # the premise: the heuristic defends here
    assert max(priors, key=priors.__getitem__) == choice


def test_ismcts_mix_sets_how_sharply_a_secret_choice_follows_the_visits() -> None:
    from kiti.bots import ismcts

    st = MiauiState.new(3, None, 7)
    view = seat_view(st, 0)
    assert view.secret_choice()
    visits = {"dive 1": 100, "dive 2": 50, "dive 3": 12, "dive 4": 5}

    class Fixed(ISMCTSBot):
        def _search(self, view, rng):  # type: ignore[no-untyped-def]
            roots = [ismcts._Node() for _ in range(view.players)]
            codec = view.codec()  # edges are keyed by the moves' action integers
            self._moves = codec.moves
            roots[view.seat].edges = {
                codec.index[st.parse_move(m)]: [n, 0.0, n, None] for m, n in visits.items()
            }
            return roots

    def shares(mix: float) -> dict[str, float]:
        bot = Fixed(3, iters=10, mix=mix)
        picks = [str(bot.choose(view)) for _ in range(600)]
        return {m: picks.count(m) / len(picks) for m in visits}

    plain, sharp = shares(1.0), shares(8.0)
    assert plain["dive 4"] == sharp["dive 4"] == 0, "below a tenth of the most visits: never played"
    assert 0.5 < plain["dive 1"] < 0.75 and plain["dive 2"] > 0.2 and plain["dive 3"] > 0.03
    assert sharp["dive 1"] > 0.97


def test_ismcts_opens_the_heuristics_moves_on_wide_positions() -> None:
    """A MOTU placement may offer thousands of moves: the search widens with random ones, but
    the moves the game's heuristic favours are opened at once and searched first."""
    from kiti.bots.heuristic import strategy_class
    from kiti.core.registry import get_game

    st = get_game("motu").new(3, None, 5)
    st.play(0, "take 1")
    assert st.many_moves(0) and len(st.legal_moves(0)) > 20
    view = seat_view(st, 0)
    favoured = strategy_class(get_game("motu"))().priors(view, random.Random(1))[0]
    assert len(favoured) >= 2
    stats = ISMCTSBot(3, iters=40).root_statistics(view, 40)
    assert {str(m) for m in favoured} <= set(stats), "every favoured placement is an edge at the root"
    most = max(stats, key=lambda m: stats[m][0])
    assert most in {str(m) for m in favoured}, "the search spends most on a favoured placement"
