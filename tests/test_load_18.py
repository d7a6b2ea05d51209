"""Issue 18, item 4: a named Game (``kiti.load``), games found by entry points, and one game
list for the web client.

- the README's "play a game from Python" example runs and plays a game to its end;
- ``kiti.load`` gives a Game whose players, options, states, moves, codec and move limit are
  those of the rules; a bad game, seat count or option is the KitiError ``State.new`` gives;
- the built-in games are found with no ``import kiti.games`` and no installed metadata;
- a game installed by another distribution (a temporary ``.dist-info`` with an entry point of
  the group ``kiti.games``) is in ``get_game``, ``kiti.load``, ``/api/games``, its client
  module's URL and the browser lobby, where it can be played, with no edit in Kiti; a broken
  plugin is a clear error for its game only.
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
import textwrap
from contextlib import redirect_stdout
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

import kiti
from kiti.core import registry
from kiti.core.errors import KitiError, NotationError, OptionError
from kiti.core.game import codec_for
from kiti.core.registry import game_ids, get_game

ROOT = Path(__file__).resolve().parent.parent
BUILT_IN = {"miaui", "mauw", "motu"}
PLUGIN = "kiti_nim_18"  # the fake plugin's package

# A game of another distribution: Nim (take 1-3 sticks; who takes the last wins), registered
# by its package with a client module of its own, and a misère variant registered by nothing
# but its entry point (which names the class).
NIM = """
from dataclasses import dataclass

from kiti.core import GameInfo, GameParts, Move, NotationError, OptionSpec, State, register


@dataclass(frozen=True, slots=True)
class Take(Move):
    n: int

    def __str__(self):
        return f"take {self.n}"


class NimState(State):
    info = GameInfo(id="nim", name="Nim", min_seats=2, max_seats=3, version="1", move_types=(Take,),
                    options=(OptionSpec("sticks", int, 7, "sticks at the start", minimum=1, maximum=30),))

    def _setup(self, options, setup):
        self.pile, self.winner, self.acting = options["sticks"], None, frozenset({0})

    def legal_moves(self, seat):
        return [Take(n) for n in (1, 2, 3) if n <= self.pile] if seat in self.acting else []

    def _illegal_reason(self, seat, move):
        return None if 1 <= move.n <= min(3, self.pile) else f"take 1 to {min(3, self.pile)} sticks"

    def _apply(self, seat, move):
        self.pile -= move.n
        if self.pile:
            self.acting = frozenset({(seat + 1) % self.players})
        else:
            self.winner, self.over, self.acting = self._last_taker(seat), True, frozenset()

    def _last_taker(self, seat):
        return seat

    @classmethod
    def parse_move(cls, text):
        words = str(text).split()
        if len(words) == 2 and words[0] == "take" and words[1] in ("1", "2", "3"):
            return Take(int(words[1]))
        raise NotationError(f"{text!r} is not a Nim move (e.g. 'take 2')")

    @classmethod
    def all_moves(cls, players, options):
        return [Take(n) for n in (1, 2, 3)]

    def scores(self):
        return [float(s == self.winner) for s in range(self.players)]

    def _view(self, viewer):
        return {"viewer": viewer, "pile": self.pile}

    def _copy_parts(self, new):
        pass

    def resample(self, seat, rng):
        return self._resampled_copy(rng)


class MisereState(NimState):
    info = GameInfo(id="misere", name="Misere Nim", min_seats=2, max_seats=2, version="1",
                    move_types=(Take,), options=NimState.info.options)

    def _last_taker(self, seat):
        return 1 - seat


register(NimState, GameParts(client="nim.js"))
"""
NIM_JS = """import {h} from "../dom.js";

export function render(board, ctx) {
  board.append(h("p", {class: "nim-pile"}, `${ctx.view.pile} sticks`));
}
"""
ENTRY_POINTS = f"[kiti.games]\nnim = {PLUGIN}\nmisere = {PLUGIN}:MisereState\n"


@pytest.fixture(scope="module")
def plugin_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the plugin as pip installs one: its package and its .dist-info."""
    where = tmp_path_factory.mktemp("site")
    (where / PLUGIN).mkdir()
    (where / PLUGIN / "__init__.py").write_text(NIM)
    (where / PLUGIN / "nim.js").write_text(NIM_JS)
    info = where / f"{PLUGIN}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {PLUGIN}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(ENTRY_POINTS)
    return where


@pytest.fixture
def fresh_registry(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The registry as before a first look, given back as it was after the test.  The built-in
    games are found first: their modules register when imported, which happens once per process."""
    registry.game_ids()
    for name in ("_GAMES", "_PARTS", "_LOADED", "_BROKEN"):
        monkeypatch.setattr(registry, name, dict(getattr(registry, name)))
    monkeypatch.setattr(registry, "_search", {"done": False, "running": False})
    yield registry
    for module in [m for m in sys.modules if m.split(".")[0] == PLUGIN]:
        del sys.modules[module]


@pytest.fixture
def plugin(plugin_dir: Path, fresh_registry: Any, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The plugin installed (on sys.path) in this process."""
    monkeypatch.syspath_prepend(str(plugin_dir))
    return plugin_dir


# ------------------------------------------------------------------ the README's example
def readme_example() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Play a game from Python\n", 1)[1].split("\n## ", 1)[0]
    found = re.search(r"```python\n(.*?)```", section, re.S)
    assert found, "the README's section 'Play a game from Python' has no python example"
    return found.group(1)


def test_the_readme_example_plays_a_game_to_its_end() -> None:
    code = readme_example()
    assert len([line for line in code.splitlines() if line.strip()]) <= 10, code
    out, names = io.StringIO(), dict[str, Any]()
    with redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), names)
    state = names["state"]
    assert names["game"] == kiti.load("mauw", players=4, teams=True)
    assert not state.to_act() and state.history, "the example stops before the end of the game"
    assert state.result().winners, "a finished game has winners"
    assert out.getvalue().strip() == repr(state.result())


# ------------------------------------------------------------------ kiti.load
def test_a_loaded_game_is_its_rules_with_these_players_and_options() -> None:
    game = kiti.load("mauw", players=4, teams=True)
    rules = get_game("mauw")
    assert (game.rules, game.id, game.name, game.players) == (rules, "mauw", rules.info.name, 4)
    assert dict(game.options) == {**{o.name: o.default for o in rules.info.options}, "teams": True}
    with pytest.raises(TypeError):
        game.options["teams"] = False  # type: ignore[index]
    state = game.new_state(seed=5)
    assert state.record() == rules.new(4, {"teams": True}, 5).record()
    assert state.teams() == ((0, 2), (1, 3))
    move = state.legal_moves(min(state.to_act()))[0]
    assert game.parse_move(str(move)) == move
    assert game.codec is codec_for(rules, 4, {"teams": True}) and move in game.codec.index
    assert game.move_limit == rules.move_limit(4, game.options) == state.limit
    assert all(game.applies(o) == rules.option_applies(o, 4) for o in game.options)
    assert game == kiti.load("mauw", teams="yes", players=4) != kiti.load("mauw", players=4)
    assert repr(game) == "kiti.load('mauw', players=4, teams=True)"
    assert eval(repr(game), {"kiti": kiti}) == game


@pytest.mark.parametrize("game_id", sorted(BUILT_IN))
def test_load_without_players_takes_the_fewest_the_game_allows(game_id: str) -> None:
    game = kiti.load(game_id)
    assert game.players == get_game(game_id).info.min_seats
    assert game.new_state(1).players == game.players


BAD_LOADS = [  # (game, players, options): each one thing wrong
    ("mauw", 9, {}),
    ("mauw", 0, {}),
    ("mauw", "4", {}),
    ("mauw", True, {}),
    ("mauw", 4, {"tems": True}),
    ("mauw", 4, {"teams": "maybe"}),
    ("mauw", 4, {"kiwi": "x" * 500}),
    ("mauw", 3, {"teams": True}),  # a combination the rules refuse
    ("miaui", 4, {"kiti_start": -1}),
    ("motu", 2, {"difficulty": "impossible"}),
]


@pytest.mark.parametrize(("game_id", "players", "options"), BAD_LOADS)
def test_bad_players_or_options_are_the_errors_of_a_new_state(
    game_id: str, players: Any, options: dict[str, Any]
) -> None:
    with pytest.raises(KitiError) as direct:
        get_game(game_id).new(players, options, 0)
    with pytest.raises(KitiError) as loaded:
        kiti.load(game_id, players=players, **options)
    assert (type(loaded.value), str(loaded.value)) == (type(direct.value), str(direct.value))
    assert len(str(loaded.value)) < 200, "a bad value is quoted short"


def test_bad_game_names_option_names_and_moves_are_clear_kiti_errors() -> None:
    with pytest.raises(KitiError, match=r"unknown game 'chess' \(known games: mauw, miaui, motu\)"):
        kiti.load("chess")
    with pytest.raises(KitiError, match=r"^unknown game 'xxxx.*\.\.\. \(known games"):
        kiti.load("x" * 10_000)
    with pytest.raises(KitiError, match="unknown game None"):
        kiti.load(None)  # type: ignore[arg-type]
    with pytest.raises(OptionError, match=r"unknown option 'team' \(known options: .*teams"):
        kiti.load("mauw").applies("team")
    with pytest.raises(NotationError, match="not a Mauw move"):
        kiti.load("mauw").parse_move("castle kingside")


# ------------------------------------------------------------------ finding the games
def test_the_built_in_games_are_found_with_no_import_of_them_and_no_metadata() -> None:
    code = textwrap.dedent("""\
        import importlib.metadata
        importlib.metadata.entry_points = lambda **kw: []   # Kiti never installed
        from kiti.core.registry import game_ids
        print(" ".join(game_ids()))
    """)
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert set(run.stdout.split()) == BUILT_IN, run.stdout


def test_a_plugin_game_is_found_through_its_entry_point(plugin: Path) -> None:
    assert {"nim", "misere"} <= set(game_ids()) and set(game_ids()) >= BUILT_IN
    assert get_game("nim").__module__ == PLUGIN
    assert get_game("misere").info.name == "Misere Nim"  # the entry point names the class
    game = kiti.load("nim", sticks=5)
    assert (game.players, dict(game.options)) == (2, {"sticks": 5})
    state = game.new_state(0)
    for move in ("take 3", "take 2"):
        state.apply(min(state.to_act()), game.parse_move(move))
    assert state.winners() == [1]
    assert registry.broken_games() == {}


def test_a_broken_plugin_is_a_clear_error_for_its_game_only(
    fresh_registry: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    plugins = [
        metadata.EntryPoint("ghost", "kiti_no_such_module_18", "kiti.games"),
        metadata.EntryPoint("hollow", "json", "kiti.games"),
    ]  # loads, registers nothing
    monkeypatch.setattr(metadata, "entry_points", lambda group: [e for e in plugins if e.group == group])
    assert set(game_ids()) == BUILT_IN
    with pytest.raises(
        KitiError,
        match=r"the game 'ghost' could not be loaded: the entry point ghost = "
        r"kiti_no_such_module_18 raised ModuleNotFoundError",
    ):
        kiti.load("ghost")
    with pytest.raises(
        KitiError, match=r"the game 'hollow' could not be loaded: .*registered no game 'hollow'"
    ):
        get_game("hollow")
    assert sorted(registry.broken_games()) == ["ghost", "hollow"]
    assert kiti.load("miaui", players=4).new_state(1).players == 4  # the others still play


def test_the_server_lists_a_plugin_game_and_serves_its_client_module(plugin: Path, tmp_path: Path) -> None:
    server_kit = pytest.importorskip("server_kit")
    with server_kit.client(tmp_path) as c:
        listed = {g["id"]: g for g in c.get("/api/games").json()["games"]}
        assert BUILT_IN | {"nim", "misere"} <= set(listed)
        assert (listed["nim"]["name"], listed["nim"]["min_seats"], listed["nim"]["max_seats"]) == (
            "Nim",
            2,
            3,
        )
        assert [o["name"] for o in listed["nim"]["options"]] == ["sticks"]
        own = c.get("/js/games/nim.js")
        assert own.status_code == 200 and own.headers["content-type"].startswith("text/javascript")
        assert own.text == NIM_JS  # the module the game declares
        generic = c.get("/js/games/misere.js")  # a game with no module of its own
        assert generic.text == (ROOT / "kiti/server/static/js/games/generic.js").read_text()
        assert c.get("/js/games/chess.js").status_code == 404
        created = server_kit.create(c, "nim", ("human", "random"), options={"sticks": 4})
        assert created["table"]["game"] == "nim"


def test_the_lobby_lists_a_plugin_game_and_a_person_plays_it(
    plugin_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    browser_kit = pytest.importorskip("browser_kit")
    if browser_kit.chromium_missing():
        pytest.skip("Chromium is missing (apt-get install chromium)")
    monkeypatch.setenv("PYTHONPATH", str(plugin_dir))  # the server's Python has the plugin installed
    server, browser = browser_kit.Server(tmp_path), None
    try:
        browser = browser_kit.Browser()
        page = browser.page()
        page.goto(server.url(""))
        choices = page.locator("input[name=game]")
        choices.first.wait_for()
        assert set(choices.evaluate_all("l => l.map(i => i.value)")) == BUILT_IN | {"nim", "misere"}
        page.locator("input[name=game][value=nim]").check()
        assert page.locator("#seat-count option").all_inner_texts() == ["2", "3"]
        page.locator("#seat-count").select_option("2")
        page.locator("#opt-sticks").fill("5")
        page.get_by_label("Seat 1: who plays").select_option("random")
        page.get_by_role("button", name="Create table").click()
        page.get_by_role("link", name="Sit at seat 0").click()
        page.locator(".board .nim-pile").wait_for()  # its own module, served by the game
        while not page.locator(".end-panel h2").is_visible():
            page.locator(".moves button.move, .end-panel h2").first.wait_for(state="attached")
            if page.locator(".moves button.move").count():
                page.locator(".moves").evaluate("d => { d.open = true; }")
                page.locator(".moves button.move").first.click()
                browser.answered(page)
        assert page.locator(".end-panel h2").inner_text() == "Game over"
        browser_kit.shot(page, "plugin-game-over")
        assert not browser.errors, browser.errors
    finally:
        if browser is not None:
            browser.close()
        server.stop()
