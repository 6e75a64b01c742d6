"""A caption under a table in one column of a two-column page, with the other column's
running text level with the gap between them (transforms/captions.py)."""

from __future__ import annotations

import random
from pathlib import Path

import pymupdf
import pytest

from tests.transforms.pdf_docs import tables_of
from tests.transforms.surroundings_docs import LEFT, PROSE, Page, _save


def right_column_table(path: Path, gap: float, offset: float) -> Path:
    """Running text down the left column, lines `offset` points off the table's rows; in the
    right column a borderless table and its caption `gap` points under the last row."""
    doc = pymupdf.open()
    pg = Page(doc)
    pg.text(LEFT, 60, "Energy report 2026", 14, True)
    for k in range(40):
        pg.text(LEFT, 90 + 13 * k + offset, PROSE[k % 4], 9)
    rnd = random.Random(3)
    rows = [["Site", "Cost", "Output"]] + [[f"Harbour depot {i + 1}", f"{rnd.randint(1000, 99999):,}",
                                           f"{rnd.randint(10, 999)}.{i}"] for i in range(8)]
    y = 90.0
    for j, row in enumerate(rows):
        for i, t in enumerate(row):
            pg.text(310 + (0, 90, 160)[i], y, t, 8, j == 0, "l" if i == 0 else "r", (80, 60, 60)[i])
        y += 13
    pg.text(310, y + gap, "Table 1. Maintenance schedule", 9)
    return _save(doc, path)


@pytest.mark.parametrize(("gap", "offset"), [(10.0, 8.0), (14.0, 0.0), (14.0, 8.0), (6.0, 4.0)])
def test_caption_under_a_table_past_the_other_columns_text(tmp_path: Path, gap: float, offset: float) -> None:
    (t,) = tables_of(right_column_table(tmp_path / "two.pdf", gap, offset))
    assert t.columns == ("Site", "Cost", "Output") and len(t.rows) == 8
    assert t.caption == "Table 1. Maintenance schedule"
