"""Files that are not PDFs fail with a clear reason, even when MuPDF could open them."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from rowkeeper.config import ClassifyConfig
from rowkeeper.errors import BadInput
from rowkeeper.extractors.classify import classify_document
from rowkeeper.models import DocumentInput


def _doc(path) -> DocumentInput:
    return DocumentInput(path=str(path), source=path.name, doc_id="0" * 64)


def test_a_png_named_pdf_is_refused_as_not_a_pdf(tmp_path) -> None:
    buf = io.BytesIO()
    Image.new("L", (200, 100), 255).save(buf, format="PNG")
    p = tmp_path / "photo.pdf"
    p.write_bytes(buf.getvalue())
    with pytest.raises(BadInput, match=r"not a PDF .*PNG"):
        classify_document(_doc(p), ClassifyConfig())


def test_an_empty_file_is_refused(tmp_path) -> None:
    p = tmp_path / "empty.pdf"
    p.write_bytes(b"")
    with pytest.raises(BadInput, match="empty file"):
        classify_document(_doc(p), ClassifyConfig())


def test_junk_before_the_header_is_tolerated(pdf_dir, tmp_path) -> None:
    p = tmp_path / "prefixed.pdf"
    p.write_bytes(b"\r\n" * 100 + (pdf_dir / "ruled.pdf").read_bytes())
    pages = classify_document(_doc(p), ClassifyConfig())
    assert [pg.kind for pg in pages] == ["text"]
