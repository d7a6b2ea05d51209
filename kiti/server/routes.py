"""The lobby's HTTP JSON API and the WebSocket endpoint (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import functools
import json
import re
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket

from ..bots.registry import offered_online
from ..core.contract import game_schema
from ..core.errors import KitiError, OptionError, quoted
from ..core.options import parse_int
from ..core.registry import game_ids, game_part, get_game, has_part
from .cluster import Elsewhere
from .config import TIMER_PRESETS
from .lobby import Hub
from .messages import seat_names
from .protocol import ProtocolError
from .replays import MAX_FRAMES, frames
from .sessions import Session
from .tables import Table

STATUS = {
    "no_table": 404,
    "too_large": 413,
    "seat_taken": 409,
    "no_free_seat": 409,
    "seat_kept": 409,
    "not_over": 403,
    "storage": 503,
    "moved": 503,
}


def hub_of(request: Request | WebSocket) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def refuse(exc: ProtocolError) -> JSONResponse:
    return JSONResponse(
        {"error": {"code": exc.code, "message": exc.message}}, status_code=STATUS.get(exc.code, 400)
    )


def api(handler: Any) -> Any:
    """An endpoint whose ProtocolErrors become JSON errors."""

    async def endpoint(request: Request) -> Response:
        try:
            response: JSONResponse = await handler(request)
            return response
        except ProtocolError as exc:
            return refuse(exc)
        except Elsewhere as owner:
            return await forward(request, owner.address)

    return endpoint


async def forward(request: Request, address: str) -> Response:
    """Cluster: a lobby request about a table another instance owns, answered by that owner
    (as asked: same method, path, query, body and Host, so links name this address)."""
    import httpx

    hub = hub_of(request)
    if "x-kiti-relay" in request.headers or hub.cluster is None:
        return refuse(ProtocolError("moved", "the table is changing servers: try again in a moment"))
    headers = {
        "host": request.headers.get("host", ""),
        "content-type": "application/json",
        "x-kiti-relay": hub.cluster.instance,
        "x-forwarded-for": request.client.host if request.client else "unknown",
    }
    url = f"http://{address}{request.url.path}" + (f"?{request.url.query}" if request.url.query else "")
    try:
        async with httpx.AsyncClient(timeout=10) as client:
            answer = await client.request(
                request.method, url, content=getattr(request.state, "body", b""), headers=headers
            )
    except httpx.HTTPError:
        return refuse(ProtocolError("moved", "the table's server cannot be reached: try again in a moment"))
    hub.cluster.forwarded += 1
    return Response(answer.content, status_code=answer.status_code, media_type="application/json")


async def body_of(request: Request) -> Any:
    """The request's JSON body (None if empty), within the server's size limit."""
    limit = hub_of(request).config.max_body
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > limit:
            raise ProtocolError("too_large", f"the request body is over {limit:,} bytes")
    request.state.body = data  # kept for forward()
    if not data.strip():
        return None
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_json", "the request body is not JSON") from None


def link(request: Request, table_id: str, token: str | None = None) -> str:
    base = str(request.base_url).rstrip("/")
    return f"{base}/#table={table_id}" + ("" if token is None else f"&token={token}")


async def games(request: Request) -> JSONResponse:
    out = []
    for game in game_ids():
        info = get_game(game).info
        out.append(
            {
                "id": info.id,
                "name": info.name,
                "min_seats": info.min_seats,
                "max_seats": info.max_seats,
                "version": info.version,
                "options": [
                    {
                        "name": o.name,
                        "type": o.type.__name__,
                        "default": o.default,
                        "help": o.help,
                        "choices": o.choices,
                    }
                    for o in info.options
                ],
                "bots": offered_online(get_game(game)),
            }
        )
    timers = [
        {"name": name, "move": p.move, "bank": p.bank, "cap": p.cap} for name, p in TIMER_PRESETS.items()
    ]
    return JSONResponse({"games": out, "timers": timers})


async def catalog(request: Request) -> JSONResponse:
    """A game's public card data (its ``catalog`` part), for clients that draw cards."""
    try:
        cls = get_game(request.path_params["game"])
    except KitiError:
        raise ProtocolError(
            "bad_request", f"there is no game {quoted(request.path_params['game'])}"
        ) from None
    return JSONResponse(
        {"game": cls.info.id, "version": cls.info.version, "catalog": catalog_of(cls.info.id)},
        headers={"Cache-Control": "public, max-age=3600"},
    )


async def schema(request: Request) -> JSONResponse:
    """A game's view and event JSON Schemas, generated from its typed declarations."""
    try:
        info = get_game(request.path_params["game"]).info
    except KitiError:
        raise ProtocolError(
            "bad_request", f"there is no game {quoted(request.path_params['game'])}"
        ) from None
    return JSONResponse(schema_of(info.id), headers={"Cache-Control": "public, max-age=3600"})


@functools.cache
def schema_of(game: str) -> Any:
    info = get_game(game).info
    return game_schema(info.id, info.version, info.view_type, info.event_types)


@functools.cache
def catalog_of(game: str) -> Any:
    """A game's catalog, made once (it depends on no table)."""
    cls = get_game(game)
    return game_part(cls, "catalog")() if has_part(cls, "catalog") else {}


CLIENTS = resources.files("kiti.server") / "static" / "js" / "games"
CLIENT_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")


async def client_module(request: Request) -> Response:
    """A game's web client module (its declared ``client`` part) at the stable URL
    ``/js/games/{id}.js``, where its imports of the shared client (``../dom.js``) resolve."""
    source = client_source(request.path_params["game"])
    if source is None:
        return PlainTextResponse("Not Found", status_code=404)
    return Response(
        source.read_bytes(),
        media_type="text/javascript; charset=utf-8",
        headers={"Cache-Control": "no-cache"},
    )


def client_source(name: str) -> Traversable | None:
    """The file of game ``name``'s client module: the one it declares, else the generic one;
    for a name that is no game, a file of js/games/ (generic.js), if there is one."""
    if name in game_ids():
        cls = get_game(name)
        if has_part(cls, "client"):
            declared: Traversable = game_part(cls, "client")
            return declared
        return CLIENTS / "generic.js"
    file = CLIENTS / f"{name}.js"
    return file if CLIENT_NAME.fullmatch(name) and file.is_file() else None


async def client_file(request: Request) -> Response:
    """A JavaScript file beside a game's declared client module (its card drawer, say), at
    ``/js/games/{id}/{file}.js``; 404 for a game without a client of its own, an unknown
    file, or a name that is not a plain file name (no ``..``, no ``/``)."""
    game, name = request.path_params["game"], request.path_params["file"]
    source = client_neighbour(game, name)
    if source is None:
        return PlainTextResponse(
            f"Not Found: no file {quoted(name + '.js')} beside the client of game {quoted(game)}",
            status_code=404,
        )
    return Response(
        source.read_bytes(),
        media_type="text/javascript; charset=utf-8",
        headers={"Cache-Control": "no-cache"},
    )


def client_neighbour(game: str, name: str) -> Traversable | None:
    """The file ``{name}.js`` in the folder of game ``game``'s declared client module, if the
    game declares one and the file is there (the client module itself is served only at
    ``/js/games/{id}.js``, where its relative imports resolve)."""
    if not CLIENT_NAME.fullmatch(name) or game not in game_ids():
        return None
    return client_neighbour_file(game, f"{name}.js")


def client_neighbour_file(game: str, name: str) -> Traversable | None:
    """The file ``name`` beside game ``game``'s declared client module (not the module
    itself), if the game declares one and the file is there."""
    cls = get_game(game)
    if not has_part(cls, "client"):
        return None
    declared: Traversable = game_part(cls, "client")
    folder = getattr(declared, "parent", None)
    if not isinstance(folder, Traversable):
        return None
    file = folder / name
    return file if file.name != declared.name and file.is_file() else None


async def client_style(request: Request) -> Response:
    """A game's own styles at ``/css/games/{id}.css``: the file ``client.css`` beside its
    declared client module (the page loads it after ``kiti.css`` for a table of that game);
    an empty stylesheet for a game without one, 404 for a name that is no game."""
    game = request.path_params["game"]
    if game not in game_ids():
        return PlainTextResponse(f"Not Found: no game {quoted(game)}", status_code=404)
    source = client_neighbour_file(game, "client.css")
    return Response(
        b"" if source is None else source.read_bytes(),
        media_type="text/css; charset=utf-8",
        headers={"Cache-Control": "no-cache"},
    )


LIST_STATUSES = ("open", "waiting", "playing", "over", "all")
MAX_PAGE = 200  # tables in one page of a list
MAX_IDS = 100  # tables asked for by id in one list


async def list_tables(request: Request) -> JSONResponse:
    """One page of the stored tables, newest first (docs/protocol.md, "The lobby")."""
    status = request.query_params.get("status", "open")
    if status not in LIST_STATUSES:
        raise ProtocolError("bad_request", f"status must be {', '.join(LIST_STATUSES)}, not {quoted(status)}")
    offset, limit = int_param(request, "offset", 0), int_param(request, "limit", 50)
    if offset < 0 or not 1 <= limit <= MAX_PAGE:
        raise ProtocolError("bad_request", f"offset must be 0 or more and limit 1-{MAX_PAGE}")
    ids = ids_param(request)
    tables, more = await hub_of(request).listing(status, offset, limit, ids)
    return JSONResponse(
        {"tables": tables, "offset": offset, "more": more, "next": offset + len(tables) if more else None}
    )


def ids_param(request: Request) -> tuple[str, ...] | None:
    """``ids=a,b,c``: only these tables (a browser's own history), at most MAX_IDS."""
    text = request.query_params.get("ids")
    if text is None:
        return None
    ids = tuple(i for i in text.split(",") if i)
    if len(ids) > MAX_IDS or any(len(i) > 16 for i in ids):
        raise ProtocolError("bad_request", f"ids must list at most {MAX_IDS} table ids, not {quoted(text)}")
    return ids


async def create_table(request: Request) -> JSONResponse:
    table, tokens = await hub_of(request).create(await body_of(request))
    seats = [
        {"seat": seat, "token": token, "link": link(request, table.id, token)}
        for seat, token in sorted(tokens.items())
    ]
    return JSONResponse(
        {"table": table.public(), "seats": seats, "link": link(request, table.id)},
        status_code=201,
    )


async def show_table(request: Request) -> JSONResponse:
    table = await hub_of(request).get(request.path_params["table"])
    return JSONResponse({"table": hub_of(request).public(table.id), "link": link(request, table.id)})


async def join_table(request: Request) -> JSONResponse:
    table, seat, token = await hub_of(request).join(request.path_params["table"], await body_of(request))
    return JSONResponse(
        {
            "table": hub_of(request).public(table.id),
            "seat": seat,
            "token": token,
            "link": link(request, table.id, token),
        }
    )


async def record(request: Request) -> JSONResponse:
    """The record of a finished game (for a step-by-step replay); never before the end."""
    table = await hub_of(request).get(request.path_params["table"])
    async with table.lock:
        must_be_over(table, "the record is published once the game is over")
        out = table.state.record()
    out["lineup"] = [s.kind for s in table.seats]
    return JSONResponse(out)


def must_be_over(table: Table, why: str) -> None:
    if table.row.status != "over":
        raise ProtocolError("not_over", why)


def int_param(request: Request, name: str, default: int) -> int:
    value = request.query_params.get(name)
    if value is None:
        return default
    try:
        return parse_int(value, name)
    except OptionError as exc:
        raise ProtocolError("bad_request", str(exc)) from None


async def replay(request: Request) -> JSONResponse:
    """A finished game, step by step: the whole table after each move (docs/protocol.md)."""
    table = await hub_of(request).get(request.path_params["table"])
    start, count = int_param(request, "from", 0), int_param(request, "count", 20)
    if start < 0 or not 1 <= count <= MAX_FRAMES:
        raise ProtocolError("bad_request", f"from must be 0 or more and count 1-{MAX_FRAMES}")
    async with table.lock:
        must_be_over(table, "a game is replayed once it is over")
        rec = table.state.record()
        names = seat_names(table.public())
    out = await asyncio.to_thread(frames, rec, names, start, count)
    return JSONResponse(out)


async def health(request: Request) -> JSONResponse:
    """The server's figures; in a cluster HTTP 503 while it holds no lease (a proxy's health
    check then sends it nothing)."""
    out = hub_of(request).health()
    return JSONResponse(out, status_code=200 if out["ok"] else 503)


async def websocket(ws: WebSocket) -> None:
    await Session(ws, hub_of(ws)).run()


ROUTES = [
    Route("/api/games", api(games)),
    Route("/api/games/{game}/catalog", api(catalog)),
    Route("/api/games/{game}/schema", api(schema)),
    Route("/api/tables", api(list_tables), methods=["GET"]),
    Route("/api/tables", api(create_table), methods=["POST"]),
    Route("/api/tables/{table}", api(show_table), methods=["GET"]),
    Route("/api/tables/{table}/join", api(join_table), methods=["POST"]),
    Route("/api/tables/{table}/record", api(record), methods=["GET"]),
    Route("/api/tables/{table}/replay", api(replay), methods=["GET"]),
    Route("/api/health", api(health)),
    Route("/js/games/{game}.js", client_module),
    Route("/js/games/{game}/{file}.js", client_file),
    Route("/css/games/{game}.css", client_style),
    WebSocketRoute("/ws", websocket),
]
