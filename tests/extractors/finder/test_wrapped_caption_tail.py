"""The last line of a caption wrapped over a table ("Table 1 Quarterly figures by site,
Headcount" / "and budget") starts in the table's first column and is short, like a unit line of
its header; it runs on from the long line over it in the same type, wrapped at the table's
right edge, so it is the caption's, not the table's (finder/run_heads._wrapped_tail)."""

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


def _captioned_page(left: float, caption: tuple[str, str]) -> tuple[pymupdf.Document, pymupdf.Page]:
    """A page with a heading, a line of prose and a caption wrapped over two lines, at `left`."""
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, left, 90, "Staffing", 16, "bold")
    put(page, left, 120, "The figures below cover the reporting period and were checked.", 11)
    put(page, left, 150, caption[0], 11, "bold")
    put(page, left, 164, caption[1], 11, "bold")
    return doc, page


def _page(path: Path, rows: list[tuple[str, ...]], ruled: bool) -> None:
    doc, page = _captioned_page(72, CAPTION)
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


NARROW = ("Table 2 Staff and budget, quarterly figures by", "Site")
WIDE = [("Site", "Weight [kg]", "Share [%]", "Budget [EUR]", "Date"),
        ("Riverside hub", "508,379", "43.1%", "54,772", "2022-06-07"),
        ("Maple Court", "72,579", "67.0%", "259,467", "2024-05-16"),
        ("Millbrook unit", "587,630", "14.1%", "120,260", "2021-11-02"),
        ("Lakeside line", "768,319", "7.7%", "52,021", "2023-01-30")]


SHORT = [("Table 1: Maintenance schedule, Energy", "consumption"), ("Tabelle 2: Standorte und Budget", "je Quartal"),
         ("Bảng 3: Chi phí theo khu vực,", "năm 2024")]
"""Captions whose first line is short enough for a header line (40 characters or less)."""


@pytest.mark.parametrize("caption", [NARROW, *SHORT], ids=["narrow", "en", "de", "vi"])
@pytest.mark.parametrize("ruled", [True, False])
def test_a_caption_wrapped_narrower_than_its_table_keeps_its_last_line(
        tmp_path: Path, ruled: bool, caption: tuple[str, str]) -> None:
    """The caption is wrapped at a width of its own, well short of the table's right edge, and
    its last line is a word like the first column's label ("Site" over "Site", the header's
    labels wrapped over their units): the line after it stands a gap further down than the
    caption's line spacing, so it is the caption's, not a line of the header. A rule under
    each row (none over the header) makes the header's grid row reach up to the region's top.
    A caption's first line may be short enough for a header line (`Table 1: Maintenance
    schedule, Energy` / `consumption`, issue 13, zoo dev13 long_single_header-217-en): it
    reads as a caption, so the line under it is its last, not a label over the first column."""
    doc, page = _captioned_page(60, caption)
    y = 186.0
    for i, row in enumerate(WIDE):
        put(page, 63, y, row[0], 11, "bold" if i == 0 else "sans")
        for j, text in enumerate(row[1:]):
            # the header's labels wrapped over their units ("Weight" / "[kg]")
            for k, part in enumerate(text.split(" ") if i == 0 else [text]):
                put(page, 260 + 90 * j, y + 14 * k, part, 11, "bold" if i == 0 else "sans", align="right")
        if ruled:
            page.draw_line((60, y + (19 if i == 0 else 5)), (560, y + (19 if i == 0 else 5)))
        y += 36 if i == 0 else 19
    path = tmp_path / "narrow.pdf"
    doc.save(path)
    (table,) = rowkeeper.extract(path).tables
    assert table.caption == " ".join(caption)
    assert table.columns == WIDE[0]
    assert [tuple(r) for r in table.rows] == WIDE[1:]
