"""The ``kiti`` command: play, replay, rules, cards, bench, tournament, serve.

Each sub-command lives in its own module and registers itself on the shared
typer ``app`` (kiti/cli/app.py); this module only gathers them.
"""

from __future__ import annotations

# Registration order is the order `kiti --help` lists the commands in.
# isort: off
from . import play  # noqa: F401  (play)
from . import replay  # noqa: F401  (replay)
from . import commands  # noqa: F401  (rules, cards, bench)
from . import tournament  # noqa: F401  (tournament)
from . import balance  # noqa: F401  (balance)
from . import serve  # noqa: F401  (serve)
from . import train  # noqa: F401  (train)

# isort: on
from .app import app


def main() -> None:
    """Entry point of the ``kiti`` console script."""
    app(prog_name="kiti")


if __name__ == "__main__":
    main()
