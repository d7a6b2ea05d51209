"""The ASGI application (Starlette) and how ``kiti serve`` runs it (uvicorn)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from importlib import resources

from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

from .config import ServerConfig
from .lobby import Hub
from .routes import ROUTES


def create_app(config: ServerConfig | None = None) -> Starlette:
    """The server: the lobby API, the WebSocket at /ws, and the static client at /."""
    config = config or ServerConfig()
    hub = Hub(config)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await hub.start()
        try:
            yield
        finally:
            await hub.close()

    static = str(resources.files("kiti.server") / "static")
    app = Starlette(routes=[*ROUTES, Mount("/", StaticFiles(directory=static, html=True))],
                    lifespan=lifespan)
    app.state.hub = hub
    return app


def serve(config: ServerConfig, host: str = "127.0.0.1", port: int = 8000, log_level: str = "info") -> None:
    """Run the server until interrupted."""
    import uvicorn

    uvicorn.run(create_app(config), host=host, port=port, log_level=log_level,
                ws_max_size=config.hard_frame, ws_ping_interval=20.0, ws_ping_timeout=20.0,
                ws_per_message_deflate=False,  # small JSON frames: compressing costs more than it saves
                lifespan="on")
