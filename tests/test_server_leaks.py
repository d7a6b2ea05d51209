"""Nothing a viewer cannot see ever leaves the server, for every registered game.

Whole games are played at real tables (the server's own Table, store and broadcast) with a
recording connection for every seat and a spectator.  Every message sent is checked:

- before the end, it is rebuilt from states resampled over what its viewer cannot see
  (``state.resample``) and must come out identical, so it depends on that viewer's sight
  alone; so must the engine's reasons in the errors for illegal and out-of-turn moves;
- before the end, each is rebuilt from a stand-in state that answers only the viewer's own
  questions (its view, events, legal moves, whose turn), so nothing else (the history, the
  seed, the record) can reach it; and no message holds a record, a seed or another seat's
  hand;
- at the end, the messages reveal the whole table and the result.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from server_kit import config

from kiti.core.contract import dumps
from kiti.core.errors import KitiError, OptionError
from kiti.core.events import REFEREE
from kiti.core.game import State
from kiti.core.registry import game_ids, get_game
from kiti.server import messages
from kiti.server.lobby import Hub
from kiti.server.protocol import ProtocolError
from kiti.server.tables import Table

#: Keys that hold what a game in progress keeps hidden.  ``moves`` is the record's move list
#: (a list); a view's ``moves`` mapping (MOTU's notation of each Destiny button, made from
#: the public table alone) is public and not counted (see :func:`secret_keys`).
SECRET_KEYS = {"record", "seed", "moves", "history", "reveal", "result", "standings"}


class Recorder:
    """A connection that keeps every message with the state it was built from."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.viewer: int | None = None
        self._cursor = 0
        self.since = 0
        self.sent: list[tuple[dict[str, Any], State, int]] = []

    @property
    def cursor(self) -> int:
        return self._cursor

    @cursor.setter
    def cursor(self, value: int) -> None:
        self.since, self._cursor = self._cursor, value

    def send_text(self, text: str) -> None:
        self.send(json.loads(text))

    def send(self, message: dict[str, Any]) -> None:
        message = json.loads(dumps(message))  # what goes on the wire (Session.send encodes so)
        if message["type"] == "presence":  # shared by every viewer: public info only
            assert set(message) == {"type", "table", "clock"}, message
        if message["type"] == "state":
            self.sent.append((message, self.table.state.clone(), self.since))

    def close(self, code: int, reason: str) -> None:
        pass


def cases() -> list[tuple[str, int, dict[str, Any]]]:
    out = []
    for game in game_ids():
        cls = get_game(game)
        lo, hi = cls.info.min_seats, cls.info.max_seats
        out += [(game, lo, {}), (game, hi, {})]
        flags = {o.name: True for o in cls.info.options if o.type is bool}
        try:
            cls.new((lo + hi) // 2, flags, 0)
            out.append((game, (lo + hi) // 2, flags))
        except OptionError:
            pass
    return out


@pytest.mark.parametrize("case", cases(), ids=lambda c: f"{c[0]}-{c[1]}-{'+'.join(c[2]) or 'defaults'}")
def test_every_message_of_a_whole_game_depends_only_on_its_viewers_sight(tmp_path, case) -> None:
    game, players, options = case
    recorders, state = asyncio.run(play(tmp_path, game, players, options, seed=players))
    assert state.over
    for rec in recorders:
        assert rec.sent, "every viewer heard of the game"
        for message, seen, since in rec.sent:
            if seen.over:
                check_ending(message, seen)
            else:
                check_resampled(message, seen, rec.viewer, since, players)
                check_sight_only(message, seen, rec.viewer, since)
                check_no_secrets(message, seen, rec.viewer)


async def play(
    tmp_path: Any, game: str, players: int, options: dict[str, Any], seed: int
) -> tuple[list[Recorder], State]:
    hub = Hub(config(tmp_path))
    await hub.start()
    try:
        names = [f"P{seat}" if seat % 2 == 0 else None for seat in range(players)]  # names reach sentences
        table, tokens = await hub.create(
            {"game": game, "seats": ["human"] * players, "options": options, "names": names}
        )
        recorders = [Recorder(table) for _ in range(players + 1)]
        for seat, rec in enumerate(recorders):
            await table.attach(rec, tokens.get(seat), None)
        rng = random.Random(seed)
        while not table.state.over:
            await one_move(table, recorders, rng)
        return recorders, table.state
    finally:
        await hub.close()


async def one_move(table: Table, recorders: list[Recorder], rng: random.Random) -> None:
    state = table.state
    seat = rng.choice(sorted(state.to_act()))
    if rng.random() < 0.2:
        await check_refusals(table, rng)
    await table.submit(seat, rng.choice([str(m) for m in state.legal_moves(seat)]), recorders[seat], "m")


async def check_refusals(table: Table, rng: random.Random) -> None:
    """Illegal and out-of-turn moves are refused with reasons a resample gives too."""
    state = table.state
    moves = type(state).all_moves(state.players, state.options)
    for seat in range(state.players):
        move = rng.choice(moves)
        reason = state.illegal_reason(seat, move)
        if reason is None:
            continue
        with pytest.raises(ProtocolError) as refused:
            await table.submit(seat, str(move))
        assert refused.value.message == reason
        for k in range(2):
            guess = state.resample(seat, random.Random(k))
            assert guess.illegal_reason(seat, move) == reason, f"seat {seat}'s refusal of {move} leaks"


def check_resampled(
    message: dict[str, Any], state: State, viewer: int | None, since: int, players: int
) -> None:
    for k in range(2):
        seat = viewer if viewer is not None else k % players
        try:
            guess = state.resample(seat, random.Random(k))
        except KitiError as exc:  # pragma: no cover - every game resamples
            pytest.fail(f"resample failed: {exc}")
        rebuilt, _ = messages.state_message(
            guess, message["table"], viewer, since, message["clock"], message.get("re")
        )
        assert rebuilt == message, f"viewer {viewer}: a message changes with what it cannot see"


class SightOnly:
    """A state that answers only what ``viewer`` may ask (its own sight, turns, the end)."""

    def __init__(self, state: State, viewer: int | None) -> None:
        self._state, self._viewer = state, viewer
        self.over = state.over

    def _mine(self, viewer: Any) -> None:
        assert viewer == self._viewer, f"a message for viewer {self._viewer} asked about {viewer}"

    def view(self, viewer: Any) -> Any:
        self._mine(viewer)
        return self._state.view(viewer)

    def events(self, viewer: Any, since: int = 0) -> Any:
        self._mine(viewer)
        return self._state.events(viewer, since)

    def event_count(self, viewer: Any) -> int:
        self._mine(viewer)
        return self._state.event_count(viewer)

    def to_act(self) -> Any:
        return self._state.to_act()

    def legal_moves(self, seat: int) -> Any:
        self._mine(seat)
        return self._state.legal_moves(seat)

    def many_moves(self, seat: int) -> bool:
        self._mine(seat)
        return self._state.many_moves(seat)

    def move_steps(self, seat: int, prefix: tuple[str, ...] = ()) -> Any:
        self._mine(seat)
        return self._state.move_steps(seat, prefix)


def check_sight_only(message: dict[str, Any], state: State, viewer: int | None, since: int) -> None:
    """The message is built from the viewer's sight alone: no history, seed or record."""
    rebuilt, _ = messages.state_message(
        SightOnly(state, viewer),
        message["table"],
        viewer,  # type: ignore[arg-type]
        since,
        message["clock"],
        message.get("re"),
    )
    assert rebuilt == message


def check_no_secrets(message: dict[str, Any], state: State, viewer: int | None) -> None:
    text = json.dumps(message)
    assert str(state.seed) not in text
    assert not secret_keys(message)
    referee = state.observation(REFEREE)
    sight = state.observation(viewer)
    seen = json.dumps([sight, state.events(viewer)])  # a hand equal to a list seen anyway is no clue
    for seat, hand in enumerate(referee.get("hands") or []):
        if seat != viewer and len(hand) >= 2 and sight["hands"][seat] != hand:
            shown = json.dumps(hand)
            assert shown in seen or shown not in text, f"seat {seat}'s hand reaches viewer {viewer}"


def check_ending(message: dict[str, Any], state: State) -> None:
    assert message["over"] and message["reveal"] == state.observation(REFEREE)
    assert message["result"] == state.result().to_dict()
    assert message["legal"] is None and not message["your_turn"]


def secret_keys(value: Any) -> set[str]:
    """The keys of SECRET_KEYS anywhere in ``value`` (a ``moves`` that is not a list aside)."""
    if isinstance(value, dict):
        found = {k for k, v in value.items() if k in SECRET_KEYS and (k != "moves" or isinstance(v, list))}
        return found | {k for v in value.values() for k in secret_keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in secret_keys(v)}
    return set()


@pytest.mark.parametrize("game", game_ids())
def test_the_record_and_the_replay_wait_for_the_end(tmp_path, game) -> None:
    """The only HTTP answers built from a game's hidden state (the record, the step-by-step
    replay) are refused until the game is over; a game's catalog is the same for every game."""
    from server_kit import client, create, tokens

    with client(tmp_path) as c:
        cls = get_game(game)
        made = create(c, game, ("human",) * cls.info.min_seats)
        tid = made["table"]["id"]
        with c.websocket_connect("/ws") as ws:
            from server_kit import hello

            hello(ws, tid, tokens(made)[0])
            for path in ("record", "replay", "replay?from=0&count=1"):
                r = c.get(f"/api/tables/{tid}/{path}")
                assert r.status_code == 403 and r.json()["error"]["code"] == "not_over", path
        catalog = c.get(f"/api/games/{game}/catalog").json()
        assert catalog == c.get(f"/api/games/{game}/catalog").json()
        assert not secret_keys(catalog)
