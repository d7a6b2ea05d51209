"""Phones and card help (issue 17, items 11 and 12), in Debian's Chromium against a real server.

At 390x844 what a person acts on (Miaui's divers, Mauw's hand, MOTU's card to place and the
island it goes on) is on the first screen, with the lagoon, the columns or the row in view:
screenshots under tests/artifacts/browser/ (phone-*.png) for a person to look at.  Hovering a card,
a symbol or a Destiny (or a long press on a touch screen) shows what it does, in the words of the
game's catalog (``/api/games/{id}/catalog``): the JavaScript holds no such text.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
import waits
from browser_kit import (
    PHONE,
    ROOT,
    Browser,
    Server,
    chromium_missing,
    message_for,
    render_message,
    shot,
)

pytest_plugins = ("browser_fixtures",)  # one server and one Chromium per module
pytestmark = pytest.mark.skipif(chromium_missing(), reason="Chromium is missing (apt-get install chromium)")
SCREEN = PHONE["height"]


def catalog(server: Server, game: str) -> dict[str, Any]:
    return server.api(f"/api/games/{game}/catalog")["catalog"]


# ------------------------------------------------------------------ phones
def box(page: Any, selector: str) -> dict[str, float]:
    """Where ``selector``'s first element is on the screen (the page scrolled to its top)."""
    found = page.locator(selector).first.bounding_box()
    assert found is not None, f"{selector} is not on the page"
    return found


def on_first_screen(page: Any, selector: str) -> None:
    b = box(page, selector)
    assert b["y"] >= 0 and b["y"] + b["height"] <= SCREEN, (
        f"{selector} runs from y={b['y']:.0f} to {b['y'] + b['height']:.0f}, past the first {SCREEN} px"
    )


def in_view(page: Any, selector: str, at_least: float = 120) -> None:
    b = box(page, selector)
    shown = min(b["y"] + b["height"], SCREEN) - max(b["y"], 0)
    assert shown >= min(at_least, b["height"]), f"only {shown:.0f} px of {selector} are on the first screen"


def phone_seat(server: Server, browser: Browser, game: str, seats: list[str]) -> Any:
    made = server.api("/api/tables", {"game": game, "seats": seats})
    page = browser.page(viewport=PHONE)
    page.goto(made["seats"][0]["link"].replace("/#", "/?anim=fast#"))
    page.locator(".turnbar.mine").wait_for()
    page.evaluate("window.scrollTo(0, 0)")
    return page


def test_on_a_phone_miaui_divers_and_the_lagoon_are_on_the_first_screen(
    server: Server, browser: Browser, errors
) -> None:
    page = phone_seat(server, browser, "miaui", ["human", "heuristic", "heuristic"])
    shot(page, "phone-miaui", full=False)
    on_first_screen(page, ".hand")
    in_view(page, ".lagoon", at_least=300)
    assert page.locator(".hand button.legal").count() == 12


def test_on_a_phone_mauw_hand_and_own_columns_come_first(server: Server, browser: Browser, errors) -> None:
    page = phone_seat(server, browser, "mauw", ["human", "heuristic", "heuristic"])
    shot(page, "phone-mauw", full=False)
    on_first_screen(page, ".my-hand")
    on_first_screen(page, ".area.me")
    in_view(page, ".area:not(.me)", at_least=60)


def test_on_a_phone_motu_card_to_place_and_island_are_on_the_first_screen(
    server: Server, browser: Browser, errors
) -> None:
    page = phone_seat(server, browser, "motu", ["human", "heuristic"])
    on_first_screen(page, ".row-cards")
    page.locator(".row-card.legal").first.click()
    page.locator(".place-bar").wait_for()
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "phone-motu-place", full=False)
    on_first_screen(page, ".holding")
    on_first_screen(page, "[data-key=place-here]")
    on_first_screen(page, ".island-wrap")
    in_view(page, ".row-cards", at_least=60)
    page.locator("[data-key=place-here]").click()
    page.wait_for_function("() => !document.querySelector('.place-bar')")
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "phone-motu-extras", full=False)
    on_first_screen(page, ".board .hand-box")  # travel, buy or end the turn
    in_view(page, ".island-wrap")


# ------------------------------------------------------------------ card help
DRAW = """async ({what}) => {
  const {catalog} = await import("/js/api.js");
  const fish = await import("/js/games/miaui/cards.js");
  const mauw = await import("/js/games/mauw/cards.js");
  const cat = {miaui: await catalog("miaui"), mauw: await catalog("mauw")};
  const app = document.getElementById("app");
  app.replaceChildren();
  app.style.display = "flex";  // one screen: hovering scrolls nothing (a scroll hides the help)
  app.style.flexWrap = "wrap";
  for (const [game, code] of what) {
    const card = game === "miaui" ? (code === "diver" ? fish.diverCard(7, {help: cat.miaui.diver_help})
                                                     : fish.fishCard(code, cat.miaui))
                                  : mauw.mauwCard(code, cat.mauw);
    card.dataset.code = code;
    card.style.margin = "8px";
    app.append(card);
  }
}"""


def help_on_hover(page: Any, locator: Any) -> str:
    page.mouse.move(1, 1)
    page.wait_for_function("() => !document.querySelector('.card-help:not([hidden])')")
    locator.hover()
    shown = page.locator(".card-help:not([hidden])")
    shown.wait_for()
    return str(shown.inner_text())


def test_hovering_a_card_shows_what_it_does_in_the_catalog_s_words(
    server: Server, browser: Browser, errors
) -> None:
    miaui, mauw = catalog(server, "miaui"), catalog(server, "mauw")
    page = browser.page()
    page.goto(server.url(""))
    what = [["miaui", c] for c in ("S", "J15", "L3", "K1", "diver")] + [
        ["mauw", c] for c in ("SP", "JK", "KI", "NI", "TU", "Y7")
    ]
    page.evaluate(DRAW, {"what": what})
    for game, code in what:
        text = help_on_hover(page, page.locator(f"svg.card[data-code='{code}']"))
        want = (
            miaui["diver_help"]
            if code == "diver"
            else miaui["help"][code[0]]
            if game == "miaui"
            else mauw["help"][code]
        )
        assert want in text, (code, text)
    assert "Seagull" in help_on_hover(page, page.locator("svg.card[data-code='S']"))  # the card is named
    shot(page, "help-hover-cards", full=False)


def test_motu_symbols_and_destinies_explain_themselves_on_hover(
    server: Server, browser: Browser, errors
) -> None:
    from kiti.games import get_game

    motu = catalog(server, "motu")
    page = browser.page({"width": 1280, "height": 1600})  # the whole board on one screen
    page.goto(server.url(""))
    render_message(page, message_for(get_game("motu").new(2, {}, 3), 0, ["Ann", "Bob"]))
    symbol = page.locator(".island-wrap g.sym").first
    kind = symbol.get_attribute("class").split("sym-")[1]
    assert motu["symbols"][kind]["help"] in help_on_hover(page, symbol)
    destiny = page.locator(".destiny").first
    code = re.search(r"D\d\d", destiny.locator("b").inner_text()).group(0)
    assert motu["destinies"][code]["text"] in help_on_hover(page, destiny)
    row_card = page.locator(".row-card svg.island-card").first
    assert help_on_hover(page, row_card)  # a row card: what its symbols do
    shot(page, "help-hover-motu", full=False)


def test_a_long_press_shows_the_help_without_playing_the_card(
    server: Server, browser: Browser, errors
) -> None:
    from kiti.games import get_game

    mauw = catalog(server, "mauw")
    context = browser.browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = browser.page(context=context)
    page.goto(server.url(""))
    render_message(page, message_for(get_game("mauw").new(2, {}, 5), 0, ["Ann", "Bob"]))
    card = page.locator(".my-hand button.pick svg.card").first
    card.scroll_into_view_if_needed()
    b = card.bounding_box()
    assert b is not None
    cdp = context.new_cdp_session(page)
    point = [{"x": b["x"] + b["width"] / 2, "y": b["y"] + b["height"] / 2}]
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": point})
    shown = page.locator(".card-help:not([hidden])")
    shown.wait_for(timeout=waits.PAGE * 1000)  # the finger still down: a long press, however slow the page
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    code = card.evaluate("el => el.closest('button').dataset.key || ''")
    assert any(text in shown.inner_text() for text in mauw["help"].values()), shown.inner_text()
    time.sleep(0.3)
    assert page.evaluate("window.played") == [], f"the long press played {code}"
    shot(page, "phone-help-long-press", full=False)
    context.close()


def test_the_card_help_comes_from_the_catalog_and_not_from_the_javascript(server: Server) -> None:
    miaui, mauw, motu = (catalog(server, g) for g in ("miaui", "mauw", "motu"))
    assert set(miaui["help"]) == set(miaui["kinds"]) and miaui["diver_help"]
    assert set(mauw["help"]) == set(mauw["cards"])
    assert all(s["help"] for s in motu["symbols"].values())
    assert all(d["text"] for d in motu["destinies"].values())
    texts = [
        *miaui["help"].values(),
        miaui["diver_help"],
        *mauw["help"].values(),
        *(s["help"] for s in motu["symbols"].values()),
    ]
    scripts = {p.name: p.read_text() for p in (ROOT / "kiti" / "server" / "static").rglob("*.js")}
    for text in texts:
        for piece in (text[:30], text[-30:]):
            holders = [name for name, js in scripts.items() if piece in js]
            assert not holders, f"{holders} hold the card help {piece!r}: it belongs in the game's catalog"
    for words in ("carries off", "three Jellyfish", "face down, and only", "stands for the Warrior"):
        assert not [name for name, js in scripts.items() if words in js], words
