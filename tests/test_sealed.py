"""Sealed saves: a game in progress at a table with several people keeps its secrets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

from play_helpers import HOTSEAT_CONFIRM, MOVE, READY, data_dir, finish, kiti, spawn  # noqa: E402

from kiti.cli.saves import Lineup, Saver, open_game  # noqa: E402
from kiti.core.sealed import is_sealed  # noqa: E402
from kiti.games import get_game  # noqa: E402


def test_who_gets_a_sealed_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KITI_DATA_DIR", str(tmp_path / "data"))
    state = get_game("miaui").new(3, None, 99)
    state.play(0, "dive 5")
    hotseat = Saver(Lineup(["human", "human", "random"], ["Ann", None, None]))
    alone = Saver(Lineup(["human", "random", "random"]))
    sealed = json.loads(hotseat.write(state, tmp_path / "h.json").read_text())
    plain = json.loads(alone.write(state, tmp_path / "a.json").read_text())
    assert is_sealed(sealed) and not is_sealed(plain)
    assert plain["seed"] == 99 and plain["lineup"] == ["human", "random", "random"]
    # In clear: only what every seat has seen, and how to resume.
    assert {"seed", "moves", "setup"}.isdisjoint(sealed)
    assert sealed["names"] == ["Ann", None, None] and sealed["lineup"][1] == "human"
    assert sealed["public"]["moves"] == 1 and sealed["public"]["view"]["committed"] == ["?", None, None]
    assert "kiti play --load h.json" in sealed["note"]
    opened = open_game(tmp_path / "h.json")
    assert opened.sealed and opened.record["moves"] == [[0, "dive 5"]]
    assert opened.lineup is not None and opened.lineup.names == ["Ann", None, None]
    # A finished game is a plain record, even at a table of people.
    while not state.over:
        seat = min(state.to_act())
        state.apply(seat, state.legal_moves(seat)[0])
    assert not is_sealed(json.loads(hotseat.write(state, tmp_path / "h.json").read_text()))


def test_hotseat_save_hides_dives_and_deck(tmp_path: Path) -> None:
    child = spawn(
        "miaui",
        "--seats",
        "human,human,random",
        "--seed",
        "31",
        "--names",
        "Ann,Bob",
        "--save",
        "kept.json",
        cwd=tmp_path,
    )
    child.expect(READY)
    child.sendline("")
    child.expect(MOVE)
    child.sendline("dive 9")
    child.expect(HOTSEAT_CONFIRM)
    child.sendline("")
    child.expect(READY)
    child.sendline("")
    child.expect(MOVE)
    child.sendline("save mid.json")  # Bob saves: he must not learn Ann's dive or the deck
    child.expect(r"Saved \(sealed: it opens only on this machine\) to:\s+mid\.json")
    child.expect(MOVE)
    child.sendline("quit")
    child.expect(r"Game record saved to:\s+(\S+)")
    kept = tmp_path / child.match.group(1)
    assert finish(child) == 0
    assert kept == tmp_path / "kept.json"
    for path in (tmp_path / "mid.json", kept):
        text = path.read_text()
        doc = json.loads(text)
        assert is_sealed(doc) and "dive 9" not in text and '"seed"' not in text
        assert "sealed" in doc["note"] and "kiti play --load" in doc["note"]
        assert "burned" not in doc["public"]["view"]
        assert doc["public"]["view"]["deck"] == 33  # only how many cards are left
    # The key is in the data folder, not in the file: one key for the whole game.
    keys = list((data_dir(tmp_path) / "keys").iterdir())
    assert len(keys) == 1 and keys[0].name == json.loads((tmp_path / "mid.json").read_text())["key_id"]
    assert keys[0].read_bytes().hex() not in (tmp_path / "mid.json").read_text()

    # Replay: only the public view while the game is unfinished.
    seat = kiti("replay", "mid.json", "--seat", "0", cwd=tmp_path)
    assert seat.returncode == 2 and "sealed" in seat.stderr
    public = kiti("replay", "mid.json", "--json", cwd=tmp_path)
    assert public.returncode == 0 and json.loads(public.stdout)["viewer"] is None
    assert "dive 9" not in public.stdout and json.loads(public.stdout)["committed"][0] == "?"
    shown = kiti("replay", "mid.json", cwd=tmp_path)
    assert shown.returncode == 0 and "spectator" in shown.stdout and "sealed" in shown.stdout

    # Elsewhere (no key): a clear error, no traceback.
    moved = tmp_path / "elsewhere"
    moved.mkdir()
    (moved / "mid.json").write_text((tmp_path / "mid.json").read_text())
    other = kiti("replay", "mid.json", cwd=moved)
    assert other.returncode == 2 and "key is not on this machine" in other.stderr
    assert "Traceback" not in other.stderr
    nokey = kiti("play", "--load", "mid.json", cwd=moved)
    assert nokey.returncode == 2 and "key is not on this machine" in nokey.stderr

    # Resume on this machine: the same people, Bob to play, Ann's dive kept.
    child = spawn("--load", "mid.json", cwd=tmp_path)
    child.expect(r"Bob \(seat 1\), take the keyboard")
    child.sendline("")
    child.expect(MOVE)
    assert child.before.endswith("Bob, ")
    child.sendintr()
    child.expect(r"Game record saved to:\s+(\S+)")
    assert finish(child) == 130
