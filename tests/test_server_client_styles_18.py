"""Adding a game needs no edit in the generic web client (issue 18): the page's own files name
no game, and each game's styles live in its package, served at ``/css/games/{id}.css`` (the
file ``client.css`` beside its client module) for the page to load with the game's module."""

from __future__ import annotations

from importlib import resources

from server_kit import client

from kiti.core.registry import game_ids, game_part, get_game, has_part

STATIC = resources.files("kiti.server") / "static"


def static_files(folder=STATIC):  # type: ignore[no-untyped-def]
    for entry in folder.iterdir():
        if entry.is_dir():
            yield from static_files(entry)
        elif entry.name.endswith((".html", ".css", ".js")):
            yield entry


def test_the_generic_page_names_no_game() -> None:
    files = list(static_files())
    assert any(f.name == "kiti.css" for f in files) and any(f.name == "table.js" for f in files)
    named = [
        f"{f.name}: {game}"
        for f in files
        for game in game_ids()
        if game.lower() in f.read_text("utf-8").lower()
    ]
    assert not named, f"generic static files that name a game: {named}"


def test_each_games_styles_are_served_from_its_package(tmp_path) -> None:
    with client(tmp_path) as c:
        for game in game_ids():
            r = c.get(f"/css/games/{game}.css")
            assert r.status_code == 200, (game, r.text[:200])
            assert r.headers["content-type"].startswith("text/css")
            cls = get_game(game)
            own = game_part(cls, "client").parent / "client.css" if has_part(cls, "client") else None
            if own is not None and own.is_file():
                assert r.text == own.read_text("utf-8") and ".board" in r.text, game
            else:
                assert r.text == "", game  # a game without styles of its own: an empty sheet
        for game in ("miaui", "mauw", "motu"):  # the built-in games style their own tables
            assert f'.board[data-game="{game}"]' in c.get(f"/css/games/{game}.css").text
        missing = c.get("/css/games/chess.css")
        assert missing.status_code == 404 and "no game 'chess'" in missing.text
