"""The tests' own waits: one setting scales them, a terminal wait fails early only when the
program waits for input, Hypothesis has no deadline, and .ci/run fails when any step fails."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pexpect
import pytest
import waits
from hypothesis import settings
from play_helpers import Terminal

ROOT = Path(__file__).resolve().parents[1]


def test_one_setting_scales_every_wait_and_a_bad_one_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    assert waits.scale("") == 1.0 and waits.scale("2.5") == 2.5
    monkeypatch.setenv(waits.SETTING, "3")
    assert waits.seconds(20) == 60
    for bad in ("fast", "0", "-1", "nan", "x" * 500):
        with pytest.raises(ValueError, match=waits.SETTING) as error:
            waits.scale(bad)
        assert len(str(error.value)) < 200  # the bad value is quoted, cut short
    env = dict(os.environ, KITI_TEST_TIMEOUT_SCALE="fast")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", "tests/test_sealing.py"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=waits.COMMAND,
    )
    assert run.returncode != 0 and "KITI_TEST_TIMEOUT_SCALE must be a number above 0" in run.stderr
    assert "Traceback" not in run.stdout + run.stderr


def test_waits_are_generous_and_hypothesis_has_no_deadline() -> None:
    if waits.scale() >= 1:
        assert waits.SCREEN >= 60 and waits.PAGE >= 60 and waits.MESSAGE >= 60
    assert settings.default.deadline is None


def python_in_terminal(code: str) -> Terminal:
    return Terminal(sys.executable, ["-c", code], encoding="utf-8", timeout=waits.SCREEN)


def test_a_terminal_wait_fails_early_when_the_program_waits_for_other_input(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(waits, "IDLE", 1.0)
    child = python_in_terminal("input('Another prompt > ')")
    child.expect("Another prompt")  # the premise: it shows its prompt and waits
    start = time.monotonic()
    with pytest.raises(pexpect.TIMEOUT, match="waited 1 s for input") as error:
        child.expect("Your move")
    assert time.monotonic() - start < waits.SCREEN / 2
    assert "did not show 'Your move'" in str(error.value)
    child.terminate(force=True)


def test_a_busy_or_slow_program_is_waited_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(waits, "IDLE", 1.0)
    # Busy past IDLE (sleeping, then computing) before it prints: not waiting for input.
    child = python_in_terminal("import time; time.sleep(2.5); sum(range(10**6)); print('at last'); input()")
    child.expect("at last")
    child.sendline("")
    child.expect(pexpect.EOF)
    # Typed ahead: the answer is on its way, the program reads it and goes on.
    child = python_in_terminal("import time; time.sleep(1); input('ok? '); time.sleep(2); print('done')")
    child.sendline("y")
    child.expect("done")
    child.expect(pexpect.EOF)


def fake_tools(folder: Path, fail: str) -> dict[str, str]:
    """A PATH where python3, npm and npx only log their arguments (failing for the step whose
    command line holds ``fail``), and where initdb and chromium exist, so that .ci/run
    installs nothing."""
    folder.mkdir()
    for tool in ("python3", "npm", "npx"):
        (folder / tool).write_text(
            f'#!/bin/sh\necho "{tool} $*" >> "{folder}/calls"\n'
            f'case "{tool} $*" in *"{fail}"*) exit 3;; esac\nexit 0\n'
        )
    for name in ("initdb", "chromium"):
        (folder / name).write_text("#!/bin/sh\nexit 0\n")
    for tool in folder.iterdir():
        tool.chmod(0o755)
    return dict(os.environ, PATH=f"{folder}:/usr/bin:/bin")


STEPS = [
    "python3 -m ruff check .",
    "python3 -m ruff format --check .",
    "python3 -m mypy",
    "npm ci --no-audit --no-fund",
    "npx --no-install eslint",
]


@pytest.mark.parametrize(
    "fail", ["nothing", "pip install", "pytest", "ruff check", "ruff format", "mypy", "eslint"]
)
def test_ci_runs_the_readme_command_and_fails_when_any_step_fails(tmp_path: Path, fail: str) -> None:
    command = "python3 -m pip install -e '.[test]' && python3 -m pytest"
    assert command in (ROOT / "README.md").read_text()
    assert command in (ROOT / ".ci" / "run").read_text()
    env = fake_tools(tmp_path / "bin", fail)
    run = subprocess.run(
        ["bash", str(ROOT / ".ci" / "run")], env=env, capture_output=True, text=True, timeout=waits.COMMAND
    )
    calls = (tmp_path / "bin" / "calls").read_text().splitlines()
    assert calls[0] == "python3 -m pip install -e .[test]"
    assert calls[-len(STEPS) :] == STEPS, (
        calls
    )  # lint, format, strict types and the JS linter: every one runs
    assert ("python3 -m pytest" in calls) == (fail != "pip install")  # no tests without their packages
    assert (run.returncode == 0) == (fail == "nothing"), run.stderr
