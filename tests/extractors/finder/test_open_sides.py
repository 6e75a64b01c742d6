"""Ruled tables whose frame is open at the sides (finder/ruled_repairs._open_sides): the row rules
run on past the outer column rules, and the label column and the last column stand there."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tests.extractors.finder.layout import new_page, put
from tests.transforms.pdf_docs import tables_of

HEADER = ("", "2001", "2002", "2003", "2004", "2005")
ROWS = [("On labour market training", "29 300", "25 800", "33 300", "33 500", "33 000"),
        ("In liberal adult education", "12 100", "12 600", "13 050", "13 200", "13 900")]
LEFT, FIRST, STEP, RIGHT = 70.0, 198.0, 65.0, 524.0


def _page(path: Path, top_rule_from: float) -> Path:
    """Column rules between the year columns only; the row rules run from the page's table edge
    at the left (`top_rule_from`: where the top rule starts) to the right edge."""
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 70, 420, "Table 3. Participants in training by year", 10, "bold")
    ys = [456.0 + 17 * i for i in range(len(ROWS) + 2)]
    page.draw_line((top_rule_from, ys[0]), (RIGHT, ys[0]), width=0.5)
    for y in ys[1:]:
        page.draw_line((LEFT, y), (RIGHT, y), width=0.5)
    for k in range(5):  # no rule at LEFT nor at RIGHT
        x = FIRST + STEP * k
        page.draw_line((x, ys[0]), (x, ys[-1]), width=0.5)
    for i, row in enumerate([HEADER, *ROWS]):
        put(page, LEFT + 4, ys[i] + 12, row[0])
        for k, text in enumerate(row[1:]):
            put(page, FIRST + STEP * (k + 1) - 6, ys[i] + 12, text, align="right")
    put(page, 70, 560, "Participants are counted once per course they take part in during the year.")
    doc.save(path)
    return path


@pytest.mark.parametrize("top_rule_from", [LEFT, FIRST])
def test_columns_past_the_outer_column_rules_are_read(tmp_path: Path, top_rule_from: float) -> None:
    (table,) = tables_of(_page(tmp_path / "open.pdf", top_rule_from))
    assert table.columns == HEADER
    assert [tuple(r) for r in table.rows] == ROWS
