"""A row of a block printed as one line (finder/field_lines.py): a key set a word space from its
value, in the block's own print (no bold to cut at), makes that row one text line; the line
is cut where one of its words starts at the value column the rows next to it share (issue 13,
zoo headerless_kv-104-hu, -67-ja, -96-en)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tests.extractors.finder.layout import new_page, put, width
from tests.transforms.pdf_docs import tables_of

_FONTS = {"gothic": "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf",
          "pgothic": "/usr/share/fonts/opentype/ipafont-gothic/ipagp.ttf",
          "mincho": "/usr/share/fonts/opentype/ipafont-mincho/ipam.ttf",
          "mono": "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
          "monob": "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"}
HU = [("Telefon", "Északi telep"), ("Dátum", "248-2571"), ("Ügyfél", "Vörösfenyő 55"),
      ("Kapcsolattartó", "717-3673")]
JA = [("担当者", "2020年11月20日"), ("日付", "熊本 79"), ("有効期限", "広島")]


def _page(doc: pymupdf.Document) -> pymupdf.Page:
    page = new_page(doc)
    for name, path in _FONTS.items():
        page.insert_font(fontname=name, fontfile=path)
    return page


def _width(text: str, size: float, face: str) -> float:
    return pymupdf.Font(fontfile=_FONTS[face]).text_length(text, size) if face in _FONTS else width(text, size, face)


def _text(page: pymupdf.Page, x: float, y: float, text: str, size: float, face: str) -> None:
    page.insert_text((x, y), text, fontsize=size, fontname=face)


@pytest.mark.parametrize(("fields", "faces", "size"), [(HU, ("sans", "sans"), 8.5),
                                                      (JA, ("gothic", "pgothic"), 9.5)])
def test_a_lone_blocks_row_printed_as_one_line_stays_a_row(tmp_path: Path, fields, faces, size: float) -> None:
    """A lone block of fields, keys and values in regular print (or keys in IPA Gothic, values
    in IPA P Gothic: no bold anywhere), values a word space right of the longest key: that row
    prints as one line and is the block's row all the same."""
    doc = pymupdf.open()
    page = _page(doc)
    put(page, 72, 80, "Energiafogyasztás 2021", 16, "bold")
    put(page, 72, 110, "A költségek tartalmazzák a karbantartást és az energiát, az értékcsökkenést nem.", 9)
    at = 75 + max(_width(k, size, faces[0]) for k, _ in fields) + 0.7 * size
    for i, (key, value) in enumerate(fields):
        y = 140 + 2.4 * size * i
        _text(page, 75, y, key, size, faces[0])
        _text(page, at, y, value, size, faces[1])
    put(page, 72, 140 + 2.4 * size * len(fields) + 20, "Az értékek kerekítettek; az összesen sor kissé eltérhet.", 9)
    path = tmp_path / "block.pdf"
    doc.save(path)
    (t,) = tables_of(path)
    assert t.columns == ("", "")
    assert [tuple(r) for r in t.rows] == fields


def test_two_rows_of_two_pairs_ruled_between_print_as_four_fields_each(tmp_path: Path) -> None:
    """Two rows of two pairs in a fixed-width face, rules under each row, bold first keys: the
    first row's key runs into its value (bold turns regular), the second row's value into the
    next pair (no print change): each row is four fields where the other row's fields start."""
    rows = [("Quote no.", "794-2431", "Date", "$180,834"), ("Phone", "2020-02-28", "Address", "Elm Street 70")]
    doc = pymupdf.open()
    page = _page(doc)
    _text(page, 50, 120, "1. Staffing", 16, "monob")
    _text(page, 50, 150, "Values are rounded; totals may differ slightly from the sum of the rows.", 11, "mono")
    xs = (54.0, 121.6, 195.8, 250.2)
    for i, row in enumerate(rows):
        y = 190 + 23.7 * i
        for k, (x, text) in enumerate(zip(xs, row, strict=True)):
            _text(page, x, y, text, 11, "monob" if k == 0 else "mono")
        page.draw_line((50, y + 9.6), (340, y + 9.6), width=0.5)
    _text(page, 50, 270, "Sites opened during the year are included from their first full month.", 11, "mono")
    path = tmp_path / "pairs.pdf"
    doc.save(path)
    (t,) = tables_of(path)
    assert [tuple(r) for r in t.rows] == rows
    assert t.columns == ("", "", "", "")


def test_a_cut_is_passed_on_from_row_to_row(tmp_path: Path) -> None:
    """Two blocks of fields side by side, keys in IPA Gothic and values in IPA Mincho. The left
    block's long keys (`見積番号`, `有効期限`, `電話番号`) stand 6 pt from their values: MuPDF
    prints those rows as one line each, the short key's row (`件名`) apart. The first and third
    rows are cut at the second row's value column; the last, two rows under that one, at the
    third row's, once that row is cut (issue 13, zoo dev13 form-229-ja lost its last field)."""
    left = [("見積番号", "112 1196"), ("件名", "2026年6月13日"), ("有効期限", "新潟"), ("電話番号", "409,752円")]
    right = [("担当者", "364 9077"), ("顧客名", "2023年5月11日"), ("住所", "静岡 2")]
    doc = pymupdf.open()
    page = _page(doc)
    _text(page, 72, 90, "人員と予算 2024", 16, "gothic")
    for x, block in ((75.0, left), (327.5, right)):
        at = x + max(_width(k, 8, "gothic") for k, _ in block) + 6
        for i, (key, value) in enumerate(block):
            y = 114 + 18 * i
            _text(page, x, y, key, 8, "gothic")
            _text(page, at, y, value, 8, "mincho")
    _text(page, 72, 220, "期中に開設した施設は、最初の満月から集計に含めている。", 8.5, "mincho")
    path = tmp_path / "passed.pdf"
    doc.save(path)
    tables = sorted(tables_of(path), key=lambda t: t.regions[0].bbox[0])
    assert [t.columns for t in tables] == [("", ""), ("", "")]
    assert [[tuple(r) for r in t.rows] for t in tables] == [left, right]
