"""Key-value blocks of a form (finder/key_value.py): side-by-side "Key: value" blocks read as
two-column tables with no header row ("" column names)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from rowkeeper.extractors.page_model import words_in
from tests.extractors.finder.layout import new_page, put, width
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


_MONO = {"mono": "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
         "monob": "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"}
MONO_FIELDS = ([("Phone", "313-9693"), ("Valid until", "2022-08-01"), ("Customer", "2023-03-17"),
                ("Contact", "$116,065")],
               [("Address", "Pine Valley 43"), ("Quote no.", "$85,080")])


def _mono_page(doc: pymupdf.Document) -> pymupdf.Page:
    page = new_page(doc)
    for name, path in _MONO.items():
        page.insert_font(fontname=name, fontfile=path)
    return page


def _mono_block(page: pymupdf.Page, x: float, top: float, block: list[tuple[str, str]], size: float) -> None:
    """A block of fields in DejaVu Sans Mono, bold keys, values one padded column right of the
    longest key (a fixed-width form pads its key column)."""
    pad = max(len(k) for k, _ in block) + 2
    for i, (key, value) in enumerate(block):
        y = top + 1.55 * size * i
        page.insert_text((x, y), key, fontsize=size, fontname="monob")
        page.insert_text((x + pad * 0.6 * size, y), value, fontsize=size, fontname="mono")


def test_monospaced_blocks_whose_keys_are_padded_far_from_their_values_are_two_tables(tmp_path: Path) -> None:
    """The short keys of a fixed-width form stand far from their values (`Phone` eight
    characters off), nearly as far as the white between the blocks: the gutter that parts a
    block's keys from its values is the one after its longest key (issue 13, zoo form-106-en);
    a key of two words (`Valid until`, `Quote no.`) stays whole."""
    doc = pymupdf.open()
    page = _mono_page(doc)
    page.insert_text((72, 90), "Supplier overview 2025", fontsize=18, fontname="monob")
    _mono_block(page, 78, 118, MONO_FIELDS[0], 10)
    _mono_block(page, 324, 118, MONO_FIELDS[1], 9)
    path = tmp_path / "mono.pdf"
    doc.save(path)
    tables = sorted(tables_of(path), key=lambda t: t.regions[0].bbox[0])
    assert [t.columns for t in tables] == [("", "")] * 2
    assert [[tuple(r) for r in t.rows] for t in tables] == [list(b) for b in MONO_FIELDS]


def test_a_block_of_keys_set_far_from_their_values_is_one_table(tmp_path: Path) -> None:
    """A two-column block whose values stand far right of its keys: no two blocks side by
    side, though the white between the columns is wide and a key of two words (`Quote no.`)
    shows two phrases in a fixed-width face (issue 13, zoo headerless_kv-106-en)."""
    rows = [("Contact", "227-5324"), ("Address", "Elm Street"), ("Project", "Kingsway 19"),
            ("Phone", "Redwood"), ("Quote no.", "2020-04-21"), ("Customer", "Kingsway")]
    doc = pymupdf.open()
    page = _mono_page(doc)
    page.insert_text((50, 100), "Maintenance", fontsize=12, fontname="monob")
    for i, (key, value) in enumerate(rows):
        page.insert_text((53, 130 + 15.6 * i), key, fontsize=8.5, fontname="monob")
        page.insert_text((295, 130 + 15.6 * i), value, fontsize=8.5, fontname="mono")
    path = tmp_path / "wide.pdf"
    doc.save(path)
    (t,) = tables_of(path)
    assert t.columns == ("", "")
    assert [tuple(r) for r in t.rows] == rows


CJK_FIELDS = ([("見積番号", "2022年12月2日"), ("顧客名", "721-5363"), ("有効期限", "長野 14")],
              [("日付", "¥549,701"), ("担当者", "2020年2月21日")])


@pytest.mark.parametrize(("face", "blocks", "across", "xs"), [
    ("cjk", CJK_FIELDS, (("住所", "電話番号", "件名"), ("¥608,895", "2020年9月13日", "金沢")), (53, 218, 403)),
    ("sans", FIELDS, (("Phone", "Date", "Valid until"), ("127-5920", "2024-03-01", "$1,200")), (53, 218, 403)),
    ("sans", FIELDS, (("Phone", "Date", "Valid until"), ("127-5920", "2024-03-01", "$1,200")), (56, 190, 375.5))])
def test_blocks_side_by_side_over_fields_set_across_are_read_apart(
        tmp_path: Path, face: str, blocks, across, xs) -> None:
    """Two blocks of fields side by side, then fields set across the page under them (labels
    over one row of values), no rules: the run of aligned rows holds them all, and the fields
    across cross the white between the blocks. The blocks are two tables, the fields across a
    third (issue 13, zoo form-95-ja). Fields across whose second field ends short of the white
    and whose third stands under the right block leave the white uncrossed: the left side's
    lines then start a phrase right of where its values start, which no block of fields does
    (issue 13, zoo dev11 form-193-en)."""
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 50, 70, "保守計画 2021" if face == "cjk" else "Maintenance 2021", 18, face)
    for x, block in ((56, blocks[0]), (311.5, blocks[1])):
        for i, (key, value) in enumerate(block):
            put(page, x, 95 + 17 * i, key, 9.5, face)
            put(page, x + (50 if face == "cjk" else 64), 95 + 17 * i, value, 9.5, face)
    for k, line in enumerate(across):
        for x, text in zip(xs, line, strict=True):
            put(page, x, 160 + 17.5 * k, text, 10, face)
    path = tmp_path / "form.pdf"
    doc.save(path)
    tables = sorted(tables_of(path), key=lambda t: (t.regions[0].bbox[1] > 150, t.regions[0].bbox[0]))
    assert [[tuple(r) for r in t.rows] for t in tables[:2]] == [list(b) for b in blocks]
    assert [t.columns for t in tables[:2]] == [("", "")] * 2
    assert len(tables) == 3
    assert tables[2].columns == across[0]
    assert [tuple(r) for r in tables[2].rows] == [across[1]]


@pytest.mark.parametrize("beside", [True, False])
def test_a_blocks_last_value_wrapped_onto_a_second_line_stays_in_its_field(tmp_path: Path, beside: bool) -> None:
    """A block of fields with bold keys whose last value wraps (`Oak Hill 53` / `52757
    Lakeside`, the second line tight under the first, at the value column's edge): the wrapped
    line is that field's, not lost under the table (issue 13, zoo form-97-en)."""
    left = [("Project", "Cedar Park"), ("Valid until", "$71,888"), ("Contact", "2025-12-24"),
            ("Address", "Oak Hill 53")]
    right = [("Customer", "Westgate 50"), ("Date", "Stone Bridge"), ("Phone", "Pine Valley 69")]
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 42, 60, "Quarterly figures by site 2022", 16, "bold")
    for x, gap, block in ((48, 53.6, left), (311.5, 47, right))[:2 if beside else 1]:
        for i, (key, value) in enumerate(block):
            put(page, x, 82 + 15 * i, key, 8, "bold")
            put(page, x + gap, 82 + 15 * i, value, 8)
    put(page, 48 + 53.6, 82 + 15 * 3 + 10, "52757 Lakeside", 8)
    put(page, 42, 200, "All amounts are stated before tax unless a note says otherwise.", 9)
    path = tmp_path / "wrapped.pdf"
    doc.save(path)
    tables = sorted(tables_of(path), key=lambda t: t.regions[0].bbox[0])
    assert [t.columns for t in tables] == [("", "")] * (2 if beside else 1)
    assert [tuple(r) for r in tables[0].rows] == [*left[:3], ("Address", "Oak Hill 53 52757 Lakeside")]


def test_a_key_printed_against_its_value_without_a_space_is_parted_at_the_gap(tmp_path: Path) -> None:
    """`Địa chỉ` in bold, its value `Vũng Tàu` 6 pt right of it, no space between the two spans:
    MuPDF makes one word of `chỉVũng`. A capital right after a small letter sends the word to
    the glyph read, which parts it at the gap (issue 13, zoo form-101-vi)."""
    left = [("Địa chỉ", "Vũng Tàu"), ("Dự án", "950-4103"), ("Ngày", "Rạch Giá 61")]
    right = [("Khách hàng", "Biên Hòa"), ("Điện thoại", "258-6153")]
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 60, 70, "Chi phí vận hành theo khu vực 2023", 16, "bold")
    for x, gap, block in ((63, 32, left), (327.5, 59.7, right)):
        for i, (key, value) in enumerate(block):
            put(page, x, 100 + 14.4 * i, key, 7.5, "bold")
            put(page, x + gap, 100 + 14.4 * i, value, 7.5)
    path = tmp_path / "glued.pdf"
    doc.save(path)
    words = [w[4] for w in words_in(doc[0], doc[0].rect)]
    assert "chỉ" in words and "Vũng" in words
    tables = sorted(tables_of(path), key=lambda t: t.regions[0].bbox[0])
    assert [[tuple(r) for r in t.rows] for t in tables] == [left, right]


@pytest.mark.parametrize("value", ["179-2061", "09/12/2022"])
def test_a_key_printed_against_a_figure_without_a_space_is_parted_at_the_gap(tmp_path: Path, value: str) -> None:
    """`Người liên hệ`, its value `179-2061` 6 pt right of it, no space between: MuPDF makes one
    word of `hệ179-2061`, which no capital gives away. A figure of three characters or more
    right after a small letter sends the word to the glyph read too (issue 13, zoo dev10
    form-166-vi; a date, `hệ09/12/2022`, whose first group has two digits: dev16 form-276-vi)."""
    left = [("Khách hàng", "467.364 ₫"), ("Ngày", "Phan Thiết 83"), ("Số báo giá", "20/08/2019")]
    right = [("Điện thoại", "Phan Thiết 91"), ("Người liên hệ", value)]
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 60, 70, "Tổng quan nhà cung cấp 2023", 16, "bold")
    for x, block in ((76, left), (310.5, right)):
        gap = max(width(k, 10, "bold") for k, _ in block) + 6
        for i, (key, value) in enumerate(block):
            put(page, x, 110 + 20 * i, key, 10, "bold")
            put(page, x + gap, 110 + 20 * i, value, 10)
    path = tmp_path / "glued.pdf"
    doc.save(path)
    words = [w[4] for w in words_in(doc[0], doc[0].rect)]
    assert "hệ" in words and value in words
    tables = sorted(tables_of(path), key=lambda t: t.regions[0].bbox[0])
    assert [[tuple(r) for r in t.rows] for t in tables] == [left, right]
