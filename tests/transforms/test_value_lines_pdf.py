"""A key-value block whose address value runs over two lines reads as one pair per key, the
address whole, and no header (transforms/value_lines)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from rowkeeper.models import Cell, RawTable
from rowkeeper.transforms.value_lines import join_value_lines
from tests.extractors.finder.layout import new_page, put
from tests.transforms.pdf_docs import tables_of

PAIRS = [("Customer", ["Harbor View"]), ("Address", ["Elm Street 12", "42489 Kingsway"]),
         ("Contact", ["$371,107"]), ("Quote no.", ["273-4630"])]


@pytest.mark.parametrize("first", [0, 1])  # the two-line address first, or second
def test_an_address_over_two_lines_is_one_value(tmp_path: Path, first: int) -> None:
    pairs = [PAIRS[1], PAIRS[0], *PAIRS[2:]] if first == 0 else PAIRS
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 60, 80, "Quotation", 14, "bold")
    y = 110.0
    for key, lines in pairs:
        put(page, 62, y, key, 8, "bold")
        for k, line in enumerate(lines):
            put(page, 130, y + 10 * k, line, 8)
        y += 10 * len(lines) + 6
    put(page, 60, y + 30, "All amounts are stated before tax unless a note says otherwise.", 9)
    path = tmp_path / "quote.pdf"
    doc.save(path)
    (t,) = tables_of(path)
    assert [tuple(r) for r in t.rows] == [(k, " ".join(v)) for k, v in pairs]
    assert t.columns == ("", "")


def _piece(grid: list[list[str]]) -> RawTable:
    cells = tuple(Cell(row=r, col=c, text=x) for r, row in enumerate(grid) for c, x in enumerate(row))
    return RawTable(piece_id="p", doc_id="d", page=1, bbox=(0, 0, 100, 100), n_rows=len(grid),
                    n_cols=2, cells=cells, extractor="test", extractor_version="0")


def test_a_total_without_a_label_stays_its_own_row():
    grid = [["Item", "Amount"], ["Paper", "1,200"], ["Toner", "300"], ["", "1,500"]]
    assert join_value_lines(_piece(grid)).grid() == grid
