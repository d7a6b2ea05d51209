"""Sealed records: a game record kept unreadable to the people playing it.

A record is the referee's file (the seed gives the whole deck; committed secret moves are
in it), so a game saved while several people share one screen must not let them read it.
A *sealed* file holds the whole record encrypted, and in clear only what every seat has
seen (the ``public`` part the caller passes: game, players, options, seat lineup, public
progress).  The key is never in the file: it lives in a :class:`KeyStore` (a folder of the
user's data directory, chosen by the front end) under a random key id that the file names.

The cipher uses the standard library only: a keystream of HMAC-SHA256 blocks in counter
mode (keyed with a key derived from the 32-byte secret, over a random nonce and the block
number) is XORed with the record's JSON, then HMAC-SHA256 (a second derived key) authenticates
the clear part, the nonce and the ciphertext together (encrypt-then-MAC).  A changed byte
anywhere, or the wrong key, is refused before anything is decrypted.

This protects against reading the save file, casually or not.  It does not protect against
someone who can read the key folder with the same machine account: see docs/records.md.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import re
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .errors import RecordError

FORMAT = "kiti sealed record 1"
KEY_BYTES = 32
NONCE_BYTES = 16
_KEY_ID = re.compile(r"[0-9a-f]{32}")
_BLOCK = hashlib.sha256().digest_size


def is_sealed(document: Any) -> bool:
    """Whether a decoded file is a sealed record (rather than a plain one)."""
    return isinstance(document, Mapping) and document.get("sealed") == FORMAT


def new_key() -> tuple[str, bytes]:
    """A fresh (key id, 32-byte key)."""
    return secrets.token_hex(16), secrets.token_bytes(KEY_BYTES)


def _derive(key: bytes, purpose: bytes) -> bytes:
    return hmac.new(key, b"kiti sealed record: " + purpose, hashlib.sha256).digest()


def _keystream_xor(key: bytes, nonce: bytes, data: bytes) -> bytes:
    """``data`` XOR the keystream HMAC(key, nonce || counter) for counter 0, 1, 2, ..."""
    blocks = (len(data) + _BLOCK - 1) // _BLOCK
    stream = b"".join(
        hmac.new(key, nonce + i.to_bytes(8, "big"), hashlib.sha256).digest() for i in range(blocks)
    )[: len(data)]
    return (int.from_bytes(data, "big") ^ int.from_bytes(stream, "big")).to_bytes(len(data), "big")


def _clear_bytes(clear: Mapping[str, Any]) -> bytes:
    return json.dumps(clear, sort_keys=True, separators=(",", ":")).encode("utf-8")


def _tag(key: bytes, clear: Mapping[str, Any], nonce: bytes, ciphertext: bytes) -> str:
    mac = hmac.new(_derive(key, b"mac"), _clear_bytes(clear), hashlib.sha256)
    mac.update(len(nonce).to_bytes(4, "big") + nonce + ciphertext)
    return mac.hexdigest()


def seal(
    record: Mapping[str, Any], public: Mapping[str, Any], key_id: str, key: bytes, note: str
) -> dict[str, Any]:
    """A sealed document: ``note`` and ``public`` in clear, ``record`` encrypted under ``key``."""
    clear = {"sealed": FORMAT, "note": note, **public, "key_id": key_id}
    nonce = secrets.token_bytes(NONCE_BYTES)
    plain = json.dumps(record, separators=(",", ":")).encode("utf-8")
    ciphertext = _keystream_xor(_derive(key, b"encrypt"), nonce, plain)
    return {
        **clear,
        "nonce": nonce.hex(),
        "ciphertext": base64.b64encode(ciphertext).decode("ascii"),
        "tag": _tag(key, clear, nonce, ciphertext),
    }


def key_id_of(document: Mapping[str, Any]) -> str:
    """The key id a sealed document names (RecordError if it is not a well-formed id)."""
    key_id = document.get("key_id")
    if not isinstance(key_id, str) or not _KEY_ID.fullmatch(key_id):
        raise RecordError("the sealed file names no valid key id")
    return key_id


def unseal(document: Mapping[str, Any], key: bytes) -> dict[str, Any]:
    """The record inside a sealed document; RecordError if it was changed or the key is wrong."""
    clear = {k: v for k, v in document.items() if k not in ("nonce", "ciphertext", "tag")}
    try:
        nonce = bytes.fromhex(document["nonce"])
        ciphertext = base64.b64decode(document["ciphertext"], validate=True)
        tag = str(document["tag"])
    except (KeyError, TypeError, ValueError):
        raise RecordError("the sealed file is damaged (its nonce, ciphertext or tag is unreadable)") from None
    if not hmac.compare_digest(_tag(key, clear, nonce, ciphertext), tag):
        raise RecordError(
            "the sealed file does not match its key: it was changed, or the key is "
            "not the one it was sealed with"
        )
    plain = _keystream_xor(_derive(key, b"encrypt"), nonce, ciphertext)
    record = json.loads(plain.decode("utf-8"))
    if not isinstance(record, dict):
        raise RecordError("the sealed file does not hold a record")
    return record


class KeyStore:
    """Keys of sealed files, one file per key id in ``folder`` (created private: 0700/0600)."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)

    def path(self, key_id: str) -> Path:
        if not _KEY_ID.fullmatch(key_id):
            raise RecordError(f"not a key id: {key_id[:40]!r}")
        return self.folder / key_id

    def create(self) -> tuple[str, bytes]:
        """A new key, written to the store; OSError if the folder cannot be written."""
        key_id, key = new_key()
        self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(self.path(key_id), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as file:
            file.write(key)
        return key_id, key

    def get(self, key_id: str) -> bytes:
        """The key ``key_id``; RecordError saying so if this machine does not hold it."""
        path = self.path(key_id)
        try:
            key = path.read_bytes()
        except FileNotFoundError:
            raise RecordError(
                f"this file is sealed and its key is not on this machine (looked for "
                f"{path}): only the machine and account that saved it can open it"
            ) from None
        except OSError as exc:
            raise RecordError(f"cannot read the key of this sealed file ({path}): {exc.strerror}") from None
        if len(key) != KEY_BYTES:
            raise RecordError(f"the key file {path} is damaged ({len(key)} bytes, not {KEY_BYTES})")
        return key
