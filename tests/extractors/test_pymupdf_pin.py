"""Guards the PyMuPDF pin: 2.0's find_tables() garbles cell text ("01-001" -> "01001\\n-")."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from rowkeeper.extractors.pymupdf_extractor import PyMuPDFExtractor
from tests.extractors.helpers import doc_for


def test_find_tables_reads_hyphenated_codes_verbatim(pdf_dir: Path) -> None:
    """A PyMuPDF that garbles cell text fails here; see the pin in pyproject.toml."""
    pdf = pymupdf.open(pdf_dir / "ruled.pdf")
    cells = pdf[0].find_tables().tables[0].extract()
    pdf.close()
    assert cells[1][0] == "01-001", f"PyMuPDF {pymupdf.VersionBind} garbles find_tables text"


def test_extractor_keeps_codes_and_amounts(pdf_dir: Path) -> None:
    """The extractor's cells carry the printed text, not a re-ordered variant."""
    tables = PyMuPDFExtractor().extract(doc_for(pdf_dir / "ruled.pdf"), [1]).tables
    grid = tables[0].grid()
    assert grid[1][:3] == ["01-001", "Desk lamp", "1,250.00"]
    assert grid[5][0] == "02-002"
