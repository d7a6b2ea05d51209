"""Driving the ``kiti`` command as a person would: a pseudo-terminal (pexpect) or a pipe.

Every run gets its own Kiti data directory (``KITI_DATA_DIR``), so automatic saves and the
keys of sealed files land in the test's temporary folder.  Every wait is one of ``waits``: an
``expect`` returns as soon as the screen shows what it looks for, fails after ``waits.SCREEN``
seconds, and fails early when the program has sat waiting for input that long (``waits.IDLE``)
without showing it: nothing more would come.
"""

from __future__ import annotations

import os
import platform
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pexpect
import waits

ROOT = Path(__file__).resolve().parents[1]
MOVE = r"[Yy]our move \(\? for help\) > "
CONFIRM = r"Enter to reveal, or undo: "
HOTSEAT_CONFIRM = r"Enter to confirm, or type another move: "
READY = r"press Enter when you are ready"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][0-9A-Za-z]|\x1b[=>]|\r")


def env(data: Path, **extra: str) -> dict[str, str]:
    e = dict(os.environ)
    e.update(
        PYTHONPATH=str(ROOT) + os.pathsep + e.get("PYTHONPATH", ""),
        TERM="dumb",
        NO_COLOR="1",
        COLUMNS="80",
        LINES="24",
        KITI_DATA_DIR=str(data),
    )
    e.pop("KITI_DEBUG", None)
    e.update(extra)
    return e


def data_dir(cwd: Path) -> Path:
    return cwd / "kiti-data"


def spawn(*args: str, cwd: Path, code: str | None = None, **extra: str) -> pexpect.spawn:
    """``kiti play ARGS`` in an 80x24 pseudo-terminal (``code``: Python run first, in-process)."""
    prefix = (
        ["-c", f"{code}\nfrom kiti.cli.main import main\nimport sys\nsys.argv[0] = 'kiti'\nmain()"]
        if code
        else ["-m", "kiti.cli.main"]
    )
    return Terminal(
        sys.executable,
        [*prefix, "play", *args],
        cwd=str(cwd),
        env=env(data_dir(cwd), **extra),
        dimensions=(24, 80),
        encoding="utf-8",
        timeout=waits.SCREEN,
        preexec_fn=default_ctrl_c,
    )


def default_ctrl_c() -> None:
    """In the child before it starts: Ctrl-C does what it does in a person's terminal.  A
    process started while SIGINT is ignored keeps ignoring it, and Python then never raises
    KeyboardInterrupt; some tests' servers leave the pytest worker ignoring it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


# System calls by which a program blocks on its terminal: read(fd, ...), and (p)select(nfds, ...)
# with readline's call: only fd 0 (nfds 1) and no time limit (the fifth argument NULL).
BLOCKING_READS = {
    "x86_64": {0: "read", 23: "select", 270: "pselect6"},
    "aarch64": {63: "read", 72: "pselect6"},
}


def waiting_for_input(pid: int) -> bool:
    """Whether process ``pid`` (one thread) is blocked reading its terminal, with no time limit."""
    try:
        if len(os.listdir(f"/proc/{pid}/task")) != 1:
            return False
        fields = Path(f"/proc/{pid}/syscall").read_text().split()
        call = BLOCKING_READS.get(platform.machine(), {}).get(int(fields[0]))
        args = [int(a, 16) for a in fields[1:6]]
    except (OSError, ValueError, IndexError):  # no /proc, "running", another system
        return False
    if call == "read":
        return args[0] == 0
    return call in ("select", "pselect6") and args[0] == 1 and args[1] != 0 and args[4] == 0


class Terminal(pexpect.spawn):
    """A pseudo-terminal whose ``expect`` also fails once the program has waited for input for
    ``waits.IDLE`` seconds with nothing new on the screen (its prompt is not the one expected)."""

    def expect(
        self,
        pattern: Any,
        timeout: float | None = -1,
        searchwindowsize: int | None = -1,
        async_: bool = False,
        **kw: Any,
    ) -> Any:
        compiled = self.compile_pattern_list(pattern)
        limit = self.timeout if timeout == -1 else timeout
        if async_ or limit is None or pexpect.TIMEOUT in compiled:
            return super().expect(pattern, timeout, searchwindowsize, async_, **kw)
        end = time.monotonic() + limit
        idle_since, seen = None, -1
        while True:
            try:
                step = min(0.5, max(0.0, end - time.monotonic()))
                return self.expect_list(compiled, step, searchwindowsize)
            except pexpect.TIMEOUT as timed_out:
                now, shown = time.monotonic(), len(self._before.getvalue())
                if shown != seen or not waiting_for_input(self.pid):
                    idle_since, seen = None, shown
                elif idle_since is None:
                    idle_since = now
                if now >= end or (idle_since is not None and now - idle_since >= waits.IDLE):
                    waited = "" if now >= end else f"the program has waited {waits.IDLE:.0f} s for input and "
                    raise pexpect.TIMEOUT(
                        f"{waited}the screen did not show {pattern!r}:\n{plain(self.before)[-1500:]}"
                    ) from timed_out


def plain(text: str) -> str:
    return ANSI.sub("", text)


def kiti(*args: str, cwd: Path, stdin: str | None = None, **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kiti.cli.main", *args],
        cwd=str(cwd),
        env=env(data_dir(cwd), **extra),
        capture_output=True,
        text=True,
        timeout=waits.COMMAND,
        input=stdin,
        stdin=None if stdin is not None else subprocess.DEVNULL,
    )


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
