"""The last rows of a long table alone at the top of the next page (one row under a repeated
header, or one row with prose under it) are too few for a finder: they are read back in the
table's columns and merged into it (transforms/orphan_rows); a page that opens with prose
adds nothing."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

import rowkeeper
from tests.extractors.finder.layout import new_page, put

HEADER = ("Site", "Category", "Weight (kg)", "Budget (EUR)")
RIGHTS = (0.0, 360.0, 480.0)
FULL = 40
PROSE = ("Values are rounded; totals may differ slightly from the sum of the rows. The figures below cover",
         "the reporting period and were checked by the controlling team before publication.")


def _rows(n: int) -> list[tuple[str, ...]]:
    return [(f"Harbor View plant {100 + i}", ("Line", "Depot", "Store")[i % 3], f"{3 + i * 7 % 90},{i % 10}31",
             f"{(i * 7919) % 900 + 100}.{i % 9}50 €") for i in range(n)]


def _row(page: pymupdf.Page, y: float, row: tuple[str, ...], face: str = "sans") -> None:
    put(page, 60, y, row[0], 9, face)
    put(page, 200, y, row[1], 9, face)
    for text, x in zip(row[2:], RIGHTS[1:], strict=True):
        put(page, x, y, text, 9, face, "right")


def _document(path: Path, last: int, repeat: bool, prose_first: bool = False) -> list[tuple[str, ...]]:
    """A table filling page 1 and `last` rows on page 2; the body rows written."""
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 60, 60, "Operating costs 2024", 16, "bold")
    put(page, 60, 90, "Table 1: Costs per site", 9, "bold")
    _row(page, 110, HEADER, "bold")
    body = _rows(FULL + last)
    y = 126.0
    for row in body[:FULL]:
        _row(page, y, row)
        y += 15
    put(page, 300, 820, "1", 8)
    page = new_page(doc)
    y = 50.0
    if prose_first:
        for ln in PROSE:
            put(page, 60, y, ln, 9)
            y += 12
        y += 10
    if repeat:
        _row(page, y, HEADER, "bold")
        y += 16
    for row in body[FULL:]:
        _row(page, y, row)
        y += 15
    for ln in () if prose_first else PROSE:
        put(page, 60, y + 12, ln, 9)
        y += 12
    put(page, 300, 820, "2", 8)
    doc.save(path)
    return body


@pytest.mark.parametrize("repeat", [False, True])
def test_one_row_left_at_the_top_of_the_next_page_joins_its_table(tmp_path: Path, repeat: bool) -> None:
    path = tmp_path / "orphan.pdf"
    body = _document(path, 1, repeat)
    (table,) = rowkeeper.extract(path).tables
    assert table.columns == HEADER
    assert list(table.pages) == [1, 2]
    assert [tuple(r) for r in table.rows] == body


def test_a_page_opening_with_prose_adds_no_rows(tmp_path: Path) -> None:
    """Prose under the running text of the next page is no row: the table keeps page 1's rows
    (the rows under the prose are a table of their own or nothing, never rows of page 1's)."""
    path = tmp_path / "prose.pdf"
    body = _document(path, 1, False, prose_first=True)
    tables = rowkeeper.extract(path).tables
    assert [tuple(r) for r in tables[0].rows] == body[:FULL]
    assert list(tables[0].pages) == [1]
