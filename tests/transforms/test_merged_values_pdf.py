"""A ruled grid whose first body row holds a word merged across the amount columns (`included`
in one cell over Margin, Volume and Date, beside the row's benefit and item): the row is body,
its word repeated into each column it covers, and the header names stay the header's."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from tests.transforms.pdf_docs import tables_of
from tests.transforms.surroundings_docs import Page, _save

XS = [60, 160, 260, 340, 420, 520]
HEAD = ["Benefit", "Item", "Margin", "Volume", "Date"]
ROWS = [["Dental", "fillings", "included"], ["Dental", "crowns", "70.7%", "$193,108", "2023-05-18"],
        ["Outpatient", "diagnostics", "59.4%", "$66,775", "2020-07-24"]]


def test_word_merged_across_the_amounts_in_the_first_body_row(tmp_path: Path) -> None:
    doc = pymupdf.open()
    pg = Page(doc)
    top, step = 100.0, 18.0
    for i, row in enumerate([HEAD, *ROWS]):
        y = top + step * i
        pg.page.draw_line((XS[0], y), (XS[-1], y), width=0.6)
        cells = [(XS[j], XS[j + 1], t) for j, t in enumerate(row)]
        if len(row) == 3:  # the merged cell: one box over the last three columns
            cells[2] = (XS[2], XS[-1], row[2])
        for a, b, text in cells:
            pg.text(a + 4, y + 12, text, 8, i == 0, "c" if len(row) == 3 and a == XS[2] else "l", b - a - 8)
        for x in [c[0] for c in cells] + [XS[-1]]:
            pg.page.draw_line((x, y), (x, y + step), width=0.6)
    pg.page.draw_line((XS[0], top + step * (len(ROWS) + 1)), (XS[-1], top + step * (len(ROWS) + 1)), width=0.6)
    (t,) = tables_of(_save(doc, tmp_path / "merged.pdf"))
    assert t.columns == tuple(HEAD)
    assert [list(r) for r in t.rows] == [["Dental", "fillings", "included", "included", "included"], *ROWS[1:]]
    # the merged word is no value of any one amount column: each types by its own values
    assert t.column_types == ("text", "text", "percent", "currency", "date")
    assert t.validation.passed
