"""Sealing a record: encrypt-then-MAC with the standard library, keys kept apart."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kiti.core.errors import RecordError
from kiti.core.sealed import KeyStore, is_sealed, seal, unseal

RECORD = {"game": "miaui", "players": 3, "seed": 12345, "moves": [[0, "dive 7"]]}


def test_seal_round_trip_and_tampering(tmp_path: Path) -> None:
    store = KeyStore(tmp_path / "keys")
    key_id, key = store.create()
    assert (tmp_path / "keys" / key_id).stat().st_mode & 0o077 == 0  # private to its owner
    doc = seal(RECORD, {"game": "miaui", "players": 3}, key_id, key, "sealed")
    text = json.dumps(doc)
    assert is_sealed(doc) and "12345" not in text and "dive 7" not in text
    assert unseal(doc, store.get(key_id)) == RECORD
    for change in (
        {"players": 4},
        {"ciphertext": doc["ciphertext"][:-4] + "AAAA"},
        {"nonce": "00" * 16},
        {"tag": "0" * 64},
    ):
        with pytest.raises(RecordError):
            unseal({**doc, **change}, key)
    with pytest.raises(RecordError, match="not the one it was sealed with"):
        unseal(doc, bytes(32))
    with pytest.raises(RecordError, match="key is not on this machine"):
        KeyStore(tmp_path / "elsewhere").get(key_id)
    with pytest.raises(RecordError):
        store.path("../../etc/passwd")
