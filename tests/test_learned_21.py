"""Learned players (issue 21, kiti.rl.learned): the shipped policies load with NumPy alone,
play only legal moves through every face (kiti play's loop, tournaments, the server's bot
choices, Gymnasium, PettingZoo), and see nothing but their seat (the same outputs for every
state the seat cannot tell apart)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numpy", reason="kiti.rl needs the [rl] extra (pip install -e '.[rl]')")

import numpy as np

import kiti
from kiti.bots.registry import BotSpecError, make_bot, offered_online
from kiti.core.registry import get_game
from kiti.core.seatview import SeatView, seat_view
from kiti.rl import learned
from kiti.rl.learned import LearnedPolicyError, learned_for, load_learned

# (game, shipped name, the table it plays)
SHIPPED = [
    ("miaui", "default", {"players": 4}),
    ("miaui", "three", {"players": 3}),
    ("mauw", "default", {"players": 4}),
    ("mauw", "two", {"players": 2}),
    ("mauw", "teams", {"players": 4, "teams": True}),
    ("motu", "default", {"players": 4}),
    ("motu", "solo", {"players": 1}),
]


def play(state, choose, limit: int = 10_000) -> int:
    """Play ``state`` to its end with ``choose(state, seat)``, checking every move is legal."""
    moves = 0
    while not state.over and moves < limit:
        chosen = {}
        for seat in sorted(state.acting):
            move = choose(state, seat)
            assert move in state.legal_moves(seat), f"seat {seat} chose an illegal {move}"
            chosen[seat] = move
        if len(chosen) == 1:
            state.apply(*next(iter(chosen.items())))
        else:
            state.apply_all(chosen)
        moves += len(chosen)
    return moves


@pytest.mark.parametrize(("game", "name", "table"), SHIPPED)
def test_each_game_ships_a_small_documented_policy_for_its_table(game: str, name: str, table: dict) -> None:
    policy = load_learned(game, name)
    assert policy.fits(kiti.load(game, **table)) and learned_for(kiti.load(game, **table)) is policy
    folder = learned.shipped_dir(game)
    assert (folder / f"{name}.npz").stat().st_size < 500_000, "under half a megabyte"
    meta = json.loads((folder / f"{name}.json").read_text())
    assert {"command", "seed", "time", "data", "machine"} <= set(meta["provenance"])
    assert meta["provenance"]["command"].startswith(f"kiti train {game}")


def test_the_default_names_and_errors() -> None:
    assert load_learned("miaui") is load_learned("miaui", "default"), "kiti play's default table"
    assert load_learned("miaui").fits(kiti.load("miaui", players=4))
    with pytest.raises(LearnedPolicyError, match=r"has no learned policy 'nope' \(it has: .*teams"):
        load_learned("mauw", "nope")
    with pytest.raises(LearnedPolicyError, match=r"no learned policy plays kiti\.load\('miaui', players=5\)"):
        learned_for(kiti.load("miaui", players=5))
    with pytest.raises(BotSpecError, match="'mauw' is no learned Miaui policy"):
        make_bot("policy:mauw", get_game("miaui"), 0)
    bot = make_bot("policy:miaui", get_game("miaui"), 0)
    with pytest.raises(LearnedPolicyError, match="players=5"):
        bot.choose(seat_view(kiti.load("miaui", players=5).new_state(1), 0))


def test_a_policy_of_other_tensors_is_refused(tmp_path) -> None:
    policy = load_learned("mauw")
    meta = dict(policy.meta, layout=[["hand", [13]]])
    learned.write(tmp_path / "old", meta, policy.net.w)
    with pytest.raises(LearnedPolicyError, match=r"trained on other tensors .* train it again"):
        learned.read(tmp_path / "old.npz")


@pytest.mark.parametrize(("game", "name", "table"), SHIPPED)
def test_probabilities_cover_the_legal_moves_and_the_value_is_a_share(
    game: str, name: str, table: dict
) -> None:
    policy = load_learned(game, name)
    state = kiti.load(game, **table).new_state(3)
    rng = random.Random(3)
    for _ in range(6):
        for seat in sorted(state.acting):
            view = seat_view(state, seat)
            probs = policy.probabilities(view)
            assert set(probs) == set(state.legal_moves(seat))
            assert abs(sum(probs.values()) - 1) < 1e-5 and min(probs.values()) >= 0
            assert 0.0 <= policy.value(view) <= 1.0
        for _ in range(3):
            if state.over:
                break
            chosen = {s: rng.choice(state.legal_moves(s)) for s in state.acting}
            state.apply_all(chosen) if len(chosen) > 1 else state.apply(*next(iter(chosen.items())))


@pytest.mark.parametrize(("game", "name", "table"), SHIPPED)
def test_policy_bots_play_whole_games_with_legal_moves_only(game: str, name: str, table: dict) -> None:
    cls = get_game(game)
    state = kiti.load(game, **table).new_state(11)
    bots = [make_bot(f"policy:{game}", cls, s) for s in range(state.players)]
    play(state, lambda st, seat: bots[seat].choose(seat_view(st, seat)))
    assert state.over and not state.truncated


@pytest.mark.parametrize("game", ["miaui", "mauw"])
def test_it_sees_only_its_seat(game: str) -> None:
    """The policy's outputs are the same for every state its seat cannot tell from the true
    one (the conformance suite's resample check, applied to the policy)."""
    policy = load_learned(game)
    state = policy.game.new_state(5)
    rng = random.Random(5)
    checked = 0
    while not state.over and checked < 40:
        for seat in range(state.players):
            truth = seat_view(state, seat)
            other = state.resample(seat, random.Random(rng.random()))
            guess = SeatView(other, seat, guess_seed=rng.randrange(1000))  # another world, another guess
            assert policy.value(truth) == policy.value(guess), f"seat {seat}'s value depends on hidden cards"
            if seat in state.acting:
                assert policy.probabilities(truth) == policy.probabilities(guess)
            checked += 1
        chosen = {s: rng.choice(state.legal_moves(s)) for s in state.acting}
        state.apply_all(chosen) if len(chosen) > 1 else state.apply(*next(iter(chosen.items())))


def test_a_tournament_and_the_lobby() -> None:
    from kiti.sim.tournament import TournamentConfig, run_tournament

    result = run_tournament(
        TournamentConfig(game="mauw", bots=["policy:mauw", "heuristic"], games=2, seed=4, jobs=1)
    )
    assert [b["games"] for b in result["summary"]["bots"]] == [2, 2]
    assert "policy:miaui" in offered_online(get_game("miaui"))


def test_the_server_seats_a_shipped_policy_only_at_its_table(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("starlette", reason="the server needs the [server] extra")
    from kiti.server.newtable import new_table
    from kiti.server.protocol import ProtocolError

    monkeypatch.delenv("KITI_POLICIES", raising=False)
    row, *_ = new_table({"game": "miaui", "seats": ["human", "policy:miaui", "heuristic"]}, 30.0)
    assert [s.kind for s in row.seats] == ["human", "policy:miaui", "heuristic"]
    with pytest.raises(ProtocolError, match=r"no learned policy plays kiti\.load\('miaui', players=5\)"):
        new_table({"game": "miaui", "seats": ["human", "policy:miaui", "random", "random", "random"]}, 30.0)
    with pytest.raises(ProtocolError, match="KITI_POLICIES"):
        new_table({"game": "miaui", "seats": ["human", "policy:./runs/x", "random"]}, 30.0)


def test_a_bot_whose_policy_does_not_play_the_table_is_refused_before_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A learned policy, or a search it guides, is refused at a table it was not trained
    for when the table is set up (kiti play, tournaments, the server), never mid-game."""
    from typer.testing import CliRunner

    from kiti.bots.registry import check_table
    from kiti.cli.main import app
    from kiti.sim.tournament import TournamentConfig, TournamentError, plan_tournament

    mauw, miaui = get_game("mauw"), get_game("miaui")
    check_table("policy:mauw.two", mauw, 2, {})  # premise: its own table is fine
    check_table("ismcts:iters=5,policy=miaui", miaui, 3, {})
    with pytest.raises(BotSpecError, match=r"policy:mauw\.two cannot play this table: .*players=2\), not"):
        check_table("policy:mauw.two", mauw, 4, {})
    with pytest.raises(BotSpecError, match=r"no learned policy plays kiti\.load\('miaui', players=5\)"):
        check_table("ismcts:iters=5,policy=miaui", miaui, 5, {})
    monkeypatch.setenv("HOME", str(tmp_path))  # no crash report lands in the user's folders
    result = CliRunner().invoke(app, ["play", "mauw", "--seats", "policy:mauw.two,human,heuristic,heuristic"])
    assert result.exit_code == 2 and "cannot play this table" in result.output, result.output
    assert "unexpected error" not in result.output
    with pytest.raises(TournamentError, match="cannot play this table"):
        plan_tournament(
            TournamentConfig(game="mauw", players=4, bots=["policy:mauw.two"] + ["heuristic"] * 3)
        )
    pytest.importorskip("starlette", reason="the server needs the [server] extra")
    from kiti.server.newtable import new_table
    from kiti.server.protocol import ProtocolError

    monkeypatch.delenv("KITI_POLICIES", raising=False)
    row, *_ = new_table({"game": "mauw", "seats": ["human", "policy:mauw.two"]}, 30.0)  # a shipped name
    assert [s.kind for s in row.seats] == ["human", "policy:mauw.two"]
    with pytest.raises(ProtocolError, match="cannot play this table"):
        new_table({"game": "miaui", "seats": ["human"] + ["ismcts:iters=5,policy=miaui"] * 4}, 30.0)


def test_a_policy_given_another_tables_tensor_says_so() -> None:
    import kiti.rl.gym

    env = kiti.rl.gym.make("miaui", players=3, opponents="heuristic", observation="info_state")
    obs, _info = env.reset(seed=2)
    assert load_learned("miaui", "three")(obs["observation"], obs["action_mask"]) >= 0  # premise: its own
    with pytest.raises(LearnedPolicyError, match=r"players=4\) from its info_state tensor of \d+ values"):
        load_learned("miaui")(obs["observation"], obs["action_mask"])  # the 4-seat one


def test_a_file_that_is_no_policy_is_named_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # short paths: a message quotes at most a readable piece of one
    tmp_path = Path(".")
    (tmp_path / "p.npz").write_bytes(b"junk")
    (tmp_path / "p.json").write_text("{}")
    (tmp_path / "notes.md").write_text("# notes")
    with pytest.raises(LearnedPolicyError, match=r"p' cannot be read \(ValueError\): is it a policy"):
        learned.read(tmp_path / "p")
    with pytest.raises(LearnedPolicyError, match=r"notes\.md' is no learned policy"):
        learned.read(tmp_path / "notes.md")
    with pytest.raises(LearnedPolicyError, match=r"nothing' does not exist"):
        learned.read(tmp_path / "nothing")


def test_gymnasium_and_pettingzoo_faces() -> None:
    import kiti.rl.gym
    import kiti.rl.pettingzoo

    policy = load_learned("miaui", "three")
    env = kiti.rl.gym.make("miaui", players=3, opponents="policy:miaui", observation="info_state")
    obs, _info = env.reset(seed=2)
    done = False
    while not done:
        obs, _reward, terminated, truncated, _info = env.step(policy(obs["observation"], obs["action_mask"]))
        done = terminated or truncated
    teams = load_learned("mauw", "teams")
    aec = kiti.rl.pettingzoo.env("mauw", players=4, options={"teams": True}, observation="info_state")
    aec.reset(seed=3)
    for _agent in aec.agent_iter():
        obs, _reward, terminated, truncated, _info = aec.last()
        aec.step(None if terminated or truncated else teams(obs["observation"], obs["action_mask"]))
    assert aec.state.over


def test_playing_needs_numpy_only() -> None:
    code = (
        "import sys, kiti\n"
        "from kiti.bots.registry import make_bot\n"
        "from kiti.core.seatview import seat_view\n"
        "s = kiti.load('motu').new_state(1); b = make_bot('policy:motu', type(s), 1)\n"
        "b.choose(seat_view(s, 0))\n"
        "assert 'torch' not in sys.modules, 'torch was imported'\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr


def test_the_policy_callable_agrees_with_its_probabilities() -> None:
    """policy(tensor, mask), for the envs, picks the likeliest move of probabilities(view)."""
    from kiti.rl.spaces import Actions
    from kiti.rl.tensors import encoder_for

    for game in ("miaui", "motu"):
        policy = load_learned(game)
        state = policy.game.new_state(8)
        seat = min(state.acting)
        probs = policy.probabilities(seat_view(state, seat))
        mask = Actions(policy.game).mask(state, seat)
        action = policy(encoder_for(policy.game).info_state(state, seat), mask)
        best = max(probs, key=probs.__getitem__)
        assert np.isclose(probs[policy.game.codec.moves[action]], probs[best])
