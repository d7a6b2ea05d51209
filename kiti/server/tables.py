"""A live table: one game, its seats and its viewers.

Every change (a move, an undo, a seat claimed) is made under the table's lock and
committed to the database before anybody is told; if the database refuses a move, the
move is taken back (the state is replayed from its record without it).  Everything that
reads the state to tell somebody (broadcasts, steps, bots' views, the record) holds the
lock too, so nobody ever sees an uncommitted move.  Each viewer gets a ``state`` message
built from its own sight (:mod:`kiti.server.messages`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from ..core.contract import dumps
from ..core.errors import GameOverError, IllegalMoveError, NotationError, NotYourTurnError
from ..core.game import State
from ..core.records import replay
from ..core.turns import forced_move
from . import messages, queries
from .botplay import BotDriver
from .clock import SeatTime, TurnClock, save_op
from .cluster import refusal
from .protocol import ProtocolError, error
from .queries import TableRow
from .store import Op
from .tokens import matches

if TYPE_CHECKING:
    from .lobby import Hub

log = logging.getLogger("kiti.server")


class Conn(Protocol):
    """A viewer's connection: a seat (``viewer``) or a spectator (None), and its cursor."""

    viewer: int | None
    cursor: int

    def send(self, message: dict[str, Any]) -> None: ...

    def send_text(self, text: str) -> None: ...

    def close(self, code: int, reason: str) -> None: ...


@dataclass
class Seat:
    kind: str  # "human" or a bot spec
    name: str
    token_hash: str | None
    claimed: bool
    open: bool = False  # a lobby join may take it while unclaimed (not kept for a named person)
    conn: Conn | None = None
    away: bool = False  # its human left or timed out: a bot plays it until the human is back
    leaving: asyncio.TimerHandle | None = None

    @property
    def human(self) -> bool:
        return self.kind == "human"

    def info(self, seat: int, bot_plays: bool, stand_ins: int = 0) -> dict[str, Any]:
        return {
            "seat": seat,
            "kind": "human" if self.human else "bot",
            "bot": None if self.human else self.kind,
            "name": self.name,
            "claimed": self.claimed,
            "connected": self.conn is not None,
            "away": self.away,
            "bot_plays": bot_plays,
            "stand_in_moves": stand_ins,
            "open": self.open and self.human and not self.claimed,
        }


def table_info(row: TableRow, name: str, seats: list[dict[str, Any]]) -> dict[str, Any]:
    """A table's public info (its stored row, the game's name, each seat's ``Seat.info``)."""
    return {
        "id": row.id,
        "game": row.game,
        "name": name,
        "players": row.players,
        "options": row.options,
        "status": row.status,
        "timer": row.timer,
        "takeover": row.takeover,
        "stand_in": row.stand_in,
        "rematch_of": row.rematch_of,
        "rematch": row.rematch,
        "seats": seats,
    }


class Table:
    def __init__(self, row: TableRow, state: State, services: Hub) -> None:
        self.row = row
        self.id = row.id
        self.state = state
        self.services = services
        self.seats = [Seat(s.kind, s.name, s.token_hash, s.claimed, s.open) for s in row.seats]
        self.spectators: set[Conn] = set()
        self.lock = asyncio.Lock()
        self.forced: set[int] = set()  # seats a stand-in plays for one decision (their time ran out)
        self.clock = TurnClock(self)
        self.bots = BotDriver(self)
        self.tasks: set[asyncio.Task[Any]] = set()
        self.closed = False

    # ------------------------------------------------------------ facts
    def playing(self) -> bool:
        return self.row.status == "playing" and not self.state.over and not self.closed

    def plays(self, seat: int) -> bool:
        """True if a bot plays ``seat`` now."""
        s = self.seats[seat]
        return not s.human or s.away or seat in self.forced

    def bot_spec(self, seat: int) -> str:
        s = self.seats[seat]
        return self.row.stand_in if s.human else s.kind

    def public(self) -> dict[str, Any]:
        """The table's public info (in every state message and the lobby's lists)."""
        return table_info(
            self.row,
            type(self.state).info.name,
            [s.info(i, self.plays(i), self.clock.time(i).stand_ins) for i, s in enumerate(self.seats)],
        )

    def connections(self) -> list[Conn]:
        return [s.conn for s in self.seats if s.conn is not None] + list(self.spectators)

    def seat_of(self, token: str) -> int:
        for i, s in enumerate(self.seats):
            if s.human and matches(token, s.token_hash):
                return i
        raise ProtocolError("bad_token", f"this token is not a seat of table {self.id}")

    # ------------------------------------------------------------ telling
    def broadcast(self, origin: Conn | None = None, re: Any = None) -> None:
        """A state message to every viewer, each from its own sight."""
        table, clock = self.public(), self.clock.left()
        built: dict[tuple[int | None, int], tuple[dict[str, Any], int]] = {}
        for conn in self.connections():
            key = (conn.viewer, conn.cursor)
            if conn is origin and re is not None:
                self.send_state(conn, table, clock, re)
            elif key in built:
                conn.cursor = built[key][1]
                conn.send(built[key][0])
            else:
                built[key] = self.send_state(conn, table, clock)

    def presence(self, *, but: Conn | None = None) -> None:
        """A ``presence`` message (the table's public info and clock: who is connected) to
        every viewer but ``but``, encoded once: a seat connecting or leaving changes no view,
        so nobody's state is rebuilt for it (a reconnect storm costs one small text each)."""
        text = dumps({"type": "presence", "table": self.public(), "clock": self.clock.left()})
        for conn in self.connections():
            if conn is not but:
                conn.send_text(text)

    def send_state(
        self, conn: Conn, table: dict[str, Any], clock: dict[str, Any] | None, re: Any = None
    ) -> tuple[dict[str, Any], int]:
        message, cursor = messages.build_state(self.state, table, conn.viewer, conn.cursor, clock, re)
        conn.cursor = cursor
        conn.send(message)
        return message, cursor

    def changed(self, origin: Conn | None = None, re: Any = None, moved: bool = True) -> None:
        """After any change: set the clock, tell everybody, start the bots.  ``moved`` False:
        only ``origin`` connected (nothing in the game changed), so it alone gets a state and
        the others a ``presence``."""
        if self.playing():
            self.clock.update()
        else:
            self.clock.cancel()
        if moved or origin is None:
            self.broadcast(origin, re)
        else:
            self.send_state(origin, self.public(), self.clock.left(), re)
            self.presence(but=origin)
        self.bots.schedule()

    def notify(self, seat: int, code: str, message: str, **extra: Any) -> None:
        """Tell the seat's person (if connected) what the table did for them (a ``notice``)."""
        conn = self.seats[seat].conn
        if conn is not None:
            conn.send({"type": "notice", "code": code, "seat": seat, "message": message, **extra})

    async def _forced_moves(self) -> list[tuple[int, str]]:
        """Each person here whose only legal move is forced (``forced_move``) has it played at
        once (under the lock, before the change is broadcast: they are never asked for it); a
        person who is not connected gets it when they connect.  The moves, for :meth:`tell_forced`."""
        played: list[tuple[int, str]] = []
        while self.playing():
            found = (
                (seat, forced_move(self.state, seat))
                for seat in sorted(self.state.to_act())
                if self.seats[seat].conn is not None and not self.plays(seat)
            )
            seat, move = next(((s, m) for s, m in found if m is not None), (None, None))
            if seat is None or move is None:
                break
            try:
                await self._move(seat, str(move), bot=False, forced=True)
            except ProtocolError as exc:
                log.warning("table %s: the forced move of seat %d failed: %s", self.id, seat, exc.message)
                break
            played.append((seat, str(move)))
        return played

    def tell_forced(self, played: list[tuple[int, str]]) -> None:
        for seat, move in played:
            self.notify(seat, "forced", f"Your only move, {move}, was played for you.", move=move)

    # ------------------------------------------------------------ moves
    async def submit(
        self, seat: int, text: str, origin: Conn | None = None, re: Any = None, bot: bool = False
    ) -> None:
        """Apply a move (checked), commit it, then broadcast it."""
        async with self.lock:
            await self.clock.restore()
            if bot and not (self.plays(seat) and self.playing()):
                return  # its human came back meanwhile
            self._check_playing()
            if not bot and self.plays(seat):
                raise ProtocolError("away", "a bot is playing this seat: send back to take it")
            await self._move(seat, text, bot)
            played = await self._forced_moves()
            self.tell_forced(played)
            self.changed(origin, re)

    async def _move(self, seat: int, text: str, bot: bool, forced: bool = False) -> None:
        """Apply and store a move, with its seat's clock (a stand-in's move is counted; a forced
        one changes nothing of it)."""
        self._apply(seat, text)
        after = self.clock.after_move(seat, stand_in=bot) if self.seats[seat].human and not forced else None
        await self._commit(seat, after)
        self.forced.discard(seat)
        self.clock.restart(seat)
        if after is not None:
            self.clock.settle(seat, after)
            self._away_after_stand_ins(seat, after)
        self.services.moves += 1

    def _away_after_stand_ins(self, seat: int, after: SeatTime) -> None:
        """At a takeover table a seat goes away once a stand-in made two decisions in a row for it."""
        s = self.seats[seat]
        if self.row.takeover and after.streak >= 2 and not s.away:
            s.away = True
            self.notify(
                seat,
                "away",
                f"A stand-in ({self.row.stand_in}) played your last {after.streak} "
                "decisions: it goes on playing your seat until you come back (any click).",
            )

    def _check_playing(self) -> None:
        if self.row.status == "waiting":
            free = [i for i, s in enumerate(self.seats) if s.human and not s.claimed]
            raise ProtocolError("not_started", f"the table is waiting for seat(s) {free} to be claimed")
        if not self.playing():
            raise ProtocolError("game_over", "the game is over: no more moves")

    def _apply(self, seat: int, text: str) -> None:
        """Apply the move (a refused one changes nothing), or ProtocolError with the engine's reason."""
        try:
            self.state.play(seat, text)
        except NotYourTurnError as exc:
            raise ProtocolError("not_your_turn", exc.reason) from None
        except GameOverError as exc:
            raise ProtocolError("game_over", exc.reason) from None
        except IllegalMoveError as exc:
            raise ProtocolError("illegal_move", exc.reason) from None
        except NotationError as exc:
            raise ProtocolError("bad_move", str(exc)) from None

    async def _commit(self, seat: int, after: SeatTime | None = None) -> None:
        """Store the move just applied (and the mover's clock, ``after``); if the database refuses
        it, take it back."""
        state = self.state
        ops = [queries.append_move(self.id, len(state.history) - 1, seat, str(state.history[-1][1]))]
        if after is not None and (self.row.timer is not None or self.row.takeover):
            ops.append(save_op(self.id, seat, after))
        if state.over:
            ops.append(queries.update_table(self.id, status="over", result=state.result().to_dict()))
        try:
            await self.write(*ops)
        except ProtocolError:
            record = state.record()
            record["moves"].pop()
            self.state = replay(record)
            raise
        if state.over:
            self.row.status = "over"

    async def write(self, *ops: Op) -> None:
        """Commit ``ops`` in one transaction; ProtocolError("storage") if the database fails.
        In a cluster the transaction first checks that this instance still owns the table
        (:mod:`kiti.server.cluster`); if not, ProtocolError("moved") and the table is dropped."""
        cluster = self.services.cluster
        try:
            if cluster is None:
                await self.services.store.write(*ops)
            else:
                await self.services.store.write(cluster.fence(self.id), *ops)
        except queries.Taken:
            raise
        except Exception as exc:
            why = None if cluster is None else refusal(exc)
            if cluster is not None and why is not None:
                cluster.refused(self, why)
                raise ProtocolError("moved", "this server no longer plays the table: reconnect") from None
            log.exception("table %s: the database refused a change", self.id)
            raise ProtocolError("storage") from None

    async def undo(self, seat: int, origin: Conn, re: Any = None) -> None:
        """Take back the seat's last move, exactly when the engine allows it."""
        async with self.lock:
            self._check_playing()
            reason = self.state.undo_refusal(seat)
            if reason is not None:
                raise ProtocolError("undo_refused", f"cannot take back: {reason}")
            await self.write(queries.delete_move(self.id, len(self.state.history) - 1))
            self.state.undo(seat)
            self.clock.restart(seat)
            self.changed(origin, re)

    # ------------------------------------------------------------ seats
    async def attach(self, conn: Conn, token: str | None, since: int | None) -> None:
        """A connection joins as the token's seat (or as a spectator without a token)."""
        async with self.lock:
            await self.clock.restore()
            seat = None if token is None else self.seat_of(token)
            conn.viewer, conn.cursor = seat, since or 0
            conn.send(messages.welcome(self.id, seat, self.services.config.limits()))
            if seat is None:
                self.spectators.add(conn)
                self.send_state(conn, self.public(), self.clock.left())
                return
            status = self.row.status
            await self._sit(seat, conn)
            played = await self._forced_moves()
            self.tell_forced(played)
            self.changed(conn, moved=bool(played) or self.row.status != status)  # started or moved

    async def _sit(self, seat: int, conn: Conn) -> None:
        s = self.seats[seat]
        old, s.conn = s.conn, conn
        if old is not None:
            old.send(error("replaced", "this seat was opened on another connection"))
            old.close(4000, "replaced")
        self._came_back(seat)
        if not s.claimed:
            await self.claim(seat)

    async def claim(self, seat: int, token_hash: str | None = None, name: str | None = None) -> None:
        """Mark a seat claimed (with a new token and name when given); start when all are."""
        s = self.seats[seat]
        values: dict[str, Any] = {"claimed": True}
        if token_hash is not None:
            values["token_hash"] = token_hash
        if name is not None:
            values["name"] = name
        ops = [queries.update_seat(self.id, seat, **values)]
        starts = self.row.status == "waiting" and all(
            x.claimed or i == seat or not x.human for i, x in enumerate(self.seats)
        )
        if starts:
            ops.append(queries.update_table(self.id, status="playing"))
        await self.write(*ops)
        s.claimed, s.token_hash, s.name = (
            True,
            values.get("token_hash", s.token_hash),
            values.get("name", s.name),
        )
        if starts:
            self.row.status = "playing"

    def _came_back(self, seat: int) -> None:
        s = self.seats[seat]
        if s.away or seat in self.forced:
            self.clock.came_back(seat)  # a new streak of stand-in decisions starts from none
        s.away = False
        self.forced.discard(seat)
        if s.leaving is not None:
            s.leaving.cancel()
            s.leaving = None
        self.clock.restart(seat)

    async def back(self, seat: int, origin: Conn, re: Any = None) -> None:
        """The seat's human takes it back from the bot."""
        async with self.lock:
            await self.clock.restore()
            self._came_back(seat)
            played = await self._forced_moves()
            self.tell_forced(played)
            self.changed(origin, re)

    async def detach(self, conn: Conn) -> None:
        async with self.lock:
            if conn.viewer is None:
                self.spectators.discard(conn)
            elif self.seats[conn.viewer].conn is conn:
                self.seats[conn.viewer].conn = None
                self._leave_later(conn.viewer)
                self.presence()
        self.services.maybe_evict(self)

    def _leave_later(self, seat: int) -> None:
        if self.row.takeover and self.playing():
            loop = asyncio.get_running_loop()
            grace = self.services.config.leave_grace
            self.seats[seat].leaving = loop.call_later(grace, lambda: self.spawn(self._away(seat, True)))

    async def _away(self, seat: int, left: bool) -> None:
        """A bot takes the seat: until its human is back when it left a takeover table, for the
        one decision whose time ran out otherwise (and the person is told)."""
        async with self.lock:
            s = self.seats[seat]
            s.leaving = None
            if not self.playing() or (s.conn is not None if left else seat not in self.state.to_act()):
                return
            if left:
                s.away = True
            elif not self.plays(seat):
                self.forced.add(seat)
                self.notify(
                    seat,
                    "timed_out",
                    f"Your time ran out, so a stand-in ({self.row.stand_in}) "
                    "made one decision for you. The seat stays yours.",
                )
            self.changed()

    def timed_out(self, seat: int) -> None:
        """The clock ran out for ``seat`` (called by the clock)."""
        self.spawn(self._away(seat, False))

    # ------------------------------------------------------------ life
    def resume(self) -> None:
        """Start (or restart after a server restart) the clock, bots and takeovers."""
        for i, s in enumerate(self.seats):
            if s.human and s.conn is None:
                self._leave_later(i)
        if self.state.history:
            self.spawn(self._restored())
        elif self.playing():
            self.clock.update()
            self.bots.schedule()

    async def _restored(self) -> None:
        """A game under way (after a restart): its stored banks and counts first, then the clock,
        the bots and any forced move."""
        async with self.lock:
            await self.clock.restore()
            if self.playing():
                played = await self._forced_moves()
                self.tell_forced(played)
                self.changed()

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("table %s: a task failed", self.id, exc_info=task.exception())

    def close(self) -> None:
        self.closed = True
        self.clock.cancel()
        self.bots.cancel()
        for s in self.seats:
            if s.leaving is not None:
                s.leaving.cancel()
        for task in list(self.tasks):
            task.cancel()
