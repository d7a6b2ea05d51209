"""Every terminal renderer reads its game's typed view (issue 18): ``render_view`` is annotated
with the game's declared view type (``info.view_type``), never a JSON dict, and the terminal
front end (``kiti play``, ``kiti replay``, the placement dialogue) hands it ``State.view``."""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kiti.cli.main import app
from kiti.cli.render import terminal, turn_for
from kiti.core.registry import game_ids, get_game, has_part

GAMES = [g for g in game_ids() if has_part(get_game(g), "terminal")]
SEATS = {"miaui": 3, "mauw": 2, "motu": 1}


def view_types(game_id: str) -> tuple[type, ...]:
    """The classes a view of the game can be (a union's members, or the one class)."""
    declared = get_game(game_id).info.view_type
    if isinstance(declared, types.UnionType) or typing.get_origin(declared) is typing.Union:
        return typing.get_args(declared)
    return (declared,)


def test_the_games_have_terminals() -> None:
    assert {"miaui", "mauw", "motu"} <= set(GAMES)


@pytest.mark.parametrize("game_id", GAMES)
def test_render_view_is_annotated_with_the_games_view_type(game_id: str) -> None:
    part = terminal(get_game(game_id))
    annotated = typing.get_type_hints(part.render_view)["view"]
    assert isinstance(annotated, type) and dataclasses.is_dataclass(annotated), (
        f"{game_id}'s render_view takes {annotated!r}, not its typed view"
    )
    kinds = view_types(game_id)
    assert annotated in kinds and all(issubclass(kind, annotated) for kind in kinds), (annotated, kinds)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_terminal_front_end_hands_renderers_the_typed_view(
    game_id: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    part = terminal(get_game(game_id))
    drawn: list[Any] = []
    original = part.render_view

    def recording(view: Any, *args: Any, **kwargs: Any) -> Any:
        drawn.append(view)
        return original(view, *args, **kwargs)

    monkeypatch.setattr(part, "render_view", recording)
    players = SEATS.get(game_id, get_game(game_id).info.min_seats)
    save = tmp_path / "g.json"
    seats = ",".join(["random"] * players)
    played = CliRunner().invoke(app, ["play", game_id, "--seats", seats, "--seed", "3", "--save", str(save)])
    assert played.exit_code == 0, played.output
    for args, stdin in ((["replay", str(save)], None), (["replay", str(save), "--step"], "\n\nq\n")):
        out = CliRunner().invoke(app, args, input=stdin)
        assert out.exit_code == 0, out.output
    kinds = view_types(game_id)
    assert drawn and all(isinstance(view, kinds) for view in drawn), {type(v) for v in drawn}
    state = get_game(game_id).new(players, None, 3)
    seat = min(state.to_act())
    assert isinstance(turn_for(state, seat).view, kinds)  # what a dialogue hook reads
    json.loads(CliRunner().invoke(app, ["replay", str(save), "--json"]).output)  # still JSON
