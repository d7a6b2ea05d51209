"""Every test keeps Kiti's data folder (automatic saves, keys of sealed files) in a
temporary directory, never in the user's own.

The suite holds on a slow or busy machine: every wait is one of ``waits`` (scaled by
``KITI_TEST_TIMEOUT_SCALE``, checked here), and Hypothesis has no deadline per example (the
``kiti`` profile: a loaded machine makes examples slow, not wrong)."""

from __future__ import annotations

import pytest
import waits
from hypothesis import HealthCheck, settings

settings.register_profile("kiti", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("kiti")


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto`` (pyproject's addopts): one worker per core, but none for a command naming one
    test file, whose tests would all run on one worker anyway (``--dist loadfile``)."""
    files = {arg.split("::")[0] for arg in config.args}
    if len(files) == 1 and files.pop().endswith(".py"):
        return 0
    return None  # pytest-xdist counts the cores


def pytest_configure(config: pytest.Config) -> None:
    try:
        waits.scale()
    except ValueError as bad:
        raise pytest.UsageError(str(bad)) from None


@pytest.fixture(autouse=True)
def _kiti_data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KITI_DATA_DIR", str(tmp_path_factory.mktemp("kiti-data")))
