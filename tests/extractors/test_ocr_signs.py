"""A sign after a figure on a scan (ocr_signs): the word space before it, the dong sign's bar."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pymupdf
import pytest

from rowkeeper.extractors.ocr_engines import OcrBox
from rowkeeper.extractors.ocr_extractor import OcrExtractor, OcrOptions
from rowkeeper.extractors.ocr_signs import signed_words
from rowkeeper.ids import sha256_file
from rowkeeper.models import DocumentInput
from samples.pdfgen import scanned_twin
from tests.extractors.ocr_fixtures import has_lang

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
pytestmark = pytest.mark.skipif(not DEJAVU.exists(), reason="DejaVu Sans (with ₫) is not installed")


def _line_image(parts: list[str], size: float = 10.0, dpi: int = 200) -> tuple[np.ndarray, list[OcrBox]]:
    """`parts` printed on one line a wide gap apart (a part's words: parted by "|"); the image and
    each word's glyph-tight box (as Tesseract gives it), read with ₫ taken for the letter đ."""
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=60)
    page.insert_font(fontname="DV", fontfile=str(DEJAVU))
    font = pymupdf.Font(fontfile=str(DEJAVU))
    x, spans = 20.0, []
    for p in parts:
        page.insert_text((x, 35), p.replace("|", ""), fontname="DV", fontsize=size)
        at = x
        for w in p.split("|"):
            spans.append((w.strip(), at + font.text_length(w[:len(w) - len(w.lstrip())], size),
                          at + font.text_length(w.rstrip(), size)))
            at += font.text_length(w, size)
        x = at + 40
    pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY, alpha=False)
    gray = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.stride)[:, :pix.width].copy()
    k, words = dpi / 72.0, []
    for p, x0, x1 in spans:
        crop = gray[:, int(x0 * k):int(x1 * k) + 2] < 128
        rows, cols = np.flatnonzero(crop.any(axis=1)), np.flatnonzero(crop.any(axis=0))
        box = (int(x0 * k) + float(cols[0]), float(rows[0]), int(x0 * k) + float(cols[-1] + 1), float(rows[-1] + 1))
        words.append(OcrBox(p.replace("₫", "đ"), box, 0.9))
    return gray, words


def test_a_spaced_sign_is_parted_and_the_underlined_letter_is_the_dong() -> None:
    gray, words = _line_image(["61,1 %", "8.253.113 ₫", "3.772.396| ₫"])
    words = [OcrBox(w.text.replace(" ", ""), w.box, w.score) for w in words]  # glued, as Tesseract reads them
    assert [w.text for w in signed_words(words, gray)] == ["61,1", "%", "8.253.113", "₫", "3.772.396", "₫"]


def test_an_unspaced_sign_and_a_plain_letter_stay() -> None:
    gray, words = _line_image(["61,1%", "8.253.113đ", "250| đ", "11%"])
    assert [w.text for w in signed_words(words, gray)] == ["61,1%", "8.253.113đ", "250", "đ", "11%"]


VI_ROWS = [("Hạ Long nhà máy 4645", "3.772.396 ₫", "61,1 %"), ("Vũng Tàu cửa hàng 5874", "9.046.782 ₫", "48,5 %"),
           ("Đà Lạt dây chuyền 5773", "8.253.113 ₫", "84,1 %"), ("Huế chi nhánh 1580", "756.322 ₫", "37,2 %"),
           ("Biên Hòa kho 9787", "1.659.488 ₫", "27,0 %")]


@pytest.mark.skipif(not has_lang("vie"), reason="tesseract with the vie pack is not installed")
def test_vietnamese_amounts_keep_the_dong_sign_and_their_spaces(tmp_path: Path) -> None:
    """A Vietnamese scan (read by Tesseract): amounts in dong and shares in percent read as
    printed (base: "8.253.113đ", "61,1%")."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_font(fontname="DV", fontfile=str(DEJAVU))
    font = pymupdf.Font(fontfile=str(DEJAVU))
    page.insert_text((42, 90), "Chi phí theo địa điểm", fontname="DV", fontsize=14)
    page.draw_line((42, 112), (553, 112), width=1.2)
    y = 128.0
    for key, amount, share in [("Địa điểm", "Chi phí (VNĐ)", "Tỷ trọng (%)"), *VI_ROWS]:
        page.insert_text((46, y), key, fontname="DV", fontsize=9.5)
        for right, text in ((400, amount), (540, share)):
            page.insert_text((right - font.text_length(text, 9.5), y), text, fontname="DV", fontsize=9.5)
        if y == 128.0:
            page.draw_line((42, y + 6), (553, y + 6), width=0.6)
        y += 18
    page.draw_line((42, y - 8), (553, y - 8), width=1.2)
    path = tmp_path / "vi.pdf"
    path.write_bytes(scanned_twin(doc.tobytes(), dpi=200, noise=0.01, rotate_deg=0.3, seed=5))
    scan = DocumentInput(path=str(path), source=path.name, doc_id=sha256_file(path))
    tables = OcrExtractor(OcrOptions()).extract(scan, [1]).tables
    assert len(tables) == 1, [t.grid() for t in tables]
    body = tables[0].grid()[1:]
    assert [r[1:] for r in body] == [[a, s] for _, a, s in VI_ROWS], body
