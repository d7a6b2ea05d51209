"""MOTU's page shows the rule facts of the view it is given, and plays the moves the view names
(issue 18): an option that changes a fact (solo pile sizes: the turns) changes the page, and a
doctored view is shown as it is, so the client works out no rule of its own."""

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


def test_the_solo_turns_follow_the_pile_sizes_option(server: Server, browser: Browser, errors) -> None:
    for piles, turns in (("printed", 18), ("short", 9)):
        state = get_game("motu").new(1, {"solo_piles": piles}, 3)
        page = page_of(server, browser, message_for(state, 0, ["Ann"]))
        assert f"Turn 1 of {turns}" in page.locator(".miaui-top").inner_text()


def test_the_page_shows_the_views_facts_and_plays_its_moves(server: Server, browser: Browser, errors) -> None:
    message = message_for(get_game("motu").new(3, {}, 3), 0, ["Ann", "Bob", "Cy"])
    view = message["view"]
    view["row"][2]["cost"] = 7
    view["rounds"] = 11
    legal = message["legal"]
    at = legal.index(view["row"][1]["move"])
    view["row"][1]["move"] = legal[at] = "TAKE 2"  # the view's word, sent as it is
    page = page_of(server, browser, message)
    assert page.locator(".row-card").nth(2).locator("[data-cost]").inner_text() == "costs 7"
    assert "Round 1 of 11" in page.locator(".miaui-top").inner_text()
    page.locator(".row-card.legal").nth(1).click()
    assert page.evaluate("window.played") == ["TAKE 2"]


def test_the_solo_page_shows_the_huts_change_and_the_discard_price(
    server: Server, browser: Browser, errors
) -> None:
    state = get_game("motu").new(1, {}, 3)
    message = message_for(state, 0, ["Ann"])
    offers = message["view"]["solo_table"]["offers"]
    assert [o["change"] for o in offers] == [-1, 1]
    offers[1]["change"] = 2
    page = page_of(server, browser, message)
    text = page.locator(".solo-box").inner_text()
    assert "pay 1 coconut to the Beach Hut" in text and "gain 2 coconuts from the Beach Hut" in text
    state.play(0, "take right")
    state.apply(0, state.legal_moves(0)[0])
    message = message_for(state, 0, ["Ann"])
    message["view"]["solo_table"]["discard_price"] = 4
    page = page_of(server, browser, message)
    assert page.locator("button[data-move='discard']").inner_text() == "Discard it (pay 4 coconuts)"
