"""Records wrapped over several lines in a borderless table on a scan read as one row each
(ocr_records.joined_records, ocr_runs' record rows and closing lines, ocr_tables.row_bands),
and Tesseract's runs measured like the detector's (tesseract_engine._padded)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from rowkeeper.extractors.ocr_engines import OcrBox
from rowkeeper.extractors.ocr_extractor import OcrExtractor, OcrOptions
from rowkeeper.extractors.ocr_tables import row_bands
from rowkeeper.ids import sha256_file
from rowkeeper.models import DocumentInput
from samples.pdfgen import scanned_twin
from tests.extractors.ocr_fixtures import has_lang

pytest.importorskip("rapidocr")

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
HEADER = ["Site", "Scope of service", "Volume", "Revenue", "Share (%)"]
RECORDS = [  # key, description lines, figures
    ("1053 Northgate plant", ["Yearly inspection of the", "cooling system, with a", "signed report"],
     ["50,228.50", "8,552,661", "30.4"]),
    ("8476 Harbour depot", ["Delivery of ventilation", "filters, with a signed", "report"], ["96,587.20", "409,311", "78.4"]),
    ("3335 Riverside line", ["Cleaning of the lifts,", "parts and labour"], ["36,510.93", "8,276,790", "30.2"]),
    ("1025 Westfield store", ["Repair of ceiling lights,", "with a signed report"], ["23,750.66", "676,278", "82.8"]),
]


def _font(page: pymupdf.Page) -> str:
    if DEJAVU.exists():
        page.insert_font(fontname="DV", fontfile=str(DEJAVU))
        return "DV"
    return "helv"


def _wrapped_page(path: Path, records: list, header: list[str], size: float = 9.5) -> DocumentInput:
    """A table ruled above, under its header and below only, whose description cells wrap over
    two or three lines, the figures set level with each record's middle line, as the zoo's
    wrapped bodies are."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    font = _font(page)
    xs, right = (42, 185, 330, 420, 500), (None, None, 400, 475, 553)
    measure = pymupdf.Font(fontfile=str(DEJAVU)) if DEJAVU.exists() else pymupdf.Font("helv")

    def put(k: int, y: float, text: str) -> None:
        x = xs[k] if right[k] is None else right[k] - measure.text_length(text, size)
        page.insert_text((x, y), text, fontname=font, fontsize=size)

    page.insert_text((42, 90), "Quarterly figures by site", fontname=font, fontsize=14)
    page.draw_line((42, 112), (553, 112), width=1.2)
    for k, label in enumerate(header):
        put(k, 126, label)
    page.draw_line((42, 132), (553, 132), width=0.6)
    y, lead = 150.0, size * 1.25
    for key, lines, figures in records:
        put(0, y, key)
        for i, line in enumerate(lines):
            put(1, y + i * lead, line)
        mid = y + (len(lines) - 1) * lead / 2
        for k, fig in enumerate(figures, start=2):
            put(k, mid, fig)
        y += len(lines) * lead + size * 1.1
    page.draw_line((42, y - size), (553, y - size), width=1.2)
    page.insert_text((42, y + 12), "Table 1: Services by site", fontname=font, fontsize=size)
    path.write_bytes(scanned_twin(doc.tobytes(), dpi=200, noise=0.01, rotate_deg=0.3, seed=3))
    return DocumentInput(path=str(path), source=path.name, doc_id=sha256_file(path))


def test_records_wrapped_over_lines_read_one_row_each(tmp_path: Path) -> None:
    """One table of a header and four rows: each description whole, its figures beside it, the
    last record's closing line in it (base: rows of lines, the figures on rows of their own)."""
    tables = OcrExtractor(OcrOptions()).extract(_wrapped_page(tmp_path / "w.pdf", RECORDS, HEADER), [1]).tables
    assert len(tables) == 1, [t.grid() for t in tables]
    grid = tables[0].grid()
    assert len(grid) == 1 + len(RECORDS), grid
    assert [r[0] for r in grid[1:]] == [key for key, _, _ in RECORDS]
    assert [r[1] for r in grid[1:]] == [" ".join(lines) for _, lines, _ in RECORDS]
    assert [r[2:] for r in grid[1:]] == [figures for _, _, figures in RECORDS]


def test_two_lines_of_one_cell_are_two_bands() -> None:
    """A figure line set between two lines of a wrapped cell joins one of them, and the two
    lines of the cell, each overlapping it by half, stay apart (pure)."""
    upper = OcrBox("parts and", (100, 100, 200, 130), 0.9)
    figure = OcrBox("36,510.93", (400, 112, 480, 142), 0.9)
    lower = OcrBox("labour", (100, 124, 170, 154), 0.9)
    bands = row_bands([upper, figure, lower])
    assert [[b.text for b in band] for band in bands] == [["parts and", "36,510.93"], ["labour"]]



VI_HEADER = ["Hạng mục", "Phạm vi dịch vụ", "Khối lượng", "Doanh thu", "Tỷ trọng (%)"]
VI_RECORDS = [
    ("1053 Nam Định nhà máy", ["Kiểm tra hằng năm hệ", "thống làm mát, kèm", "biên bản kiểm tra"],
     ["50.228,50", "8.552.661", "30,4"]),
    ("8476 Hà Nội nhà máy", ["Giao hàng bộ lọc thông", "gió, kèm biên bản"], ["96.587,20", "409.311", "78,4"]),
    ("3335 Nha Trang kho", ["Vệ sinh thang máy, bao", "gồm vật tư và nhân công"], ["36.510,93", "8.276.790", "30,2"]),
    ("1025 Vũng Tàu kho", ["Sửa chữa đèn trần LED,", "kèm biên bản kiểm tra"], ["23.750,66", "676.278", "82,8"]),
]


@pytest.mark.skipif(not has_lang("vie"), reason="tesseract with the vie pack is not installed")
def test_tesseract_words_of_a_key_stay_one_column(tmp_path: Path) -> None:
    """A Vietnamese page (read by Tesseract): a key's number and name, a word space apart on
    every row, are one column (base: Tesseract's glyph-tight boxes made the word space read as
    a column gap, and the key column parted in two)."""
    scan = _wrapped_page(tmp_path / "vi.pdf", VI_RECORDS, VI_HEADER)
    tables = OcrExtractor(OcrOptions()).extract(scan, [1]).tables
    assert len(tables) == 1, [t.grid() for t in tables]
    grid = tables[0].grid()
    assert len(grid[0]) == len(VI_HEADER), grid
    assert [r[0] for r in grid[1:]] == [key for key, _, _ in VI_RECORDS]


SERIF = DEJAVU.with_name("DejaVuSerif.ttf")
SLIDE_HEADER = ["Category", "Results", "Owner", "Due"]
SLIDE_RECORDS = [  # key, bullet lines, owner, date
    ("Regional sales", ["Maintenance schedule"], "Oak Hill", "2024-07-23"),
    ("Outlook", ["Supplier overview", "Key indicators"], "North Ridge", "2026-07-07"),
    ("Results", ["Supplier overview", "Headcount and budget", "Key indicators"], "Stone Bridge", "2022-02-06"),
    ("Maintenance", ["Energy consumption"], "Harbor View", "2026-03-17"),
]


def _slide_page(path: Path, size: float = 16.0, ruled: bool = True) -> DocumentInput:
    """A slide's table: a record's second cell a list, one item a line (the zoo's slides). Ruled:
    a rule across the table under the header and under each record, set close to the text, the
    list's leading loose (the white between records as narrow as inside one). Unruled: the records
    apart by more white than the lines."""
    doc = pymupdf.open()
    page = doc.new_page(width=960, height=540)
    font, bold = "helv", "hebo"
    if SERIF.exists():
        page.insert_font(fontname="DVS", fontfile=str(SERIF))
        page.insert_font(fontname="DVSB", fontfile=str(SERIF.with_name("DejaVuSerif-Bold.ttf")))
        font, bold = "DVS", "DVSB"
    xs, lead, pad = (40, 248, 548, 742), size * (1.45 if ruled else 1.3), 2 if ruled else 4
    page.insert_text((40, 75), "Maintenance schedule", fontname=bold, fontsize=30)
    for x, label in zip(xs, SLIDE_HEADER, strict=True):
        page.insert_text((x, 125), label, fontname=bold, fontsize=size)
    y = 125 + size * 0.35 + pad
    page.draw_line((38, y), (920, y), width=0.6)
    for key, bullets, owner, due in SLIDE_RECORDS:
        top = y + pad + size * 0.95
        for x, text in ((xs[0], key), (xs[2], owner), (xs[3], due)):
            page.insert_text((x, top), text, fontname=font, fontsize=size)
        for i, b in enumerate(bullets):
            page.insert_text((xs[1], top + i * lead), b, fontname=font, fontsize=size)
        y = top + (len(bullets) - 1) * lead + size * 0.35 + pad
        if ruled:
            page.draw_line((38, y), (920, y), width=0.6)
    path.write_bytes(scanned_twin(doc.tobytes(), dpi=200, noise=0.01, rotate_deg=0.2, seed=5))
    return DocumentInput(path=str(path), source=path.name, doc_id=sha256_file(path))


@pytest.mark.parametrize("ruled", [True, False])
def test_records_of_list_lines_read_one_row_each(tmp_path: Path, ruled: bool) -> None:
    """A slide's table whose list cells hold an item a line: each record one row, its items one
    cell (base: a row per line, the key and the other cells blank on the lines after the first).
    The detector's padded boxes leave less white between records than the leading inside one:
    the rules across the table tell the records, or, unruled, the white between the lines' ink."""
    tables = OcrExtractor(OcrOptions()).extract(_slide_page(tmp_path / "s.pdf", ruled=ruled), [1]).tables
    assert len(tables) == 1, [t.grid() for t in tables]
    grid = tables[0].grid()
    assert len(grid) == 1 + len(SLIDE_RECORDS), grid
    assert [r[0] for r in grid[1:]] == [key for key, _, _, _ in SLIDE_RECORDS]
    assert [r[1] for r in grid[1:]] == [" ".join(bs) for _, bs, _, _ in SLIDE_RECORDS]
    assert [r[2:] for r in grid[1:]] == [[owner, due] for _, _, owner, due in SLIDE_RECORDS]
