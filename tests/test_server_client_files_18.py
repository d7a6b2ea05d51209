"""A game's web client may be split in several files of its own package: the server serves
every ``.js`` file beside the game's client module at ``/js/games/{id}/{file}.js`` (the built-in
games' card drawers live there), so a new game needs no edit in the generic client; anything
that is not a plain file name beside a declared client module is a 404."""

from __future__ import annotations

import re

import pytest
from server_kit import client

from kiti.core.registry import game_ids, game_part, get_game, has_part

BUILT_IN = ("mauw", "miaui", "motu")


def own_imports(game: str, text: str) -> list[str]:
    """The files of its own folder that game ``game``'s client module imports."""
    return re.findall(rf'from "\./{re.escape(game)}/([\w-]+)\.js"', text)


def test_each_games_card_drawer_is_served_from_its_package(tmp_path) -> None:
    with_client = [g for g in game_ids() if has_part(get_game(g), "client")]
    assert set(BUILT_IN) <= set(with_client)
    with client(tmp_path) as c:
        for game in with_client:
            module = c.get(f"/js/games/{game}.js")
            assert module.status_code == 200, game
            names = own_imports(game, module.text)
            if game in BUILT_IN:
                assert "cards" in names, f"{game}'s client draws its cards with its own cards.js"
            folder = game_part(get_game(game), "client").parent
            for name in names:
                r = c.get(f"/js/games/{game}/{name}.js")
                assert r.status_code == 200, (game, name, r.text)
                assert r.headers["content-type"].startswith("text/javascript")
                assert r.text == (folder / f"{name}.js").read_text("utf-8")
                # its imports of the shared client resolve from /js/games/{id}/
                for shared in re.findall(r'"\.\./\.\./([\w/]+\.js)"', r.text):
                    assert c.get(f"/js/{shared}").status_code == 200, (game, name, shared)


@pytest.mark.parametrize(
    "path",
    [
        "/js/games/miaui/%2E%2E.js",  # a dot-dot name
        "/js/games/miaui/..%2Frules.js",  # a slash in the name
        "/js/games/miaui/..%2F..%2F..%2Fgames%2Fmiaui%2Frules.js",
        "/js/games/miaui/rules.js",  # no such JavaScript file beside the client
        "/js/games/miaui/client.js",  # the client module is served at /js/games/miaui.js only
        "/js/games/chess/cards.js",  # no such game
        "/js/games/..%2Fcore/registry.js",
        "/js/games/miaui/cards.json.js",
    ],
)
def test_a_path_that_is_no_file_beside_a_client_is_refused(tmp_path, path: str) -> None:
    with client(tmp_path) as c:
        r = c.get(path)
    assert r.status_code == 404, (path, r.text[:200])
    assert "import " not in r.text and "def " not in r.text, "nothing of a file is given away"


def test_the_refusal_names_what_was_asked(tmp_path) -> None:
    with client(tmp_path) as c:
        r = c.get("/js/games/mauw/nothing.js")
    assert r.status_code == 404
    assert "'nothing.js'" in r.text and "'mauw'" in r.text
