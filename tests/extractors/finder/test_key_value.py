"""Key-value blocks of a form (finder/key_value.py): side-by-side "Key: value" blocks read as
two-column tables with no header row ("" column names)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tests.extractors.finder.layout import new_page, put
from tests.transforms.pdf_docs import tables_of

GERMAN = ([("Kunde:", "Hans Meier"), ("Adresse:", "Hauptstr. 5, 10115 Berlin"), ("Telefon:", "030 123456"),
           ("Kunden-Nr.:", "K-2231")],
          [("Angebot-Nr.:", "A-2026-118"), ("Datum:", "01.12.2026"), ("Gültig bis:", "31.12.2026"),
           ("Bearbeiter:", "S. Wolf")])
JAPANESE = ([("お客様名：", "山田商事株式会社"), ("住所：", "東京都港区芝1-2-3"), ("電話番号：", "03-1234-5678")],
            [("見積番号：", "Q-2026-0412"), ("見積日：", "2026年12月1日"), ("有効期限：", "2026年12月31日")])
VIETNAMESE = ([("Khách hàng", "Công ty Minh Anh"), ("Địa chỉ", "12 Lê Lợi, Huế"), ("Điện thoại", "0234 382 111")],
              [("Số báo giá", "BG-118"), ("Ngày", "01/12/2026"), ("Người lập", "Trần Thị Hoa")])


def _estimate(path: Path, blocks: tuple[list[tuple[str, str]], ...], face: str, bold_keys: bool = False) -> Path:
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 72, 80, "KOSTENVORANSCHLAG / 見積書 / BÁO GIÁ", 14, "cjk" if face == "cjk" else "sans")
    for b, block in enumerate(blocks):
        x = 72 + 260 * b
        for i, (key, value) in enumerate(block):
            y = 120 + 15 * i
            put(page, x, y, key, face="bold" if bold_keys else face)
            put(page, x + 80, y, value, face=face)
    doc.save(path)
    return path


@pytest.mark.parametrize(("blocks", "face", "bold"), [(GERMAN, "sans", False), (JAPANESE, "cjk", False),
                                                      (VIETNAMESE, "sans", True)])
def test_side_by_side_key_value_blocks_are_two_headerless_tables(tmp_path: Path, blocks, face: str,
                                                                 bold: bool) -> None:
    tables = tables_of(_estimate(tmp_path / "estimate.pdf", blocks, face, bold))
    assert [t.columns for t in tables] == [("", "")] * 2
    assert [t.header_rows for t in tables] == [0, 0]
    assert [[tuple(r) for r in t.rows] for t in tables] == [list(b) for b in blocks]


def test_a_two_column_table_with_a_header_is_no_key_value_block(tmp_path: Path) -> None:
    """Labels without colons, not bold: an ordinary table whose first row names its columns."""
    rows = [("Item", "Colour"), ("Chair", "red"), ("Table", "oak"), ("Lamp", "black"), ("Shelf", "white")]
    doc = pymupdf.open()
    page = new_page(doc)
    for i, (a, b) in enumerate(rows):
        put(page, 72, 120 + 14 * i, a)
        put(page, 200, 120 + 14 * i, b)
    path = tmp_path / "plain.pdf"
    doc.save(path)
    (table,) = tables_of(path)
    assert table.columns == ("Item", "Colour")
    assert [tuple(r) for r in table.rows] == rows[1:]


FIELDS = ([("Project", "Millbrook"), ("Address", "Pine Valley 97"), ("Customer", "$589,404")],
          [("Contact", "$371,107"), ("Quote no.", "2021-12-24")])


def test_blocks_of_fields_far_apart_without_colons_are_two_tables(tmp_path: Path) -> None:
    """No rules, no colons, no bold, blocks of unequal length: the white space between them,
    wider than any gap inside either, parts them; a key set close to its value ("Quote no."
    a word space from its date) stays a key."""
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 72, 80, "Maintenance schedule 2019", 16, "bold")
    for x, gap, block in ((78, 51, FIELDS[0]), (325, 42, FIELDS[1])):
        for i, (key, value) in enumerate(block):
            put(page, x, 117 + 15 * i, key, 8)
            put(page, x + gap, 117 + 15 * i, value, 8)
    path = tmp_path / "fields.pdf"
    doc.save(path)
    tables = sorted(tables_of(path), key=lambda t: t.regions[0].bbox[0])
    assert [[tuple(r) for r in t.rows] for t in tables] == [list(b) for b in FIELDS]
    assert [t.columns for t in tables] == [("", "")] * 2


def test_a_table_whose_figure_columns_stand_far_right_stays_one_table(tmp_path: Path) -> None:
    rows = [("Revenue", "Note 4", "2,300,008", "2,034,968"), ("Cost of sales", "Note 5", "439,832", "371,755"),
            ("Gross profit", "", "1,860,176", "1,663,213"), ("Other income", "Note 6", "12,001", "9,870")]
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 72, 100, "Item", 9, "bold")
    put(page, 160, 100, "Note", 9, "bold")
    put(page, 440, 100, "2024", 9, "bold", "right")
    put(page, 520, 100, "2023", 9, "bold", "right")
    for i, row in enumerate(rows):
        y = 116 + 15 * i
        put(page, 72, y, row[0])
        put(page, 160, y, row[1])
        put(page, 440, y, row[2], align="right")
        put(page, 520, y, row[3], align="right")
    path = tmp_path / "statement.pdf"
    doc.save(path)
    (t,) = tables_of(path)
    assert t.columns == ("Item", "Note", "2024", "2023")
    assert [tuple(r) for r in t.rows] == rows


def test_a_two_row_block_of_fields_beside_another_has_no_header(tmp_path: Path) -> None:
    """Two blocks of fields side by side, a wide white space apart, keys neither bold nor
    followed by colons, the right one two fields long: its values (a town, a date) do not
    tell a header from a field; set beside the other block it is one: no header row."""
    blocks = ([("Customer", "Hans Meier"), ("Address", "Berlin 12"), ("Phone", "030 123456")],
              [("Contact", "Kirchberg"), ("Date", "2022-06-11")])
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 72, 80, "Quotation 2026", 14)
    for x, block in zip((72, 330), blocks, strict=True):
        for i, (key, value) in enumerate(block):
            put(page, x, 120 + 15 * i, key)
            put(page, x + 58, 120 + 15 * i, value)
    path = tmp_path / "fields.pdf"
    doc.save(path)
    tables = tables_of(path)
    assert [t.columns for t in tables] == [("", "")] * 2
    assert [[tuple(r) for r in t.rows] for t in tables] == [list(b) for b in blocks]
