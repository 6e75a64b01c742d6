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
