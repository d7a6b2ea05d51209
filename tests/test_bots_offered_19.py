"""What a server's lobby offers as bots: only bots that can be made on this machine, never a
policy (it runs code: the server's operator names the allowed ones), the heuristic only for a
game that declares one."""

from __future__ import annotations

import importlib.util

import pytest

from kiti.bots import registry
from kiti.core.registry import game_ids, get_game


@pytest.mark.parametrize("game", game_ids())
def test_the_lobby_never_offers_a_policy_and_offers_what_is_installed(game: str, monkeypatch) -> None:
    cls = get_game(game)
    offered = registry.offered_online(cls)
    assert "policy" in registry.BOTS and "policy" not in offered
    assert {"random", "ismcts"} <= set(offered)
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "pyspiel" else real(name, *a)
    )
    assert "openspiel-ismcts" not in registry.offered_online(cls), "offered without open-spiel"


def test_the_lobby_api_lists_the_offered_bots(tmp_path) -> None:
    from server_kit import client

    with client(tmp_path) as c:
        games = {g["id"]: g for g in c.get("/api/games").json()["games"]}
    for game, entry in games.items():
        assert entry["bots"] == registry.offered_online(get_game(game))
        assert "policy" not in entry["bots"]
