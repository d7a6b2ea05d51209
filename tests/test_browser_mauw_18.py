"""Mauw's page reads its rule facts from the view and chooses moves through the server's steps
(issue 18): an option that changes what a column accepts changes what the page highlights, an
attack's answers and a gain's slots are shown as the view gives them, and a click plays the
move its steps name.  The board is drawn by mauw.js alone, its ``askSteps`` answered from the
state's own ``move_steps``."""

from __future__ import annotations

import json
from typing import Any

import pytest
from browser_kit import Browser, Server, chromium_missing, message_for, render_message, shot
from mauw_helpers import position

from kiti.server.messages import steps_list

pytest_plugins = ("browser_fixtures",)
pytestmark = pytest.mark.skipif(chromium_missing(), reason="Chromium is missing (apt-get install chromium)")


def step_tree(state: Any, seat: int) -> dict[str, Any]:
    """Every prefix's steps, as the server would answer them (keys: the prefix as JSON)."""
    tree: dict[str, Any] = {}
    frontier: list[tuple[str, ...]] = [()]
    while frontier:
        prefix = frontier.pop()
        steps = state.move_steps(seat, prefix)
        tree[json.dumps(list(prefix), separators=(",", ":"))] = steps_list(steps)
        frontier += [(*prefix, s.token) for s in steps if s.move is None]
    return tree


def draw(page: Any, state: Any, seat: int) -> None:
    render_message(page, message_for(state, seat, ["Ann", "Bob"]), step_tree(state, seat))


def highlighted(page: Any) -> set[str]:
    return {b.get_attribute("data-col") for b in page.locator("button.column.legal").all()}


@pytest.mark.parametrize("open_slot_block", [False, True])
def test_a_warrior_highlights_the_columns_the_option_lets_it_go_to(
    server: Server, browser: Browser, errors, open_slot_block: bool
) -> None:
    state = position(
        [["R1", "B4", "G3", "Y2"], ["R8", "B5", "G6", "Y7"]],
        {"1B": (["G6"], None)},
        open_slot_block=open_slot_block,
    )
    page = browser.page()
    page.goto(server.url(""))
    draw(page, state, 0)
    assert {b.get_attribute("data-card") for b in page.locator(".my-hand button.legal").all()} == {
        "R1",
        "B4",
        "G3",
        "Y2",
    }
    assert highlighted(page) == set()  # no card picked: no column yet
    page.locator(".my-hand button[data-card='R1']").click()
    page.wait_for_function("() => window.asked.length > 0 && document.querySelector('button.column.legal')")
    expected = {str(m).split()[1] for m in state.legal_moves(0) if str(m).startswith("R1 ")}
    assert highlighted(page) == expected
    opponents_empty = {"1A", "1C", "1D"}
    assert (opponents_empty <= highlighted(page)) is open_slot_block  # ruling 10's option, through the steps
    assert "1B" in highlighted(page)  # an opponent's bare nines take a Warrior (a block)
    shot(page, f"mauw18-warrior-open-slot-{'on' if open_slot_block else 'off'}", full=False)
    page.locator("button.column[data-col='1B']").click()
    assert page.evaluate("window.played") == ["R1 1B"]


def test_a_joker_offers_what_it_may_stand_for_then_its_columns(
    server: Server, browser: Browser, errors
) -> None:
    state = position([["JK", "B4", "G3", "Y2"], ["R8", "B5", "G6", "Y7"]], {"1A": (["G6"], "R8")})
    page = browser.page()
    page.goto(server.url(""))
    draw(page, state, 0)
    page.locator(".my-hand button[data-card='JK']").click()
    page.locator(".chooser").wait_for()
    assert {b.get_attribute("data-as") for b in page.locator(".chooser button").all()} == {"R1", "R8"}
    page.locator(".chooser button[data-as='R8']").click()
    page.wait_for_function("() => document.querySelector('button.column.legal')")
    assert highlighted(page) == {"1A"}
    page.locator("button.column[data-col='1A']").click()
    assert page.evaluate("window.played") == ["JK=R8 1A"]


@pytest.mark.parametrize("tuatura", [0, 1])
def test_the_attack_banner_names_the_views_answers(
    server: Server, browser: Browser, errors, tuatura: int
) -> None:
    state = position(
        [["R1", "B4", "G3", "Y2"], ["R1", "B5", "G6", "Y7"]], {"1A": (["G6"], "R8")}, tuatura=tuatura
    )
    state.play(0, "R1 1A")
    page = browser.page()
    page.goto(server.url(""))
    draw(page, state, 1)
    banner = page.locator(".banner-attack").inner_text()
    assert "Red 1" in banner and "Joker" in banner
    assert ("Tuatura" in banner) is bool(tuatura)  # the option's card answers only when the deck holds it
    assert {b.get_attribute("data-card") for b in page.locator(".my-hand button.legal").all()} == {"R1"}
    page.locator(".my-hand button[data-card='B5']").click()  # no answer: refused from the view's facts
    assert "does not answer" in page.evaluate("window.refused")[0]
    page.locator(".board button[data-move='decline']").click()
    page.locator(".my-hand button[data-card='R1']").click()
    assert page.evaluate("window.played") == ["decline", "defend R1"]


def test_a_gain_is_placed_on_the_columns_the_view_names(server: Server, browser: Browser, errors) -> None:
    state = position(
        [["Y2", "G3", "G3", "B4"], ["R1", "B5", "G6", "Y7"]],
        {"0A": ([], "Y7"), "0B": (["R8", "R8", "B5"], None), "0C": ([], "SP")},
        draw=["R8", "B5"],
    )
    state.play(0, "Y2 0A")
    page = browser.page()
    page.goto(server.url(""))
    draw(page, state, 0)
    assert "column A or D" in page.locator(".banner-gain").inner_text()
    assert highlighted(page) == {"0A", "0D"}
    shot(page, "mauw18-gain", full=False)
    page.locator("button.column[data-col='0D']").click()
    assert page.evaluate("window.played") == ["place D"]
