"""Lobby requests checked: a new table (game, seats, options, timer, takeover), a join.

Every bad value is refused with a ``bad_request`` error naming it, before anything is
stored.  Each human seat gets a token; only its hash is kept.
"""

from __future__ import annotations

import os
import secrets
import time
from typing import Any

from ..bots.registry import MAX_SPEC, check_table, is_shipped_policy, make_bot, parse_bot_spec
from ..core.errors import KitiError, quoted
from ..core.game import MAX_SEED, State
from ..core.registry import get_game, has_part
from ..core.words import name_refusal, same_name
from . import chat
from .config import TIMER_PRESETS
from .protocol import ProtocolError
from .queries import SeatRow, TableRow
from .tokens import new_table_id, new_token, token_hash

CREATE_KEYS = {
    "game",
    "players",
    "options",
    "seats",
    "names",
    "open",
    "timer",
    "takeover",
    "stand_in",
    "spectator_chat",
}
MAX_NAME = 40


def bad(message: str) -> ProtocolError:
    return ProtocolError("bad_request", message)


def new_table(
    body: Any, time_limit: float, seed: int | None = None
) -> tuple[TableRow, State, dict[int, str], bool]:
    """A create request as a stored row, a fresh game (``seed``: its seed, else a random one),
    the human seats' tokens and whether spectators may write in its chat."""
    if not isinstance(body, dict):
        raise bad("the request must be a JSON object")
    extra = sorted(set(body) - CREATE_KEYS)
    if extra:
        raise bad(f"unknown key(s): {', '.join(extra)} (keys: {', '.join(sorted(CREATE_KEYS))})")
    cls = game_of(body.get("game"))
    kinds = seat_kinds(body.get("seats"), cls, time_limit)
    if body.get("players", len(kinds)) != len(kinds):
        raise bad(f"players is {quoted(body.get('players'))} but seats lists {len(kinds)} seats")
    state = fresh_state(cls, len(kinds), body.get("options"), seed)
    bots_fit(kinds, state)
    names = seat_names(body.get("names"), kinds)
    opens = open_seats(body.get("open"), kinds, body.get("names"))
    tokens = {i: new_token() for i, k in enumerate(kinds) if k == "human"}
    seats = [
        SeatRow(k, n, token_hash(tokens[i]) if i in tokens else None, i not in tokens, o)
        for i, (k, n, o) in enumerate(zip(kinds, names, opens))
    ]
    row = TableRow(
        id=new_table_id(),
        game=cls.info.id,
        version=cls.info.version,
        players=len(kinds),
        options=dict(state.options),
        seed=state.seed,
        timer=timer_of(body.get("timer")),
        takeover=flag(body.get("takeover", False), "takeover"),
        stand_in=stand_in_of(body.get("stand_in"), cls, time_limit),
        status="waiting" if tokens else "playing",
        created=time.time(),
        seats=seats,
    )
    return row, state, tokens, chat.spectator_flag(body.get("spectator_chat"))


def game_of(game: Any) -> type[State]:
    try:
        return get_game(game)
    except KitiError as exc:
        raise bad(str(exc)) from None


def seat_kinds(seats: Any, cls: type[State], time_limit: float) -> list[str]:
    """Each seat "human" or a checked bot spec."""
    info = cls.info
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise bad('seats must be a list such as ["human", "heuristic", "ismcts:iters=300"]')
    if not info.min_seats <= len(seats) <= info.max_seats:
        raise bad(f"{info.name} is for {info.min_seats}-{info.max_seats} players, not {len(seats)}")
    return [
        s.strip().lower() if s.strip().lower() == "human" else bot_spec(s, cls, time_limit) for s in seats
    ]


def bot_spec(spec: str, cls: type[State], time_limit: float) -> str:
    """A bot spec the server accepts: a known bot with good parameters, within the bots'
    declared budgets (``make_bot`` refuses more, as it does for a record's lineup) and this
    server's time limit."""
    spec = spec.strip()
    if not spec or len(spec) > MAX_SPEC:
        raise bad(f'a seat must be "human" or a bot spec of at most {MAX_SPEC} characters')
    try:
        name, params = parse_bot_spec(spec)
    except KitiError as exc:
        raise bad(str(exc)) from None
    seconds = _seconds(params.get("time"))
    if (
        name == "policy"
        and params.get("target") not in allowed_policies()
        and not is_shipped_policy(str(params.get("target", "")), cls)
    ):
        raise bad(
            f"bot {quoted(spec)}: this server runs only the policies its operator lists in KITI_POLICIES "
            f"(a policy is code on the server: a request may not name any module or file)"
        )
    if seconds > time_limit:  # before make_bot, whose own cap may be higher
        raise bad(f"bot {spec}: time={seconds:g} is over this server's limit of {time_limit:g} s")
    try:
        make_bot(spec, cls, 0)
    except KitiError as exc:
        raise bad(str(exc)) from None
    return spec


def bots_fit(kinds: list[str], state: State) -> None:
    """Every bot seat can play this table (a learned policy plays only the tables it was
    trained for, seats and options; so does a search it guides), before the table is made."""
    for kind in kinds:
        if kind != "human":
            try:
                check_table(kind, type(state), state.players, state.options)
            except KitiError as exc:
                raise bad(str(exc)) from None


def allowed_policies() -> set[str]:
    """The policy targets (``module:callable``) this server may run as ``policy:`` bots: the
    environment variable KITI_POLICIES, separated by spaces or commas (none by default)."""
    return {t for t in os.environ.get("KITI_POLICIES", "").replace(",", " ").split() if t}


def _seconds(text: str | None) -> float:
    """A spec's ``time`` as a number (0 if absent or not a number: make_bot then names it)."""
    try:
        return float(text or 0)
    except ValueError:
        return 0.0


def fresh_state(cls: type[State], players: int, options: Any, seed: int | None = None) -> State:
    if options is not None and not isinstance(options, dict):
        raise bad("options must be an object of name: value")
    try:
        return cls.new(players, options, secrets.randbelow(MAX_SEED) if seed is None else seed)
    except KitiError as exc:
        raise bad(str(exc)) from None


def seat_names(names: Any, kinds: list[str]) -> list[str]:
    if names is None:
        names = [None] * len(kinds)
    if not isinstance(names, list) or len(names) != len(kinds):
        raise bad(f"names must be a list of {len(kinds)} names (or null entries)")
    out = [clean_name(n, i, k) for i, (n, k) in enumerate(zip(names, kinds))]
    for i, (name, kind) in enumerate(zip(names, kinds)):
        if (
            name is not None
            and kind == "human"
            and same_name(out[i], [out[j] for j in range(i) if kinds[j] == "human"])
        ):
            raise bad(f"two seats are named {quoted(out[i])}: each person needs a name of their own")
    return out


def open_seats(value: Any, kinds: list[str], names: Any) -> list[bool]:
    """Which human seats a lobby ``join`` may take (default: the ones given no name); the
    others open only with their link."""
    if value is None:
        named = names if isinstance(names, list) else [None] * len(kinds)
        return [k == "human" and n is None for k, n in zip(kinds, named)]
    if not isinstance(value, list) or len(value) != len(kinds) or not all(isinstance(v, bool) for v in value):
        raise bad(f"open must be a list of {len(kinds)} true/false values, one per seat")
    for i, (v, k) in enumerate(zip(value, kinds)):
        if v and k != "human":
            raise bad(f"seat {i} is a bot seat: only a person's seat can be open to anyone")
    return list(value)


def default_name(seat: int, kind: str) -> str:
    """The name of a seat created without one: ``seat N`` for a person, the bot's name."""
    return f"seat {seat}" if kind == "human" else kind.split(":")[0]


def clean_name(name: Any, seat: int, kind: str) -> str:
    if name is None:
        return default_name(seat, kind)
    if not isinstance(name, str):
        raise bad(f"the name of seat {seat} must be text")
    text = "".join(ch for ch in name if ch.isprintable()).strip()
    if not text or len(text) > MAX_NAME:
        raise bad(f"the name of seat {seat} must be 1-{MAX_NAME} printable characters")
    refusal = name_refusal(text) if kind == "human" else None
    if refusal is not None:
        raise bad(f"the name of seat {seat}: {refusal}")
    return text


def timer_of(value: Any) -> float | None:
    """Seconds per decision: a number, or a preset's name (``config.TIMER_PRESETS``)."""
    if value is None:
        return None
    if isinstance(value, str):
        preset = TIMER_PRESETS.get(value)
        if preset is None:
            raise bad(
                f"timer {quoted(value)} is not one of {', '.join(TIMER_PRESETS)} (or a number of seconds)"
            )
        return preset.move
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.05 <= value <= 86_400:
        raise bad("timer must be null or a number of seconds from 0.05 to 86400")
    return float(value)


def flag(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise bad(f"{name} must be true or false")
    return value


def stand_in_of(value: Any, cls: type[State], time_limit: float) -> str:
    """The bot that plays for absent humans (default: the game's heuristic, else random)."""
    if value is None:
        return "heuristic" if has_part(cls, "heuristic") else "random"
    if not isinstance(value, str):
        raise bad('stand_in must be a bot spec such as "heuristic"')
    return bot_spec(value, cls, time_limit)


def join_request(body: Any, players: int) -> tuple[int | None, str | None]:
    """A join request: an optional seat and name."""
    if body is None:
        return None, None
    if not isinstance(body, dict) or set(body) - {"seat", "name"}:
        raise bad('a join request is {"seat": n, "name": "..."} (both optional)')
    seat = body.get("seat")
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players):
        raise bad(f"seat must be a seat number 0-{players - 1}")
    name = body.get("name")
    if name is None:
        return seat, None
    try:
        return seat, clean_name(name, seat or 0, "human")
    except ProtocolError as exc:  # the joiner's name, whatever seat it goes to
        raise bad(exc.message.replace(f"the name of seat {seat or 0}", "your name", 1)) from None
