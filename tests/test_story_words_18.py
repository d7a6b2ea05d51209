"""A game's terminal tells a round's story through a table from event kind to its drawing
(``STORY_LINES``), in words from the game's ``words`` part (``STORY``): every kind the game
declares (``GameInfo.event_types``) has its entry, and every kind told has its wording."""

from __future__ import annotations

import random
import string

import pytest

from kiti.core.events import REFEREE
from kiti.core.registry import game_ids, game_part, get_game, has_part

DRAWN = {"cards", "dives", "seat_dives"}  # placeholders the terminal draws itself (card colours)


def storytellers() -> list[str]:
    return [g for g in game_ids() if has_part(get_game(g), "terminal")]


def story_parts(game: str) -> tuple[object, object]:
    cls = get_game(game)
    terminal = game_part(cls, "terminal")
    if not hasattr(terminal, "STORY_LINES"):
        pytest.skip(f"{game}'s terminal tells events in its words' sentences only (describe_event)")
    return terminal, game_part(cls, "words")


@pytest.mark.parametrize("game", storytellers())
def test_every_declared_event_kind_has_a_story_line_and_its_words(game: str) -> None:
    terminal, words = story_parts(game)
    kinds = set(get_game(game).info.event_types)
    lines = terminal.STORY_LINES  # type: ignore[attr-defined]
    assert set(lines) == kinds, (
        f"kinds without a story entry: {kinds - set(lines)}; unknown: {set(lines) - kinds}"
    )
    story = words.STORY  # type: ignore[attr-defined]
    assert {key.split("/")[0] for key in story} <= kinds, "a wording for a kind the game does not declare"
    for kind in kinds:
        if lines[kind] is not terminal._untold:  # type: ignore[attr-defined]
            assert kind in story, f"{game}: the story tells {kind!r} in no words"


@pytest.mark.parametrize("game", storytellers())
def test_every_placeholder_of_the_story_is_worded(game: str) -> None:
    _, words = story_parts(game)
    templates = [t for wording in words.STORY.values() for pieces in wording for t in pieces]  # type: ignore[attr-defined]
    templates += [words.ROUND_HEAD, *words.ROUND.values()]  # type: ignore[attr-defined]
    for template in templates:
        for _, field, _, _ in string.Formatter().parse(template):
            assert not field or field in words.STORY_WORDS or field in DRAWN, (template, field)  # type: ignore[attr-defined]


def test_miauis_story_reads_word_for_word_as_before() -> None:
    """The words moved from the terminal to the game's words: a round reads as it did."""
    from kiti.games.miaui.terminal import round_line, story
    from kiti.games.miaui.words import People

    s = get_game("miaui").new(4, {"no_fighting": True}, seed=19)
    rng = random.Random(19)
    while not s.over:
        seat = min(s.to_act())
        s.apply(seat, s.random_move(seat, rng))
    events = s.events(REFEREE)
    reveals = [i for i, e in enumerate(events) if e["type"] == "reveal"]
    people = People(None, ["Ann", None, "Bo", None])

    def told(i: int, width: int) -> list[str]:
        return [
            line.plain
            for line in [
                *story(events, reveals[i], people, width),
                round_line(events, reveals[i], people, width),
            ]
        ]

    assert told(2, 100) == [
        "Round 3 revealed: Ann:3 · seat 1:3 · Bo:5 · seat 3:4",
        "  Deepest: Bo (5) caught S Seagull",
        "    Seagull! Bo's pile is empty: it flies off hungry",
        "  Deep: seat 3 (4) caught S Seagull",
        "    Seagull! It ate seat 3's top fish Emperor Tuna 12 (E12); both leave the game",
        "  Shallow: tie of 3s between Ann and seat 1: nobody catches, the fish stay (No Fighting)",
        "R3: Bo S (hungry) · seat 3 S (ate E12) · Shallow tied",
    ]
    assert told(4, 40) == [
        "Round 5 revealed (seat:diver): 0:4  1:1…",
        "  Deepest: seat 3 (8) caught T9",
        "  Deep: Ann (4) caught J15 Jellyfish -15",
        "    Three Jellyfish leave Ann's pile",
        "  Shallow: seat 1 (1) caught K1",
        "R5: 3 T9 · 0 J15 (3 Jellyfish out) · 1 …",
    ]
    assert told(11, 100)[-2:] == ["  Shallow: no diver left, the fish stay", "R12: seat 3 T6 · Deep tied"]
