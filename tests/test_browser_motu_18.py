"""MOTU's page shows the rule facts of the view it is given and chooses every move through the
server's steps (issue 18): an option that changes a fact (solo pile sizes: the turns) changes the
page, a doctored view is shown as it is, a doctored step is highlighted and sent as it is (a
take, a rotation and a spot, a Destiny, a word, a set of Sources), a pick no step offers is
refused without sending anything, and motu.js holds no code that writes or reads notation."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from browser_kit import Browser, Server, chromium_missing, message_for, render_message, shot
from motu_helpers import game, play_until

from kiti.games import get_game
from kiti.server.messages import steps_list

CLIENT = Path(__file__).resolve().parent.parent / "kiti" / "games" / "motu" / "client.js"

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
        assert f"Turn 1 of {turns}" in page.locator(".game-top").inner_text()


def test_the_page_shows_the_views_facts_and_plays_the_steps(server: Server, browser: Browser, errors) -> None:
    state = get_game("motu").new(3, {}, 3)
    message = message_for(state, 0, ["Ann", "Bob", "Cy"])
    view = message["view"]
    view["row"][2]["cost"] = 7
    view["rounds"] = 11
    steps = {st["token"]: st for st in message["steps"]}
    steps[view["row"][1]["step"]]["move"] = "TAKE TWO"  # the server's word, sent as it is
    message["steps"].remove(steps[view["row"][3]["step"]])  # card 4 offered no step: not highlighted
    page = drawn(server, browser, message, {})
    assert page.locator(".row-card").nth(2).locator("[data-cost]").inner_text() == "costs 7"
    assert "Round 1 of 11" in page.locator(".game-top").inner_text()
    assert [b.get_attribute("data-step") for b in page.locator(".row-card.legal").all()] == [
        c["step"] for c in view["row"][:3]
    ]
    page.locator(".row-card").nth(3).click()  # no step: refused here, nothing sent
    assert page.evaluate("window.played") == [] and "card 4" in page.evaluate("window.refused")[0]
    page.locator(".row-card").nth(1).click()
    assert page.evaluate("window.played") == ["TAKE TWO"]


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


# ------------------------------------------------------------------ every move through the steps
def step_tree(state: Any, seat: int) -> dict[str, Any]:
    """The steps after every prefix of one step, as the server answers them (keys: the prefix as JSON)."""
    return {
        json.dumps([st.token], separators=(",", ":")): steps_list(state.move_steps(seat, (st.token,)))
        for st in state.move_steps(seat)
        if st.move is None
    }


def drawn(server: Server, browser: Browser, message: dict[str, Any], tree: dict[str, Any]) -> Any:
    """motu.js alone drawing ``message``, its ``askSteps`` answered from ``tree``."""
    page = browser.page({"width": 1280, "height": 1200})
    page.goto(server.url(""))
    render_message(page, message, tree)
    return page


def test_a_placement_is_the_move_of_the_spots_step(server: Server, browser: Browser, errors) -> None:
    state = get_game("motu").new(2, {}, 3)
    state.play(0, "take 1")
    message = message_for(state, 0, ["Ann", "Bob"])
    tree = step_tree(state, 0)
    turned = message["view"]["placing"]["rotations"]
    first, second = turned[0], turned[1]
    offered = [
        st for st in message["steps"] if st["token"] != turned[-1]["step"]
    ]  # the last rotation: no step
    offered[1]["count"] = 42
    message["steps"] = offered
    spots = tree[json.dumps([second["step"]], separators=(",", ":"))]
    del spots[2:]  # two spots offered, the first with a doctored move
    spots[0]["move"] = "PLACE IT THERE"
    page = drawn(server, browser, message, tree)
    page.locator("svg.island circle.spot").first.wait_for()
    rotations = [b.inner_text() for b in page.locator(".place-bar button[data-rotation]").all()]
    assert rotations == [f"{r['rotation']}° ({st['count']})" for r, st in zip(turned, offered)]
    assert spots_marked(page) == {(p["x"], p["y"]) for p in first["spots"]}  # every step offered
    page.locator(f".place-bar button[data-rotation='{second['rotation']}']").click()
    marked = {(p["x"], p["y"]) for p in second["spots"] if p["step"] in {st["token"] for st in spots}}
    page.wait_for_function("n => document.querySelectorAll('svg.island circle.spot').length === n", arg=2)
    assert spots_marked(page) == marked  # only the spots the steps offer
    shot(page, "motu18-doctored-spots", full=False)
    page.locator("svg.island").click(position={"x": 8, "y": 8})  # far out at sea: no step, nothing sent
    assert page.evaluate("window.played") == [] and "marked spot" in page.evaluate("window.refused")[0]
    doctored = next(p for p in second["spots"] if p["step"] == spots[0]["token"])
    page.locator(f"svg.island circle.spot[data-spot='{doctored['x']} {doctored['y']}']").click(force=True)
    page.locator("svg.island").focus()
    page.keyboard.press("n")  # the other spot offered
    page.keyboard.press("Enter")
    assert page.evaluate("window.played") == ["PLACE IT THERE", spots[1]["move"]]


def spots_marked(page: Any) -> set[tuple[int, int]]:
    """The spots circled: the top-left cells of the card they stand for."""
    return {
        (int(x), int(y))
        for x, y in (
            c.get_attribute("data-spot").split() for c in page.locator("svg.island circle.spot").all()
        )
    }


def test_destinies_words_and_sources_play_their_steps(server: Server, browser: Browser, errors) -> None:
    state = play_until(game(2), lambda t: t.phase == "extras" and len(t.move_steps(t.turn)) > 2)
    seat = state.turn
    message = message_for(state, seat, ["Ann", "Bob"])
    table = message["view"]["destinies"]["steps"]
    buys = [st for st in message["steps"] if st["token"] in table.values()]
    for st in message["steps"]:
        st["move"] = f"STEP {st['token'].upper()}"  # each step's move, doctored
    page = drawn(server, browser, message, {})
    assert {b.get_attribute("data-step") for b in page.locator("button.destiny.legal").all()} == {
        st["token"] for st in buys
    }
    if buys:
        page.locator("button.destiny.legal").first.click()
    page.locator(".board button[data-step='done']").click()
    assert page.evaluate("window.played") == [f"STEP {st['token'].upper()}" for st in buys[:1]] + [
        "STEP DONE"
    ]
    state = play_until(game(2), lambda t: t.phase == "interim")
    message = message_for(state, 0, ["Ann", "Bob"])
    choice = message["view"]["choices"][0]
    for st in message["steps"]:
        st["move"] = "SCORE THESE" if st["token"] == choice["step"] else st["move"]
    page = drawn(server, browser, message, {})
    for source in choice["sources"]:
        page.locator(f".source[data-source='{source}']").click()
    page.locator("button[data-key='score']").click()
    assert page.evaluate("window.played") == ["SCORE THESE"]


def test_the_client_writes_no_notation() -> None:
    """motu.js makes a move in one place, with the move a step gives; it reads no move, notation
    or template from the view and joins no tokens (the other tests show it sends what it is given)."""
    code = re.sub(r"(^|\s)//.*", "", CLIENT.read_text())  # comments out
    assert re.findall(r"ctx\.play\((.*?)\)", code) == ["step.move"]
    owners = set(re.findall(r"(\w+)\??\.moves?\b", code))
    assert owners <= {"step", "offer"}, owners  # only a step's move: no view field holds one now
    for written in ("notation", "ctx.legal", '.join(" ")', '.replace("{', "`take ${", "`buy ${", "`score ${"):
        assert written not in code, written
    assert not re.search(r"`place \$\{[^}]*\} \$\{", code), "a placement written here"
