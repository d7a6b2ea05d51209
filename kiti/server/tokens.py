"""Seat tokens: unguessable, handed out once, stored only as hashes."""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token() -> str:
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """SHA-256 of the token (tokens are random, so no slow hash is needed)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def matches(token: str, stored: str | None) -> bool:
    return stored is not None and hmac.compare_digest(token_hash(token), stored)


def new_table_id() -> str:
    return secrets.token_urlsafe(6)
