"""Issue 20: Mauw's sampling random move and its fast listing of turn moves (play bits).

A random playout no longer lists every move: ``random_move`` counts each column's plays and
builds only the one drawn. It must draw exactly what ``rng.choice(legal_moves)`` draws from
the same generator (so random play stays uniform and seeded games replay as before), and the
listing must equal a plain reading of the play rules (``play_effect``, ``joker_declarations``).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from kiti.bots.heuristic import HeuristicBot
from kiti.core.registry import get_game
from kiti.core.seatview import seat_view
from kiti.core.turns import play_random_game
from kiti.games.mauw.cards import JOKER, SPIRIT, WARRIORS
from kiti.games.mauw.rules import SLOTS, MauwState, Play, joker_declarations, play_effect

G = get_game("mauw")
#: The default deck, every expert animal, teams with open slots, open slots alone.
OPTIONS: list[dict[str, Any]] = [
    {},
    {"kiwi": 4, "ninox": 4, "tuatura": 4},
    {"teams": True, "kiwi": 2, "ninox": 2, "tuatura": 2, "open_slot_block": True},
    {"open_slot_block": True},
]


def positions(options: dict[str, Any], players: int, seed: int) -> Iterator[tuple[MauwState, int]]:
    """Every position of a game played by uniform choice among the listed legal moves."""
    if options.get("teams") and players < 4:
        players = 4
    state = G.new(players, options, seed)
    assert isinstance(state, MauwState)
    rng = random.Random(seed)
    while not state.over:
        seat = min(state.to_act())
        yield state, seat
        state.apply(seat, rng.choice(state.legal_moves(seat)))


def plain_plays(state: MauwState, seat: int) -> list[Play]:
    """The card plays of ``seat``'s turn read straight from the rules, in legal_moves' order:
    column by column (own and opponents' areas), the Warriors and Spirit in hand that
    ``play_effect`` allows (sorted), then a Joker for each of ``joker_declarations``."""
    hand = set(state.hands[seat])
    out: list[Play] = []
    for s in range(state.players):
        if s != seat and not state.is_opponent(seat, s):
            continue
        mine = s == seat
        for slot in range(len(SLOTS)):
            top, nines = state.tops[s][slot], len(state.nines[s][slot])
            opt = state.options["open_slot_block"]
            cards = sorted(c for c in hand & {*WARRIORS, SPIRIT} if play_effect(c, mine, nines, top, opt))
            out += [Play(c, s, slot) for c in cards]
            if JOKER in hand:
                out += [Play(JOKER, s, slot, d) for d in joker_declarations(top, mine)]
    return out


@settings(max_examples=12)
@given(
    which=st.integers(0, len(OPTIONS) - 1),
    players=st.integers(G.info.min_seats, G.info.max_seats),
    seed=st.integers(0, 2**32),
)
def test_random_move_and_action_draw_what_a_uniform_choice_among_legal_moves_draws(
    which: int, players: int, seed: int
) -> None:
    for state, seat in positions(OPTIONS[which], players, seed):
        fast, plain = random.Random(seed + len(state.history)), random.Random(seed + len(state.history))
        assert state.random_move(seat, fast) == plain.choice(state.legal_moves(seat)), state.phase
        assert fast.getstate() == plain.getstate(), "random_move used the generator differently"
        ints = random.Random(seed + len(state.history))
        action = state.random_action(seat, ints)
        assert state.codec().moves[action] == plain_move(state, seat, seed), state.phase
        assert ints.getstate() == plain.getstate(), "random_action used the generator differently"


def plain_move(state: Any, seat: int, seed: int) -> Any:
    """What ``rng.choice(legal_moves)`` draws from the generator ``random_move`` is given."""
    return random.Random(seed + len(state.history)).choice(state.legal_moves(seat))


@settings(max_examples=12)
@given(
    which=st.integers(0, len(OPTIONS) - 1),
    players=st.integers(G.info.min_seats, G.info.max_seats),
    seed=st.integers(0, 2**32),
)
def test_the_turn_plays_are_those_the_play_rules_allow(which: int, players: int, seed: int) -> None:
    turns = 0
    for state, seat in positions(OPTIONS[which], players, seed):
        if state.phase == "turn":
            listed = [m for m in state.legal_moves(seat) if isinstance(m, Play)]
            assert listed == plain_plays(state, seat)
            turns += 1
    assert turns > 0


def test_seeded_random_games_replay() -> None:
    """The same seeds and generator give the same random games, move for move."""
    for players in (2, 4, 7):
        first, second = (play_random_game(G.new(players, None, 7), random.Random(3)) for _ in range(2))
        assert first.history == second.history
        assert first.scores() == second.scores()


def heuristic_fingerprint(game: str, players: int, seeds: list[int]) -> str:
    """A digest of every choice of heuristic bots playing every seat of seeded games."""
    cls = get_game(game)
    digest = hashlib.sha256()
    for seed in seeds:
        state = cls.new(players, None, seed)
        bots = [HeuristicBot(cls, seed=seed * 10 + s) for s in range(players)]
        while not state.over:
            seat = min(state.to_act())
            move = bots[seat].choose(seat_view(state, seat))
            digest.update(f"{seat} {move};".encode())
            state.apply(seat, move)
    return digest.hexdigest()[:16]


def test_the_faster_heuristic_makes_the_same_choices() -> None:
    """The digests of the heuristic's choices before its speed-up (issue 20): kept per decision
    figures (a gain's best place, an attack's odds, the leader) and shared view columns change
    nothing it chooses. A deliberate change of the strategy updates them."""
    assert heuristic_fingerprint("mauw", 4, [0, 1, 2]) == "eda7faaf2b82dd8f"
    assert heuristic_fingerprint("mauw", 2, [5]) == "2640af229a76438c"
