"""A throw-away PostgreSQL server for tests: initdb and pg_ctl in a temporary folder, the
unix socket there too (no TCP), trust authentication.  Skips with a clear reason when the
binaries are missing (.ci/run installs Debian's postgresql so that CI never skips)."""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import waits
from serve_kit import free_port


def bindir() -> Path | None:
    """Where initdb and pg_ctl are: on PATH, or Debian's /usr/lib/postgresql/<v>/bin."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if os.access(f"{folder}/initdb", os.X_OK) and os.access(f"{folder}/pg_ctl", os.X_OK):
            return Path(folder)
    return None


def as_user(folder: Path) -> list[str]:
    """PostgreSQL refuses to run as root: as root, run it as the postgres user (or nobody)."""
    if os.geteuid() != 0:
        return []
    for name in ("postgres", "nobody"):
        try:
            user = pwd.getpwnam(name)
        except KeyError:
            continue
        os.chown(folder, user.pw_uid, user.pw_gid)
        return ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--clear-groups", "--"]
    pytest.skip("running as root and there is no postgres or nobody user to run PostgreSQL as")


@contextlib.contextmanager
def postgres_server() -> Iterator[str]:
    """Start PostgreSQL; yield its URL; stop it and delete everything."""
    bins = bindir()
    if bins is None:
        pytest.skip("PostgreSQL binaries (initdb, pg_ctl) are not installed: apt-get install -y postgresql")
    folder = Path(tempfile.mkdtemp(prefix="kiti-pg-"))
    os.chmod(folder, 0o755)
    sudo = as_user(folder)
    data, port = folder / "data", free_port()
    try:
        subprocess.run(
            [
                *sudo,
                str(bins / "initdb"),
                "-D",
                str(data),
                "-U",
                "kiti",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
            ],
            check=True,
            capture_output=True,
        )
        subprocess.run(
            [
                *sudo,
                str(bins / "pg_ctl"),
                "-D",
                str(data),
                "-l",
                str(folder / "log"),
                "-w",
                "-t",
                str(round(waits.START)),
                "-o",
                f"-p {port} -k {folder} -c listen_addresses='' -c fsync=off",
                "start",
            ],
            check=True,
            capture_output=True,
        )
        try:
            yield f"postgresql://kiti@/postgres?host={folder}&port={port}"
        finally:
            subprocess.run(
                [
                    *sudo,
                    str(bins / "pg_ctl"),
                    "-D",
                    str(data),
                    "-m",
                    "immediate",
                    "-w",
                    "-t",
                    str(round(waits.START)),
                    "stop",
                ],
                capture_output=True,
            )
    finally:
        shutil.rmtree(folder, ignore_errors=True)
