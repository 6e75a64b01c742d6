"""Line repairs from the image: real rendered text, character centers from PyMuPDF's glyph boxes."""

from __future__ import annotations

import numpy as np
import pymupdf
import pytest

from rowkeeper.extractors.grid_lines import despeckle
from rowkeeper.extractors.ocr_text import drop_speck_tokens, join_text, repair_line

DPI = 150


def _line(text: str, size: float = 9.0, face: str = "") -> tuple[np.ndarray, list[float], tuple[float, ...]]:
    """`text` rendered at 150 dpi (Helvetica, or a DejaVu face / font file `face`): grey image,
    x centers of its non-space glyphs, text box (px)."""
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=40)
    if face:
        page.insert_font(fontname="F", fontfile=FACES.get(face, face))
    page.insert_text((10, 25), text, fontsize=size, fontname="F" if face else "helv")
    pix = page.get_pixmap(dpi=DPI, colorspace=pymupdf.csGRAY)
    gray = np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.stride)[:, :pix.width].copy()
    k = DPI / 72
    chars = [c for b in page.get_text("rawdict")["blocks"] for ln in b["lines"] for s in ln["spans"]
             for c in s["chars"] if not c["c"].isspace()]
    centers = [(c["bbox"][0] + c["bbox"][2]) / 2 * k for c in chars]
    box = (8 * k, (25 - size * 1.1) * k, (chars[-1]["bbox"][2] + 3) * k, (25 + size * 0.4) * k)
    doc.close()
    return gray, centers, box


@pytest.mark.parametrize(("printed", "read", "want"), [
    ("Monitor arm", "Monitorarm", "Monitor arm"),        # a dropped word space comes back
    ("Table 1 Equipment", "Table1Equipment", "Table 1 Equipment"),
    ("1 137 Ft", "1137 Ft", "1 137 Ft"),                 # thousands group space
    ("1,5", "1.5", "1,5"),                               # comma read as a period
    ("12.50", "12,50", "12.50"),                         # period read as a comma
    ("Unit price", "Unit price", "Unit price"),          # spaced lines are left alone
    ("1111", "1111", "1111"),                            # wide-bearing digits are not split
    ("2026.03.11.", "2026.03.11.", "2026.03.11."),
])
def test_repair_line_from_the_image(printed: str, read: str, want: str) -> None:
    """The recogniser's reading, checked against the pixels of what was printed."""
    gray, centers, box = _line(printed)
    assert repair_line(read, centers, gray, box) == want


def test_speck_tokens_and_cjk_joins() -> None:
    """Lone dots at a line's ends go; CJK pieces join without spaces, others with one."""
    assert drop_speck_tokens("Unit price .") == "Unit price"
    assert drop_speck_tokens(": Stock") == "Stock"
    assert drop_speck_tokens("-") == "-" and drop_speck_tokens(".") == "."
    assert join_text(["管理", "費"]) == "管理費"
    assert join_text(["Sun", "Heights", "泉"]) == "Sun Heights 泉"


def test_despeckle_keeps_commas_and_drops_isolated_specks() -> None:
    """Isolated 1-2 px specks are whitened; a comma (a few px, beside digits) stays."""
    gray, _, _ = _line("1,5")
    noisy = gray.copy()
    noisy[2, 2] = noisy[5, 200] = noisy[6, 200] = 0
    clean = despeckle(noisy, 4)
    assert clean[2, 2] == 255 and clean[5, 200] == 255
    assert (clean == gray).all()


def test_restore_marks_takes_only_marks_the_plain_reading_lacks() -> None:
    """A second reading's đ/ơ/ư/ă come back where the first reads the plain letter; a mark the
    first reading has stays, and readings that spell different letters are left alone."""
    from rowkeeper.extractors.ocr_language import restore_marks

    assert restore_marks("Don gia", "Đơn giá") == "Đơn giá"
    assert restore_marks("Ma hang", "Mã hàng") == "Mã hàng"
    assert restore_marks("Số lượng", "Sõ luong") == "Số lượng"  # never replaces a mark
    assert restore_marks("Thiét bi", "Thit bi") == "Thiét bi"  # different letters: unchanged
    assert restore_marks("1.250", "1,250") == "1.250"  # not letters: unchanged


FACES = {"sans-bold": "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
         "serif": "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
         "condensed": "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed.ttf"}


def _face_line(text: str, face: str, size: float = 10.0) -> tuple[np.ndarray, list[float], tuple[float, ...]]:
    """`text` in a DejaVu face (or the font file `face`) at 150 dpi, slightly blurred as a scan:
    image, glyph centers, box."""
    import cv2

    gray, centers, box = _line(text, size, face)
    return cv2.GaussianBlur(gray, (3, 3), 0.6), centers, box


@pytest.mark.parametrize("face", ["sans-bold", "serif"])
def test_a_spaced_en_dash_read_as_a_hyphen_is_read_by_its_length(face: str) -> None:
    gray, centers, box = _face_line("Table 1 – Costs", face)
    assert repair_line("Table 1 - Costs", centers, gray, box) == "Table 1 – Costs"


@pytest.mark.parametrize("face", sorted(FACES))
@pytest.mark.parametrize(("printed", "read"), [
    ("Table 1 - Costs", "Table 1 - Costs"),   # a spaced hyphen stays one
    ("Table 1 – Costs", "Table 1 – Costs"),   # an en dash read right stays (condensed's is short)
    ("EN–DE 2019", "EN-DE 2019"),             # inside a word: as read
])
def test_other_dashes_stay_as_read(face: str, printed: str, read: str) -> None:
    gray, centers, box = _face_line(printed, face)
    assert repair_line(read, centers, gray, box) == read


def test_tesseract_reads_an_en_dash_by_its_length() -> None:
    """Tesseract reads every dash as "-": a caption's en dash comes back from its ink."""
    import shutil

    from rowkeeper.extractors.tesseract_engine import TesseractEngine

    if shutil.which("tesseract") is None:
        pytest.skip("tesseract not installed")
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=70)
    page.insert_font(fontname="F", fontfile=FACES["sans-bold"])
    page.insert_text((10, 25), "Bảng 1 – Chi phí vận hành", fontsize=10, fontname="F")
    page.insert_text((10, 55), "Bảng 2 - Chi phí vận hành", fontsize=10, fontname="F")
    pix = page.get_pixmap(dpi=DPI, colorspace=pymupdf.csGRAY)
    gray = np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.stride)[:, :pix.width].copy()
    texts = [b.text for b in TesseractEngine(("vi",)).read(gray)]
    assert texts == ["Bảng 1 – Chi phí vận hành", "Bảng 2 - Chi phí vận hành"]


IPA_GOTHIC = "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf"


@pytest.mark.parametrize(("printed", "read"), [
    ("地域別運営費 2019", "地域別運営費2019"),   # the space before a year, dropped by the recogniser
    ("売上 Q1 実績", "売上Q1実績"),
    ("表1取引先一覧", "表1取引先一覧"),           # no space printed: none read into it
    ("2022年10月9日", "2022年10月9日"),
    ("表1：取引先一覧", "表1：取引先一覧"),        # full-width punctuation carries its own blank
])
def test_a_space_between_cjk_and_latin_is_read_from_the_blank(printed: str, read: str) -> None:
    import os

    if not os.path.exists(IPA_GOTHIC):
        pytest.skip("IPA Gothic not installed")
    gray, centers, box = _face_line(printed, IPA_GOTHIC, size=12.0)
    assert repair_line(read, centers, gray, box) == printed
