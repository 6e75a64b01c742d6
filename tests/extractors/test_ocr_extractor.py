"""The OCR layer on scanned twins of generated PDFs: grid shape and cell texts vs the text version."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from rowkeeper.extractors.ocr_extractor import OcrExtractor, OcrOptions, is_number
from rowkeeper.extractors.pymupdf_extractor import PyMuPDFExtractor
from rowkeeper.models import RawTable
from rowkeeper.protocols import Extractor
from rowkeeper.transforms.headers import piece_header_rows
from tests.extractors.ocr_fixtures import BORDERLESS, JAPANESE, RULED, truth, write_pair

pytest.importorskip("rapidocr")


@pytest.fixture(scope="module")
def scans(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder for this module's generated PDFs."""
    return tmp_path_factory.mktemp("ocr")


@pytest.fixture(scope="module")
def ocr() -> OcrExtractor:
    """One extractor (and so one loaded engine) for the module, default options (200 dpi)."""
    return OcrExtractor(OcrOptions())


def _only_table(tables: tuple[RawTable, ...]) -> RawTable:
    assert len(tables) == 1, [t.grid() for t in tables]
    return tables[0]


def test_ocr_layer_fits_the_extractor_protocol() -> None:
    """Registry shape: a name, the scanned kind, an Options model, a version."""
    ex = OcrExtractor()
    assert isinstance(ex, Extractor)
    assert ex.name == "ocr" and ex.handles == frozenset({"scanned"})
    assert ex.version.startswith("rapidocr-")


def test_ruled_scan_matches_the_text_version(scans: Path, ocr: OcrExtractor) -> None:
    """A 150 dpi, 0.6 degree, noisy scan of a ruled table reads back cell for cell."""
    text_doc, scan_doc = write_pair(scans, "ruled", RULED)
    text_table = _only_table(PyMuPDFExtractor().extract(text_doc, [1]).tables)
    got = ocr.extract(scan_doc, [1])
    table = _only_table(got.tables)
    assert (table.n_rows, table.n_cols) == (5, 4)
    assert table.grid() == truth(RULED)  # what the text version prints
    assert piece_header_rows(table, table.grid()) == 1  # the header model reads its label row as the header
    # the table's bbox lies where the text version's does (deskewed boxes mapped back to points)
    assert all(abs(a - b) < 6 for a, b in zip(table.bbox, text_table.bbox, strict=True))
    assert any("Equipment" in ln.text for ln in got.lines)  # the caption stays page text
    heading = next(ln for ln in got.lines if ln.text.startswith("1. Prices"))
    body = next(ln for ln in got.lines if ln.text.startswith("Figures below"))
    assert heading.font_size > body.font_size  # section paths rely on the size order
    assert 8 <= body.font_size <= 12


@pytest.mark.slow
def test_borderless_scan_matches_the_text_version(scans: Path, ocr: OcrExtractor) -> None:
    """A table without rules is found from the alignment of the OCR'd text."""
    _, scan_doc = write_pair(scans, "borderless", BORDERLESS)
    table = _only_table(ocr.extract(scan_doc, [1]).tables)
    assert (table.n_rows, table.n_cols) == (5, 5)
    assert table.grid() == truth(BORDERLESS)
    assert table.metrics["ruled"] == 0.0


@pytest.mark.slow
def test_japanese_scan_numbers_exact(scans: Path, ocr: OcrExtractor) -> None:
    """Japanese table: shape and every number exact; at most one name misread (dakuten)."""
    _, scan_doc = write_pair(scans, "japanese", JAPANESE)
    table = _only_table(ocr.extract(scan_doc, [1]).tables)
    want = truth(JAPANESE)
    assert (table.n_rows, table.n_cols) == (5, 3)
    got = table.grid()
    assert [r[1:] for r in got] == [r[1:] for r in want]
    assert got[0] == want[0]
    assert sum(g[0] != w[0] for g, w in zip(got, want, strict=True)) <= 1


@pytest.mark.slow
def test_tesseract_engine_reads_the_ruled_scan(scans: Path) -> None:
    """The Debian Tesseract alternative gives the same grid on the ruled scan."""
    import shutil

    if shutil.which("tesseract") is None:
        pytest.skip("tesseract not installed (scripts/install.sh test installs it)")
    _, scan_doc = write_pair(scans, "ruled_t", RULED)
    ex = OcrExtractor(OcrOptions(engine="tesseract", languages=("en",), dpi=200))
    table = _only_table(ex.extract(scan_doc, [1]).tables)
    assert table.grid() == truth(RULED)


def test_boxes_map_back_to_unrotated_page_points(scans: Path, ocr: OcrExtractor) -> None:
    """A /Rotate 90 page renders sideways; pixel boxes still map into unrotated page space."""
    _, scan_doc = write_pair(scans, "ruled_r", RULED)
    pdf = pymupdf.open(scan_doc.path)
    pdf[0].set_rotation(90)
    gray, frame, _ = ocr._render(scan_doc, pdf[0], 1)
    assert gray.shape[1] > gray.shape[0]  # rendered landscape
    h, w = gray.shape
    assert frame.to_points((0, 0, w, h)) == pytest.approx((0, 0, 595, 842), abs=1.5)
    # the rendered top-left corner is the unrotated page's bottom-left one
    x0, y0, x1, y1 = frame.to_points((0, 0, 10, 10))
    assert x0 < 6 and y1 > 830
    pdf.close()


def test_is_number_reads_business_numbers() -> None:
    """A cell reads as a number with separators, signs, percents and currency."""
    assert all(is_number(t) for t in ["1,250.00", "42", "-3.5", "(1,200)", "12%", "¥13,000"])
    assert not any(is_number(t) for t in ["Q1", "Item", "01-001 lamp", ""])


def test_rapidocr_never_downloads(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine loads the ONNX files inside the rapidocr wheel: its downloader is never called."""
    import numpy as np
    from rapidocr.utils import download_file

    from rowkeeper.extractors.ocr_engines import RapidOcrEngine

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("RapidOCR tried to download a model")

    monkeypatch.setattr(download_file.DownloadFile, "run", classmethod(refuse))
    engine = RapidOcrEngine(det_side=960, threads=1)  # a fresh one, not the process cache
    img = np.full((60, 240), 255, np.uint8)
    img[25:35, 20:220:12] = 0
    engine.read(img)
    assert engine.read_line([np.full((48, 96), 255, np.uint8)])[0][0] == ""
