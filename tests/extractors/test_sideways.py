"""Sideways pages: a ruled table printed at 90 degrees on a portrait page is read upright."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from rowkeeper.extractors.page_features import rules_of_page
from rowkeeper.extractors.pymupdf_extractor import PyMuPDFExtractor
from tests.extractors.helpers import doc_for, draw_grid, text_extractors

ROWS = [("Region", "Units", "Revenue"), ("North", "120", "4,300"), ("South", "95", "3,150"),
        ("East", "240", "8,020"), ("West", "61", "1,990")]


def _landscape_table() -> pymupdf.Document:
    """An upright landscape page holding a fully ruled 3-column table."""
    src = pymupdf.open()
    page = src.new_page(width=792, height=612)
    x = [100, 260, 400, 560]
    y = [100 + 24 * i for i in range(len(ROWS) + 1)]
    draw_grid(page, x, y, ROWS)
    return src


@pytest.mark.parametrize("rotate", [90, -90])
def test_sideways_ruled_table_read_upright(tmp_path: Path, rotate: int) -> None:
    src = _landscape_table()
    out = pymupdf.open()
    out.new_page(width=612, height=792).show_pdf_page(pymupdf.Rect(0, 0, 612, 792), src, 0, rotate=rotate)
    path = tmp_path / f"sideways{rotate}.pdf"
    out.save(path)
    tables = PyMuPDFExtractor().extract(doc_for(path), [1]).tables
    assert len(tables) == 1
    assert [tuple(r) for r in tables[0].grid()] == ROWS
    # provenance stays on the page as printed (portrait): the box is taller than wide
    x0, top, x1, bottom = tables[0].bbox
    assert 0 <= x0 < x1 <= 612 and 0 <= top < bottom <= 792 and bottom - top > x1 - x0


WIDE = [("Name", "City", "State", "Zip", "Date", "Amount"),
        ("Lidstad", "Saint Paul", "MN", "55104", "10/12/2012", "60.00"),
        ("Strom", "St. Paul", "MN", "55104", "9/12/2012", "60.00"),
        ("Seeba", "Saint Paul", "MN", "55108", "10/12/2012", "60.00")]


@pytest.mark.parametrize("extractor", text_extractors(), ids=lambda e: e.name)
def test_rotated_page_keeps_the_columns_beyond_its_portrait_width(tmp_path: Path, extractor) -> None:
    """A landscape grid on a portrait page that /Rotate shows upright (peer schools.pdf):
    find_tables reads in shown coordinates, text and drawings come unrotated; every column
    is read and the box is given in the page's unrotated coordinates like its text."""
    src = pymupdf.open()
    page = src.new_page(width=792, height=612)
    x = [40, 160, 290, 380, 470, 620, 750]
    y = [100 + 24 * i for i in range(len(WIDE) + 1)]
    draw_grid(page, x, y, WIDE)
    out = pymupdf.open()
    turned = out.new_page(width=612, height=792)
    turned.show_pdf_page(turned.rect, src, 0, rotate=90)
    turned.set_rotation(90)
    path = tmp_path / "rotate90.pdf"
    out.save(path)
    (table,) = extractor.extract(doc_for(path), [1]).tables
    assert [tuple(r) for r in table.grid()] == WIDE
    with pymupdf.open(path) as pdf:
        words = pdf[0].get_text("words")
    x0, top, x1, bottom = table.bbox
    assert all(x0 - 1 <= (w[0] + w[2]) / 2 <= x1 + 1 and top - 1 <= (w[1] + w[3]) / 2 <= bottom + 1
               for w in words)


def test_white_background_patch_is_no_rule() -> None:
    """A white patch placed through a rotated form comes out as four filled lines, not a box."""
    src = pymupdf.open()
    page = src.new_page()
    page.draw_rect(pymupdf.Rect(50, 50, 300, 80), color=None, fill=(1, 1, 1))
    page.draw_rect(pymupdf.Rect(50, 100, 300, 130), color=(0, 0, 0))
    doc = pymupdf.open()
    turned = doc.new_page(width=792, height=612)
    turned.show_pdf_page(turned.rect, src, 0, rotate=90)
    hs, vs = rules_of_page(turned)
    assert len(hs) == 2 and len(vs) == 2  # the stroked box's four edges only


def _borderless_landscape() -> pymupdf.Document:
    """An upright landscape page holding a borderless 3-column table (no rules at all)."""
    src = pymupdf.open()
    page = src.new_page(width=792, height=612)
    for i, row in enumerate(ROWS):
        for j, text in enumerate(row):
            page.insert_text((100 + 160 * j, 100 + 18 * i), text, fontsize=10)
    return src


@pytest.mark.parametrize("rotate", [90, -90])
@pytest.mark.parametrize("ruled", [True, False])
def test_rotated_page_shown_upright_read_upright(tmp_path: Path, rotate: int, ruled: bool) -> None:
    """A /Rotate page whose text reads upright as shown (a landscape scan of a report): its
    text and rules live in unrotated space, so read in place the columns would come out as rows."""
    src = _landscape_table() if ruled else _borderless_landscape()
    out = pymupdf.open()
    page = out.new_page(width=612, height=792)
    page.show_pdf_page(pymupdf.Rect(0, 0, 612, 792), src, 0, rotate=rotate)
    page.set_rotation(rotate % 360)  # shown upright again, as the landscape original
    path = tmp_path / f"rotated{rotate}.pdf"
    out.save(path)
    tables = PyMuPDFExtractor().extract(doc_for(path), [1]).tables
    assert len(tables) == 1
    assert [tuple(r) for r in tables[0].grid()] == ROWS
    x0, top, x1, bottom = tables[0].bbox  # unrotated page space, as the text layer's
    assert 0 <= x0 < x1 <= 612 and 0 <= top < bottom <= 792 and bottom - top > x1 - x0
