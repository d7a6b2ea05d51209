"""Miaui's page shows the rule facts of the view it is given and plays the moves the server's
steps name (issue 18): an option that changes a fact (where Kiti starts, No Fighting) changes
the page, and a doctored view or step is shown or sent as it is, so the client works out no
rule and writes no move of its own."""

from __future__ import annotations

from typing import Any

import pytest
from browser_kit import Browser, Server, chromium_missing, message_for, render_message

from kiti.games import get_game

pytest_plugins = ("browser_fixtures",)  # one server and one Chromium per module
pytestmark = pytest.mark.skipif(chromium_missing(), reason="Chromium is missing (apt-get install chromium)")


def page_of(server: Server, browser: Browser, message: dict[str, Any]) -> Any:
    page = browser.page({"width": 1280, "height": 1600})
    page.goto(server.url(""))
    render_message(page, message)
    return page


def test_kiti_and_the_ties_follow_the_options(server: Server, browser: Browser, errors) -> None:
    for start, between, ties in (
        (0, "between you and P1", "you › P3 › P2 › P1"),
        (2, "between P2 and P3", "P2 › P1 › you › P3"),
    ):
        state = get_game("miaui").new(4, {"kiti_start": start}, 3)
        page = page_of(server, browser, message_for(state, 0))
        line = page.locator(".kiti-line").inner_text()
        assert between in line and "moves one place clockwise" in line
        assert ties in page.locator(".depth[data-space='0'] .ties").inner_text()
    state = get_game("miaui").new(4, {"no_fighting": True}, 3)
    page = page_of(server, browser, message_for(state, 0))
    assert page.locator(".ties b").count() == 0  # no tie orders without Kiti
    assert "pile up for the next round" in page.locator(".kiti-line").inner_text()


def test_the_page_shows_the_views_facts_and_plays_the_steps(server: Server, browser: Browser, errors) -> None:
    message = message_for(get_game("miaui").new(3, {}, 3), 0)
    view = message["view"]
    view["rounds"] = 9
    view["depths"][0]["rule"] = "the biggest splash wins"
    view["depths"][2].update(tie_order=[2, 0, 1], tie_direction="counterclockwise")
    view["kiti_left"] = 2
    view["kiti_next"] = [2, 0]
    view["lagoon"][1] = ["T7"]
    view["peeked"][1] = [True]
    steps = message["steps"]
    steps[4]["move"] = "DIVE FIVE"  # the server's word, sent as it is
    del steps[0]  # diver 1 offered no step: not highlighted
    page = page_of(server, browser, message)
    assert page.locator(".game-top b").inner_text() == "Round 1 of 9"
    assert "the biggest splash wins" in page.locator(".depth[data-space='0']").inner_text()
    shallow = page.locator(".depth[data-space='2'] .ties")
    assert shallow.get_attribute("data-direction") == "counterclockwise"
    assert "P2 › you › P1" in shallow.inner_text()
    kiti = page.locator(".kiti-line").inner_text()
    assert "Kiti stands between you and P2" in kiti and "Next round: between P2 and you" in kiti
    assert page.locator(".depth[data-space='1'] svg.peeked").count() == 1
    assert page.locator(".hand button.legal").count() == 11
    assert page.locator(".hand button").first.get_attribute("class").split() == ["pick"]
    page.locator(".hand button[data-key='diver-5']").click()
    page.locator(".hand button[data-key='diver-1']").click()  # never offered: refused here
    assert page.evaluate("window.played") == ["DIVE FIVE"]
