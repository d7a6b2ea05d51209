"""Folders a command is about to write into, checked before any work is done."""

from __future__ import annotations

import tempfile
from pathlib import Path

from .errors import quoted


def folder_problem(folder: str | Path) -> str | None:
    """Why ``folder`` could not be made or written into, in a user's words, or None where it
    can: the nearest part of it that exists must be a folder one may write in (a file is made
    there and removed at once: nothing is left behind).  A name the system refuses (too long)
    or a folder that may not be looked into is said with the system's own words."""
    try:
        probe = Path(folder)
        while not probe.exists():
            probe = probe.parent
        if not probe.is_dir():
            return f"{quoted(str(probe))} is a file, not a folder"
        with tempfile.TemporaryFile(dir=probe):
            pass
    except OSError as exc:
        return str(exc.strerror or exc)
    return None
