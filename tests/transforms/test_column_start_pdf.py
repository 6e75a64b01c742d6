"""A table at the top of the right column of a two-column page, set a little higher than the
left column's first line, under a title set across both (rowkeeper/page_columns.py reading
order; transforms/sections.py and transforms/captions.py)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tests.transforms.pdf_docs import tables_of
from tests.transforms.surroundings_docs import LEFT, Page, _save, prose, ruled_grid

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
    y = prose(pg, LEFT, y, 42)
    if caption_at_foot:
        pg.text(LEFT, y + 8, "Table 1. Site costs", 9, True)
    top = 98.0 - lift
    rows = [["Site", "Cost", "Output"]] + [[f"Depot {i + 1}", f"{1200 + 37 * i:,}", f"{10 + i}.5"] for i in range(5)]
    y = ruled_grid(pg, top, rows, (100.0, 70.0, 65.0), True, RIGHT) + 24
    y = prose(pg, RIGHT, y, 30, 1)
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
