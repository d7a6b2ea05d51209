"""A real ``kiti serve`` of this checkout in a subprocess, for the tests that need one (the
browser tests, the kill -9 restart test), and a free loopback port."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import waits

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServeProcess:
    """``kiti serve --port P ARGS`` writing to ``log`` (appended: a restart keeps the story);
    ready once ``/api/health`` answers (within ``timeout`` seconds, ``waits.START`` by default)."""

    def __init__(self, args: list[str], log: Path, timeout: float = waits.START) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = log
        self.log = log.open("ab")
        env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "kiti.cli.main", "serve", "--port", str(self.port), *args],
            env=env,
            cwd=ROOT,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        end = time.monotonic() + timeout
        while True:
            try:
                urllib.request.urlopen(self.base + "/api/health", timeout=waits.seconds(2))
                return
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > end:
                    self.stop()
                    pytest.fail("kiti serve did not start:\n" + log.read_text(errors="replace")[-4000:])
                time.sleep(0.1)

    def kill9(self) -> None:
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(waits.seconds(30))

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(waits.seconds(30))
            except subprocess.TimeoutExpired:
                self.kill9()
        self.log.close()
