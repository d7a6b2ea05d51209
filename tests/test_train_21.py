"""Training learned players (issue 21, kiti.rl.train, ``kiti train``) on tiny budgets: a run
writes a playable policy, the same seed gives the same run, a run stopped at a checkpoint and
resumed ends exactly where an unbroken run ends, best responses keep the other seats frozen,
and the NumPy forward pass that plays a policy is the trainer's own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("torch", reason="kiti train needs the [train] extra (pip install -e '.[train]')")

import numpy as np
import torch
from typer.testing import CliRunner

import kiti
from kiti.bots.registry import make_bot
from kiti.cli.main import app
from kiti.core.registry import get_game
from kiti.core.seatview import seat_view
from kiti.rl.learned import Network, resolve
from kiti.rl.train import Config, Trainer, TrainError, train
from kiti.rl.train.imitate import record
from kiti.rl.train.net import PolicyValueNet
from kiti.rl.train.ppo import _head_arrays
from kiti.rl.train.selfplay import HEURISTIC, LEARNER, lineup_for

TINY = {"games": 4, "minibatch": 64, "epochs": 2, "snapshot_every": 2, "hidden": 16}


def weights(out: Path) -> dict[str, np.ndarray]:
    state = torch.load(out / "checkpoint.pt", weights_only=False)
    return {k: v.numpy() for k, v in state["net"].items()}


def same(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


def test_a_run_writes_a_policy_that_plays(tmp_path: Path) -> None:
    trainer = train(Config("miaui", seed=1, steps=200, **TINY), tmp_path / "run")
    assert trainer.steps >= 200 and trainer.history[-1]["decisions"] == trainer.steps
    policy = resolve(str(tmp_path / "run"))
    meta = json.loads((tmp_path / "run" / "policy.json").read_text())
    assert meta["training"]["seed"] == 1 and meta["training"]["decisions"] == trainer.steps
    state = kiti.load("miaui").new_state(2)
    bots = [make_bot(f"policy:{tmp_path / 'run'}", get_game("miaui"), s) for s in range(3)]
    while not state.over:
        chosen = {s: bots[s].choose(seat_view(state, s)) for s in state.acting}
        assert all(m in state.legal_moves(s) for s, m in chosen.items())
        state.apply_all(chosen) if len(chosen) > 1 else state.apply(*next(iter(chosen.items())))
    assert policy.game == kiti.load("miaui")


def test_the_same_seed_gives_the_same_run_and_another_seed_another(tmp_path: Path) -> None:
    for name, seed in (("a", 3), ("b", 3), ("c", 4)):
        train(Config("mauw", seed=seed, steps=150, **TINY), tmp_path / name)
    assert same(weights(tmp_path / "a"), weights(tmp_path / "b"))
    assert not same(weights(tmp_path / "a"), weights(tmp_path / "c"))


def test_a_resumed_run_ends_where_an_unbroken_run_ends(tmp_path: Path) -> None:
    """k decisions straight against k/2, a checkpoint, a new process's resume, k/2 more: the
    same network, optimiser, pool of past selves and generators."""
    k = 400
    straight = train(Config("miaui", seed=5, steps=k, **TINY), tmp_path / "straight")
    train(Config("miaui", seed=5, steps=k // 2, **TINY), tmp_path / "split")
    resumed = train(Config("miaui", seed=5, steps=k, **TINY), tmp_path / "split", resume=True)
    assert straight.iteration == resumed.iteration and straight.steps == resumed.steps
    assert same(weights(tmp_path / "straight"), weights(tmp_path / "split"))
    assert straight.pool.keys() == resumed.pool.keys() and len(straight.pool) >= 2, "the pool was used"
    a = torch.load(tmp_path / "straight" / "checkpoint.pt", weights_only=False)
    b = torch.load(tmp_path / "split" / "checkpoint.pt", weights_only=False)
    assert a["rng"] == b["rng"] and a["history"] == b["history"]
    assert all(
        torch.equal(a["opt"]["state"][i]["exp_avg"], b["opt"]["state"][i]["exp_avg"])
        for i in a["opt"]["state"]
    )


def test_a_run_refuses_to_overwrite_or_to_resume_nothing(tmp_path: Path) -> None:
    with pytest.raises(TrainError, match="nothing to resume"):
        train(Config("miaui", steps=10, **TINY), tmp_path / "none", resume=True)
    train(Config("miaui", steps=10, **TINY), tmp_path / "run")
    with pytest.raises(TrainError, match="holds a run already"):
        train(Config("miaui", steps=10, **TINY), tmp_path / "run")
    with pytest.raises(TrainError, match="trained with seed=0, not 9"):
        train(Config("miaui", steps=20, seed=9, **TINY), tmp_path / "run", resume=True)


def test_best_response_lineups_freeze_every_other_seat() -> None:
    rng = np.random.default_rng(0)
    for _ in range(20):
        lineup = lineup_for(4, rng, ["past2"], HEURISTIC, (0.3, 0.3))
        assert lineup.count(LEARNER) == 1 and lineup.count(HEURISTIC) == 3
    mixed = [a for _ in range(50) for a in lineup_for(3, rng, ["past2"], None, (0.3, 0.3))]
    assert {LEARNER, HEURISTIC, "past2"} <= set(mixed), "self-play meets the heuristic and past selves"


def test_in_a_team_game_the_learner_plays_its_whole_team() -> None:
    """A policy plays every seat of its team, so it trains beside itself: with ``against``,
    the learner's teammates are the learner and only the other team is the opponent."""
    rng = np.random.default_rng(0)
    teams = kiti.load("mauw", players=4, teams=True).new_state(0).teams()
    assert [len(t) for t in teams] == [2, 2]  # premise: two teams of two
    for _ in range(20):
        lineup = lineup_for(4, rng, [], HEURISTIC, (0.3, 0.3), [t for t in teams if len(t) > 1])
        mine = next(t for t in teams if lineup[t[0]] == LEARNER)
        assert [lineup[s] for s in mine] == [LEARNER, LEARNER]
        assert lineup.count(HEURISTIC) == 2, lineup
    solo = [lineup_for(4, rng, [], HEURISTIC, (0.3, 0.3)).count(LEARNER) for _ in range(20)]
    assert solo == [1] * 20, "without teams the learner holds one seat"


def test_a_best_response_trains_against_a_frozen_policy(tmp_path: Path) -> None:
    train(Config("miaui", seed=1, steps=100, **TINY), tmp_path / "p")
    frozen = weights(tmp_path / "p")
    br = train(
        Config("miaui", seed=2, steps=100, against=str(tmp_path / "p"), init=str(tmp_path / "p"), **TINY),
        tmp_path / "br",
    )
    assert same(frozen, weights(tmp_path / "p")), "the frozen policy is not trained"
    assert not same(frozen, weights(tmp_path / "br")) and br.pool == {}


def test_numpy_plays_the_network_the_trainer_trains() -> None:
    torch.manual_seed(0)
    net = PolicyValueNet(30, 16, [7, 300, 5])
    numpy_net = Network(net.export(), 3)
    x = np.random.default_rng(0).standard_normal((4, 30)).astype(np.float32)
    h = net.trunk(torch.as_tensor(x))
    assert np.allclose(numpy_net.trunk(x), h.detach().numpy(), atol=1e-5)
    assert np.allclose(numpy_net.value(numpy_net.trunk(x)), net.value(h).detach().numpy(), atol=1e-5)
    legal = torch.tensor([[1, 4, 299, -1]])
    lp = net.head(h[:1], 1, torch.tensor([[3]]), legal)[0, :3].detach().numpy()
    logits = numpy_net.logits(numpy_net.trunk(x)[0], 1, (3,), np.array([1, 4, 299]))
    assert np.allclose(lp, logits - np.log(np.exp(logits).sum()), atol=1e-5)


def test_kiti_train_on_the_command_line(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "cli"
    result = runner.invoke(app, ["train", "miaui", "--out", str(out)])
    assert result.exit_code == 2 and "say how long to train" in result.output
    result = runner.invoke(
        app, ["train", "miaui", "--out", str(out), "--steps", "60", "--games", "2", "--hidden", "8"]
    )
    assert result.exit_code == 0, result.output
    assert "decisions" in result.output and (out / "policy.npz").is_file()
    result = runner.invoke(app, ["train", "miaui", "--out", str(out), "--steps", "60"])
    assert result.exit_code == 2 and "holds a run already" in result.output
    result = runner.invoke(app, ["train", "nosuchgame", "--out", str(tmp_path / "x"), "--steps", "5"])
    assert result.exit_code == 2 and "nosuchgame" in result.output
    result = runner.invoke(
        app, ["train", "miaui", "--out", str(tmp_path / "y"), "--steps", "0", "--imitate", "bot"]
    )
    assert result.exit_code == 2 and "--imitate takes heuristic, not 'bot'" in result.output


IMITATE = {"imitate": "heuristic", "imitate_games": 3, "imitate_epochs": 3}


class Stop(Exception):
    pass


def test_a_run_resumed_during_or_after_its_imitation_ends_where_an_unbroken_run_ends(tmp_path: Path) -> None:
    """Stopped in the middle of imitating (the checkpoint after its first epoch), or right
    after it: resumed, the same weights, optimisers, generators and history."""
    k = 150
    config = {"seed": 5, "checkpoint_every": 0.0, **IMITATE, **TINY}
    straight = train(Config("miaui", steps=k, **config), tmp_path / "straight")

    def stop_at_the_second_epoch(trainer: Trainer) -> None:
        if trainer.imitated == 2:
            raise Stop

    with pytest.raises(Stop):
        train(Config("miaui", steps=k, **config), tmp_path / "during", progress=stop_at_the_second_epoch)
    assert torch.load(tmp_path / "during" / "checkpoint.pt", weights_only=False)["imitation"]["epochs"] == 1
    train(Config("miaui", steps=k, **config), tmp_path / "during", resume=True)
    train(Config("miaui", steps=0, **config), tmp_path / "after")
    resumed = train(Config("miaui", steps=k, **config), tmp_path / "after", resume=True)
    assert resumed.imitated == 3 and resumed.steps == straight.steps >= k
    a = torch.load(tmp_path / "straight" / "checkpoint.pt", weights_only=False)
    for run in ("during", "after"):
        assert same(weights(tmp_path / "straight"), weights(tmp_path / run)), run
        b = torch.load(tmp_path / run / "checkpoint.pt", weights_only=False)
        assert a["rng"] == b["rng"] and a["history"] == b["history"]
        assert torch.equal(
            a["imitation"]["opt"]["state"][0]["exp_avg"], b["imitation"]["opt"]["state"][0]["exp_avg"]
        )
    assert [h["imitation_epoch"] for h in a["history"][:3]] == [1, 2, 3]


def test_imitation_learns_the_heuristics_moves(tmp_path: Path) -> None:
    """After imitating, the policy gives the heuristic's moves in games it never saw far more
    probability than the untrained network does, and its value is about the mean share."""
    small = {"seed": 1, "steps": 0, "hidden": 32}
    start = train(Config("miaui", **small), tmp_path / "start")
    imitated = train(
        Config("miaui", imitate="heuristic", imitate_games=60, imitate_epochs=10, imitate_lr=3e-3, **small),
        tmp_path / "imitated",
    )
    unseen = record(imitated.game, "info_state", imitated.features, games=6, seed=99)
    heads = _head_arrays(unseen.batch, 1, torch.device("cpu"))
    every = torch.arange(len(unseen.batch))

    def chosen_p_and_value(trainer: Trainer) -> tuple[float, float]:
        with torch.no_grad():
            logp, _, value = trainer._evaluate(torch.as_tensor(unseen.x), heads, every)
        return float(logp.exp().mean()), float(value.mean())

    before, _ = chosen_p_and_value(start)
    after, value = chosen_p_and_value(imitated)
    assert after > before + 0.04, (before, after)  # 0.19 -> 0.25
    assert abs(value - 1 / 3) < 0.1, value
    assert imitated.history[-1]["imitation_loss"] < imitated.history[0]["imitation_loss"]
    with pytest.raises(TrainError, match="--imitate takes heuristic, not 'random'"):
        train(Config("miaui", imitate="random", **small), tmp_path / "bad")
    with pytest.raises(TrainError, match="at least one game"):
        train(Config("miaui", imitate="heuristic", imitate_games=0, **small), tmp_path / "bad")
    with pytest.raises(TrainError, match="learning rate must be above 0, not -1"):
        train(Config("miaui", lr=-1, **small), tmp_path / "bad")


def test_score_margins_rank_parties_and_teams_share_theirs() -> None:
    """--margin's reward term: the winning party ahead (>= 0), every other behind, within
    -1..1; team mates get their team's; MOTU's solo seat is measured against the Opponent."""
    import random

    from kiti.core.turns import play_random_game
    from kiti.rl.train.selfplay import score_margins

    rng = random.Random(3)
    seen_behind = seen_solo = False
    for game_id, opts in (
        ("mauw", {"players": 4, "teams": True}),
        ("miaui", {"players": 4}),
        ("motu", {"players": 1}),
    ):
        game = kiti.load(game_id, **opts)
        for seed in range(4):
            state = play_random_game(game.new_state(seed), rng)
            margins = score_margins(state)
            scores = state.party_scores()
            assert state.over and len(margins) == state.players
            assert all(-1 < m < 1 for m in margins)
            for party in state.parties():
                ms = {margins[s] for s in party.seats}
                assert len(ms) <= 1, "a team's seats share its margin"
            best = max(scores)
            for p, party in enumerate(state.parties()):
                for s in party.seats:
                    assert (margins[s] >= 0) == (scores[p] == best)
                    seen_behind |= margins[s] < 0
            if game_id == "motu":
                seen_solo = True
                assert margins[0] == pytest.approx((scores[0] - scores[1]) / (abs(scores[0] - scores[1]) + 1))
    assert seen_behind and seen_solo


def test_a_margin_run_trains_on_another_reward_and_resumes_only_with_it(tmp_path: Path) -> None:
    train(Config("mauw", seed=3, steps=150, **TINY), tmp_path / "share")
    train(Config("mauw", seed=3, steps=150, margin=0.5, **TINY), tmp_path / "margin")
    assert not same(weights(tmp_path / "share"), weights(tmp_path / "margin"))
    meta = json.loads((tmp_path / "margin" / "policy.json").read_text())
    assert "0.5 x the score margin" in json.dumps(meta)
    with pytest.raises(TrainError, match=r"trained with margin=0\.5, not 0\.0"):
        train(Config("mauw", seed=3, steps=300, **TINY), tmp_path / "margin", resume=True)
    with pytest.raises(TrainError, match="--margin must be 0 to 10"):
        Trainer(Config("mauw", margin=-1.0, **TINY), tmp_path / "bad")


def test_a_run_takes_its_network_shape_from_the_policy_it_starts_from(tmp_path: Path) -> None:
    """``--init`` weights fit only a network of their shape: a run that does not say its
    width or tensor takes the starting policy's (a resumed run, its checkpoint's), and one
    that says another is refused with the shapes named, before anything is written."""
    unsized = {k: v for k, v in TINY.items() if k != "hidden"}
    train(Config("miaui", seed=1, steps=40, observation="tensor", hidden=12, **unsized), tmp_path / "p")
    run = train(Config("miaui", seed=2, steps=40, init=str(tmp_path / "p"), **unsized), tmp_path / "from")
    assert (run.hidden, run.observation) == (12, "tensor")
    meta = json.loads((tmp_path / "from" / "policy.json").read_text())
    assert (meta["hidden"], meta["observation"]) == (12, "tensor")
    again = train(Config("miaui", seed=2, steps=80, **unsized), tmp_path / "from", resume=True)
    assert (again.hidden, again.observation, again.steps >= 80) == (12, "tensor", True)
    with pytest.raises(TrainError, match=r"--init .* w1 is \(\d+, 12\), not \(\d+, 16\)"):
        train(Config("miaui", steps=40, init=str(tmp_path / "p"), hidden=16, **unsized), tmp_path / "bad")
    assert not (tmp_path / "bad").exists()
    result = CliRunner().invoke(
        app,
        [
            "train",
            "miaui",
            "--out",
            str(tmp_path / "cli"),
            "--steps",
            "5",
            "--init",
            str(tmp_path / "p"),
            "--hidden",
            "16",
        ],
    )
    assert result.exit_code == 2 and "w1 is" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "cli").exists()


def test_bad_settings_and_damaged_checkpoints_are_refused_before_anything_is_written(tmp_path: Path) -> None:
    refusals = {
        "--games must be at least 1": {"games": 0},
        "--steps must be 0 or more": {"steps": -5},
        "--minutes must be above 0": {"steps": None, "minutes": 0.0},
    }
    for message, bad in refusals.items():
        with pytest.raises(TrainError, match=message):
            train(Config("miaui", **{"steps": 10, **TINY, **bad}), tmp_path / "bad")
    for device, message in (("foo", "must be cpu or cuda"), ("cuda", "no CUDA GPU")):
        if device == "cuda" and torch.cuda.is_available():
            continue
        with pytest.raises(TrainError, match=message):
            train(Config("miaui", steps=10, **TINY), tmp_path / "bad", device=device)
    assert not (tmp_path / "bad").exists()
    (tmp_path / "junk").mkdir()
    (tmp_path / "junk" / "checkpoint.pt").write_bytes(b"not a checkpoint")
    with pytest.raises(TrainError, match="cannot be read"):
        train(Config("miaui", steps=10, **TINY), tmp_path / "junk", resume=True)
    train(Config("miaui", steps=10, **TINY), tmp_path / "run")  # 3 seats, the default table
    with pytest.raises(TrainError, match="trained with players=3, not 4"):
        train(Config("miaui", players=4, steps=20, **TINY), tmp_path / "run", resume=True)
    br = train(  # a policy named as its bot spec is named
        Config("miaui", seed=2, steps=10, against="policy:" + str(tmp_path / "run"), **TINY), tmp_path / "br"
    )
    assert br.frozen is not None
