"""Mauw's ``why MOVE`` for a legal move: which play it is and what it would do (issue 16).

Through the state API (``explain_move``) for every kind of Mauw move, worded for the mover
as the terminal words it; a property over random games (every legal move explained, the
same on any guess of what the mover cannot see); and through ``kiti play``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from mauw_helpers import G, position

from kiti.cli.render import speak
from kiti.games.mauw.cards import deck_counts
from kiti.games.mauw.rules import MauwState

FILL = ["R1", "R1", "R1", "R1"]


def why(state: MauwState, seat: int, move: str) -> str:
    """What the terminal says after 'is legal now:' for ``seat`` (its seat worded 'you')."""
    parsed = state.parse_move(move)
    assert state.illegal_reason(seat, parsed) is None, state.illegal_reason(seat, parsed)  # the premise
    return speak(state.explain_move(seat, parsed), seat)


# ------------------------------------------------------------------ plays on a column
def test_a_warrior_on_your_empty_slot_strengthens_your_lines() -> None:
    s = position([["R8", "B4", "B4", "B5"], FILL])
    assert (
        why(s, 0, "R8 0A")
        == "a play that strengthens your lines: R8 will stand alone on your column A, scoring 8"
    )


def test_a_warrior_on_your_own_nines_strengthens_them() -> None:
    s = position([["R8", "B4", "B4", "B5"], FILL], {"0A": (["G6", "G6"], None)})
    assert why(s, 0, "R8 0A") == (
        "a play that strengthens your lines: R8 will top the two nines of your column "
        "A; the column then scores 32 instead of 36; no Spirit can block that column then"
    )


def test_a_block_says_what_the_column_loses_and_how_a_spirit_is_undone() -> None:
    s = position([["R8", "SP", "B4", "B5"], FILL], {"1A": (["G6", "G6"], None)}, ninox=1)
    assert why(s, 0, "R8 1A") == (
        "a block of seat 1's column A: R8 will cover its two nines; the column then scores 32 instead of 36"
    )
    assert why(s, 0, "SP 1A") == (
        "a block of seat 1's column A: SP will cover its two nines; the column then "
        "scores 0 instead of 36; seat 1 can free it on a turn with a Spirit or a Joker "
        "on it; an opponent's Ninox would take the Spirit"
    )


def test_a_warrior_on_an_opponents_empty_slot_with_the_option() -> None:
    s = position([["R8", "B4", "B4", "B5"], FILL], open_slot_block=True)
    assert why(s, 0, "R8 1B") == (
        "a block of seat 1's empty column B (option open_slot_block): R8 will stand "
        "there, scoring 8, and no nine can go on that column while it stays"
    )


def test_a_combo_of_different_values_says_where_the_unseen_nine_may_go() -> None:
    s = position(
        [["Y2", "B4", "B4", "B5"], FILL], {"0A": (["G6"], "Y7"), "0B": (["G6"] * 3, None), "0C": ([], "G3")}
    )
    assert why(s, 0, "Y2 0A") == (
        "a combo in your area: Y2 with Y7, different values: both go to the discards "
        "and the top card of the draw pile becomes a nine in your area, unseen by "
        "anybody; you may then choose where it goes: A (36 points) or D (18 points)"
    )


def test_a_combo_of_the_same_value_with_a_joker_turns_the_joker() -> None:
    s = position(
        [["JK", "B4", "B4", "B5"], FILL],
        {"0A": ([], "Y7"), "0B": ([], "G3"), "0C": ([], "G3"), "0D": ([], "G3")},
    )
    assert why(s, 0, "JK=Y7 0A") == (
        "a combo in your area: a Joker as Y7 with Y7, the same value: the Joker is "
        "turned face down as a nine with Y7 on top of it; it will go on column A "
        "(14 points)"
    )


def test_a_gain_with_nowhere_to_go_is_said_to_be_lost() -> None:
    full = (["G6"] * 3, None)
    s = position(
        [["Y2", "B4", "B4", "B5"], FILL],
        {"0A": (["G6"] * 3, "Y7"), "0B": full, "0C": ([], "G3"), "0D": ([], "G3")},
    )
    assert why(s, 0, "Y2 0A").endswith("it has nowhere to go in your area and would be discarded face up")


def test_an_attack_says_what_a_defence_needs_who_may_give_it_and_what_success_wins() -> None:
    hands = [["Y2", "B4", "B4", "B5"], ["G3"] * 4, ["G6"] * 4, ["B4"] * 4]
    s = position(hands, {"1A": ([], "Y7")}, teams=True, tuatura=1)
    assert why(s, 0, "Y2 1A") == (
        "an attack on seat 1's Y7 (column A) with Y2, value 2: seat 1 may answer defend Y2, defend JK=Y2, "
        "TU (Tuatura) or decline; then seat 3, the teammate, defend Y2, defend JK=Y2 or decline. After each "
        "defence you may answer renew Y2, renew JK=Y2 or stop (the turn is then wasted). If nobody defends, you "
        "will take the Y7 for a combo: Y2 with Y7, different values: both go to the discards and the top card "
        "of the draw pile becomes a nine in your area, unseen by anybody; you may then choose where it goes: "
        "A (18 points), B (18 points), C (18 points) or D (18 points)"
    )


def test_an_attack_without_teams_or_tuatura_names_only_the_defender_and_her_cards() -> None:
    s = position([["JK", "B4", "B4", "B5"], FILL], {"1A": ([], "R8")})
    said = why(s, 0, "JK=R1 1A")
    assert said.startswith(
        "an attack on seat 1's R8 (column A) with a Joker as R1, value 1: seat 1 may answer "
        "defend R1, defend JK=R1 or decline. After each defence"
    ), said
    assert "TU" not in said and "teammate" not in said


def test_an_unblock_frees_your_nines() -> None:
    s = position([["SP", "B4", "B4", "B5"], FILL], {"0C": (["G6", "G6"], "SP")})
    assert why(s, 0, "SP 0C") == (
        "an unblock of your column C: its Spirit and SP will go to the discards, leaving "
        "two nines bare; the column then scores 36 instead of 0 and the turn ends"
    )


# ------------------------------------------------------------------ animals and words
def test_a_kiwi_says_what_the_fetched_warrior_does_and_when_the_kiwi_is_discarded() -> None:
    s = position([["KI", "B4", "B4", "B5"], FILL], {"1A": (["G6", "G6"], "R8"), "1B": (["G6"], None)}, kiwi=1)
    assert why(s, 0, "KI 1A>1B") == (
        "Kiwi: R8 is taken off seat 1's column A (two nines left bare, scoring 36) and played at once: a block "
        "of seat 1's column B: R8 will cover its one nine; the column then scores 16 instead of 18. The Kiwi "
        "goes to the discards once that play is over"
    )
    assert why(s, 0, "KI 1A>0A").startswith(
        "Kiwi: R8 is taken off seat 1's column A (two nines left bare, "
        "scoring 36) and played at once: a play that strengthens your lines"
    )


def test_a_ninox_takes_the_spirit_as_a_nine_of_yours() -> None:
    s = position(
        [["NI", "B4", "B4", "B5"], FILL],
        {"1A": (["G6", "G6"], "SP"), "0A": ([], "G3"), "0B": ([], "G3")},
        ninox=1,
    )
    assert why(s, 0, "NI 1A") == (
        "Ninox: the Spirit on seat 1's column A will become a nine in your area, seen "
        "by all, leaving that column's two nines bare (scoring 36 instead of 0); you "
        "may then choose where it goes: C (18 points) or D (18 points)"
    )


def test_a_pass_discards_the_hand_face_up() -> None:
    s = position([["R8", "B4", "B4", "B5"], FILL])
    assert why(s, 0, "pass") == (
        "a pass: you will discard the whole hand face up (R8 B4 B4 B5) and draw four new cards; the turn ends"
    )


# ------------------------------------------------------------------ the answers to an attack
def attacked(teams: bool = False, tuatura: int = 0) -> MauwState:
    hands = [["Y2", "Y2", "B4", "B5"], ["Y2", "TU" if tuatura else "R1", "R1", "R1"]]
    hands += [["G6", "JK", "G6", "G6"], ["B4"] * 4] if teams else []
    s = position(hands, {"1A": (["G6"], "Y7")}, teams=teams, tuatura=tuatura)
    s.play(0, "Y2 1A")
    return s


def test_a_defence_says_both_cards_go_and_the_attacker_may_renew() -> None:
    s = attacked()
    assert why(s, 1, "defend Y2") == (
        "a defence of your Y7 (column A): Y2 and the attacking Y2 will go to the "
        "discards and you will draw back to four; then seat 0 may answer renew Y2, "
        "renew JK=Y2 or stop"
    )


def test_declining_says_the_attack_succeeds_and_what_the_attacker_wins() -> None:
    s = attacked()
    assert why(s, 1, "decline") == (
        "no defence: the attack succeeds: the Y7 leaves your column A and makes a combo for seat 0: Y2 with Y7, "
        "different values: both go to the discards and the top card of the draw pile becomes a nine in seat 0's "
        "area, unseen by anybody; seat 0 may then choose where it goes: A (18 points), B (18 points), "
        "C (18 points) or D (18 points)"
    )


def test_in_teams_declining_hands_the_defence_to_the_teammate_who_cannot_play_tuatura() -> None:
    s = attacked(teams=True, tuatura=1)
    assert why(s, 1, "decline").startswith(
        "no defence from you: seat 3, the teammate, may still defend; if not, "
        "the attack succeeds: the Y7 leaves your column A"
    )
    s.play(1, "decline")
    assert s.to_act() == {3} and "TU" not in [str(m) for m in s.legal_moves(3)]  # the premise
    assert why(s, 3, "decline").startswith("no defence: the attack succeeds: the Y7 leaves seat 1's column A")


def test_a_teammates_defence_and_a_renewal() -> None:
    s = position(
        [["Y2", "Y2", "B4", "B5"], ["R1"] * 4, ["B4"] * 4, ["Y2", "G6", "G6", "G6"]],
        {"1A": ([], "Y7")},
        teams=True,
    )
    s.play(0, "Y2 1A")
    s.play(1, "decline")
    assert why(s, 3, "defend Y2") == (
        "a defence of seat 1's Y7 (column A): Y2 and the attacking Y2 will go to the "
        "discards and you will draw back to four; then seat 0 may answer renew Y2, "
        "renew JK=Y2 or stop"
    )
    s.play(3, "defend Y2")
    assert why(s, 0, "renew Y2").startswith(
        "the attack on seat 1's Y7 goes on with Y2: seat 1 may answer defend Y2, defend JK=Y2 or decline; then "
        "seat 3, the teammate, defend Y2, defend JK=Y2 or decline. If nobody defends, you will win the combo: "
        "Y2 with Y7, different values"
    )
    assert why(s, 0, "stop") == (
        "the attack ends: your turn is over, wasted; seat 1 keeps the Y7 on column A, and "
        "the attack and defence cards stay on the discards"
    )


def test_tuatura_cancels_the_attack_and_takes_the_card() -> None:
    s = attacked(tuatura=1)
    assert why(s, 1, "TU") == (
        "Tuatura: the attack is cancelled and seat 0's turn ends; the attacking Y2 will go "
        "to your hand (everyone sees it there), Tuatura to the discards, and your Y7 stays "
        "on column A"
    )


def test_placing_a_gain_says_what_the_column_becomes_and_when_the_game_ends() -> None:
    s = position([["Y2", "B4", "B4", "B5"], FILL], {"0A": ([], "Y7"), "0B": (["G6", "G6"], None)})
    s.play(0, "Y2 0A")
    assert why(s, 0, "place B") == "the gain goes on your column B: three nines, scoring 72 instead of 36"
    full = (["G6"] * 3, None)
    s = position([["Y7", "B4", "B4", "B5"], FILL], {"0A": (["G6"] * 2, "Y7"), "0B": full, "0C": full})
    s.play(0, "Y7 0A")
    assert why(s, 0, "place A") == (
        "the gain goes on your column A: three nines under Y7, scoring 56 instead of 36; "
        "that makes 3 full columns: the game ends at once"
    )


# ------------------------------------------------------------------ every legal move, nothing hidden told
def test_every_legal_move_of_random_games_is_explained_from_what_the_mover_sees() -> None:
    kinds: set[str] = set()
    for seed in range(6):
        options = {
            "kiwi": 4,
            "ninox": 4,
            "tuatura": 4,
            "teams": seed % 2 == 0,
            "open_slot_block": seed % 3 == 0,
        }
        s = G.new(4 if seed % 2 == 0 else 3, options, seed)
        rng = random.Random(seed)
        while not s.over and len(s.history) < 150:
            seat = min(s.to_act())
            guess = s.resample(seat, random.Random(len(s.history)))  # what the seat cannot see, redrawn
            for move in s.legal_moves(seat):
                said = s.explain_move(seat, move)
                assert said and said != str(move) and said != s.describe_move(seat, move)
                assert guess.explain_move(seat, move) == said, move  # hidden cards change nothing
                kinds.add(said.split(":")[0].split(" of ")[0].split(" in ")[0][:20])
            s.apply(seat, s.random_move(seat, rng))
    assert len(kinds) >= 14, kinds  # the premise: every kind of move came up


# ------------------------------------------------------------------ through kiti play
def place_record(tmp_path: Path) -> Path:
    """Seat 0 (a person) has just made a combo whose nine may go on A, C or D (B holds B4)."""
    hands = [["B4", "Y7", "Y2", "G3"], ["R1", "R1", "R1", "R1"]]
    rest = deck_counts()
    rest.subtract([c for h in hands for c in h])
    setup = {"hands": hands, "deck": sorted(rest.elements())}
    moves = [[0, "B4 0B"], [1, "R1 1A"], [0, "Y7 0A"], [1, "R1 1B"], [0, "Y2 0A"]]
    record = {
        "game": "mauw",
        "players": 2,
        "seed": 3,
        "setup": setup,
        "moves": moves,
        "lineup": ["human", "random"],
    }
    path = tmp_path / "place.json"
    path.write_text(json.dumps(record))
    return path


def test_why_and_the_place_prompt_in_the_terminal(tmp_path: Path) -> None:
    pytest.importorskip("pexpect")
    from play_helpers import finish, plain, spawn

    # A loaded game's bots draw fresh seeds; this one's random bot must answer "place C" the same
    # way every run (with another seed it may attack, and "pass" is then rightly refused).
    fixed = "import kiti.cli.session as s; s.bot_seed = lambda seed, seat: 1"
    child = spawn("--load", str(place_record(tmp_path)), cwd=tmp_path, code=fixed)
    asked = r"\(\? for help\) > "
    child.expect(asked)
    screen = " ".join(plain(child.before).split())
    assert "Place your gain (a nine): place A, C or D" in screen, screen[-300:]
    child.sendline("why place C")
    child.expect(asked)
    said = " ".join(plain(child.before).split())
    assert (
        "place C is legal now: the gain goes on your column C: one nine, scoring 18 instead of 0." in said
    ), said
    child.sendline("why place B")
    child.expect(asked)
    said = " ".join(plain(child.before).split())
    assert "place B is not allowed" in said, said
    child.sendline("place C")
    child.expect(asked)
    child.sendline("why pass")
    child.expect(asked)
    said = " ".join(plain(child.before).split())
    assert "pass is legal now: a pass: you will discard the whole hand face up" in said, said
    child.sendintr()
    assert finish(child) == 130
