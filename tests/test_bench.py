"""`kiti bench`: the figures it reports, and the reference it names."""

from __future__ import annotations

import json
from importlib.metadata import PackageNotFoundError, version

from typer.testing import CliRunner

from kiti.cli.main import app


def _installed_open_spiel() -> str | None:
    """The open-spiel version the bench can measure against (None if pyspiel won't import)."""
    try:
        import pyspiel  # noqa: F401

        return version("open_spiel")
    except (ImportError, PackageNotFoundError):
        return None


def test_bench_json_names_the_reference_and_its_version() -> None:
    out = CliRunner().invoke(app, ["bench", "miaui", "--json", "--seconds", "0.02"])
    assert out.exit_code == 0, out.output
    rows = json.loads(out.output)
    assert [r["players"] for r in rows] == [3, 4, 6]  # smallest, 4, largest
    assert all(r["games_per_s"] > 0 and r["actions_games_per_s"] > 0 for r in rows)
    assert rows[1]["ismcts_iterations_per_s"] > 0  # the middle row holds ISMCTS
    expected = _installed_open_spiel()
    for r in rows:
        # A ratio means nothing without the reference's version (1.5 is ~1.5x slower than 2.0).
        assert r["reference_version"] == expected
        if expected is None:
            assert r["ratio"] is None and r["reference_games_per_s"] is None
        else:
            assert abs(r["ratio"] - r["games_per_s"] / r["reference_games_per_s"]) < 0.01


def test_bench_table_says_which_open_spiel_it_measured() -> None:
    out = CliRunner().invoke(app, ["bench", "miaui", "--seconds", "0.02"])
    assert out.exit_code == 0, out.output
    expected = _installed_open_spiel()
    if expected is None:
        assert "pip install 'kiti[bench]'" in out.output
    else:
        assert f"open-spiel {expected}" in out.output
