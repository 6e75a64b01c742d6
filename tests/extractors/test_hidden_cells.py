"""A table cell holds what the page shows (issue 13): text a reader cannot see is no cell text.

Business PDFs carry text nobody sees inside tables: keywords or a label's copy printed white on a
white cell (search bait, template residue), and text drawn with no ink (render mode 3) outside
an OCR layer. The page model's lines left white-on-white out; the cells were read by the word
reader and by find_tables' chars, which read it. Both kinds are left out of a ruled grid
(find_tables) and of a borderless table (the finder's words). Over a scan, inkless text is the
page's OCR layer: that is the text, and it is read.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

import rowkeeper
from rowkeeper.extractors.pdfplumber_extractor import PdfplumberExtractor
from tests.extractors.finder.layout import new_page, put, width
from tests.extractors.helpers import doc_for

HEADER = ("Property", "City", "Rent", "Notes")
ROWS = [("Sun Heights", "Osaka", "13,000", "corner"), ("Green Court", "Kobe", "11,500", ""),
        ("River Side", "Kyoto", "12,200", "parking"), ("Hill Top", "Nara", "9,800", ""),
        ("Park View", "Sakai", "10,400", "garden")]
XS = (72.0, 190.0, 300.0, 390.0, 500.0)
KEYWORD = "cheap apartment rental"
PROSE = ["The properties below are managed under the standard contract of the company. Rents",
         "are monthly and exclude the repair reserve, which is charged with the management fee",
         "at the start of each quarter. Notes list what each property offers beside its rooms."]


def _hidden(page: pymupdf.Page, x: float, y: float, text: str, how: str) -> None:
    """`text` a reader cannot see: white on the page's white, or with no ink (render mode 3)."""
    if how == "white":
        page.insert_text((x, y), text, fontsize=9, fontname="sans", color=(1, 1, 1))
    else:
        page.insert_text((x, y), text, fontsize=9, fontname="sans", render_mode=3)


def table_page(path: Path, how: str, ruled: bool) -> Path:
    """A four-column table (ruled, or borderless under a bold header): a hidden keyword after
    two cities, and a hidden copy of a label in two empty Notes cells."""
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 72, 80, "Managed properties", size=12, face="bold")
    ys = [110 + 18 * k for k in range(len(ROWS) + 2)]
    if ruled:
        for x in XS:
            page.draw_line((x, ys[0]), (x, ys[-1]))
        for y in ys:
            page.draw_line((XS[0], y), (XS[-1], y))
    for x, head in zip(XS, HEADER, strict=False):
        put(page, x + 4, ys[0] + 12, head, face="bold" if not ruled else "sans")
    for k, row in enumerate(ROWS):
        y = ys[k + 1] + 12
        put(page, XS[0] + 4, y, row[0])
        put(page, XS[1] + 4, y, row[1])
        put(page, XS[3] - 4, y, row[2], align="right")
        put(page, XS[3] + 4, y, row[3])
        if k in (0, 2):  # search bait after the city, inside its cell
            _hidden(page, XS[1] + 4 + width(row[1]) + 3, y, KEYWORD[:14] if ruled else "cheap", how)
        if not row[3]:  # a label's copy left in an empty cell
            _hidden(page, XS[3] + 4, y, "Rent", how)
    doc.save(path)
    return path


@pytest.mark.parametrize("how", ["white", "mode3"])
@pytest.mark.parametrize("ruled", [True, False], ids=["ruled", "borderless"])
def test_hidden_text_in_cells_is_not_read(tmp_path: Path, how: str, ruled: bool) -> None:
    (table,) = rowkeeper.extract(str(table_page(tmp_path / f"{how}.pdf", how, ruled))).tables
    assert table.columns == HEADER
    assert [list(r) for r in table.rows] == [list(r) for r in ROWS]


def ocr_page(path: Path) -> Path:
    """A scan (an image over the whole page) under its OCR layer: the table's text in render
    mode 3 over the image, as an OCR tool writes it."""
    doc = pymupdf.open()
    page = new_page(doc)
    pix = pymupdf.Pixmap(pymupdf.csGRAY, pymupdf.IRect(0, 0, 60, 85), False)
    pix.set_rect(pix.irect, (240,))
    page.insert_image(page.rect, pixmap=pix)
    for k, line in enumerate(PROSE):  # enough text for classification to keep its text layer
        _hidden(page, 72, 70 + 12 * k, line, "mode3")
    ys = [140 + 18 * k for k in range(len(ROWS) + 2)]
    for x, head in zip(XS, HEADER, strict=False):
        _hidden(page, x + 4, ys[0] + 12, head, "mode3")
    for k, row in enumerate(ROWS):
        y = ys[k + 1] + 12
        for x, text in ((XS[0] + 4, row[0]), (XS[1] + 4, row[1]), (XS[3] + 4, row[3])):
            if text:
                _hidden(page, x, y, text, "mode3")
        _hidden(page, XS[3] - 4 - width(row[2]), y, row[2], "mode3")
    doc.save(path)
    return path


def test_an_ocr_layer_over_its_scan_is_read(tmp_path: Path) -> None:
    record = rowkeeper.extract(str(ocr_page(tmp_path / "scan.pdf")))
    (table,) = record.tables
    assert [r[:3] for r in table.rows] == [r[:3] for r in ROWS]


@pytest.mark.parametrize("how", ["white", "mode3"])
def test_pdfplumber_reads_no_hidden_text_in_cells(tmp_path: Path, how: str) -> None:
    path = table_page(tmp_path / f"{how}.pdf", how, ruled=True)
    (table,) = PdfplumberExtractor().extract(doc_for(path), [1]).tables
    assert [list(r) for r in table.grid()[1:]] == [list(r) for r in ROWS]
