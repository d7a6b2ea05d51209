"""The browser client, end to end: Debian's Chromium (Playwright) against a real ``kiti serve``.

People play whole games through the page only (clicks and keys), with bots at the other seats:
Miaui from the lobby to a rematch (two people in two browsers, one on a phone, who reconnects in
the middle), Mauw until an attack has been defended, and MOTU to its end (and a solo start).
Screenshots are kept under tests/artifacts/browser/ (desktop and phone) for a person to look at.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from browser_kit import (
    PHONE,
    Browser,
    Server,
    chromium_missing,
    message_for,
    render_message,
    shot,
    sync_api,
)

expect = sync_api.expect

pytest_plugins = ("browser_fixtures",)  # one server and one Chromium per module
pytestmark = pytest.mark.skipif(chromium_missing(), reason="Chromium is missing (apt-get install chromium)")


def phone_url(link: str) -> str:
    return link.replace("/#", "/?anim=fast#")


def mine(page: Any, timeout: float | None = None) -> None:  # None: the page's default (waits.PAGE)
    page.locator(".turnbar.mine").wait_for(timeout=timeout)


def turn_text(page: Any) -> str:
    return page.locator(".turnbar .turn-text").inner_text()


def act(page: Any, action: Any) -> None:
    """Do something on the page, then wait for the server's answer: a new state, or a refusal."""
    before = page.evaluate("document.querySelector('.table-screen').dataset.states")
    action()
    page.wait_for_function(
        "b => document.querySelector('.table-screen').dataset.states !== b "
        "|| document.querySelector('.refusal:not([hidden])')",
        arg=before,
    )


# ------------------------------------------------------------------ Miaui
def miaui_round(page: Any) -> int:
    text = page.locator(".game-top b").inner_text()
    found = re.search(r"Round (\d+)", text)
    return int(found.group(1)) if found else 12


def wait_round(page: Any, rnd: int) -> None:
    page.wait_for_function(
        "r => { const b = document.querySelector('.game-top b'); return b && b.textContent === `Round ${r} of 12` "
        "&& document.querySelector('.turnbar.mine'); }",
        arg=rnd,
    )


def dive_by_click(page: Any) -> int:
    button = page.locator(".hand button.legal").first
    move = button.get_attribute("data-move")
    button.click()
    return int(move.split()[1])


def dive_by_keys(page: Any) -> int:
    """Type the highest diver's number on the keyboard (1 then 2 for 12)."""
    moves = [b.get_attribute("data-move") for b in page.locator(".hand button.legal").all()]
    n = max(int(m.split()[1]) for m in moves)
    page.locator("body").press_sequentially(str(n))
    return n


def test_two_people_and_two_bots_play_miaui_from_the_lobby_to_a_rematch(
    server: Server, browser: Browser, errors
) -> None:
    ana = browser.page()
    ana.goto(server.url(""))
    shot(ana, "lobby-desktop")
    ana.get_by_label("Miaui").check()
    ana.locator("#seat-count").select_option("4")
    for seat, kind in enumerate(["human", "human", "heuristic", "random"]):
        ana.get_by_label(f"Seat {seat}: who plays").select_option(kind)
    ana.get_by_label("Seat 0: name").fill("Ana")
    ana.get_by_label("Seat 1: name").fill("Bo")
    ana.locator("#timer").select_option("120")
    ana.get_by_role("button", name="Create table").click()
    ana.locator(".created").wait_for()
    bo_link = ana.get_by_label("Link of seat 1", exact=True).input_value()
    assert "token=" in bo_link, bo_link
    shot(ana, "lobby-created")
    ana.get_by_role("link", name="Sit at seat 0").click()

    phone = browser.browser.new_context(viewport=PHONE)
    bo = browser.page(context=phone)
    bo.goto(server.url(""))
    bo.locator(".table-item").first.wait_for()
    shot(bo, "lobby-phone")
    bo.goto(phone_url(bo_link))
    table = parse_qs(urlsplit(bo_link).fragment)["table"][0]  # ids are URL-safe base64: "-" too
    watcher = browser.page()  # a spectator, with the reveal animated at its real speed
    watcher.goto(f"{server.base}/#table={table}")
    watcher.locator(".lagoon").wait_for()

    for rnd in range(1, 12):
        wait_round(ana, rnd)
        dive_by_click(ana)
        if rnd == 2:  # a second dive in one round: refused with the engine's reason
            ana.locator(".hand button").last.click()
            expect(ana.locator(".refusal")).to_contain_text("already chosen a diver")
            shot(ana, "miaui-refusal")
        if rnd == 6:  # Bo's phone drops out and comes back through his link; Ana's page shows it
            bo_dot = ana.locator('.seat-chip[data-seat="1"] .dot')
            expect(bo_dot).to_have_class(re.compile(r"\bon\b"))
            bo.close()
            expect(bo_dot).to_have_class(re.compile(r"\boff\b"))
            bo = browser.page(context=phone)
            bo.goto(phone_url(bo_link))
            expect(bo_dot).to_have_class(re.compile(r"\bon\b"))
        wait_round(bo, rnd)
        if rnd == 6:
            assert "Round 1:" in bo.locator(".log").inner_text(), "the log is back after reconnecting"
            shot(bo, "miaui-phone-reconnected", full=False)
        (dive_by_keys if rnd % 2 else dive_by_click)(bo)
        if rnd == 1:
            watcher.locator(".depth .outcome").first.wait_for()
            shot(watcher, "miaui-reveal-animation")
            watcher.close()
        if rnd == 4:
            wait_round(ana, 5)
            shot(ana, "miaui-desktop")
            shot(bo, "miaui-phone", full=False)
            shot(bo, "miaui-phone-full")

    for page in (ana, bo):
        page.locator(".end-panel").wait_for()
    assert ana.locator(".standings tbody tr").count() == 4
    assert ana.locator(".board .pile svg.back").count() == 0, "every pile is shown at the end"
    shot(ana, "miaui-end")
    shot(bo, "miaui-end-phone")

    ana.get_by_role("link", name="Replay step by step").click()
    ana.wait_for_function("() => /Step 0 of 44/.test(document.querySelector('.replay-step')?.textContent)")
    ana.keyboard.press("End")
    ana.wait_for_function("() => /Step 44 of 44/.test(document.querySelector('.replay-step').textContent)")
    ana.keyboard.press("ArrowLeft")
    ana.keyboard.press("ArrowLeft")
    ana.wait_for_function("() => /Step 42 of 44/.test(document.querySelector('.replay-step').textContent)")
    assert ana.locator(".board .lagoon").count() == 1
    shot(ana, "miaui-replay")

    ana.go_back()
    ana.get_by_role("button", name="Rematch").click()
    for page in (ana, bo):
        page.wait_for_function(
            "t => location.hash.includes('table=') && !location.hash.includes(t)", arg=table
        )
        page.locator(".turnbar").wait_for()
    assert "token=" in bo.evaluate("location.hash"), "Bo keeps his seat in the rematch"
    wait_round(bo, 1)
    phone.close()


def play_random(game: str, players: int, options: dict[str, Any], seed: int, until: Any) -> Any:
    """A game of random moves, stopped at the first state where ``until(state)`` holds."""
    import random

    from kiti.games import get_game

    state = get_game(game).new(players, options, seed)
    rng = random.Random(seed)
    while not until(state):
        assert not state.over, "the situation never came"
        seat = min(state.to_act())
        state.apply(seat, state.random_move(seat, rng))
    return state


def test_miaui_shows_a_lantern_s_card_to_its_catcher_only_and_asks_to_order_a_catch(
    server: Server, browser: Browser, errors
) -> None:
    def peeked(state: Any) -> bool:
        peeks = [e for e in state.events(0) if e["type"] == "peek"]
        return bool(peeks) and peeks[-1]["round"] == state.observation(0)["round"]

    page = browser.page()
    page.goto(server.url(""))
    state = play_random("miaui", 3, {}, 0, peeked)
    space = [e for e in state.events(0) if e["type"] == "peek"][-1]["space"]
    render_message(page, message_for(state, 0))
    row = page.locator(f".depth[data-space='{space}']")
    expect(row.locator("svg.peeked")).to_have_count(1)
    assert "only you see it" in row.locator("svg.peeked").get_attribute("aria-label")
    shot(page, "miaui-peeked-lantern-card")
    render_message(page, message_for(state, 1))
    expect(row.locator("svg.back")).to_have_count(1)
    expect(row.locator("svg.peeked")).to_have_count(0)

    options = {"no_fighting": True, "taker_chooses_order": True}
    state = play_random(
        "miaui", 4, options, 1, lambda s: (s.observation(0)["pending_take"] or {}).get("seat") == 0
    )
    render_message(page, message_for(state, 0))
    takes = page.locator(".take-box button.legal")
    assert takes.count() == len(state.observation(0)["pending_take"]["cards"])
    assert page.locator(".kiti-line").inner_text().startswith("No Fighting: no Kiti")
    shot(page, "miaui-no-fighting-take")
    takes.first.click()
    assert page.evaluate("window.played")[0].startswith("take ")


# ------------------------------------------------------------------ Mauw
def mauw_play(page: Any, move: str) -> None:
    """Make a move through the page: the card in hand, what a Joker stands for, the column."""
    found = re.fullmatch(r"(?:JK=(\w+)|(\w+)) (\w+)", move)
    if not found:
        page.locator(f".board button[data-move='{move}']").first.click()
        return
    as_, card, col = found.groups()
    page.locator(f".my-hand button[data-card='{'JK' if as_ else card}']").first.click()
    if as_:
        page.locator(".chooser").wait_for()
        shot(page, "mauw-joker-chooser")
        page.locator(f".chooser button[data-as='{as_}']").click()
    page.locator(f"button.column[data-col='{col}']").click()


def mauw_turn_move(page: Any, me: int, joker: bool) -> str:
    """Prefer a Joker (once), an attack (a Warrior on an opponent's Warrior), then a play on a
    column, else pass."""
    moves = [b.get_attribute("data-move") for b in page.locator(".move-list button[data-move]").all()]
    jokers = [m for m in moves if m.startswith("JK=")]
    if joker and jokers:
        return jokers[0]
    tops = {
        c.get_attribute("data-col"): c.get_attribute("data-top") for c in page.locator("button.column").all()
    }
    plays = [m for m in moves if re.fullmatch(r"(?:JK=)?\w+ \d[A-D]", m)]
    attacks = [
        m
        for m in plays
        if not m.startswith("JK")
        and m.split()[1][0] != str(me)
        and tops.get(m.split()[1], "") not in ("", "SP")
    ]
    own = [m for m in plays if m.split()[1][0] == str(me)]
    return (attacks or own or plays or ["pass"])[0]


def test_mauw_an_attack_and_a_defence_with_the_timer(server: Server, browser: Browser, errors) -> None:
    made = server.api(
        "/api/tables", {"game": "mauw", "seats": ["human", "human"], "names": ["Ana", None], "timer": 300}
    )
    ana = browser.page()
    ana.goto(phone_url(made["seats"][0]["link"]))
    phone = browser.browser.new_context(viewport=PHONE)
    bo = browser.page(context=phone)
    bo.goto(phone_url(made["link"]))  # the table's link: Bo joins its free seat from the page
    bo.get_by_label("Your name").fill("Bo")
    shot(bo, "mauw-join-phone", full=False)
    bo.get_by_role("button", name="Join as seat 1").click()
    bo.locator(".seat-chip.me").wait_for()
    assert "Bo" in bo.locator(".seat-chip.me").inner_text()
    pages = {0: ana, 1: bo}
    attacked = defended = refused = joker = False
    for _ in range(200):
        seat, page = next(
            ((s, p) for s, p in pages.items() if p.locator(".turnbar.mine").count()), (None, None)
        )
        if page is None:
            browser.turn_on(pages.values())
            continue
        text = turn_text(page)
        if "attacked" in text or "defend your teammate" in text:
            attacked = True
            shot(page, f"mauw-defend-{'phone' if seat else 'desktop'}", full=not seat)
            card = page.locator(".my-hand button.legal")
            if card.count():
                card.first.click()
                if page.locator(".chooser").count():
                    page.locator(".chooser button").first.click()
                defended = True
            else:
                page.locator(".board button[data-move='decline']").click()
        elif "renew" in text:
            shot(page, "mauw-renew")
            page.locator(".board button[data-move='stop']").click()
        elif "Place your gain" in text:
            page.locator("button.column.legal").first.click()
        else:
            if not refused:  # a Warrior on the other player's empty slot: the engine says no
                page.locator(".my-hand button").first.click()
                empty = page.locator(
                    f"button.column[data-top=''][data-nines='0'][data-col^='{1 - seat}']"
                ).first
                empty.click()
                expect(page.locator(".refusal")).to_contain_text("Not allowed")
                refused = True
                shot(page, "mauw-refusal")
                page.keyboard.press("Escape")
            move = mauw_turn_move(page, seat, not joker)
            joker = joker or move.startswith("JK=")
            mauw_play(page, move)
        if refused and attacked and defended and joker:
            break
        browser.answered(page)
    assert refused and attacked and defended and joker, (refused, attacked, defended, joker)
    # The last move may still be on its way to Ana's page: wait for it to be told.
    expect(ana.locator(".log")).to_contain_text(re.compile(r"JK as|Joker"))
    log = ana.locator(".log").inner_text()
    assert re.search(r"attacked .* with", log) and re.search(r"defended with", log), log[-600:]
    shot(ana, "mauw-desktop")
    shot(bo, "mauw-phone", full=False)
    shot(bo, "mauw-phone-full")
    phone.close()


# ------------------------------------------------------------------ MOTU
def motu_place(page: Any, turn: int) -> None:
    page.locator("svg.island circle.spot").first.wait_for()
    if turn == 1:  # a click far out at sea: refused with the rules' reason
        page.locator("svg.island").click(position={"x": 8, "y": 8})
        expect(page.locator(".refusal")).to_contain_text("Not allowed")
        shot(page, "motu-refusal")
        page.locator("svg.island circle.spot").first.wait_for()
        page.locator("svg.island circle.spot").first.click(force=True)
    elif turn == 2:  # the keys: turn the card, next legal spot, Enter
        page.locator("svg.island").focus()
        page.keyboard.press("r")
        page.locator("svg.island circle.spot").first.wait_for()
        page.keyboard.press("n")
        page.wait_for_function("() => document.querySelector('svg.island').dataset.legal === 'yes'")
        shot(page, "motu-ghost-keys", full=False)
        page.keyboard.press("Enter")
    else:
        page.get_by_role("button", name="Next spot").click()
        page.wait_for_function("() => document.querySelector('svg.island').dataset.legal === 'yes'")
        page.get_by_role("button", name="Place here").click()


def test_motu_a_game_to_its_end_through_the_page(server: Server, browser: Browser, errors) -> None:
    made = server.api(
        "/api/tables",
        {"game": "motu", "seats": ["human", "random", "heuristic"], "names": ["Ana", None, None]},
    )
    page = browser.page()
    page.goto(phone_url(made["seats"][0]["link"]))
    progress: dict[str, Any] = {"turns": 0, "interims": 0}
    for _ in range(300):
        page.wait_for_function(
            "() => document.querySelector('.turnbar.mine') || document.querySelector('.end-panel:not([hidden])')"
        )
        if page.locator(".end-panel:not([hidden])").count():
            break
        act(page, lambda: motu_step(page, turn_text(page), progress))
    assert page.locator(".end-panel:not([hidden])").count() == 1
    assert (progress["turns"], progress["interims"]) == (9, 2), progress
    assert page.get_by_role("table", name="Final scores").count() == 1
    shot(page, "motu-end")


def motu_step(page: Any, text: str, progress: dict[str, Any]) -> None:
    """Answer the question the turn bar asks, through the page."""
    if "take a card" in text:
        if progress["turns"] == 0:
            shot(page, "motu-take")
        legal = page.locator(".row-card.legal")
        if legal.count():
            legal.first.click()
        else:
            page.locator(".board button[data-move='scrap']").click()
    elif "place" in text:
        progress["turns"] += 1
        if progress["turns"] == 3:
            shot(page, "motu-place")
            page.set_viewport_size(PHONE)
            shot(page, "motu-phone", full=False)
            shot(page, "motu-phone-full")
            page.set_viewport_size({"width": 1280, "height": 900})
        motu_place(page, progress["turns"])
    elif "Destiny" in text:
        buy = page.locator("button.destiny.legal")
        travel = page.locator(".board button[data-move='travel']")
        if progress["turns"] % 3 == 0 and buy.count():
            buy.first.click()
        elif travel.count() and progress["turns"] > 4:
            travel.click()
        else:
            page.locator(".board button[data-move='done']").click()
    elif "Sources" in text:
        progress["interims"] += 1
        wanted = int(re.search(r"Pick (\d)", page.locator("button[data-key='score']").inner_text()).group(1))
        for source in page.locator(".source:not([disabled])").all()[:wanted]:
            source.click()
        shot(page, f"motu-interim-{progress['interims']}")
        page.locator("button[data-key='score']").click()
    else:
        raise AssertionError(f"unexpected question: {text}")


def test_motu_solo_shows_the_opponent_and_plays_a_turn(server: Server, browser: Browser, errors) -> None:
    made = server.api("/api/tables", {"game": "motu", "seats": ["human"], "names": ["Ana"]})
    page = browser.page()
    page.goto(phone_url(made["seats"][0]["link"]))
    mine(page)
    assert "Opponent" in page.locator(".solo-box").inner_text()
    shot(page, "motu-solo")
    page.locator(".row-card.legal").first.click()
    page.locator("svg.island circle.spot").first.wait_for()
    page.get_by_role("button", name="Place here").click()
    page.wait_for_function("() => !/place/.test(document.querySelector('.turnbar .turn-text').textContent)")
    page.set_viewport_size(PHONE)
    shot(page, "motu-solo-phone", full=False)
