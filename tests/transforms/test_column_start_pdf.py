"""A table at the top of the right column of a two-column page, set a little higher than the
left column's first line, under a title set across both (rowkeeper/page_columns.py reading
order; transforms/sections.py and transforms/captions.py)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tests.transforms.pdf_docs import tables_of
from tests.transforms.surroundings_docs import LEFT, Page, _save

PROSE = ["The figures cover the reporting period", "and were checked by the controlling",
         "team. Sites opened during the year are", "included from their first full month."]
RIGHT = 310.0


def column_top_table(path: Path, caption_at_foot: bool, lift: float = 8.0) -> Path:
    """Title across the page; the left column: a numbered heading, running text (and, with
    `caption_at_foot`, the right column's table caption as its last line); the right column: a
    ruled table `lift` points higher than the heading, then running text."""
    doc = pymupdf.open()
    pg = Page(doc)
    pg.text(LEFT, 60, "Energy and maintenance report of all sites 2026", 16, True)
    pg.text(LEFT, 110, "1. Costs", 13, True)
    y = 130.0
    for k in range(42):
        pg.text(LEFT, y, PROSE[k % 4], 9)
        y += 12
    if caption_at_foot:
        pg.text(LEFT, y + 8, "Table 1. Site costs", 9, True)
    top = 98.0 - lift
    rows = [["Site", "Cost", "Output"]] + [[f"Depot {i + 1}", f"{1200 + 37 * i:,}", f"{10 + i}.5"] for i in range(5)]
    for j, row in enumerate(rows):
        for i, t in enumerate(row):
            x0 = RIGHT + (0, 100, 170)[i]
            pg.box(x0, top + 18 * j, x0 + (100, 70, 65)[i], top + 18 * (j + 1))
            pg.text(x0 + 4, top + 18 * j + 12, t, 9, j == 0)
    y = top + 18 * len(rows) + 24
    for k in range(30):
        pg.text(RIGHT, y, PROSE[(k + 1) % 4], 9)
        y += 12
    return _save(doc, path)


@pytest.mark.parametrize("lift", [2.0, 8.0])
def test_a_table_atop_the_right_column_is_under_the_left_columns_heading(tmp_path: Path, lift: float) -> None:
    # read left column first: the heading atop the left column is in force at the right
    # column's top, though the table's box starts a few points higher than the heading
    (t,) = tables_of(column_top_table(tmp_path / "two.pdf", False, lift))
    assert t.columns == ("Site", "Cost", "Output") and len(t.rows) == 5
    assert t.section_path == ("Energy and maintenance report of all sites 2026", "1. Costs")


def test_a_caption_left_at_the_foot_of_the_column_names_the_table_atop_the_next(tmp_path: Path) -> None:
    # the caption ends the left column and its table opens the right one: nothing stands
    # between them in reading order, and no other table is near the caption
    (t,) = tables_of(column_top_table(tmp_path / "two.pdf", True))
    assert t.columns == ("Site", "Cost", "Output") and len(t.rows) == 5
    assert t.caption == "Table 1. Site costs"
    assert t.section_path == ("Energy and maintenance report of all sites 2026", "1. Costs")
