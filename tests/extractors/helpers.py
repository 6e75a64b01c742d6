"""Small helpers for extractor tests: a DocumentInput for a generated PDF."""

from __future__ import annotations

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
