"""A header label wrapped after a compound's hyphen (`Non-` / `Forcible`) reads as the word it
is printed as (`Non-Forcible`, rowkeeper/label_text.py `clean_text`); a word hyphenated at a line
end before lower case, and a dash set apart, keep the reading they had."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from rowkeeper.label_text import clean_text
from tests.extractors.finder.layout import new_page, put
from tests.transforms.pdf_docs import tables_of

LABELS = (("Campus", ""), ("Forcible", "Offense"), ("Non-", "Forcible"), ("Anglo-", "Saxon sites"))


def _page(path: Path) -> Path:
    """A stub and three figure columns under labels on two lines, rules over and under them."""
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 60, 70, "Table 2. Offenses reported on campus", 11, "bold")
    xs = (60.0, 200.0, 290.0, 380.0)
    for y in (80, 110, 200):
        page.draw_line((55, y), (470, y), width=0.5)
    for x, (top, bottom) in zip(xs, LABELS, strict=True):
        put(page, x, 92, top, 9)
        put(page, x, 104, bottom, 9)
    for i, campus in enumerate(("North", "South", "East", "West", "Central", "Harbour")):
        y = 124 + 12 * i
        put(page, xs[0], y, campus, 9)
        for k, x in enumerate(xs[1:]):
            put(page, x, y, str(3 + 5 * i + 2 * k), 9)
    doc.save(path)
    return path


def test_a_label_wrapped_after_a_compounds_hyphen_reads_as_one_word(tmp_path: Path) -> None:
    (t,) = tables_of(_page(tmp_path / "t.pdf"))
    assert t.columns == ("Campus", "Forcible Offense", "Non-Forcible", "Anglo-Saxon sites")
    assert len(t.rows) == 6


def test_hyphenation_before_lower_case_and_a_dash_keep_their_reading() -> None:
    assert clean_text("intra-\ninterviewer") == "intra- interviewer"
    assert clean_text("Cost -\nTotal") == "Cost - Total"
