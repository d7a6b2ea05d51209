"""Driving the ``kiti`` command as a person would: a pseudo-terminal (pexpect) or a pipe.

Every run gets its own Kiti data directory (``KITI_DATA_DIR``), so automatic saves and the
keys of sealed files land in the test's temporary folder.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pexpect

ROOT = Path(__file__).resolve().parents[1]
MOVE = r"[Yy]our move \(\? for help\) > "
CONFIRM = r"Enter to reveal, or undo: "
HOTSEAT_CONFIRM = r"Enter to confirm, or type another move: "
READY = r"press Enter when you are ready"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][0-9A-Za-z]|\x1b[=>]|\r")


def env(data: Path, **extra: str) -> dict[str, str]:
    e = dict(os.environ)
    e.update(PYTHONPATH=str(ROOT) + os.pathsep + e.get("PYTHONPATH", ""), TERM="dumb",
             NO_COLOR="1", COLUMNS="80", LINES="24", KITI_DATA_DIR=str(data))
    e.pop("KITI_DEBUG", None)
    e.update(extra)
    return e


def data_dir(cwd: Path) -> Path:
    return cwd / "kiti-data"


def spawn(*args: str, cwd: Path, code: str | None = None, **extra: str) -> pexpect.spawn:
    """``kiti play ARGS`` in an 80x24 pseudo-terminal (``code``: Python run first, in-process)."""
    prefix = ["-c", f"{code}\nfrom kiti.cli.main import main\nimport sys\nsys.argv[0] = 'kiti'\nmain()"] \
        if code else ["-m", "kiti.cli.main"]
    return pexpect.spawn(sys.executable, [*prefix, "play", *args], cwd=str(cwd),
                         env=env(data_dir(cwd), **extra), dimensions=(24, 80), encoding="utf-8",
                         timeout=20)


def plain(text: str) -> str:
    return ANSI.sub("", text)


def kiti(*args: str, cwd: Path, stdin: str | None = None, **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kiti.cli.main", *args], cwd=str(cwd),
                          env=env(data_dir(cwd), **extra), capture_output=True, text=True, timeout=120,
                          input=stdin, stdin=None if stdin is not None else subprocess.DEVNULL)


def dive_and_reveal(child: pexpect.spawn, entry: str) -> str:
    """At the move prompt: type ``entry``, then press Enter at the reveal prompt.

    Returns what the screen showed before the move prompt."""
    child.expect(MOVE)
    screen = child.before
    child.sendline(entry)
    child.expect(CONFIRM)
    child.sendline("")
    return screen


def finish(child: pexpect.spawn) -> int:
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus if child.exitstatus is not None else -(child.signalstatus or 0)


def saved_games(cwd: Path) -> list[Path]:
    folder = data_dir(cwd) / "games"
    return sorted(folder.glob("*.json")) if folder.exists() else []
