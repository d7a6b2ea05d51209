"""Every test keeps Kiti's data folder (automatic saves, keys of sealed files) in a
temporary directory, never in the user's own."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _kiti_data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KITI_DATA_DIR", str(tmp_path_factory.mktemp("kiti-data")))
