"""Issue 16, MOTU item 5: the texts say what the rules do. ``kiti rules motu`` gives the volcanic
ruler's bands and the real number of turns (checked against the rules module, so the two cannot
drift); ``kiti cards motu D06`` says which coconuts count; the ``sources`` docstring says what
``zero_is_most`` does by default."""

from __future__ import annotations

import re

from motu_helpers import game
from typer.testing import CliRunner

from kiti.cli.main import app
from kiti.games.motu import sources
from kiti.games.motu.cards import DESTINIES, RULER_BANDS, TRAVELERS
from kiti.games.motu.rules import OPTIONS, SOLO_PILE_SIZES, placements_per_seat
from kiti.games.motu.sources import most

RUN = CliRunner()


def rules_text() -> str:
    out = RUN.invoke(app, ["rules", "motu"])
    assert out.exit_code == 0, out.output
    return " ".join(out.output.split())


def test_kiti_rules_gives_the_ruler_bands_of_the_rules_module() -> None:
    text = rules_text()
    found = re.search(r"from your village star: up to ((?:[\d.]+ -> \d+(?: points)?, )+)farther (\d+)", text)
    assert found, text
    bands = [(float(d), int(p)) for d, p in re.findall(r"([\d.]+) -> (\d+)", found.group(1))]
    assert bands == list(RULER_BANDS)
    assert int(found.group(2)) == 0
    assert "0-5" not in text


def test_kiti_rules_gives_the_real_number_of_turns() -> None:
    text = rules_text()
    found = re.search(r"(\d+) turns \(solo: (\d+) turns, or (\d+) with solo_piles=short\)", text)
    assert found, text
    several, solo, short = (int(g) for g in found.groups())
    assert {placements_per_seat(n) for n in range(2, 7)} == {several}
    assert placements_per_seat(1, "printed") == solo and placements_per_seat(1, "short") == short
    assert set(SOLO_PILE_SIZES) == {"printed", "short"}
    assert "nine turns" not in text


def test_kiti_cards_d06_says_which_coconuts_count() -> None:
    assert DESTINIES["D06"].components == ("coconut",)  # premise: D06 is the coconut Destiny
    out = RUN.invoke(app, ["cards", "motu", "D06"])
    text = " ".join(out.output.split())
    assert out.exit_code == 0 and "Traveler" in text and "banked" in text, text
    # and the rules do count a played Traveler's coconuts for a Destiny
    rich = next(t for t, v in TRAVELERS.items() if v.coconuts > 0)
    s = game(2, travelers=[rich, next(t for t in TRAVELERS if t != rich)], destinies=["D06", "D01", "D02"])
    s.played[0] = True
    assert s.component_counts(["coconut"])["coconut"][0] == s.banks[0] + TRAVELERS[rich].coconuts


def test_the_sources_docstring_says_what_zero_is_most_does_by_default() -> None:
    default = next(o.default for o in OPTIONS if o.name == "zero_is_most")
    assert default is True and most([0, 0], default) == {0, 1} and most([0, 0], False) == set()
    doc = " ".join((sources.__doc__ or "").split())
    assert "zero_is_most" in doc and "true, the default, and all tie for the most" in doc, doc
    assert "a count of 0 never wins" not in doc
    assert "Traveler" in doc and "coconuts" in doc
