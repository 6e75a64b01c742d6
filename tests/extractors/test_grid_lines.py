"""Rules on page images (extractors/grid_lines.py): what is erased as a rule before OCR."""

from __future__ import annotations

import numpy as np
import pymupdf
import pytest

from rowkeeper.extractors.grid_lines import binarize, find_grids

HEADING = "Quarterly highlights to the board"


def _slide(dpi: int = 200) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """A slide-sized page: a 40 pt bold heading (stems 70+ px tall at 200 dpi), two short thin
    rules (30 pt, 1 pt thick) apart from it; the page image and the heading's box in pixels."""
    doc = pymupdf.open()
    page = doc.new_page(width=960, height=540)
    page.insert_text((40, 80), HEADING, fontsize=40, fontname="hebo")
    width = pymupdf.get_text_length(HEADING, fontname="hebo", fontsize=40)
    page.draw_line((40, 200), (70, 200), width=1)
    page.draw_line((120, 200), (120, 230), width=1)
    pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY, alpha=False)
    gray = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.stride)[:, :pix.width].copy()
    k = dpi / 72
    return gray, (int(40 * k), int(40 * k), int((40 + width) * k), int(92 * k))


def test_a_large_headings_stems_are_no_rules_and_short_rules_still_are() -> None:
    """The letters' stems (l, h, t, b, d) stand longer than a short rule; their ink is thick across,
    so they stay on the page for OCR (on the base they were erased as rules). Two 30 pt rules,
    1 pt thick, are erased."""
    gray, (x0, y0, x1, y1) = _slide()
    _, rules = find_grids(binarize(gray, despeckle=False), 200 / 72)
    assert not rules[y0:y1, x0:x1].any()
    k = 200 / 72
    assert rules[int(200 * k) - 2:int(200 * k) + 3, int(45 * k):int(65 * k)].any()
    assert rules[int(205 * k):int(225 * k), int(120 * k) - 2:int(120 * k) + 3].any()


def test_a_large_heading_on_a_scan_is_read_whole() -> None:
    """Read by OCR, the heading keeps its letters (on the base: `Guar er y ni 1 i ηs 0 ne ooarc`)."""
    pytest.importorskip("rapidocr")
    from rowkeeper.extractors.ocr_extractor import OcrExtractor

    gray, _ = _slide()
    _, lines, _ = OcrExtractor().read_image(gray)
    assert any(HEADING.replace(" ", "") == text.replace(" ", "") for text, _, _ in lines), [t for t, _, _ in lines]
