"""The reinforcement-learning examples that no other test runs, as a reader copies them: the
README's "For researchers" example, and docs/rl.md's tensors, parallel-env and OpenSpiel
examples (the AEC and Gymnasium example runs in tests/test_rl_gym.py, the vector env's in
tests/test_rl_vector.py).  Each plays whole games to their end."""

from __future__ import annotations

import io
import re
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numpy", reason="kiti.rl needs the [rl] extra (pip install -e '.[rl]')")
pytest.importorskip("pettingzoo", reason="kiti.rl.pettingzoo needs the [rl] extra (pip install -e '.[rl]')")

ROOT = Path(__file__).resolve().parent.parent


def _section(path: str, heading: str) -> str:
    """The text under ``heading`` (a whole line) up to the next heading of that level or above."""
    text = (ROOT / path).read_text(encoding="utf-8")
    assert f"\n{heading}\n" in text, f"{path} has no section {heading!r}"
    level = len(heading.split(" ", 1)[0])
    lines, in_code = text.split(f"\n{heading}\n", 1)[1].splitlines(), False
    for n, line in enumerate(lines):
        in_code ^= line.startswith("```")
        hashes = len(line) - len(line.lstrip("#"))
        if not in_code and 0 < hashes <= level and line[hashes : hashes + 1] == " ":
            return "\n".join(lines[:n])
    return "\n".join(lines)


def _example(path: str, heading: str, must_hold: str) -> str:
    """The first python example of a section that holds ``must_hold``."""
    blocks = re.findall(r"```python\n(.*?)```", _section(path, heading), re.S)
    code = next((b for b in blocks if must_hold in b), None)
    assert code is not None, f"{path}, {heading!r}: no python example with {must_hold!r}"
    return code


def _run(path: str, heading: str, must_hold: str) -> tuple[dict[str, Any], str]:
    """Run that example: its names and what it printed."""
    code = _example(path, heading, must_hold)
    names: dict[str, Any] = {"__name__": "__main__"}
    out = io.StringIO()
    with redirect_stdout(out):
        exec(compile(code, path, "exec"), names)
    return names, out.getvalue()


def test_the_readme_example_plays_a_game_to_its_end() -> None:
    names, out = _run("README.md", "## For researchers", "kiti.rl")
    code = _example("README.md", "## For researchers", "kiti.rl")
    assert len([line for line in code.splitlines() if line.strip()]) <= 10, "the example should stay short"
    state = names["env"].state
    assert state.over and state.history, "the example stops before the end of the game"
    assert out.strip() == repr(state.result())


def test_the_tensors_example_prints_the_layout() -> None:
    names, out = _run("docs/rl.md", "## Tensors", "encoder_for")
    layout = names["encoder"].observation_layout
    assert out.strip() == layout.describe()
    assert names["info"].shape == names["encoder"].info_state_layout.shape


def test_the_parallel_example_plays_a_game_to_its_end() -> None:
    names, out = _run("docs/rl.md", "### The parallel env", "parallel_env")
    env = names["env"]
    assert not env.agents and env.state.over, "the example stops before the end of the game"
    assert sum(names["rewards"].values()) == pytest.approx(1.0)
    assert out.strip() == repr(names["rewards"])


def test_the_openspiel_example_plays_a_game_to_its_end() -> None:
    pytest.importorskip("pyspiel", reason="kiti.rl.openspiel needs open-spiel (the [rl] extra)")
    names, out = _run("docs/rl.md", "## OpenSpiel", "pyspiel")
    state = names["state"]
    assert state.is_terminal()
    returns = state.returns()
    assert sorted(returns) == [0.0, 0.0, 1.0, 1.0] or sorted(returns) == [0.5] * 4, returns
    assert out.strip() == repr(returns)
