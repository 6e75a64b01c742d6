"""Page classification on generated text, scanned, mixed, garbled, encrypted and broken PDFs.

These justify ClassifyConfig's defaults: a text page has hundreds of real characters and no
image; a scan has an image over ~100% of the page and none; the garbled twin keeps its
characters but 40% of them are control codes (threshold 10%).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rowkeeper.config import ClassifyConfig
from rowkeeper.errors import BadInput
from rowkeeper.extractors.classify import classify_document, document_kind, page_kind, text_stats
from samples import pdfgen
from tests.extractors.helpers import doc_for

CFG = ClassifyConfig()


def test_text_pdf_pages_are_text(pdf_dir: Path) -> None:
    pages = classify_document(doc_for(pdf_dir / "two_page.pdf"), CFG)
    assert [p.kind for p in pages] == ["text", "text"]
    assert pages[0].chars > 200 and pages[0].image_coverage == 0.0
    assert document_kind(pages) == "text"


def test_scanned_twin_is_scanned(pdf_dir: Path) -> None:
    (page,) = classify_document(doc_for(pdf_dir / "ruled_scanned.pdf"), CFG)
    assert page.kind == "scanned" and page.chars == 0 and page.image_coverage > 0.95


def test_garbled_text_layer_is_scanned(pdf_dir: Path) -> None:
    (page,) = classify_document(doc_for(pdf_dir / "ruled_garbled.pdf"), CFG)
    assert page.chars > CFG.min_chars_with_image / 2  # characters are there ...
    assert page.garbled_ratio > CFG.max_garbled_ratio  # ... but they are garbage
    assert page.kind == "scanned"


def test_mixed_document(pdf_dir: Path, tmp_path: Path) -> None:
    text = (pdf_dir / "two_page.pdf").read_bytes()
    path = tmp_path / "mixed.pdf"
    path.write_bytes(pdfgen.mixed(text, pdfgen.scanned_twin(text, dpi=72, noise=0.0), {2}))
    pages = classify_document(doc_for(path), CFG)
    assert [p.kind for p in pages] == ["text", "scanned"]
    assert document_kind(pages) == "mixed"


def test_encrypted_needs_a_password(pdf_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ROWKEEPER_PDF_PASSWORDS", raising=False)
    with pytest.raises(BadInput, match="encrypted"):
        classify_document(doc_for(pdf_dir / "ruled_encrypted.pdf"), CFG)
    assert classify_document(doc_for(pdf_dir / "ruled_encrypted.pdf"), CFG, ("secret",))[0].kind == "text"
    monkeypatch.setenv("ROWKEEPER_PDF_PASSWORDS", "nope,secret")
    assert classify_document(doc_for(pdf_dir / "ruled_encrypted.pdf"), CFG)[0].chars > 200


@pytest.mark.parametrize("name", ["corrupt.pdf", "not_a_pdf.pdf"])
def test_broken_files_are_bad_input(pdf_dir: Path, name: str) -> None:
    with pytest.raises(BadInput, match=name):
        classify_document(doc_for(pdf_dir / name), CFG)


def test_thresholds() -> None:
    assert page_kind(chars=1500, coverage=1.0, garbled=0.0, config=CFG) == "text"  # searchable scan
    assert page_kind(chars=50, coverage=0.9, garbled=0.0, config=CFG) == "scanned"
    assert page_kind(chars=5, coverage=0.1, garbled=0.0, config=CFG) == "scanned"
    assert page_kind(chars=0, coverage=0.0, garbled=0.0, config=CFG) == "text"  # blank page
    assert text_stats("(cid:12)(cid:7)(cid:9) ok")[1] == 0.6
    assert text_stats("Grüße, 管理費 and Tiếng Việt")[1] == 0.0
