"""Issue 16, MOTU item 3: ``score`` takes the rulebook's names of the Sources (any case, spaces
around "/" or not) besides the short words, through the one parser that the terminal, the server
and records share; the canonical notation stays the short word, so old records replay; the
interim summaries name each Source as the rulebook does."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from motu_helpers import G, assert_rejected, game, play_until

from kiti.core.errors import NotationError
from kiti.core.events import REFEREE
from kiti.core.records import replay
from kiti.games import get_game
from kiti.games.motu.rules import SOURCE_WORDS, MotuState, source_names
from kiti.games.motu.sources import SOURCE_NAME, SOURCES
from kiti.games.motu.words import describe_event, expand_input

#: The rulebook's names of the six Sources, as its scoring table prints them.
RULEBOOK = {
    "fisherman": "Fisherman/Fish",
    "hunter": "Hunter/Bird",
    "canoe": "Canoe/Palm Tree",
    "coconut": "Coconut",
    "totem": "Totems",
    "volcano": "Volcano/Village",
}


def test_the_rulebook_names_are_the_ones_the_game_uses() -> None:
    text = Path("/work/shared/rules/motu-rulebook.txt")
    if text.exists():  # the premise: these are the book's own words
        book = text.read_text("utf-8").replace("\t", "")  # the table's text is cut by tabs
        assert all(name in book for name in RULEBOOK.values())
    assert SOURCE_NAME == RULEBOOK


@pytest.mark.parametrize(
    ("text", "notation"),
    [
        ("score Fisherman/Fish", "score fisherman"),
        ("score FISHERMAN / FISH", "score fisherman"),
        ("score Fishermen", "score fisherman"),
        ("score Hunter/Bird Canoe/Palm Tree", "score hunter canoe"),
        ("score canoe / palm tree, totems", "score canoe totem"),
        ("score Canoe/Palm Tree Volcano/Village Coconut", "score canoe coconut volcano"),
        ("score Hunter/Bird + Canoe/Palm Tree", "score hunter canoe"),
        ("score palm tree and village", "score canoe volcano"),
        ("score totem", "score totem"),
        ("score fish bird", "score fisherman hunter"),
    ],
)
def test_score_reads_the_rulebook_names_and_writes_the_short_word(text: str, notation: str) -> None:
    move = MotuState.parse_move(text)
    assert str(move) == notation
    assert MotuState.parse_move(notation) == move, "the canonical notation reads back the same"


def test_every_rulebook_name_in_any_case_with_or_without_spaces() -> None:
    for source, name in RULEBOOK.items():
        for variant in (name, name.upper(), name.lower(), name.replace("/", " / "), name.replace("/", "/ ")):
            assert MotuState.parse_move(f"score {variant}") == MotuState.parse_move(f"score {source}"), (
                variant
            )


def test_a_name_with_a_space_is_read_one_way_only() -> None:
    """Two words that make a name are one Source; no second word of a name names a Source by
    itself, so a list of names can be split only one way."""
    names = [w for words in SOURCE_WORDS.values() for w in words]
    for name in names:
        assert len(name.split()) <= 2
        if len(name.split()) == 2:
            assert name.split()[1] not in names, name
    assert any(" " in n for n in names), "the premise: some name has a space inside"
    assert source_names("canoe/palm tree palm tree") == ["canoe", "canoe"]
    assert source_names("palm tree totems") == ["canoe", "totem"]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("score tree", ["'tree' is not a Source", "Canoe/Palm Tree"]),
        ("score fish/hunter", ["'fish/hunter' is not a Source"]),
        ("score Canoe/Palm Tree canoe", ["names a Source twice"]),
        ("score fish bird palm totem", ["names 4 Sources", "at most 3"]),
    ],
)
def test_bad_names_get_a_clear_error(text: str, words: list[str]) -> None:
    with pytest.raises(NotationError) as info:
        MotuState.parse_move(text)
    for w in words:
        assert w in str(info.value), str(info.value)


def test_a_long_bad_name_is_quoted_short() -> None:
    with pytest.raises(NotationError) as info:
        MotuState.parse_move("score " + "x" * 180)
    assert len(str(info.value)) < 400 and "..." in str(info.value)


def interim_game() -> MotuState:
    return play_until(game(2, seed=4), lambda s: s.phase == "interim", seed=1)


def test_a_rulebook_name_scores_at_an_interim_and_records_replay() -> None:
    s = interim_game()
    s.play(0, "score Canoe/Palm Tree")
    s.play(1, "score volcano / village")
    assert s.interims[0][-1][1] == ("canoe",) and s.interims[1][-1][1] == ("volcano",)
    record = s.record()
    assert [m[1] for m in record["moves"][-2:]] == ["score canoe", "score volcano"], "canonical notation"
    assert replay(record, get_game).observation(REFEREE) == s.observation(REFEREE)
    # a record written with the rulebook's names (by hand, or by another client) replays too
    named = json.loads(json.dumps(record))
    named["moves"][-2:] = [[0, "score CANOE/PALM TREE"], [1, "score Volcano/Village"]]
    assert replay(named, get_game).observation(REFEREE) == s.observation(REFEREE)


def test_expand_input_takes_rulebook_names_as_shorthand() -> None:
    assert expand_input("Canoe/Palm Tree") == "score canoe/palm tree"
    assert expand_input("Fisherman / Fish, Totems") == "score fisherman / fish, totems"
    assert expand_input("tree") is None and expand_input("done") is None
    s = interim_game()
    assert_rejected(s, 0, "score tree", "not a Source")


def test_interim_summaries_name_each_source_as_the_rulebook_does() -> None:
    s = interim_game()
    s.play(0, "score fisherman")
    s.play(1, "score canoe")
    events = s.events(0)
    chose = next(e for e in events if e["type"] == "chose")
    interim = next(e for e in events if e["type"] == "interim")
    told = describe_event(interim, 0)
    assert told is not None and "Fisherman/Fish" in told and "Canoe/Palm Tree" in told, told
    assert not re.search(r"\bfish\b", told), told
    assert "Fisherman/Fish" in (describe_event(chose, 0) or "")


def test_the_terminal_scores_by_rulebook_name_and_why_explains_it(tmp_path: Path) -> None:
    pytest.importorskip("pexpect")
    from play_helpers import MOVE, finish, plain, spawn

    s = interim_game()
    record = {**s.record(), "lineup": ["human", "random"]}
    (tmp_path / "interim.json").write_text(json.dumps(record))
    child = spawn("--load", "interim.json", "--save", "after.json", "--no-confirm", cwd=tmp_path)
    child.expect(MOVE)
    child.sendline("why Canoe/Palm Tree")
    child.expect(MOVE)
    said = " ".join(plain(child.before).split())
    points = s.source_value(0, "canoe")
    assert f"score canoe is legal now: score Canoe/Palm Tree ({points} point" in said, said
    child.sendline("Canoe/Palm Tree")  # shorthand: Source names alone
    child.expect(MOVE)
    child.sendline("quit")
    child.expect(r"Game record saved to")
    assert finish(child) == 0
    saved = json.loads((tmp_path / "after.json").read_text())
    assert [0, "score canoe"] in saved["moves"][len(record["moves"]) :]


def test_the_server_takes_a_rulebook_name(tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    from server_kit import client, create, hello, hub, tokens, until

    rng = random.Random(2)
    with client(tmp_path, rate=10_000.0, burst=10_000) as c:  # moves as fast as the test sends them
        made = create(c, game="motu", seats=("human",))
        tid = made["table"]["id"]
        true = hub(c).tables[tid]
        with c.websocket_connect("/ws") as ws:
            hello(ws, tid, tokens(made)[0])

            def play(move: str, ident: object) -> dict[str, object]:
                ws.send_json({"type": "move", "move": move, "id": ident})
                return until(ws, lambda m: m.get("re") == ident)

            n = 0
            while true.state.phase != "interim":
                assert play(str(true.state.random_move(0, rng)), n)["type"] == "state"
                n += 1
            answer = play("score Hunter / Bird", "named")
            assert answer["type"] == "state", answer
            while not true.state.over:  # the record is published at the end
                assert play(str(true.state.random_move(0, rng)), n)["type"] == "state"
                n += 1
        record = c.get(f"/api/tables/{tid}/record").json()
    scored = [m for m in record["moves"] if isinstance(m[1], str) and m[1].startswith("score")]
    assert scored[0] == [
        0,
        "score hunter",
    ]  # stored in the canonical word (the server may add forced moves after it)
    assert replay(record, get_game).interims[0][0][1] == ("hunter",)  # type: ignore[attr-defined]


def test_old_short_words_still_parse() -> None:
    for source in SOURCES:
        for word in SOURCE_WORDS[source]:
            assert MotuState.parse_move(f"score {word}") == MotuState.parse_move(f"score {source}")
    assert G is get_game("motu")
