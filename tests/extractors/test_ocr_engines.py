"""The OCR engines' cheaper steps: detection over the inked part of a page only, character
centres from the recogniser's own frame positions, Tesseract read on the inked part; each
giving the figures the full-cost step gave."""

from __future__ import annotations

import copy
import shutil

import numpy as np
import pymupdf
import pytest

from rowkeeper.extractors import grid_lines, ocr_engines
from rowkeeper.extractors.ocr_engines import (
    content_box,
    detect_in_content,
    get_engine,
)
from rowkeeper.extractors.tesseract_engine import TesseractEngine
from tests.extractors.ocr_fixtures import RULED, write_pair

pytest.importorskip("rapidocr")


def _page_image(path: str, dpi: int = 200) -> np.ndarray:
    """The page rendered and despeckled as the OCR layer hands it to an engine."""
    pix = pymupdf.open(path)[0].get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY, alpha=False)
    gray = np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.stride)[:, :pix.width]
    return grid_lines.despeckle(np.ascontiguousarray(gray), 6).copy()


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, np.ndarray]:
    """The ruled table's text PDF, and its 150 dpi scanned twin rendered at 200 dpi (a table at
    the top of an otherwise blank page)."""
    text, scan = write_pair(tmp_path_factory.mktemp("engines"), "ruled", RULED)
    return text.path, _page_image(scan.path)


@pytest.fixture(scope="module")
def ruled_scan(pair: tuple[str, np.ndarray]) -> np.ndarray:
    """The scanned twin's page image."""
    return pair[1]


def _printed_at(path: str, word: str, dpi: int = 200) -> tuple[float, ...]:
    """Where the text version prints `word`, in pixels of a `dpi` render."""
    rect = pymupdf.open(path)[0].search_for(word)[0]
    return tuple(v * dpi / 72 for v in rect)


def test_content_box_holds_the_ink_and_nothing_of_a_blank_page() -> None:
    page = np.full((2339, 1654), 236, np.uint8)
    assert content_box(page) == (0, 0, 1654, 2339)  # no ink: the whole image
    rng = np.random.default_rng(1)
    noisy = np.clip(page + rng.normal(0, 9, page.shape), 0, 255).astype(np.uint8)
    assert content_box(noisy) == (0, 0, 1654, 2339)  # sensor noise is no ink
    noisy[400:430, 300:700] = 40  # a line of dark text
    noisy[1200:1210, 900:960] = 170  # a faint grey mark further down
    x0, y0, x1, y1 = content_box(noisy)
    pad = round(0.05 * 2339)
    # around both marks with the padding, to within one cell of the 4x smaller copy it is read on
    assert all(abs(got - want) <= 4 for got, want in zip((x0, y0, x1, y1), (300 - pad, 400 - pad, 960 + pad, 1210 + pad),
                                                         strict=True)), (x0, y0, x1, y1)


def test_detection_on_the_inked_part_reads_every_cell_where_it_is(pair: tuple[str, np.ndarray]) -> None:
    text_path, scan = pair
    x0, y0, x1, y1 = content_box(scan)
    assert (x1 - x0) * (y1 - y0) < 0.5 * scan.size  # the page is mostly blank: most of it is skipped
    words = get_engine("rapidocr", ("en", "ja"), 960, 1, inked_only=True).read(scan)
    texts = [w.text for w in words]
    for row in RULED.rows:
        assert all(cell in texts for cell in row), (row, texts)
    # boxes come back in page pixels, where the text version prints the word (the twin is tilted)
    lamp = next(w for w in words if w.text == "Desk lamp")
    mx, my = (lamp.box[0] + lamp.box[2]) / 2, (lamp.box[1] + lamp.box[3]) / 2
    px0, py0, px1, py1 = _printed_at(text_path, "Desk lamp")
    assert abs(mx - (px0 + px1) / 2) < 15 and abs(my - (py0 + py1) / 2) < 15


def test_detection_over_an_image_inked_to_its_edges_is_rapidocrs_own(ruled_scan: np.ndarray) -> None:
    """Where the ink reaches every edge the part is the whole image: boxes identical to RapidOCR's."""
    engine = get_engine("rapidocr", ("en", "ja"), 960, 1)
    img = np.dstack([ruled_scan] * 3).copy()
    for y, x in ((5, 5), (5, -65), (-15, 5), (-15, -65)):  # a mark in each corner
        img[y:y + 10 if y > 0 else None, x:x + 60 if x > 0 else None] = 0
    det = engine._ocr._load_det_model()  # noqa: SLF001
    ours, theirs = detect_in_content(det, img), det(img)
    assert np.array_equal(ours.boxes, theirs.boxes) and ours.scores == theirs.scores


def test_char_centres_are_those_of_rapidocrs_own_char_boxes(ruled_scan: np.ndarray) -> None:
    from rapidocr import RapidOCR

    ocr = get_engine("rapidocr", ("en", "ja"), 960, 1)._ocr  # noqa: SLF001
    img, record = ocr.preprocess_img(np.dstack([ruled_scan] * 3))
    crops, det = ocr.detect_and_crop(img, record)
    ocr.return_word_box = ocr.return_single_char_box = True  # what RapidOcrEngine.read asks for
    rec = ocr.recognize_txt(crops)
    ours = ocr.calc_word_boxes(crops, det.boxes, copy.deepcopy(rec))
    theirs = RapidOCR.calc_word_boxes(ocr, crops, copy.deepcopy(det.boxes), rec)
    assert len(ours) == len(theirs) == len(crops) > 20
    want = [[float(np.asarray(b, dtype=float)[:, 0].mean()) for _, _, b in line] for line in theirs]
    assert [list(c.xs) for c in ours] == want


def test_tesseract_reads_the_inked_part_in_page_pixels(pair: tuple[str, np.ndarray],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    if shutil.which("tesseract") is None:
        pytest.skip("tesseract not installed (scripts/install.sh test installs it)")
    text_path, scan = pair
    engine = TesseractEngine(("en",))
    words = engine.read(scan)
    monkeypatch.setattr(ocr_engines, "content_box", lambda g: (0, 0, g.shape[1], g.shape[0]))
    whole = engine.read(scan)
    assert [w.text for w in words] == [w.text for w in whole]  # the blank margins held nothing
    assert "Desk lamp" in [w.text for w in words] and "1,250.00" in [w.text for w in words]
    lamp = next(w for w in words if w.text == "Desk lamp")
    px0, py0, px1, py1 = _printed_at(text_path, "Desk lamp")
    assert abs(lamp.box[0] - px0) < 12 and abs(lamp.box[1] - py0) < 12 and abs(lamp.box[2] - px1) < 12


def test_recognition_widest_first_reads_every_line_as_rapidocr_does(ruled_scan: np.ndarray) -> None:
    """Batch by batch from the widest, read to the end: RapidOCR's own batches, the same reading."""
    engine = get_engine("rapidocr", ("en", "ja"), 960, 1)
    shares: list[float] = []

    def never(texts: list[str], read: float) -> bool:
        shares.append(read)
        return False

    ours, theirs = engine.read(ruled_scan, enough=never), engine.read(ruled_scan)
    assert [(w.text, w.box) for w in ours] == [(w.text, w.box) for w in theirs]
    assert shares == sorted(shares) and 0 < shares[0] < shares[-1] < 1  # asked after each batch but the last


def test_recognition_stops_once_enough_leaving_the_narrower_lines_unread(ruled_scan: np.ndarray) -> None:
    engine = get_engine("rapidocr", ("en", "ja"), 960, 1)
    whole = engine.read(ruled_scan)
    first = engine.read(ruled_scan, enough=lambda texts, read: True)
    assert 0 < len(first) <= 4 < len(whole)  # one batch of RapidOCR's (ocr_engines.REC_BATCH)
    width = {w.text: (w.box[2] - w.box[0]) / (w.box[3] - w.box[1]) for w in whole}
    narrowest_read = min(width[w.text] for w in first)
    assert sum(r > narrowest_read for r in width.values()) <= 4  # those read are the widest lines
    assert {w.text for w in first} <= set(width)


def test_lines_narrowed_for_recognition_read_the_same(ruled_scan: np.ndarray) -> None:
    """Recognition on lines squeezed to 0.8 of their width (the default, ~0.8 of its CPU) reads
    every run of the ruled scan as at full width, decimal marks and spaces included."""
    full = get_engine("rapidocr", ("en", "ja"), 960, 1)
    narrow = get_engine("rapidocr", ("en", "ja"), 960, 1, rec_width=0.8)
    assert [(w.text, w.box) for w in narrow.read(ruled_scan)] == [(w.text, w.box) for w in full.read(ruled_scan)]
    assert [c.shape for c in ocr_engines.narrowed([np.zeros((40, 100, 3), np.uint8)], 0.8)] == [(40, 80, 3)]


def test_tesseract_words_made_of_a_titles_marks_are_dropped() -> None:
    """Tesseract read a 20 pt bold Vietnamese title's tone marks as a line of words of their
    own above it ("L) “+ FAŠ `", boxes as read on a zoo twin, 200 dpi) and they ended the
    title's phrase; a running header above the title and a footnote mark beside it stay."""
    from rowkeeper.extractors.ocr_engines import OcrBox
    from rowkeeper.extractors.tesseract_engine import _phrases, _without_marks_read_as_words

    def word(text: str, x: float, y: float, w: float, h: float, conf: float = 0.95) -> OcrBox:
        return OcrBox(text, (x, y, x + w, y + h), conf)

    title = [word("Chi", 112, 217, 79, 41), word("phí", 214, 217, 77, 52), word("vận", 312, 227, 93, 42),
             word("hành", 428, 217, 127, 41), word("theo", 575, 217, 119, 41), word("khu", 716, 217, 93, 41),
             word("vực", 829, 224, 90, 44), word("2019", 941, 218, 127, 40)]
    marks = [word("L)", 178, 211, 13, 21, 0.54), word("“+", 280, 211, 16, 21, 0.36),
             word("FAŠ", 346, 211, 25, 21, 0.64), word("`", 466, 215, 12, 10, 0.68)]
    others = [word("Report", 112, 150, 60, 18), word("1", 1072, 212, 10, 16)]
    kept = _phrases(_without_marks_read_as_words(title + marks + others))
    assert [p.text for p in kept] == ["Report", "Chi phí vận hành theo khu vực 2019 1"]
    # a word of the line above, a leading (12 px) over a taller marked word, is no mark
    prose = [word("so", 243, 1046, 24, 15), word("tổng", 249, 1073, 50, 28)]
    assert [w.text for w in _without_marks_read_as_words(prose)] == ["so", "tổng"]
