"""The three text-layer extractors on the generated samples: cell texts, shapes, provenance."""

from __future__ import annotations

from pathlib import Path

import pytest

from rowkeeper.errors import BadInput
from rowkeeper.extractors.pdfplumber_extractor import PdfplumberExtractor, PdfplumberOptions
from rowkeeper.extractors.pymupdf_extractor import PyMuPDFExtractor
from rowkeeper.extractors.text_layer import read_lines
from tests.extractors.helpers import doc_for, text_extractors

RULED_HEADER = ["Code", "Item", "Unit price", "Stock"]
BORDERLESS_BODY = [["North", "1,200", "1,150", "1,080", "990"], ["West", "1,760", "1,802", "1,845", "1,930"]]


@pytest.mark.parametrize("extractor", text_extractors(), ids=lambda e: e.name)
def test_ruled_table(pdf_dir: Path, extractor) -> None:
    doc = doc_for(pdf_dir / "ruled.pdf")
    (table,) = extractor.extract(doc, [1]).tables
    grid = table.grid()
    assert (table.n_rows, table.n_cols) == (6, 4)
    assert grid[0] == RULED_HEADER
    assert grid[3] == ["01-003", "Standing desk", "38,500.00", "3"]
    assert all(c.is_header == (c.row == 0) for c in table.cells)  # bold header row
    assert table.page == 1 and table.extractor == extractor.name and table.extractor_version
    x0, top, x1, bottom = table.bbox
    assert 45 < x0 < 55 and 160 < top < 170 and 540 < x1 < 550 and 255 < bottom < 268
    assert table.piece_id == f"{doc.doc_id[:12]}:p1.1"


def test_pymupdf_borderless_table_from_aligned_columns(pdf_dir: Path) -> None:
    (table,) = PyMuPDFExtractor().extract(doc_for(pdf_dir / "borderless.pdf"), [1]).tables
    grid = table.grid()
    assert table.n_rows == 5  # header + 4 regions, no blank rows in between
    assert grid[0] == ["Region", "Q1", "Q2", "Q3", "Q4"]  # labels over right-aligned numbers
    assert [grid[1], grid[4]] == BORDERLESS_BODY
    assert "Quarterly results" not in str(grid)  # title and prose stay outside the table


def test_pdfplumber_text_strategy_finds_borderless(pdf_dir: Path) -> None:
    opts = PdfplumberOptions(strategies=("text",))
    (table,) = PdfplumberExtractor(opts).extract(doc_for(pdf_dir / "borderless.pdf"), [1]).tables
    rows = [[c for c in r if c] for r in table.grid()]
    assert ["North", "1,200", "1,150", "1,080", "990"] in rows
    assert table.metrics["strategy_text"] == 1.0


def test_two_page_table_pieces_on_each_page(pdf_dir: Path) -> None:
    tables = PyMuPDFExtractor().extract(doc_for(pdf_dir / "two_page.pdf"), [1, 2]).tables
    assert [t.page for t in tables] == [1, 2]
    assert tables[0].grid()[0] == ["物件名", "管理費", "修繕積立金"]
    assert tables[0].grid()[1] == ["サンハイツ泉1", "13,000", "11,500"]
    assert sum(t.n_rows for t in tables) == 41  # header + 40 properties


def test_read_lines_typography(pdf_dir: Path) -> None:
    lines = read_lines(doc_for(pdf_dir / "ruled.pdf"), [1])
    caption = next(ln for ln in lines if ln.text == "Table 1 Equipment prices")
    assert caption.bold and caption.font_size == 10.0 and caption.page == 1
    title = next(ln for ln in lines if ln.text == "Equipment price list 2026")
    assert title.font_size == 16.0
    assert any(ln.text == "01-001" for ln in lines)  # table lines included; transforms drop them


def test_encrypted_with_password(pdf_dir: Path) -> None:
    doc = doc_for(pdf_dir / "ruled_encrypted.pdf", password="secret")
    assert PyMuPDFExtractor().extract(doc, [1]).tables[0].grid()[1][0] == "01-001"
    assert PdfplumberExtractor().extract(doc, [1]).tables[0].grid()[1][0] == "01-001"
    with pytest.raises(BadInput):
        PyMuPDFExtractor().extract(doc_for(pdf_dir / "ruled_encrypted.pdf"), [1])


def test_wrapped_first_column_label_joins_its_values() -> None:
    from rowkeeper.extractors.text_cells import merge_wrapped_rows

    texts = [["Totals", "FY 2007", "FY 2008"], ["Investigative Matters", "", ""], ["", "426", "365"],
             ["Received by AUSAs", "", ""], ["", "", ""], ["Cases Charged", "217", "197"]]
    rows = [[(0.0, i * 10.0, 50.0, i * 10.0 + 8), (50.0, i * 10.0, 90.0, i * 10.0 + 8),
             (90.0, i * 10.0, 130.0, i * 10.0 + 8)] for i in range(len(texts))]
    rows_out, texts_out = merge_wrapped_rows(rows, texts)
    assert texts_out == [["Totals", "FY 2007", "FY 2008"],
                         ["Investigative Matters Received by AUSAs", "426", "365"],
                         ["Cases Charged", "217", "197"]]
    assert rows_out[1][0] == (0.0, 10.0, 50.0, 38.0)  # the merged cell covers all three lines
