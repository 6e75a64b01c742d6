"""Blocks side by side (finder/side_by_side.py): a table whose columns repeat one block's layout
across the page is one table per block; matching columns under different labels stay one table."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from tests.extractors.finder.layout import new_page, put, rows_page
from tests.transforms.pdf_docs import tables_of

BLOCK = (72, 110, 150)
"""Right edges of a block's three right-aligned columns (a block repeats them moved sideways)."""


def _blocks(path: Path, blocks: list[list[tuple[str, ...]]], dx: float = 200, right: bool = True) -> Path:
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 60, 40, "Issued numbers", 12, "bold")
    for b, rows in enumerate(blocks):
        for i, row in enumerate(rows):
            for x, text in zip(BLOCK, row, strict=True):
                put(page, x + b * dx, 70 + 14 * i, text, align="right" if right else "left")
    doc.save(path)
    return path


def test_a_list_flowed_into_two_blocks_is_two_tables(tmp_path: Path) -> None:
    """Rows 1-12 in the left block, 13-20 in the right one, no header: two tables, the right
    one ending early (no empty rows under it)."""
    rows = [(str(n), str(100 + n), f"{2 * n}.5") for n in range(1, 21)]
    tables = tables_of(_blocks(tmp_path / "flowed.pdf", [rows[:12], rows[12:]]))
    assert [len(t.rows) for t in tables] == [12, 8]
    assert [len(t.columns) for t in tables] == [3, 3]
    assert tables[1].rows[0] == ("13", "113", "26.5")
    assert tables[1].rows[-1] == ("20", "120", "40.5")


def test_repeated_labels_over_two_blocks_make_two_tables_with_those_names(tmp_path: Path) -> None:
    head = ("No.", "Code", "Weight")
    left = [head] + [(str(n), f"K{n:02d}", f"{n}.25") for n in range(1, 8)]
    right = [head] + [(str(n), f"K{n:02d}", f"{n}.25") for n in range(8, 15)]
    tables = tables_of(_blocks(tmp_path / "labels.pdf", [left, right]))
    assert [t.columns for t in tables] == [head, head]
    assert [t.rows[0][1] for t in tables] == ["K01", "K08"]


def test_different_labels_over_matching_columns_stay_one_table(tmp_path: Path) -> None:
    """'Q1 Q2 Q3 | Q4 Q5 Q6': the same column layout twice, but one table's six columns."""
    left = [("Q1", "Q2", "Q3")] + [(str(n), str(n + 1), str(n + 2)) for n in range(10, 70, 10)]
    right = [("Q4", "Q5", "Q6")] + [(str(n + 3), str(n + 4), str(n + 5)) for n in range(10, 70, 10)]
    (table,) = tables_of(_blocks(tmp_path / "quarters.pdf", [left, right]))
    assert table.columns == ("Q1", "Q2", "Q3", "Q4", "Q5", "Q6")


def test_an_ordinary_wide_table_is_not_cut_into_blocks(tmp_path: Path) -> None:
    rows = [("Item", "Qty", "Unit price", "Amount"), ("Office chair", "4", "129.00", "516.00"),
            ("Desk lamp", "10", "24.50", "245.00"), ("Monitor arm", "2", "89.90", "179.80"),
            ("Cable tray", "6", "12.00", "72.00")]
    doc = pymupdf.open()
    page = new_page(doc)
    for i, row in enumerate(rows):
        for x, text in zip((72, 250, 330, 420), row, strict=True):
            put(page, x, 120 + 14 * i, text)
    path = tmp_path / "wide.pdf"
    doc.save(path)
    (table,) = tables_of(path)
    assert table.columns == rows[0]
    assert len(table.rows) == 4


def _two_tables(path: Path, right_first: tuple[str, ...]) -> Path:
    """Branch staff (2 columns) and regional sales (3 columns) side by side, a wide gutter
    between, each under its own bold header row; `right_first`: the right part's first column."""
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 60, 60, "Quarterly summary", 12, "bold")
    put(page, 60, 80, "The tables below give the branch staff and the regional sales for the quarter.")
    left = [("Branch", "Staff"), ("Leeds", "14"), ("York", "9"), ("Hull", "22"), ("Derby", "17"), ("Bath", "6")]
    right = [("Units", "Revenue"), ("120", "4,300"), ("95", "3,150"), ("143", "5,020"), ("88", "2,760")]
    for i, row in enumerate(left):
        for x, text in zip((60, 160), row, strict=True):
            put(page, x, 110 + 14 * i, text, face="bold" if i == 0 else "sans")
    for i, (first, row) in enumerate(zip(right_first, right, strict=False)):
        for x, text in zip((330, 420, 490), (first, *row), strict=True):
            put(page, x, 110 + 14 * i, text, face="bold" if i == 0 else "sans")
    put(page, 60, 220, "Staff figures are head counts at the end of the quarter; revenue in thousands.")
    doc.save(path)
    return path


def test_two_different_tables_a_wide_gutter_apart_are_two_tables(tmp_path: Path) -> None:
    staff, sales = tables_of(_two_tables(tmp_path / "two.pdf", ("Region", "North", "South", "East", "West")))
    assert staff.columns == ("Branch", "Staff")
    assert len(staff.rows) == 5
    assert sales.columns == ("Region", "Units", "Revenue")
    assert [tuple(r) for r in sales.rows][0] == ("North", "120", "4,300")
    assert len(sales.rows) == 4


def test_figures_past_a_wide_gutter_stay_columns_of_the_table(tmp_path: Path) -> None:
    """The same page with quarters' figures right of the gutter: one table's columns."""
    (table,) = tables_of(_two_tables(tmp_path / "one.pdf", ("Q4", "31", "12", "40", "27")))
    assert table.columns == ("Branch", "Staff", "Q4", "Units", "Revenue")


def test_a_column_of_words_past_a_wide_gap_in_every_row_stays_a_column(tmp_path: Path) -> None:
    """A roll call: name, party, then far right the province and the vote, every row filled on
    both sides of the gap: one table of four columns."""
    rows = [("Name", "Party", "Province", "Vote"), ("Abdala, Norma", "Civic Front", "Santiago", "YES"),
            ("Albrieu, Oscar", "Victory Front", "Rio Negro", "YES"), ("Alonso, Maria", "Victory Front", "La Pampa", "NO"),
            ("Arena, Celia", "Victory Front", "Santa Fe", "YES"), ("Brillo, Jose", "Popular Movement", "Neuquen", "YES")]
    (table,) = tables_of(rows_page(tmp_path / "roll.pdf", "Roll call of the session", rows, (60, 170, 400, 500), pitch=14))
    assert table.columns == rows[0]
    assert [tuple(r) for r in table.rows] == rows[1:]
