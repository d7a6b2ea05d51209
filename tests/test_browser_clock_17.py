"""Issue 17 in the browser: the turn bar after a restart (item 10) and a timed-out seat
(items 5 and 6), Debian's Chromium (Playwright) against a real ``kiti serve``."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import serve_kit
import waits
from browser_kit import Browser, Server, chromium_missing, shot, sync_api

expect = sync_api.expect
ws_client = pytest.importorskip("websockets.sync.client")

pytestmark = pytest.mark.skipif(chromium_missing(), reason="Chromium is missing (apt-get install chromium)")


@pytest.fixture
def browser() -> Iterator[Browser]:
    b = Browser()
    yield b
    b.close()


class Bob:
    """A person at a seat through a plain WebSocket (no page)."""

    def __init__(self, base: str, table: str, token: str) -> None:
        self.ws = ws_client.connect(base.replace("http", "ws") + "/ws", open_timeout=waits.MESSAGE)
        self.ws.send(json.dumps({"type": "hello", "v": 1, "table": table, "token": token}))
        self.state = self.until(lambda m: m["type"] == "state")

    def until(self, pred: Any) -> dict[str, Any]:
        while True:
            message = json.loads(self.ws.recv(timeout=waits.MESSAGE))
            if message["type"] == "state":
                self.state = message
            if pred(message):
                return message

    def play(self, move: str) -> dict[str, Any]:
        self.ws.send(json.dumps({"type": "move", "move": move, "id": move}))
        return self.until(lambda m: m.get("re") == move)


def restart(server: Server, tmp: Path, monkeypatch: pytest.MonkeyPatch) -> Server:
    """kill -9 the server, then start it again on the same port and database."""
    server.kill9()
    server.log.close()
    monkeypatch.setattr(serve_kit, "free_port", lambda: server.port)
    return Server(tmp)


def test_the_turn_bar_follows_a_reveal_after_a_restart_between_two_dives(
    tmp_path: Path, browser: Browser, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ann dives, the server restarts, Bob dives: while Ann's page shows the divers revealed (the
    reveal's animation, at its normal speed), its turn bar no longer waits for Bob."""
    server = Server(tmp_path)
    try:
        made = server.api(
            "/api/tables",
            {"game": "miaui", "seats": ["human", "human", "heuristic"], "names": ["Ann", "Bob", None]},
        )
        table = made["table"]["id"]
        ann = browser.page()
        ann.goto(
            f"{server.base}/#table={table}&token={made['seats'][0]['token']}"
        )  # animations as people see them
        bob = Bob(server.base, table, made["seats"][1]["token"])
        ann.locator(".turnbar.mine").wait_for()
        ann.locator(".hand button.legal").first.click()
        expect(ann.locator(".turnbar .turn-text")).to_contain_text("Waiting for Bob")  # Ann dived
        bob.ws.close()
        server = restart(server, tmp_path, monkeypatch)
        expect(ann.locator(".banners")).not_to_contain_text("reconnecting")  # Ann's page is back
        bob = Bob(server.base, table, made["seats"][1]["token"])
        assert bob.state["your_turn"] and bob.state["view"]["round"] == 1, "the premise: Bob still to dive"
        after = bob.play(bob.state["legal"][0])
        assert after["view"]["round"] == 2, "the premise: every diver is revealed, round 2 begins"
        shown = ann.wait_for_function(  # the turn bar at the moment the page shows the divers revealed
            "() => document.querySelectorAll('.dive-slot.revealed').length === 3"
            " && document.querySelector('.turnbar .turn-text').textContent"
        ).json_value()
        shot(ann, "restart-between-dives-revealed")
        assert "Waiting for Bob" not in shown and "Your move" in shown, shown
        ann.wait_for_function("() => document.querySelector('.game-top b')?.textContent === 'Round 2 of 12'")
        expect(ann.locator(".turnbar")).to_have_class("turnbar mine")
        bob.ws.close()
    finally:
        server.stop()


def test_a_timed_out_seat_stays_its_persons_goes_away_after_two_and_comes_back_with_a_click(
    tmp_path: Path, browser: Browser
) -> None:
    server = Server(tmp_path)
    try:  # 4 s per decision, no reserve; the stand-in thinks 3 s a decision, so a click comes in time
        made = server.api(
            "/api/tables",
            {
                "game": "miaui",
                "seats": ["human", "random", "random"],
                "names": ["Ann", None, None],
                "timer": 4,
                "takeover": True,
                "stand_in": "ismcts:time=3",
            },
        )
        ann = browser.page()
        ann.goto(server.url(f"table={made['table']['id']}&token={made['seats'][0]['token']}"))
        ann.locator(".turnbar.mine").wait_for()
        expect(ann.locator(".turnbar .bank")).to_contain_text("reserve 0:00")
        notice = ann.locator('[data-notice="timed_out"]')
        notice.wait_for()  # Ann lets her time run out once
        expect(notice).to_contain_text("The seat stays yours")
        expect(ann.locator('.seat-chip[data-seat="0"]')).to_contain_text("stand-in ×1")
        expect(ann.locator('.seat-chip[data-seat="0"]')).not_to_contain_text("away")
        shot(ann, "timed-out-seat")
        ann.locator('[data-stand-in="away"]').wait_for()  # and twice more in a row: a stand-in plays on
        expect(ann.locator('.seat-chip[data-seat="0"]')).to_contain_text("away")
        shot(ann, "away-seat")
        ann.locator(".log-box h2").click()  # any click brings her back
        expect(ann.locator("[data-stand-in]")).to_have_count(0)
        expect(ann.locator('.seat-chip[data-seat="0"]')).not_to_contain_text("away")
        ann.locator(".turnbar.mine").wait_for()
        shot(ann, "back-after-a-click")
    finally:
        server.stop()


def test_the_end_screen_marks_a_seat_a_stand_in_mostly_played(tmp_path: Path, browser: Browser) -> None:
    server = Server(tmp_path)
    try:  # Cat opens her seat and closes the page at once: the stand-in plays her whole game
        made = server.api(
            "/api/tables",
            {
                "game": "miaui",
                "seats": ["human", "random", "random"],
                "names": ["Cat", None, None],
                "takeover": True,
            },
        )
        table = made["table"]["id"]
        cat = browser.page()
        cat.goto(server.url(f"table={table}&token={made['seats'][0]['token']}"))
        cat.locator(".turnbar.mine").wait_for()
        cat.close()
        watcher = browser.page()
        watcher.goto(server.url(f"table={table}"))
        watcher.locator(".end-panel:not([hidden])").wait_for(timeout=waits.GAME * 1000)
        row = watcher.locator(".standings tr", has_text="Cat")
        expect(row.locator(".stand-in-mark")).to_contain_text(
            re.compile(r"mostly a stand-in \((\d+) of \1 decisions\)")
        )
        for bot in ("seat 1", "seat 2"):
            expect(watcher.locator(".standings tr", has_text=bot).locator(".stand-in-mark")).to_have_count(0)
        shot(watcher, "end-stand-in-mark")
    finally:
        server.stop()
