"""A borderless table on a page shown turned (/Rotate): the page is looked at upright, as its
table is read (`page_model.upright_features`), and a caption set over the table's top rule is
no row of it (`finder.top_rule`)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

import rowkeeper
from rowkeeper.extractors.finder.top_rule import under_top_rule
from rowkeeper.models import TextLine

HEADER = ("Site", "Supplier", "Score", "Weight", "Power", "Headcount", "Cost")
BODY = [("North Ridge depot 5583", "Unit", "351,652", "$9,250,865", "$9,697,470", "595,266", "$6,192,934"),
        ("Elm Street line 1355", "Line", "694,929", "$8,283,920", "$1,591,820", "842,133", "$499,559"),
        ("Harbor View plant 8617", "Store", "173,387", "$2,833,422", "$5,672,911", "211,953", "$2,624,180"),
        ("Oak Lane office 204", "Hub", "91,020", "$912,310", "$3,004,118", "40,212", "$1,120,400"),
        ("Stone Bridge hub 7710", "Depot", "402,118", "$5,010,992", "$7,221,005", "318,774", "$3,905,001"),
        ("Bay Point store 3382", "Plant", "66,391", "$1,202,870", "$4,118,362", "77,450", "$802,116")]
LEFTS = (51, 212, 313, 390, 480, 560, 660)


def _upright_page(font: str) -> pymupdf.Document:
    """A landscape page as the reader sees it: title, a sentence, the caption, then a booktabs
    table (rules over and under the header, under the last row) in `font`."""
    src = pymupdf.open()
    page = src.new_page(width=842, height=595)
    page.insert_text((48, 70), "Key indicators 2021", fontsize=18, fontname=font)
    page.insert_text((48, 128), "This section summarises the main results and compares them with the previous year.",
                     fontsize=9, fontname=font)
    page.insert_text((48, 148), "Table 1. Maintenance schedule", fontsize=9, fontname=font)
    y = 165.0
    page.draw_line((48, y - 9), (794, y - 9))
    for i, row in enumerate([HEADER, *BODY]):
        for x, text in zip(LEFTS, row, strict=True):
            page.insert_text((x, y), text, fontsize=9, fontname=font)
        if i == 0:
            page.draw_line((48, y + 4), (794, y + 4))
        y += 14.25
    page.draw_line((48, y - 9), (794, y - 9))
    return src


@pytest.mark.parametrize("font", ["helv", "cour"])
@pytest.mark.parametrize("rotate", [90, 270])
def test_table_on_a_rotated_page_is_read_by_the_text_layer(tmp_path: Path, font: str, rotate: int) -> None:
    """Its regions in the page's unrotated space, like the table's box: the text layer's table
    covers them and is kept (before, the sideways lines made regions no upright read covers,
    and the page went to pdfplumber, which read the whole page as one table)."""
    out = pymupdf.open()
    turned = out.new_page(width=595, height=842)
    turned.show_pdf_page(turned.rect, _upright_page(font), 0, rotate=rotate)
    turned.set_rotation(rotate)
    path = tmp_path / f"rotated{rotate}.pdf"
    out.save(path)
    result = rowkeeper.extract(str(path))
    (table,) = result.tables
    assert tuple(table.columns) == HEADER
    assert [tuple(r) for r in table.rows] == BODY
    assert table.extractor == "pymupdf"


def _line(x0: float, top: float, x1: float, text: str) -> TextLine:
    return TextLine(page=1, bbox=(x0, top, x1, top + 10), text=text, font_size=9)


def test_a_caption_over_the_top_rule_leaves_the_region() -> None:
    caption = _line(48, 140, 222, "Table 1. Maintenance schedule")
    rows = [_line(x, 157 + 14 * i, x + 30, "v") for i in range(4) for x in (51, 300, 500)]
    region = (48, 140, 530, 209)
    assert under_top_rule(region, [(48, 156, 794, 156)], [caption, *rows]) == (51, 157, 530, 209)


def test_a_header_row_over_the_first_rule_stays() -> None:
    """Rules between rows only (the first under the header): the header row is the table's."""
    header = [_line(x, 140, x + 30, "h") for x in (51, 300, 500)]
    rows = [_line(x, 157 + 14 * i, x + 30, "v") for i in range(4) for x in (51, 300, 500)]
    region = (51, 140, 530, 209)
    assert under_top_rule(region, [(48, 154, 794, 154)], [*header, *rows]) == region


def test_a_header_set_tight_as_one_line_stays() -> None:
    """One line over the rule across most of the table: a header row printed as one line."""
    header = _line(51, 140, 520, "Site Supplier Score Weight Power Headcount Cost")
    rows = [_line(x, 157 + 14 * i, x + 30, "v") for i in range(4) for x in (51, 300, 500)]
    region = (51, 140, 530, 209)
    assert under_top_rule(region, [(48, 154, 794, 154)], [header, *rows]) == region
