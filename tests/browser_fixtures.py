"""The fixtures every browser test module shares: one ``kiti serve`` and one Chromium per
module, and a check that a test's pages raised no JavaScript error.

A module uses them by naming this plugin::

    pytest_plugins = ("browser_fixtures",)
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from browser_kit import ARTIFACTS, Browser, Server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("serve"))
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    b = Browser()
    print(f"\nscreenshots: {ARTIFACTS}")
    yield b
    b.close()


@pytest.fixture
def errors(browser: Browser) -> Iterator[list[str]]:
    """The test fails on any JavaScript error in its pages."""
    browser.errors.clear()
    yield browser.errors
    assert not browser.errors, "JavaScript errors:\n" + "\n".join(browser.errors)
