"""The last line of a caption wrapped over a table ("Table 1 Quarterly figures by site,
Headcount" / "and budget") starts in the table's first column and is short, like a unit line of
its header; it runs on from the long line over it in the same type, wrapped at the table's
right edge, so it is the caption's, not the table's (finder/text_runs._wrapped_tail)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

import rowkeeper
from tests.extractors.finder.layout import new_page, put

CAPTION = ("Table 1 Quarterly figures by site, Headcount", "and budget")
PAIRS = [("Customer", "$256,909"), ("Valid until", "890-1825"), ("Date", "2026-03-21"),
         ("Contact", "Bay Point"), ("Project", "Elm Street 18")]
ROWS = [("Site", "Budget", "Share"), ("Riverside hub", "673,208", "12.5%"), ("Maple Court", "483,884", "9.8%"),
        ("Millbrook unit", "587,630", "14.1%"), ("Lakeside line", "768,319", "7.7%")]


def _page(path: Path, rows: list[tuple[str, ...]], ruled: bool) -> None:
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 72, 90, "Staffing", 16, "bold")
    put(page, 72, 120, "The figures below cover the reporting period and were checked.", 11)
    put(page, 72, 150, CAPTION[0], 11, "bold")
    put(page, 72, 164, CAPTION[1], 11, "bold")
    y = 184.0
    for i, row in enumerate(rows):
        for j, text in enumerate(row):
            put(page, 75 + 225 * j, y, text, 11, "bold" if (j == 0 if ruled else i == 0) else "sans")
        if ruled:
            page.draw_line((72, y + 5), (540, y + 5))
        y += 19
    doc.save(path)


@pytest.mark.parametrize(("rows", "ruled"), [(PAIRS, True), (ROWS, False)])
def test_wrapped_caption_keeps_its_last_line(tmp_path: Path, rows: list[tuple[str, ...]], ruled: bool) -> None:
    path = tmp_path / "caption.pdf"
    _page(path, rows, ruled)
    (table,) = rowkeeper.extract(path).tables
    assert table.caption == " ".join(CAPTION)
    body = rows if ruled else rows[1:]
    assert [tuple(r) for r in table.rows] == body
    if not ruled:
        assert table.columns == ROWS[0]
