"""A caption's lines over a ruled table (finder/borderless.py): the last line of a caption
set tight under the one before it, a wide space in it, is no borderless table of two rows
(the read around one line took the line over it in)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tests.extractors.finder.layout import centred, new_page, put
from tests.transforms.pdf_docs import tables_of

ROWS = [("Kingfisher", "29%"), ("Bald Eagle", "34%"), ("Osprey", "20%"), ("Common Loon", "40%"),
        ("Florida Panther", "100%"), ("Mink", "35%")]


def _captioned(path: Path, leading: float, face: str) -> Path:
    """A centred three-line bold caption (`Table 4`, then two title lines `leading` apart, the
    last with a double space) over a two-column ruled table, prose in a column at the left."""
    doc = pymupdf.open()
    page = new_page(doc)
    for i in range(14):
        put(page, 60, 100 + 13 * i, f"Line {i} of the text column beside the table.", 10, "serif")
    left, mid, right, cx = 300.0, 400.0, 500.0, 400.0
    centred(page, cx, 100, "Table 4", 11, face)
    centred(page, cx, 100 + leading, "Share of Species Range Overlapping", 11, face)
    centred(page, cx, 100 + 2 * leading, "with Regions of High  Mercury Deposition", 11, face)
    top = 100 + 2 * leading + 14
    ys = [top + 20 * i for i in range(len(ROWS) + 2)]
    for y in ys:
        page.draw_line((left, y), (right, y), width=0.8)
    for x in (left, mid, right):
        page.draw_line((x, ys[0]), (x, ys[-1]), width=0.8)
    put(page, left + 6, ys[0] + 14, "Species", 10, "bold")
    put(page, mid + 6, ys[0] + 14, "Range impacted", 10, "bold")
    for (name, share), y in zip(ROWS, ys[1:], strict=False):
        put(page, left + 6, y + 14, name, 10)
        put(page, right - 6, y + 14, share, 10, align="right")
    doc.save(path)
    return path


@pytest.mark.parametrize(("leading", "face"), [(12.0, "bold"), (12.5, "serif")])
def test_a_captions_lines_over_a_ruled_table_are_no_table(tmp_path: Path, leading: float, face: str) -> None:
    tables = tables_of(_captioned(tmp_path / "c.pdf", leading, face))
    assert len(tables) == 1
    (t,) = tables
    assert t.columns == ("Species", "Range impacted")
    assert len(t.rows) == len(ROWS) and t.rows[4] == ("Florida Panther", "100%")
