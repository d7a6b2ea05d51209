"""ISMCTS guided by a learned policy (issue 21): its probabilities as priors, its value in
place of rollouts, through the bot's Guide protocol; tested with stub policies."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from kiti.bots.ismcts import ISMCTSBot
from kiti.bots.registry import BotSpecError, make_bot
from kiti.core.events import REFEREE
from kiti.core.moves import Move
from kiti.core.registry import get_game
from kiti.core.seatview import SeatView, seat_view
from kiti.core.turns import turns
from kiti.games.mauw.rules import MauwState


class Stub:
    """A policy of fixed opinions: every move alike (or all on ``favour``), a constant value;
    it checks that each input is a SeatView and records the whole state behind it (the
    view's own guess, read here only to prove it never depends on hidden facts)."""

    def __init__(self, value: float = 0.25, favour: Move | None = None) -> None:
        self.constant = value
        self.favour = favour
        self.shown: list[tuple[str, int, str]] = []

    def probabilities(self, view: SeatView) -> dict[Move, float]:
        assert isinstance(view, SeatView)
        self.shown.append(("probabilities", view.seat, _behind(view)))
        legal = view.legal_moves
        if self.favour in legal:
            return {m: float(m == self.favour) for m in legal}
        return {m: 1 / len(legal) for m in legal}

    def value(self, view: SeatView) -> float:
        assert isinstance(view, SeatView)
        self.shown.append(("value", view.seat, _behind(view)))
        return self.constant


def _behind(view: SeatView) -> str:
    return repr(view._guess.observation(REFEREE))


def _decisions(game_id: str, players: int, count: int) -> list[SeatView]:
    """Views of the seats to act at a few points of one random game."""
    rng = random.Random(3)
    state = get_game(game_id).new(players, None, 21)
    found = []
    for n, seat in enumerate(turns(state)):
        if n % 7 == 0 and len(state.legal_moves(seat)) > 1:
            found.append(seat_view(state, seat))
            if len(found) == count:
                break
        state.step(seat, state.random_action(seat, rng))
    return found


@pytest.mark.parametrize(("game_id", "players"), [("miaui", 3), ("mauw", 2)])
def test_a_uniform_guide_plays_whole_games_by_the_rules(game_id: str, players: int) -> None:
    state = get_game(game_id).new(players, None, 4)
    bot = ISMCTSBot(1, iters=6, policy=Stub())
    others = random.Random(2)
    for seat in turns(state):
        move = bot.choose(seat_view(state, seat)) if seat == 0 else state.random_move(seat, others)
        state.apply(seat, move)  # checked: an illegal move would raise
    assert state.over


@pytest.mark.parametrize(("game_id", "players"), [("miaui", 4), ("mauw", 3), ("motu", 2)])
def test_a_guide_sure_of_one_move_gets_it_searched_at_tiny_budgets(game_id: str, players: int) -> None:
    for k, view in enumerate(_decisions(game_id, players, 3)):
        favour = view.random_move(random.Random(k))
        stats = ISMCTSBot(k, iters=5, policy=Stub(favour=favour)).root_statistics(view, 5)
        visits = stats[str(favour)][0]
        assert visits >= 4 and visits == max(n for n, _ in stats.values()), (game_id, k, stats)
        plain = ISMCTSBot(k, iters=5, prior=0.0, policy=Stub(favour=favour)).root_statistics(view, 5)
        assert plain.get(str(favour), (0, 0))[0] < 4, "prior=0: the policy's opinion is not used"


def test_a_guide_sure_of_one_move_makes_the_bot_play_it() -> None:
    view = _decisions("mauw", 3, 1)[0]
    assert not view.secret_choice()
    for favour in view.legal_moves[:4]:
        assert ISMCTSBot(5, iters=3, policy=Stub(favour=favour)).choose(view) == favour


def test_the_value_stands_in_for_rollouts_or_mixes_with_them() -> None:
    view = _decisions("miaui", 3, 1)[0]
    stats = ISMCTSBot(2, iters=40, policy=Stub(value=0.25)).root_statistics(view, 40)
    assert all(mean == pytest.approx(0.25) for n, mean in stats.values() if n), stats
    mixed = ISMCTSBot(2, iters=40, value=0.5, policy=Stub(value=0.25)).root_statistics(view, 40)
    assert any(n and mean != pytest.approx(0.25) for n, mean in mixed.values()), "rollouts count too"
    stub = Stub()
    ISMCTSBot(2, iters=40, value=0.0, policy=stub).root_statistics(view, 40)
    assert stub.shown and not [s for s in stub.shown if s[0] == "value"], "value=0: rollouts only"


def test_the_guide_sees_only_what_the_searching_seat_can_know() -> None:
    a = MauwState.new(3, None, 7)
    b = a.clone()
    b.draw.reverse()  # hidden from everyone
    b.hands[1], b.hands[2] = b.hands[2], b.hands[1]  # other seats' hands
    shown, moves = [], []
    for state in (a, b):
        stub = Stub()
        moves.append(ISMCTSBot(5, iters=30, policy=stub).choose(seat_view(state, 0)))
        shown.append(stub.shown)
    assert shown[0] and shown[0] == shown[1] and moves[0] == moves[1]
    assert {seat for _, seat, _ in shown[0]} > {0}, "other seats' nodes are opened from a determinization"


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("ismcts:policy=mauw", "policy must name a learned policy (miaui or miaui.VARIANT), not 'mauw'"),
        ("ismcts:value=1.5", "value must be at most 1"),
        ("ismcts:value=-1", "value must be at least 0"),
    ],
)
def test_bad_policy_parameters_are_refused_by_name(spec: str, expected: str) -> None:
    with pytest.raises(BotSpecError, match=expected.replace("(", r"\(").replace(")", r"\)")):
        make_bot(spec, get_game("miaui"))


def test_a_policy_the_game_does_not_ship_is_refused() -> None:
    pytest.importorskip("numpy")  # the learned policies' loader (the [rl] extra)
    with pytest.raises(BotSpecError, match=r"policy 'miaui\.nosuch'.*no learned policy"):
        make_bot("ismcts:policy=miaui.nosuch", get_game("miaui"))


def test_ismcts_without_a_policy_needs_no_numpy() -> None:
    code = (
        "import sys\n"
        "from kiti.bots.registry import make_bot\n"
        "from kiti.core.registry import get_game\n"
        "from kiti.core.seatview import seat_view\n"
        "g = get_game('miaui')\n"
        "make_bot('ismcts:iters=20', g, 1).choose(seat_view(g.new(3, None, 1), 0))\n"
        "assert 'numpy' not in sys.modules, 'numpy imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def test_a_policy_named_by_its_game_plays_each_table_with_the_one_that_fits_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    learned = pytest.importorskip("kiti.rl.learned")  # the [rl] extra
    shipped = {3: Stub(favour=None), 4: Stub(favour=None)}
    monkeypatch.setattr(learned, "load_learned", lambda game_id, name=None: shipped[3])
    monkeypatch.setattr(learned, "learned_for", lambda game: shipped[game.players])
    bot = make_bot("ismcts:iters=4,policy=miaui", get_game("miaui"), 1)
    for players in (4, 3):
        bot.choose(seat_view(get_game("miaui").new(players, None, 2), 0))
        assert shipped[players].shown, f"the {players}-seat table's policy guided the search"


def test_the_shipped_policy_guides_ismcts_through_a_bot_spec() -> None:
    pytest.importorskip("numpy")  # the [rl] extra
    cls = get_game("miaui")
    state = cls.new(3, None, 9)  # the table Miaui's shipped policy plays
    bot = make_bot("ismcts:iters=10,policy=miaui", cls, 1)
    for seat in sorted(state.to_act()):
        assert bot.choose(seat_view(state, seat)) in state.legal_moves(seat)
