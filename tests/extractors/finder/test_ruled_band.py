"""A run of a borderless table's body rows boxed by rules (highlighted rows, a ruled block of
totals) is read by the ruled-grid reader as a table of its own: the whole table keeps those
rows, with its header, and the band is no second table (finder/shared_cells.band_of_rows)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tests.extractors.finder.layout import new_page, put
from tests.transforms.pdf_docs import tables_of

HEADER = ("Product", "Region", "Units", "Revenue")
BODY = [("Desk lamp", "North", "1,204", "18,060.00"), ("Office chair", "South", "312", "46,488.00"),
        ("Filing cabinet", "East", "87", "12,615.00"), ("Monitor arm", "West", "659", "26,360.00"),
        ("Standing desk", "North", "40", "9,200.00")]
XS = (72, 220, 410, 520)
PITCH = 15.0
TOP = 120.0


def _page(path: Path, boxed: range) -> Path:
    """The table (header bold, numbers right-aligned), with rules boxing the body rows `boxed`."""
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 72, 70, "The figures below were compiled from the quarterly returns of every branch office.")
    for i, row in enumerate([HEADER, *BODY]):
        for j, (x, text) in enumerate(zip(XS, row, strict=True)):
            put(page, x, TOP + PITCH * i, text, face="bold" if i == 0 else "sans", align="right" if j >= 2 else "left")
    ys = [TOP + PITCH * (r + 1) - 11 for r in (*boxed, boxed[-1] + 1)]
    for y in ys:
        page.draw_line((66, y), (530, y), width=0.6)
    for x in (66, 200, 330, 440, 530):
        page.draw_line((x, ys[0]), (x, ys[-1]), width=0.6)
    put(page, 72, TOP + PITCH * (len(BODY) + 3), "Returns of the two new branches are not yet included in these figures.")
    doc.save(path)
    return path


@pytest.mark.parametrize("boxed", [range(0, 2), range(1, 3)], ids=["first-rows", "middle-rows"])
def test_boxed_rows_stay_rows_of_the_whole_table(tmp_path: Path, boxed: range) -> None:
    tables = tables_of(_page(tmp_path / "band.pdf", boxed))
    assert [t.columns for t in tables] == [HEADER]
    assert [tuple(r) for r in tables[0].rows] == BODY
