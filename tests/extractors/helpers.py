"""Small helpers for extractor tests: a DocumentInput for a generated PDF."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rowkeeper.ids import sha256_file
from rowkeeper.models import DocumentInput


def doc_for(path: Path, password: str | None = None) -> DocumentInput:
    """A DocumentInput for a file on disk."""
    return DocumentInput(path=str(path), source=path.name, doc_id=sha256_file(path),
                         size=path.stat().st_size, password=password)


def text_extractors() -> list:
    """PyMuPDF and pdfplumber, plus Camelot where its extra is installed."""
    from rowkeeper.extractors.pdfplumber_extractor import PdfplumberExtractor
    from rowkeeper.extractors.pymupdf_extractor import PyMuPDFExtractor

    out = [PyMuPDFExtractor(), PdfplumberExtractor()]
    try:
        from rowkeeper.extractors.camelot_extractor import CamelotExtractor
    except ImportError:
        return out
    return out + [CamelotExtractor()]


def draw_grid(page, xs: Sequence[float], ys: Sequence[float], rows: Sequence[Sequence[str]] = (),
              baseline: float = 16.0, fontsize: float = 10.0, fontname: str = "helv") -> None:
    """A fully ruled grid (a rule at every x and y), `rows` written one per band from the top,
    each cell's text 4 pt right of its rule and `baseline` pt under the band's top."""
    for x in xs:
        page.draw_line((x, ys[0]), (x, ys[-1]))
    for y in ys:
        page.draw_line((xs[0], y), (xs[-1], y))
    for i, row in enumerate(rows):
        for j, text in enumerate(row):
            page.insert_text((xs[j] + 4, ys[i] + baseline), text, fontsize=fontsize, fontname=fontname)
