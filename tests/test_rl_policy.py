"""Policies as bots (kiti.rl.policy): the spec ``policy:module:callable`` or
``policy:file.py:callable`` plays a function of (tensor, mask) in games, in
``kiti tournament`` and, when its operator allows it, on the server; clear errors otherwise."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numpy", reason="kiti.rl needs the [rl] extra (pip install -e '.[rl]')")

import kiti
from kiti.bots.registry import BotSpecError, make_bot, parse_bot_spec
from kiti.core.seatview import seat_view
from kiti.core.turns import turns
from kiti.games.miaui.rules import MiauiState
from kiti.rl.spaces import IllegalActionError
from kiti.rl.tensors import encoder_for

POLICY = """
import numpy as np
calls = []

def highest(tensor, mask):
    calls.append((tensor.shape, mask.shape))
    return int(np.flatnonzero(mask)[-1])

def noop(tensor, mask):
    return len(mask) - 1

not_callable = 3
"""


@pytest.fixture
def policy_file(tmp_path: Path) -> Path:
    path = tmp_path / "agents_for_kiti.py"
    path.write_text(POLICY)
    return path


def test_the_spec_keeps_the_callable_and_its_case() -> None:
    assert parse_bot_spec("policy:My.Pkg:Act,observation=info_state") == (
        "policy",
        {"target": "My.Pkg:Act", "observation": "info_state"},
    )


def test_a_policy_plays_a_whole_game_from_its_seat_view(policy_file: Path) -> None:
    game = kiti.load("miaui", players=3)
    enc = encoder_for(game)
    bots = [make_bot(f"policy:{policy_file}:highest", MiauiState, s) for s in range(3)]
    state = game.new_state(5)
    for seat in turns(state):
        view = seat_view(state, seat)
        move = bots[seat].choose(view)
        assert state.codec().index[move] == max(state.legal_actions(seat)), "the policy's action is played"
        state.apply(seat, move)
    calls = bots[0].policy.__globals__["calls"]
    assert calls[0] == ((enc.observation_layout.size,), (game.codec.size + 1,)), (
        "tensor and mask as the envs give"
    )
    assert state.over


def test_a_module_policy_and_the_information_state(
    policy_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(policy_file.parent))
    bot = make_bot("policy:agents_for_kiti:highest,observation=info_state", MiauiState, 0)
    state = kiti.load("miaui", players=4).new_state(1)
    bot.choose(seat_view(state, 2))
    size = encoder_for(kiti.load("miaui", players=4)).info_state_layout.size
    assert bot.policy.__globals__["calls"][-1][0] == (size,)


def test_errors_name_what_is_wrong(policy_file: Path) -> None:
    cases = {
        "policy:no_such_module_xyz:act": "no module 'no_such_module_xyz'",
        f"policy:{policy_file}:missing": "has no 'missing'",
        f"policy:{policy_file}:not_callable": "'not_callable' is not callable",
        "policy:nowhere/agents.py:act": "there is no file 'nowhere/agents.py'",
        "policy": "bot policy needs its callable",
        "policy:justaname": "must be written module:callable",
        f"policy:{policy_file}:highest,observation=json": "must be one of tensor, info_state",
    }
    for spec, message in cases.items():
        with pytest.raises(BotSpecError, match=message.replace("(", r"\(")):
            make_bot(spec, MiauiState, 0)
    bot = make_bot(f"policy:{policy_file}:noop", MiauiState, 0)
    state = kiti.load("miaui", players=3).new_state(1)
    with pytest.raises(
        IllegalActionError,
        match=r"policy .*:noop returned an illegal action: seat 1 may not play action 12 \(NOOP\)",
    ):
        bot.choose(seat_view(state, 1))


def test_a_tournament_of_policies(policy_file: Path, tmp_path: Path) -> None:
    from play_helpers import data_dir, env

    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "kiti.cli.main",
            "tournament",
            "miaui",
            "--bots",
            f"policy:{policy_file}:highest,random,random",
            "--games",
            "2",
            "--jobs",
            "1",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env=env(data_dir(tmp_path)),
    )
    assert out.returncode == 0, out.stderr
    assert "policy" in out.stdout and json.loads(out.stdout)


def test_the_server_runs_only_the_policies_its_operator_lists(
    policy_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("starlette", reason="the server needs the [server] extra")
    from kiti.server.newtable import bot_spec
    from kiti.server.protocol import ProtocolError

    spec = f"policy:{policy_file}:highest"
    monkeypatch.delenv("KITI_POLICIES", raising=False)
    with pytest.raises(ProtocolError, match="runs only the policies its operator lists in KITI_POLICIES"):
        bot_spec("policy:os:system", MiauiState, 30.0)
    with pytest.raises(ProtocolError, match="KITI_POLICIES"):
        bot_spec(spec, MiauiState, 30.0)
    monkeypatch.setenv("KITI_POLICIES", f"other:act, {policy_file}:highest")
    assert bot_spec(spec, MiauiState, 30.0) == spec
