"""The PDF outline reader: bookmarks with their page and place, skipped levels repaired."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from rowkeeper.extractors.outline import outline_of, read_outline
from rowkeeper.flows.pipeline import load_document

GOTO = pymupdf.LINK_GOTO


def _pdf_with_toc(path: Path, toc: list) -> Path:
    pdf = pymupdf.open()
    for i in range(3):
        pdf.new_page().insert_text((72, 100), f"page {i + 1}")
    pdf.set_toc(toc)
    pdf.save(path)
    return path


def test_outline_entries_with_page_place_and_levels(tmp_path: Path) -> None:
    path = _pdf_with_toc(tmp_path / "toc.pdf", [
        [1, "Handbook", 1, {"kind": GOTO, "page": 0, "to": pymupdf.Point(72, 60)}],
        [2, "3. Managed properties", 2, {"kind": GOTO, "page": 1, "to": pymupdf.Point(72, 400)}],
        [1, "Appendix", 3],
    ])
    entries = read_outline(load_document(str(path)))
    assert [(e.level, e.title, e.page) for e in entries] == [
        (1, "Handbook", 1), (2, "3. Managed properties", 2), (1, "Appendix", 3)]
    assert entries[1].top == pytest.approx(400)


def test_outline_skipped_levels_dangling_and_blank_entries() -> None:
    # get_toc's shape; PyMuPDF's set_toc refuses a level jump, but producers write them
    toc = [[1, "Part A", 1], [3, "Chapter 1", 1], [2, "Chapter 2", 2], [1, "  ", 1],
           [1, "Beyond the end", 9], [1, "Part  B", 2, {"kind": GOTO, "page": 1, "to": None}]]
    assert [(e.level, e.title, e.page) for e in outline_of(toc, page_count=2)] == [
        (1, "Part A", 1), (2, "Chapter 1", 1), (2, "Chapter 2", 2), (1, "Part B", 2)]


def test_no_outline_reads_as_empty(tmp_path: Path) -> None:
    pdf = pymupdf.open()
    pdf.new_page().insert_text((72, 100), "no bookmarks here")
    path = tmp_path / "plain.pdf"
    pdf.save(path)
    assert read_outline(load_document(str(path))) == ()
