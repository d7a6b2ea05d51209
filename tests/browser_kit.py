"""Helpers for the browser tests: a real ``kiti serve`` on a free port with a temporary SQLite
file, Debian's Chromium driven by Playwright, and screenshots kept under tests/artifacts/.

Every Playwright wait (actions, ``wait_for``, ``wait_for_function``, navigations and the
``expect`` assertions) returns once the page shows what it waits for, and fails after
``waits.PAGE`` seconds."""

from __future__ import annotations

import json
import os
import shutil
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import waits
from serve_kit import ServeProcess

pytest.importorskip("starlette", reason="the browser tests need the [server] extra")
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="the browser tests need playwright (the [test] extra)"
)
PAGE_MS = waits.PAGE * 1000  # Playwright counts in milliseconds
sync_api.expect.set_options(timeout=PAGE_MS)

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "tests" / "artifacts" / "browser"
CHROMIUM = os.environ.get("KITI_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def chromium_missing() -> bool:
    return not (CHROMIUM and os.path.exists(CHROMIUM))


class Server(ServeProcess):
    """``kiti serve`` in a subprocess (threads for bots, a fixed seed so games repeat)."""

    def __init__(self, tmp: Path, seed: int = 7) -> None:
        super().__init__(
            [
                "--db",
                f"sqlite:///{tmp}/kiti.db",
                "--bot-threads",
                "--bot-workers",
                "1",
                "--seed",
                str(seed),
                "--log-level",
                "warning",
            ],
            tmp / "server.log",
        )

    def api(self, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(
            self.base + path, data=data, headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(req, timeout=waits.MESSAGE) as r:
            return json.load(r)

    def url(self, fragment: str) -> str:
        """A page of this server: short animations, so that tests do not wait for them."""
        return f"{self.base}/?anim=fast#{fragment}"


# Each page notes how many states its table had shown when it was last clicked or typed on,
# so that a test can wait for the answer to what it did (``Browser.answered``).
NOTE_INPUT = """for (const kind of ["click", "keydown"]) {
  window.addEventListener(kind, () => {
    window.kitiStatesAtInput = document.querySelector(".table-screen")?.dataset.states;
  }, true);
}"""
ANSWERED = """() => { const screen = document.querySelector(".table-screen");
  return !screen || screen.dataset.states !== window.kitiStatesAtInput
    || !!document.querySelector(".refusal:not([hidden])"); }"""


class Browser:
    """Chromium with a fresh profile; each context is one person (its own storage)."""

    def __init__(self) -> None:
        self.pw = sync_api.sync_playwright().start()
        self.browser = self.pw.chromium.launch(
            executable_path=CHROMIUM, args=FLAGS, headless=True, timeout=waits.START * 1000
        )
        self.errors: list[str] = []

    def page(self, viewport: dict[str, int] = DESKTOP, context: Any = None) -> Any:
        ctx = context or self.browser.new_context(viewport=viewport)
        page = ctx.new_page()
        page.set_default_timeout(PAGE_MS)  # navigations too
        page.add_init_script(NOTE_INPUT)
        page.on("pageerror", lambda e: self.errors.append(f"{page.url}: {e}"))
        page.on(
            "console",
            lambda m: (
                m.type == "error"
                and "WebSocket" not in m.text
                and self.errors.append(f"{page.url}: console: {m.text}")
            ),
        )
        return page

    @staticmethod
    def answered(page: Any) -> None:
        """Wait until the table on ``page`` has shown a new state, or a refusal, since the last
        click or key on it (the answer to a move made through the page)."""
        page.wait_for_function(ANSWERED)

    @staticmethod
    def turn_on(pages: Any) -> None:
        """Wait until one of ``pages`` shows that it is its person's turn."""
        end = time.monotonic() + waits.PAGE
        while not any(p.locator(".turnbar.mine").count() for p in pages):
            assert time.monotonic() < end, f"no page showed its person's turn within {waits.PAGE:.0f} s"
            time.sleep(0.05)  # polling: the turn may come on any of the pages

    def close(self) -> None:
        self.browser.close()
        self.pw.stop()


def shot(page: Any, name: str, full: bool = True) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    if full:
        page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(path), full_page=full)
    return path


def message_for(state: Any, viewer: int | None, names: list[str] | None = None) -> dict[str, Any]:
    """The server's state message for ``viewer`` of a table seating ``state`` (all humans)."""
    from kiti.server.messages import state_message

    seats = [
        {
            "seat": i,
            "kind": "human",
            "bot": None,
            "name": (names or [])[i] if names else f"P{i}",
            "claimed": True,
            "connected": True,
            "away": False,
            "bot_plays": False,
        }
        for i in range(state.players)
    ]
    table = {
        "id": "synthetic",
        "game": state.info.id,
        "name": state.info.name,
        "players": state.players,
        "options": dict(state.options),
        "status": "playing",
        "timer": None,
        "takeover": False,
        "stand_in": "random",
        "rematch_of": None,
        "rematch": None,
        "seats": seats,
    }
    return state_message(state, table, viewer, 0, None)[0]


RENDER = """async ({m, game, tree}) => {
  const {gameContext, loadGame} = await import("/js/table.js");
  const {catalog} = await import("/js/api.js");
  const module = await loadGame(game);  // its module and its own styles, as a table loads them
  const board = document.createElement("section");
  board.className = "board";
  board.dataset.game = game;
  board.dataset.mode = "live";
  document.getElementById("app").replaceChildren(board);
  window.played = [];
  window.refused = [];
  window.asked = [];
  let ctx = null;
  const draw = () => { board.replaceChildren(); module.render(board, ctx); };
  ctx = gameContext(m, {events: m.events, catalog: await catalog(game), ui: {}, clockLeft: () => null,
    play: (move) => window.played.push(move), refuse: (text) => window.refused.push(text), rerender: draw,
    askSteps: async (prefix) => { window.asked.push(prefix); return tree[JSON.stringify(prefix)] || []; }});
  draw();
  document.addEventListener("keydown", (event) => {
    if (module.onKey && module.onKey(event, ctx)) event.preventDefault();
  });
}"""


def render_message(page: Any, message: dict[str, Any], tree: dict[str, Any] | None = None) -> None:
    """Draw one state message with its game's module alone (no table, no connection); its
    ``askSteps`` answered from ``tree`` (a prefix as compact JSON -> the steps after it).
    The page records ``window.played`` (moves sent), ``window.refused`` and ``window.asked``."""
    page.evaluate(RENDER, {"m": message, "game": message["table"]["game"], "tree": tree or {}})
