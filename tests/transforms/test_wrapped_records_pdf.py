"""A ruled register whose cells wrap onto a second line keeps each record whole, even where a
postal code's figures make the row look packed and it is re-split by text lines
(transforms/wrapped_records)."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from rowkeeper.models import Cell, RawTable
from rowkeeper.transforms.wrapped_records import join_wrapped_records
from tests.extractors.finder.layout import new_page, put, ruled_records
from tests.transforms.pdf_docs import tables_of

HEADER = ("No.", "Company", "Date", "Contact", "Address")
XS = (40, 70, 200, 260, 370, 560)
# each record: cells as lines
RECORDS = [
    (["27"], ["Trikon Electronics"], ["23-04-2014"], ["Mr. Deven Verma"], ["101 Sarvesh, Shankar Road"]),
    (["28"], ["Software Technology Parks", "of India"], ["15-01-2014"], ["Mr. Devesh Tyagi,", "Director"],
     ["Electronic Niketan, 6 CGO Complex,", "New Delhi 110 003"]),
    (["29"], ["Sanchit Infocom"], ["24-04-2014"], ["Harsh Kumar"], ["381-A Green Avenue, Amritsar"]),
    (["30"], ["Ellora Systems"], ["02-05-2014"], ["Ms. Rina Das,", "Manager"], ["12 Park Street, Kolkata"]),
]


def _register(path: Path) -> Path:
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 40, 60, "Licences granted in April and May 2014", 11, "bold")
    ruled_records(page, XS, HEADER, RECORDS, pitch=10)
    doc.save(path)
    return path


def test_wrapped_cells_of_a_ruled_register_stay_in_their_record(tmp_path: Path) -> None:
    (t,) = tables_of(_register(tmp_path / "register.pdf"))
    assert t.columns == HEADER
    assert [tuple(r) for r in t.rows] == [tuple(" ".join(c) for c in rec) for rec in RECORDS]


def _piece(grid: list[list[str]]) -> RawTable:
    cells = tuple(Cell(row=r, col=c, text=x) for r, row in enumerate(grid) for c, x in enumerate(row))
    return RawTable(piece_id="p", doc_id="d", page=1, bbox=(0, 0, 100, 100), n_rows=len(grid),
                    n_cols=len(grid[0]), cells=cells, extractor="test", extractor_version="0")


def test_rows_that_do_not_carry_the_text_above_on_stay_rows() -> None:
    """A sub-item with a capital under a finished text, a figure without a label, and a row
    under a header (no record above) stay rows of their own."""
    grid = [["Group", "Brand", "Share"], ["", "of which", ""], ["Besnier", "Total: 18.1%", "12.0"],
            ["", "Président (13.5%)", ""], ["Vedial", "Prima", "3.3"], ["", "", "15.3"]]
    assert join_wrapped_records(_piece(grid)).grid() == grid


def test_a_lower_case_line_under_a_record_joins_it() -> None:
    grid = [["Code", "Name", "Amount"], ["0304", "Filetes y demás carnes", "105.434"],
            ["", "de pescado", ""], ["0305", "Pescado seco", "2.113"]]
    assert join_wrapped_records(_piece(grid)).grid() == [
        ["Code", "Name", "Amount"], ["0304", "Filetes y demás carnes de pescado", "105.434"],
        ["0305", "Pescado seco", "2.113"]]
