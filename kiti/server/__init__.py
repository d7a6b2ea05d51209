"""The online server (``kiti serve``, extra ``[server]``): tables for every registered game.

Modules, by what they do:

- ``app``: the Starlette application and how uvicorn runs it; ``routes``: the lobby's HTTP
  API and the WebSocket endpoint;
- ``protocol``: client messages checked, error codes; ``messages``: every message sent,
  built from the viewer's own sight;
- ``sessions``: one WebSocket connection; ``ratelimit``: its token bucket;
- ``lobby``: the hub of live tables; ``newtable``: lobby requests checked; ``tables``: a
  live table (moves, undo, seats, broadcast); ``clock``: its turn timer; ``botplay``: its
  bots; ``botpool``: the worker pool bots think in; ``tokens``: seat tokens;
- ``store``: the database (SQLAlchemy, group commits); ``queries``: what is stored and the
  operations on it; ``models``: the schema's tables; ``migrations``: the schema (Alembic).

The load test (concurrent tables over real WebSockets against a running server) is a
development tool outside the package: tools/loadtest.py.

The protocol is documented in docs/protocol.md.
"""
