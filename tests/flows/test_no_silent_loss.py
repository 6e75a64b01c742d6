"""No text dropped silently: every page whose text is readable ends in a chunk or a table, or
the document says which page did not (documents.jsonl `warnings`, counted in report.json)."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from rowkeeper.config import Config
from rowkeeper.flows.pipeline import load_document, process_document


def _pdf(path: Path, pages: list[list[tuple[str, str]]]) -> Path:
    """A PDF with (text, font) lines per page, 14 pt apart (font: helv or hebo, i.e. bold)."""
    doc = pymupdf.open()
    for lines in pages:
        page = doc.new_page(width=595, height=842)
        for i, (text, font) in enumerate(lines):
            page.insert_text((72, 90 + 16 * i), text, fontname=font, fontsize=11)
    doc.save(path)
    return path


def _run(path: Path):
    result = process_document(load_document(str(path)), Config())
    assert result.document.status == "ok", result.document.error
    text = "\n".join(c.text for c in result.chunks)
    return result, text


def test_an_all_bold_document_keeps_its_paragraphs(tmp_path: Path):
    lines = [(f"Clause {i}: the tenant pays the fee on day {i} of the month", "hebo") for i in range(1, 9)]
    result, text = _run(_pdf(tmp_path / "bold.pdf", [lines, lines[::-1]]))
    assert "the tenant pays the fee on day 7 of the month" in text
    assert result.document.warnings == ()


def test_the_same_text_on_every_page_is_kept_where_it_is_all_the_page_has(tmp_path: Path):
    notice = [("Notice of annual meeting of the owners association", "helv"),
              ("All owners are invited to the hall on the first floor", "helv")]
    result, text = _run(_pdf(tmp_path / "same.pdf", [notice, notice, notice]))
    assert "All owners are invited to the hall on the first floor" in text
    assert {p for c in result.chunks for p in c.metadata["pages"]} == {1, 2, 3}
    assert result.document.warnings == ()


def test_running_headers_and_page_numbers_are_still_dropped(tmp_path: Path):
    topics = ("revenue growth", "staff costs", "the new warehouse")
    pages = [[("ACME Holdings annual report", "helv"), (f"This page is about {t}", "helv"),
              (f"{n}", "helv")] for n, t in enumerate(topics, 1)]
    result, text = _run(_pdf(tmp_path / "furniture.pdf", pages))
    assert "This page is about staff costs" in text
    assert "ACME Holdings annual report" not in text
    assert result.document.warnings == ()


def test_a_page_of_headings_only_is_kept(tmp_path: Path):
    body = [("An ordinary paragraph of body text that explains the terms in detail.", "helv")] * 3
    heads = [("Annex A", "hebo"), ("Schedule of fees", "hebo")]
    result, text = _run(_pdf(tmp_path / "heads.pdf", [body, heads]))
    assert "Schedule of fees" in "\n".join(c.text for c in result.chunks if 2 in c.metadata["pages"])
    assert result.document.warnings == ()


def test_a_blank_scan_is_reported_not_silent(tmp_path: Path):
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 400, 560), 0)
    pix.clear_with(255)
    page.insert_image(page.rect, pixmap=pix)
    doc.save(tmp_path / "blank_scan.pdf")
    result = process_document(load_document(str(tmp_path / "blank_scan.pdf")), Config())
    assert result.document.warnings == ("page 1: scanned page, no layer read any text",)


def test_a_garbled_text_layer_no_layer_could_read_is_reported(tmp_path: Path, monkeypatch):
    """A page whose text layer is mostly garbage (control characters) is read by OCR instead;
    when OCR is cut off at its deadline and no other scanned layer is there, the page's content
    reached nothing: the warning must say so, not only that OCR was cut off."""
    from tests.hostile import rawpdf

    text = "Meter reading 4821 " + "\x01\x02\x03\x04\x05\x06" * 3
    (tmp_path / "garbled.pdf").write_bytes(rawpdf.pages_pdf([rawpdf.text_content(text)]))
    monkeypatch.setenv("ROWKEEPER_HANG_AT", "layer:ocr:1")
    config = Config.model_validate({"extract": {"options": {"cascade": {"page_budget_s": 3}}}})
    result = process_document(load_document(str(tmp_path / "garbled.pdf")), config)
    rec = result.document
    assert rec.status == "ok" and rec.pages[0].kind == "scanned" and rec.pages[0].image_coverage == 0
    assert result.chunks == ()
    assert "page 1: scanned page, no layer read any text" in rec.warnings
