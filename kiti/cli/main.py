"""The ``kiti`` command: play, replay, rules, bench, tournament.

Each sub-command lives in its own module and registers itself on the shared
typer ``app`` (kiti/cli/app.py); this module only gathers them.
"""

from __future__ import annotations

from . import commands  # noqa: F401  (replay, rules, bench)
from .app import app

try:
    from . import play  # noqa: F401  (play)
except ImportError:  # pragma: no cover - while the module is being written
    pass
try:
    from . import tournament  # noqa: F401  (tournament)
except ImportError:  # pragma: no cover - while the module is being written
    pass


def main() -> None:
    """Entry point of the ``kiti`` console script."""
    app(prog_name="kiti")


if __name__ == "__main__":
    main()
