"""The chat at a table in the browser (issue 17, item 9): a seat writes and clicks a phrase, a
spectator reads (and may not write), a reloaded page gets the messages again, and hostile names
and messages stay text: no markup, no script, no dialog."""

from __future__ import annotations

import pytest
from browser_kit import PHONE, Browser, Server, chromium_missing, shot, sync_api

expect = sync_api.expect
pytest_plugins = ("browser_fixtures",)  # one server and one Chromium per module
pytestmark = pytest.mark.skipif(chromium_missing(), reason="Chromium is missing (apt-get install chromium)")
ATTACK = '<script>window.pwned = 1</script><img src=x onerror="window.pwned = 2"><b>bold</b>'


def test_a_seat_chats_a_spectator_reads_and_markup_stays_text(server: Server, browser: Browser) -> None:
    browser.errors.clear()
    made = server.api(
        "/api/tables",
        {
            "game": "miaui",
            "seats": ["human", "human", "heuristic"],
            "names": ['<img src=y onerror="window.pwned = 3">', "Bob", None],
        },
    )
    table = made["table"]["id"]
    dialogs: list[str] = []
    ann = browser.page()
    watcher = browser.page(PHONE)
    for page in (ann, watcher):
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    ann.goto(made["seats"][0]["link"].replace("/#", "/?anim=fast#"))
    watcher.goto(server.url(f"table={table}"))
    ann.locator(".chat-form").wait_for()
    expect(watcher.locator(".chat-note")).to_contain_text("Spectators read")
    assert watcher.locator(".chat-form").is_hidden(), "a spectator may not write here"

    ann.get_by_role("textbox", name="Chat message").fill(ATTACK)
    ann.get_by_role("button", name="Send").click()
    ann.locator(".chat-phrases").get_by_role("button", name="good game").click()
    for page in (ann, watcher):
        expect(page.locator(".chat-log li")).to_have_count(2)
        texts = page.locator(".chat-text").all_inner_texts()
        assert texts == [ATTACK, "good game"], texts
        assert page.locator(".chat-log img, .chat-log script, .chat-text b").count() == 0
        assert page.evaluate("window.pwned") is None
    assert '<img src=y onerror="window.pwned = 3"> (you)' in ann.locator(".chat-name").first.inner_text()
    assert ann.get_by_role("textbox", name="Chat message").input_value() == ""
    shot(ann, "chat-seat")
    shot(watcher, "chat-spectator-phone")

    watcher.reload()  # a new connection: the chat comes back from the server
    expect(watcher.locator(".chat-log li")).to_have_count(2)
    ann.get_by_role("textbox", name="Chat message").fill("x" * 150)
    ann.get_by_role("button", name="Send").click()
    expect(watcher.locator(".chat-log li")).to_have_count(3)
    assert dialogs == [] and watcher.evaluate("window.pwned") is None
    assert not browser.errors, browser.errors
