"""An adversarial user's trial of the study and research commands (kiti balance, tournament,
bench, train) and of kiti.rl's Python faces: bad input gets a clear error that names what is
wrong and changes nothing (no file half-written, no run started), never a traceback; a
resumed training run is the unbroken run or is refused."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kiti.cli.main import app


def kiti(*args: str) -> tuple[int, str]:
    """Run ``kiti ARGS`` in this process; its exit code and its output (stderr included)."""
    result = CliRunner().invoke(app, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def digest(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` with its content's hash."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


# -- kiti train --resume: the unbroken run, or a refusal naming the setting ---------------------

TRAIN = ("train", "miaui", "--hidden", "16", "--games", "3", "--seed", "4", "--checkpoint-every", "999")


def test_a_resume_with_a_setting_left_out_takes_the_checkpoints_and_ends_as_the_unbroken_run(
    tmp_path: Path,
) -> None:
    pytest.importorskip("torch", reason="kiti train needs the [train] extra")
    import torch

    code, out = kiti(*TRAIN, "--steps", "60", "--out", str(tmp_path / "straight"))
    assert code == 0, out
    assert kiti(*TRAIN, "--steps", "30", "--out", str(tmp_path / "split"))[0] == 0
    code, out = kiti("train", "miaui", "--steps", "60", "--resume", "--out", str(tmp_path / "split"))
    assert code == 0, out
    a = torch.load(tmp_path / "straight" / "checkpoint.pt", weights_only=False)
    b = torch.load(tmp_path / "split" / "checkpoint.pt", weights_only=False)
    assert b["config"]["games"] == 3 and b["config"]["seed"] == 4
    assert a["counters"][:3] == b["counters"][:3] and a["history"] == b["history"]
    assert all(torch.equal(a["net"][k], b["net"][k]) for k in a["net"])
    code, out = kiti("train", "miaui", "--resume", "--out", str(tmp_path / "split"))  # its budget, spent
    assert code == 0 and "Traceback" not in out, out


@pytest.mark.parametrize(
    ("flag", "value", "named"),
    [
        ("--games", "5", "games=3, not 5"),
        ("--lr", "0.001", "lr=0.0003, not 0.001"),
        ("--seed", "0", "seed=4, not 0"),
        ("--imitate-games", "7", "imitate_games=2000, not 7"),
    ],
)
def test_a_resume_with_another_setting_is_refused_naming_it_and_changes_nothing(
    tmp_path: Path, flag: str, value: str, named: str
) -> None:
    pytest.importorskip("torch", reason="kiti train needs the [train] extra")
    run = tmp_path / "run"
    assert kiti(*TRAIN, "--steps", "10", "--out", str(run))[0] == 0
    before = digest(run)
    code, out = kiti("train", "miaui", "--steps", "40", flag, value, "--resume", "--out", str(run))
    assert code == 2 and named in out and "Traceback" not in out, out
    assert digest(run) == before


def test_the_python_api_refuses_a_resume_with_another_setting_and_takes_the_unsaid(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="kiti train needs the [train] extra")
    from kiti.rl.train import Config, TrainError, train

    tiny = {"games": 3, "minibatch": 64, "epochs": 1, "hidden": 16}
    train(Config("mauw", seed=2, steps=10, against="heuristic", **tiny), tmp_path / "br")
    with pytest.raises(TrainError, match=r"minibatch=64, not 32"):
        train(
            Config("mauw", seed=2, steps=20, against="heuristic", **{**tiny, "minibatch": 32}),
            tmp_path / "br",
            resume=True,
        )
    resumed = train(Config("mauw", seed=2, steps=20, **tiny), tmp_path / "br", resume=True)
    assert resumed.config.against == "heuristic", "left unsaid, the checkpoint's best response goes on"


def test_the_python_api_refuses_a_folder_name_too_long_with_a_train_error(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="kiti train needs the [train] extra")
    from kiti.rl.train import Config, TrainError, train

    with pytest.raises(TrainError, match=r"nnn\.\.\. cannot be a folder: File name too long"):
        train(Config("miaui", steps=1, hidden=8), tmp_path / ("n" * 300) / "run")  # was an OSError
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--seed", "-1"], "--seed must be 0 to 2**63-1, not -1"),  # was NumPy's ValueError
        (["--seed", "99999999999999999999999"], "--seed must be 0 to 2**63-1"),  # PyTorch's
        (["--lr", "inf"], "the learning rate must be a finite number, not inf"),  # trained NaNs
        (["--minutes", "inf"], "--minutes must be a finite number"),  # never ended
        (["--checkpoint-every", "-1"], "--checkpoint-every must be 0 seconds or more"),
        (["--checkpoint-every", "nan"], "--checkpoint-every must be 0 seconds or more"),
        (["--games", "100000000"], "--games must be at most 100,000 an iteration"),  # an endless iteration
        (["--imitate-games", "0"], "--imitate-games and --imitate-epochs go with --imitate"),  # ignored
        (["--against", "random"], "--against takes heuristic or a learned policy"),  # "a random policy"
        (["--init", "bogus"], "--init takes a learned policy (policy:miaui"),
        (["--out", ""], "--out is empty"),  # wrote checkpoint.pt into the current folder
        (["--out", "FILE/run"], "'FILE' is a file, not a folder"),  # a traceback after the training
    ],
)
def test_train_refuses_bad_settings_before_anything_is_trained(
    tmp_path: Path, args: list[str], named: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("torch", reason="kiti train needs the [train] extra")
    monkeypatch.chdir(tmp_path)
    Path("FILE").write_text("a file\n")
    args = ["--steps", "5", *args] if "--minutes" not in args else args
    if "--out" not in args:
        args += ["--out", "run"]
    code, out = kiti("train", "miaui", "--hidden", "8", *args)
    assert code == 2 and named in out and "Traceback" not in out, out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["FILE"]


# -- kiti balance ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "named"),
    [
        ("3..99999999999", "Miaui is for 3-6 players, not 99999999999"),  # was a MemoryError
        ("4,4", "a seat count is repeated"),
    ],
)
def test_balance_refuses_bad_seat_counts_naming_them(tmp_path: Path, players: str, named: str) -> None:
    code, out = kiti("balance", "miaui", "--players", players, "--games", "2", "--out", str(tmp_path / "o"))
    assert code == 2 and named in out and "Traceback" not in out, out
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("command", ["balance", "tournament"])
def test_an_out_folder_that_cannot_be_written_is_refused_before_any_game(
    tmp_path: Path, command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A study used to play every game, then fail to write (exit 1); both commands now refuse
    at once, and an empty --out is no folder (it wrote into the current one)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "file").write_text("a file\n")
    args = {
        "balance": ["balance", "miaui", "--players", "3", "--games", "2"],
        "tournament": ["tournament", "miaui", "--bots", "random,random,random", "--games", "3"],
    }[command]
    code, out = kiti(*args, "--out", str(tmp_path / "file" / "sub"))
    assert code == 2 and "cannot write to --out" in out and "file" in out, out
    code, out = kiti(*args, "--out", " ")
    assert code == 2 and "--out is empty" in out, out
    code, out = kiti(*args, "--out", "n" * 300 + "/run")  # was OSError's traceback, from a stat
    assert code == 2 and "cannot write to --out 'nnn" in out and "..." in out and len(out) < 300, out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


# -- kiti tournament ---------------------------------------------------------------------------


def test_a_shard_written_with_other_digits_is_refused(tmp_path: Path) -> None:
    for shard in ("²/3", "1/³", "٣/3"):  # int() chokes on the first two, takes the third
        code, out = kiti(
            "tournament", "miaui", "--bots", "random,random,random", "--games", "3",
            "--shard", shard, "--out", str(tmp_path / "s"),
        )  # fmt: skip
        assert code == 2 and "--shard must be K/N" in out, out
    assert not (tmp_path / "s").exists()


def test_a_deal_file_that_is_a_folder_is_named(tmp_path: Path) -> None:
    (tmp_path / "t" / "deals.jsonl").mkdir(parents=True)
    code, out = kiti(
        "tournament", "miaui", "--bots", "random,random,random", "--games", "3", "--jobs", "1",
        "--out", str(tmp_path / "t"), "--resume",
    )  # fmt: skip
    assert code == 1 and f"cannot write to {tmp_path / 't' / 'deals.jsonl'}" in out, out


def test_a_bot_parameter_given_twice_is_refused() -> None:
    code, out = kiti("tournament", "miaui", "--bots", "ismcts:iters=5,iters=6,random,random", "--games", "3")
    assert code == 2 and "parameter 'iters' is given twice" in out, out


def test_an_ismcts_value_weight_without_a_policy_is_refused() -> None:
    """``value`` weighs a policy's value at the leaves: without ``policy=`` it was ignored."""
    code, out = kiti(
        "tournament", "miaui", "--bots", "ismcts:value=0.5;iters=5,random,random", "--games", "3"
    )
    assert code == 2 and "give policy= with it" in out and "Traceback" not in out, out


def test_a_policy_that_fails_is_named_with_its_error_not_a_traceback(tmp_path: Path) -> None:
    """A ``policy:module:callable`` whose call raises (os.getcwd takes no arguments) ended a
    tournament in a traceback."""
    pytest.importorskip("numpy", reason="policy bots need the [rl] extra")
    code, out = kiti(
        "tournament", "miaui", "--bots", "policy:os:getcwd,random,random", "--games", "3",
        "--out", str(tmp_path / "t"), "--jobs", "1",
    )  # fmt: skip
    assert code != 0 and "Traceback" not in out, out
    assert "policy os:getcwd failed at seat" in out and "TypeError" in out, out


# -- kiti bench --------------------------------------------------------------------------------


@pytest.mark.parametrize("seconds", ["inf", "1e308"])
def test_bench_refuses_a_time_too_long_to_count(seconds: str) -> None:
    code, out = kiti("bench", "miaui", "--seconds", seconds)  # was an OverflowError
    assert code == 2 and "--seconds" in out, out


def test_bench_rl_without_the_extra_says_so_before_measuring_anything(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without PettingZoo, --rl measured the engine, then died on the import (a traceback)."""
    import importlib
    import sys

    rl = importlib.import_module("kiti.rl")
    for name in ("kiti.rl.pettingzoo", "kiti.rl.vector", "kiti.rl.gym", "kiti.rl.bench"):
        monkeypatch.delitem(sys.modules, name, raising=False)
        monkeypatch.delattr(rl, name.rpartition(".")[2], raising=False)
    monkeypatch.setitem(sys.modules, "pettingzoo", None)  # what an install without it gives
    code, out = kiti("bench", "miaui", "--rl", "--seconds", "0.01", "--json")
    assert code == 2 and "--rl needs the [rl] extra" in out and "pettingzoo" in out, out
    assert "games_per_s" not in out


# -- kiti.rl's Python faces --------------------------------------------------------------------


def test_the_faces_refuse_misuse_with_kiti_errors_naming_it() -> None:
    pytest.importorskip("pettingzoo")
    from kiti.core.errors import KitiError
    from kiti.rl import gym, pettingzoo, vector

    with pytest.raises(KitiError, match=r"takes no keyword 'no_fighting' .*options=\{\.\.\.\}"):
        pettingzoo.env("miaui", players=4, no_fighting=True)  # was a TypeError
    with pytest.raises(KitiError, match="takes no keyword 'teams'"):
        gym.make("mauw", players=4, teams=True)
    with pytest.raises(KitiError, match="call reset"):
        gym.make("miaui", players=4).step(0)  # was a KeyError
    with pytest.raises(KitiError, match="seed must be an integer"):
        gym.make("miaui", players=4).reset(seed="x")  # was Gymnasium's own error
    with pytest.raises(KitiError, match=r"no agent 'player_9' in this game \(its agents: player_0"):
        pettingzoo.env("miaui", players=4).observe("player_9")  # was a KeyError
    par = pettingzoo.parallel_env("miaui", players=4)
    par.reset(seed=3)
    before = list(par.state.history)
    with pytest.raises(KitiError, match="no agent 'player4'"):
        par.step({**dict.fromkeys(par.agents, 0), "player4": 1})
    with pytest.raises(KitiError, match=r"actions must be a dict of agents to actions, not \[0, 0, 0, 0\]"):
        par.step([0, 0, 0, 0])  # was an AttributeError
    assert par.state.history == before, "nothing was played"
    with pytest.raises(KitiError, match=r"num_envs=1,000,000,000,000: .* GiB"):
        vector.make("miaui", 10**12, players=4, workers=0)  # was a MemoryError or an OSError
    for backend in ("engine", "batch"):
        with pytest.raises(KitiError, match="copy must be True or False, not 'no'"):
            vector.make("miaui", 2, players=4, workers=0, copy="no", backend=backend)  # was taken as True


def test_mauws_encoder_imports_nothing_private() -> None:
    import ast
    import inspect

    import kiti.games.mauw.tensors as tensors

    tree = ast.parse(inspect.getsource(tensors))
    private = [
        f"{node.module}.{alias.name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.level == 0
        for alias in node.names
        if alias.name.startswith("_")
    ]
    assert private == []


@pytest.mark.parametrize("command", ["balance", "tournament"])
def test_more_jobs_than_the_pool_can_start_are_refused_before_any_game(tmp_path: Path, command: str) -> None:
    """--jobs 100000 forked a process per deal (up to the deals' count) until the machine
    refused, which the command then called a file it could not write."""
    args = {
        "balance": ["balance", "miaui", "--players", "3", "--games", "3", "--out", str(tmp_path / "o")],
        "tournament": ["tournament", "miaui", "--bots", "random,random,random", "--games", "3"],
    }[command]
    code, out = kiti(*args, "--jobs", "100000")
    assert code == 2 and "jobs must be at most" in out and "not 100000" in out, out
    assert "games/s" not in out and not (tmp_path / "o").exists()


# -- a damaged deals.jsonl ---------------------------------------------------------------------


def _damage(path: Path, line: int, change: Any) -> None:
    lines = path.read_text().splitlines()
    obj = json.loads(lines[line])
    change(obj)
    lines[line] = json.dumps(obj)
    path.write_text("\n".join(lines) + "\n")


DAMAGES = {
    "a score that is text": lambda d: d["games"][0].update(scores="xx"),  # was an IndexError
    "a contestant out of range": lambda d: d["games"][0].update(lineup=[7, 0]),
    "a rotation out of order": lambda d: d["games"][1].update(rotation=0),
    "a party without its figures": lambda d: d["games"][0].update(parties=[{"name": "a"}]),
    "no parties": lambda d: d["games"][0].update(parties=[]),  # was openskill's ValueError
    "a seat in two parties": lambda d: d["games"][0]["parties"][0].update(seats=[0, 1]),
}


@pytest.mark.parametrize("damage", DAMAGES)
def test_a_hand_damaged_deal_line_is_named_on_resume_and_merge(tmp_path: Path, damage: str) -> None:
    args = ["tournament", "mauw", "--bots", "random,heuristic", "--games", "4", "--jobs", "1"]
    assert kiti(*args, "--out", str(tmp_path / "run"))[0] == 0
    for k in (1, 2):
        assert kiti(*args, "--shard", f"{k}/2", "--out", str(tmp_path / f"s{k}"))[0] == 0
    _damage(tmp_path / "run" / "deals.jsonl", 1, DAMAGES[damage])
    _damage(tmp_path / "s1" / "deals.jsonl", 1, DAMAGES[damage])
    before = digest(tmp_path / "run")
    code, out = kiti(*args, "--out", str(tmp_path / "run"), "--resume")
    assert code == 2 and "deals.jsonl, line 2, is damaged" in out and "Traceback" not in out, out
    assert digest(tmp_path / "run") == before
    code, out = kiti(
        "tournament-merge", str(tmp_path / "s1"), str(tmp_path / "s2"), "--out", str(tmp_path / "m")
    )
    assert code == 2 and "s1/deals.jsonl, line 2, is damaged" in out, out
    assert not (tmp_path / "m").exists()


@pytest.mark.parametrize(
    "damage",
    [
        {"deals": "x"},
        {"bots": [1, 2, 3]},  # a TypeError from a merge of this one folder
        {"options": "x"},  # an AttributeError
        {"game": 5},
    ],
)
def test_a_damaged_header_is_named_by_the_merge(tmp_path: Path, damage: dict[str, Any]) -> None:
    args = ["tournament", "miaui", "--bots", "random,random,random", "--games", "6", "--jobs", "1"]
    for k in (1, 2):
        assert kiti(*args, "--shard", f"{k}/2", "--out", str(tmp_path / f"s{k}"))[0] == 0
    _damage(tmp_path / "s1" / "deals.jsonl", 0, lambda h: h["config"].update(damage))
    code, out = kiti(
        "tournament-merge", str(tmp_path / "s1"), str(tmp_path / "s2"), "--out", str(tmp_path / "m")
    )
    assert code == 2 and "s1/deals.jsonl, line 1, is damaged" in out, out


@pytest.mark.parametrize(
    "command",
    [
        ["tournament", "miaui", "--bots", "random,random,random", "--games", "3"],
        ["play", "miaui", "--seats", "random,random,random", "--seed", "1"],
        ["train", "miaui", "--steps", "1", "--out", "run"],
    ],
)
def test_an_option_given_twice_is_refused(
    command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """-o no_fighting=true -o no-fighting=false played the last one (balance's --grid refused it)."""
    if command[0] == "train":  # without torch, kiti train first says that it needs the extra
        pytest.importorskip("torch", reason="kiti train needs the [train] extra")
    monkeypatch.chdir(tmp_path)
    code, out = kiti(*command, "-o", "no_fighting=true", "-o", "no-fighting=false")
    assert code == 2 and "option 'no_fighting' is given twice" in out, out
    assert list(tmp_path.iterdir()) == []


def test_the_faces_check_options_max_cycles_and_the_batch_backends_size() -> None:
    pytest.importorskip("pettingzoo")
    from kiti.core.errors import KitiError
    from kiti.rl import gym, pettingzoo, vector

    with pytest.raises(KitiError, match=r"options must be a dict .*, not \['no_fighting'\]"):
        pettingzoo.env("miaui", options=["no_fighting"])  # was a TypeError from load(**options)
    with pytest.raises(KitiError, match="options must be a dict"):
        gym.make("miaui", options="teams")
    with pytest.raises(KitiError, match="options must be a dict"):
        vector.make("miaui", 2, options=["x"], workers=0)
    for bad in (-1, 0, "x"):  # taken, then a TypeError (or at once truncated) at a step
        with pytest.raises(KitiError, match="max_cycles must be None or an integer of at least 1"):
            pettingzoo.parallel_env("miaui", players=4, max_cycles=bad)
    with pytest.raises(KitiError, match=r"num_envs=1,000,000,000,000: .* GiB"):
        vector.make("miaui", 10**12, players=4, backend="batch")  # was NumPy's MemoryError


def test_a_resume_that_adds_save_records_is_refused_rather_than_leaving_records_out(tmp_path: Path) -> None:
    args = ["tournament", "miaui", "--bots", "random,random,random", "--games", "6", "--jobs", "1"]
    assert kiti(*args, "--out", str(tmp_path / "run"))[0] == 0
    deals = tmp_path / "run" / "deals.jsonl"
    deals.write_text("".join(deals.read_text().splitlines(keepends=True)[:2]))  # stopped after deal 0
    before = digest(tmp_path / "run")
    code, out = kiti(*args, "--out", str(tmp_path / "run"), "--resume", "--save-records")
    assert code == 2 and "--save-records: 3 game(s) on file" in out and "have no record" in out, out
    assert digest(tmp_path / "run") == before
    assert kiti(*args, "--out", str(tmp_path / "kept"), "--save-records")[0] == 0
    deals = tmp_path / "kept" / "deals.jsonl"
    deals.write_text("".join(deals.read_text().splitlines(keepends=True)[:2]))
    assert kiti(*args, "--out", str(tmp_path / "kept"), "--resume", "--save-records")[0] == 0
    assert len(list((tmp_path / "kept" / "records").iterdir())) == 6


def test_a_merge_of_shards_with_and_without_records_is_refused(tmp_path: Path) -> None:
    args = ["tournament", "miaui", "--bots", "random,random,random", "--games", "6", "--jobs", "1"]
    assert kiti(*args, "--shard", "1/2", "--save-records", "--out", str(tmp_path / "s1"))[0] == 0
    assert kiti(*args, "--shard", "2/2", "--out", str(tmp_path / "s2"))[0] == 0
    code, out = kiti(
        "tournament-merge", str(tmp_path / "s1"), str(tmp_path / "s2"), "--out", str(tmp_path / "m")
    )
    assert code == 2 and "keeps its games' records and" in out, out  # merged half the records
    assert not (tmp_path / "m").exists()


def test_a_run_started_from_a_policy_resumes_after_that_policy_is_gone(tmp_path: Path) -> None:
    """The checkpoint's weights replace the start's on resume: the --init policy is not needed."""
    pytest.importorskip("torch", reason="kiti train needs the [train] extra")
    import shutil

    base = ("train", "miaui", "--games", "2", "--checkpoint-every", "999")
    assert kiti(*base, "--hidden", "8", "--steps", "5", "--out", str(tmp_path / "start"))[0] == 0
    assert (
        kiti(*base, "--init", str(tmp_path / "start"), "--steps", "5", "--out", str(tmp_path / "run"))[0] == 0
    )
    shutil.rmtree(tmp_path / "start")
    code, out = kiti("train", "miaui", "--steps", "40", "--resume", "--out", str(tmp_path / "run"))
    assert code == 0, out
