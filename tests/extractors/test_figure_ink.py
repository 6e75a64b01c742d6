"""A figure's marks read from its ink where the recogniser dropped or misread them (figure_ink)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pymupdf
import pytest

from rowkeeper.extractors.figure_ink import figures_marked
from rowkeeper.extractors.ocr_engines import OcrBox

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


def _figures(printed: list[str], read: list[str], dpi: int = 200) -> list[str]:
    """`printed` set on one line at 9 pt, rendered at `dpi`; each one's glyph-tight box given
    the text `read` (as Tesseract's words), and what `figures_marked` makes of them."""
    doc = pymupdf.open()
    page = doc.new_page(width=500, height=50)
    font = pymupdf.Font(fontfile=str(DEJAVU)) if DEJAVU.exists() else pymupdf.Font("helv")
    page.insert_font(fontname="F", fontbuffer=font.buffer)
    x, spans = 20.0, []
    for p in printed:
        page.insert_text((x, 30), p, fontname="F", fontsize=9)
        spans.append((x, x + font.text_length(p, 9)))
        x += font.text_length(p, 9) + 30
    pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY, alpha=False)
    gray = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.stride)[:, :pix.width].copy()
    k, words = dpi / 72.0, []
    for (x0, x1), text in zip(spans, read, strict=True):
        crop = gray[:, int(x0 * k):int(x1 * k) + 2] < 128
        rows, cols = np.flatnonzero(crop[:, :].any(axis=1)), np.flatnonzero(crop.any(axis=0))
        # Tesseract's box hugs the digits: a mark's tail it dropped may stand outside it
        digits_bottom = rows[0] + round(0.72 * 9 * k)
        box = (int(x0 * k) + float(cols[0]), float(rows[0]), int(x0 * k) + float(cols[-1] + 1), float(digits_bottom))
        words.append(OcrBox(text, box, 0.9))
    return [w.text for w in figures_marked(words, gray)]


@pytest.mark.parametrize("dpi", [150, 200])
def test_marks_dropped_or_misread_are_read_from_the_ink(dpi: int) -> None:
    printed = ["75.982,7", "1.836,95", "61,1", "492.251"]
    assert _figures(printed, ["75.9827", "1836/95", "611", "492251"], dpi) == printed


def test_figures_read_right_and_figures_without_marks_stay() -> None:
    printed = ["75.982,7", "492251", "2026", "(1,250.50)"]
    assert _figures(printed, printed) == printed
