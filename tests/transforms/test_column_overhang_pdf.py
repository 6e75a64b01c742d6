"""A table wider than its page column, set under the left column's text and running over the
gutter into the right column, where the right column ended above it: the left column reads on
through the table and under it, then the right column (rowkeeper/page_columns.py reading
order; transforms/sections.py). Read as a full-width band, the right column's table would come
before the left column's next heading and take the previous section's path (issue 13, zoo
dev8 two_column-143-hu)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tests.transforms.pdf_docs import tables_of
from tests.transforms.surroundings_docs import LEFT, Page, _save, prose, ruled_grid

RIGHT = 310.0


def overhang_page(path: Path, width: float) -> Path:
    """Two columns; the left: a heading, prose, a captioned table `width` points wide (over the
    gutter when wider than the column), prose, a second heading, prose; the right: prose, a
    captioned table inside the column, prose, all ending above the wide table."""
    doc = pymupdf.open()
    pg = Page(doc)
    pg.text(LEFT, 60, "Key figures 2026", 16, True)
    pg.text(LEFT, 100, "1. Staff", 12, True)
    y = 120.0
    y = prose(pg, LEFT, y, 20)
    pg.text(LEFT, y + 6, "Table 1. Staff by site", 9, True)
    n = 5
    widths = tuple(width / n for _ in range(n))
    rows = [["Site", "Staff", "Share", "Hours", "Date"]] + [
        [f"Depot {i + 1}", f"{120 + 7 * i}", f"{10 + i}.5 %", f"{1200 + 37 * i:,}", f"2026-0{i + 1}-15"]
        for i in range(6)]
    y = ruled_grid(pg, y + 14, rows, widths, True, LEFT, 16, 8) + 24
    y = prose(pg, LEFT, y, 4, 2)
    pg.text(LEFT, y + 16, "2. Regional sales", 12, True)
    y += 36
    y = prose(pg, LEFT, y, 6, 1)
    y = 90.0
    y = prose(pg, RIGHT, y, 8, 3)
    pg.text(RIGHT, y + 6, "Table 2. Sales by region", 9, True)
    rows = [["Region", "Sales", "Margin"]] + [[f"Region {i + 1}", f"{3400 + 91 * i:,}", f"{20 + i}.0 %"]
                                              for i in range(5)]
    y = ruled_grid(pg, y + 14, rows, (90.0, 70.0, 70.0), True, RIGHT, 16, 8) + 24
    y = prose(pg, RIGHT, y, 4)
    return _save(doc, path)


def test_the_right_columns_table_is_under_the_left_columns_next_heading(tmp_path: Path) -> None:
    tables = {t.caption: t for t in tables_of(overhang_page(tmp_path / "overhang.pdf", 300.0))}
    wide, right = tables["Table 1. Staff by site"], tables["Table 2. Sales by region"]
    assert wide.columns == ("Site", "Staff", "Share", "Hours", "Date") and len(wide.rows) == 6
    assert wide.section_path == ("Key figures 2026", "1. Staff")
    assert right.columns == ("Region", "Sales", "Margin") and len(right.rows) == 5
    assert right.section_path == ("Key figures 2026", "2. Regional sales")


@pytest.mark.parametrize("width", [175.0, 260.0])
def test_a_table_inside_its_column_or_just_over_the_gutter_reads_the_same(tmp_path: Path, width: float) -> None:
    # inside the left column (the prose ends near x 225) or a little over the gutter: the left
    # column holds the table, the right column reads after the left one's second heading
    tables = {t.caption: t for t in tables_of(overhang_page(tmp_path / "inside.pdf", width))}
    assert tables["Table 1. Staff by site"].section_path == ("Key figures 2026", "1. Staff")
    assert tables["Table 2. Sales by region"].section_path == ("Key figures 2026", "2. Regional sales")
