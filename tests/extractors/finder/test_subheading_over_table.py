"""A sub-heading in bold a little larger than a borderless table's header, right above it
(a stacked table under a heading of its own, "Appendix"), is the heading of its section, not a
line of the table's header: the column names stay the header's and the section path ends in
the heading (finder/text_runs._heading_over)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

import rowkeeper
from tests.extractors.finder.layout import grids, new_page, put

FIRST = [("Item", "Supplier", "Quantity", "Headcount"), ("Stone Bridge hub", "Line", "673,208", "600,990"),
         ("Riverside hub", "Plant", "333,336", "306,523"), ("Maple Court store", "Depot", "483,884", "498,468"),
         ("Millbrook unit", "Unit", "587,630", "767,687")]
SECOND = [("Site", "Region", "Unit price", "Volume"), ("Summit office", "Unit", "$4,891,905", "55,552.93"),
          ("Brookfield depot", "Store", "$3,789,168", "16,594.00"), ("Harbor View plant", "Line", "$9,192,454", "88,342.4"),
          ("Cedar Park store", "Office", "$8,431,237", "4,405.3")]
XS = (63, 200, 330, 440)


def _rows(page: pymupdf.Page, y: float, rows: list[tuple[str, ...]], size: float) -> float:
    for i, row in enumerate(rows):
        for x, text in zip(XS, row, strict=True):
            put(page, x, y, text, size, "bold" if i == 0 else "sans")
        y += 2 * size
    return y


@pytest.mark.parametrize("size", [8.0, 9.0])
def test_bold_subheading_over_a_stacked_table_is_its_section(tmp_path: Path, size: float) -> None:
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 60, 70, "Energy consumption", 1.45 * size, "bold")
    put(page, 60, 95, "Costs include maintenance and energy but exclude depreciation.", size)
    put(page, 60, 115, "Table 1 Supplier overview", size, "bold")
    y = _rows(page, 132, FIRST, size)
    put(page, 60, y + 1.2 * size, "Appendix", 1.2 * size, "bold")  # the sub-heading, bold, 1.2 times
    _rows(page, y + 3.2 * size, SECOND, size)
    path = tmp_path / "subheading.pdf"
    read = grids(doc, path)
    assert read[1][0] == list(SECOND[0])  # the finder's header row is the header, not the heading
    tables = rowkeeper.extract(path).tables
    assert [t.columns for t in tables] == [FIRST[0], SECOND[0]]
    assert [list(r) for r in tables[1].rows] == [list(r) for r in SECOND[1:]]
    assert list(tables[0].section_path) == ["Energy consumption"]
    assert list(tables[1].section_path) == ["Energy consumption", "Appendix"]

