"""The layers' one-way dependencies (docs/architecture.md): a game imports only the core
and its own package; the core imports no game and no front end."""

from __future__ import annotations

import ast
from pathlib import Path

KITI = Path(__file__).resolve().parent.parent / "kiti"


def imported(path: Path) -> set[str]:
    """The absolute kiti modules ``path`` imports (relative imports resolved)."""
    package = path.relative_to(KITI.parent).with_suffix("").parts[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("kiti"))
        elif isinstance(node, ast.ImportFrom):
            base = list(package[: len(package) - node.level + 1]) if node.level else []
            module = ".".join([*base, *(node.module.split(".") if node.module else [])])
            if module.startswith("kiti"):
                found.add(module)
    return found


def offenders(folder: str, allowed: tuple[str, ...]) -> dict[str, list[str]]:
    bad = {}
    for path in sorted((KITI / folder).rglob("*.py")):
        own = ".".join(path.relative_to(KITI.parent).parts[:3]) if folder == "games" else "kiti.core"
        wrong = sorted(m for m in imported(path) if not m.startswith((*allowed, own)) and m != "kiti")
        if wrong:
            bad[str(path.relative_to(KITI))] = wrong
    return bad


def test_the_premise_the_import_reader_sees_relative_imports() -> None:
    tensors = imported(KITI / "games" / "miaui" / "tensors.py")
    assert "kiti.core.tensors" in tensors and "kiti.games.miaui.rules" in tensors, tensors


def test_a_game_imports_only_the_core_and_its_own_package() -> None:
    assert offenders("games", ("kiti.core",)) == {}


def test_the_core_imports_no_game_and_no_front_end() -> None:
    assert offenders("core", ("kiti.core",)) == {}
