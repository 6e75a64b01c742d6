"""Borderless tables ruled between rows only: the rules, not the text lines, make the rows."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from rowkeeper.extractors.pymupdf_extractor import PyMuPDFExtractor
from tests.extractors.finder.layout import new_page, put
from tests.extractors.helpers import doc_for
from tests.transforms.pdf_docs import tables_of

X = [60, 200, 300]
RULE = (56, 480)


def _page(path: Path, rows: list[tuple[str, str, list[str]]], rule_every_row: bool) -> None:
    """Rows of (label, code, lines of a wrapped note); rules under the header and between rows
    (or, without `rule_every_row`, only under the header and at the foot)."""
    doc = pymupdf.open()
    page = doc.new_page()
    y = 100.0
    page.insert_text((X[0], y), "Item", fontsize=10)
    page.insert_text((X[1], y), "Code", fontsize=10)
    page.insert_text((X[2], y), "Note", fontsize=10)
    y += 5
    page.draw_line((RULE[0], y), (RULE[1], y))
    for label, code, note in rows:
        y += 13
        page.insert_text((X[0], y), label, fontsize=10)
        page.insert_text((X[1], y), code, fontsize=10)
        for k, line in enumerate(note):
            page.insert_text((X[2], y + 13 * k), line, fontsize=10)
        y += 13 * (len(note) - 1) + 5
        if rule_every_row:
            page.draw_line((RULE[0], y), (RULE[1], y))
    if not rule_every_row:
        page.draw_line((RULE[0], y), (RULE[1], y))
    doc.save(path)


def _read_as_one_block(doc: pymupdf.Document, tmp_path: Path, caption: str, pairs: list[tuple[str, str]]) -> None:
    """`doc` saved and read: one table, captioned `caption`, its rows `pairs`."""
    path = tmp_path / "block.pdf"
    doc.save(path)
    (t,) = tables_of(path)
    assert t.caption == caption
    assert [tuple(r) for r in t.rows] == pairs


def test_wrapped_cells_stay_in_the_row_their_rules_bound(tmp_path: Path) -> None:
    rows = [("Cat", "C1", ["Meow"]), ("Bee", "B2", ["Buzz", "and a long hum"]),
            ("Fox", "F3", ["Ring-", "ding-ding-dingeringeding", "gering-ding"])]
    path = tmp_path / "rules.pdf"
    _page(path, rows, rule_every_row=True)
    tables = PyMuPDFExtractor().extract(doc_for(path), [1]).tables
    assert [tuple(r) for r in tables[0].grid()] == [
        ("Item", "Code", "Note"), ("Cat", "C1", "Meow"), ("Bee", "B2", "Buzz and a long hum"),
        ("Fox", "F3", "Ring- ding-ding-dingeringeding gering-ding")]


def test_rules_under_header_and_at_foot_leave_text_rows(tmp_path: Path) -> None:
    rows = [(f"Row {i}", str(100 + i), [f"{i}.5"]) for i in range(5)]
    path = tmp_path / "booktabs.pdf"
    _page(path, rows, rule_every_row=False)
    tables = PyMuPDFExtractor().extract(doc_for(path), [1]).tables
    assert [tuple(r) for r in tables[0].grid()] == [("Item", "Code", "Note")] + [
        (f"Row {i}", str(100 + i), f"{i}.5") for i in range(5)]


def test_tables_side_by_side_are_read_apart_by_their_rules(tmp_path: Path) -> None:
    """Two tables level with each other, each ruled between its rows at its own width."""
    doc = pymupdf.open()
    page = doc.new_page()
    tables = {40: [("Cat", "C1", ["Meow"]), ("Bee", "B2", ["Buzz", "hum"]), ("Owl", "O4", ["Hoot"])],
              310: [("Dog", "D1", ["Woof", "ruff"]), ("Cow", "C2", ["Moo"]), ("Fox", "F3", ["Ring-", "ding"])]}
    for x, rows in tables.items():
        y = 100.0
        for j, head in enumerate(("Item", "Code", "Note")):
            page.insert_text((x + 4 + 80 * j, y), head, fontsize=10)
        y += 5
        page.draw_line((x, y), (x + 250, y))
        for label, code, note in rows:
            y += 13
            page.insert_text((x + 4, y), label, fontsize=10)
            page.insert_text((x + 84, y), code, fontsize=10)
            for k, line in enumerate(note):
                page.insert_text((x + 164, y + 13 * k), line, fontsize=10)
            y += 13 * (len(note) - 1) + 5
            page.draw_line((x, y), (x + 250, y))
    path = tmp_path / "side.pdf"
    doc.save(path)
    found = PyMuPDFExtractor().extract(doc_for(path), [1]).tables
    grids = sorted(([tuple(r) for r in t.grid()] for t in found), key=lambda g: g[1][0])
    assert grids == [
        [("Item", "Code", "Note"), ("Cat", "C1", "Meow"), ("Bee", "B2", "Buzz hum"), ("Owl", "O4", "Hoot")],
        [("Item", "Code", "Note"), ("Dog", "D1", "Woof ruff"), ("Cow", "C2", "Moo"), ("Fox", "F3", "Ring- ding")],
    ]


_IPA = {"gothic": "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf",
        "mincho": "/usr/share/fonts/opentype/ipafont-mincho/ipam.ttf"}


@pytest.mark.parametrize(("caption", "pairs", "faces"), [
    ("表1：施設別四半期実績、主要指標", [("件名", "鹿児島 76"), ("電話番号", "熊本 10"), ("顧客名", "2019年4月10日")],
     ("gothic", "mincho")),
    ("Table 1 Quarterly figures by site", [("Subject", "$606,929"), ("Phone", "$581,428"), ("Customer", "2019-04-10")],
     ("bold", "sans")),
])
def test_a_caption_over_a_block_ruled_under_each_row_is_no_line_of_its_first_row(
        tmp_path: Path, caption: str, pairs: list[tuple[str, str]], faces: tuple[str, str]) -> None:
    """A block of fields with a rule under each row and none over the first: the caption set
    right over it (a row pitch up, in nearly the block's type) is in the first rule's band, but
    the column edge cuts through its words as through no line of a record. It stays the
    table's caption, not a line of its first key (issue 13, zoo dev9 headerless_kv-157-ja)."""
    doc = pymupdf.open()
    page = new_page(doc)
    for name, file in _IPA.items():
        page.insert_font(fontname=name, fontfile=file)
    put(page, 72, 100, "1. Outlook", 16, "bold")
    put(page, 72, 130, "The figures are rounded; totals may differ slightly from the sum of the rows.", 10)
    page.insert_text((72, 180), caption, fontsize=10.5, fontname=faces[0])
    for i, (key, value) in enumerate(pairs):
        y = 198 + 15.5 * i
        page.insert_text((75, y), key, fontsize=10, fontname=faces[1])
        page.insert_text((296.5, y), value, fontsize=10, fontname=faces[1])
        page.draw_line((72, y + 5), (540, y + 5), width=0.5)
    put(page, 72, 270, "Sites opened during the year are included from their first full month.", 10)
    _read_as_one_block(doc, tmp_path, caption, pairs)


def test_a_heading_under_blocks_ruled_under_each_row_is_no_row_of_them(tmp_path: Path) -> None:
    """Two blocks of fields side by side, each ruled under every row (its last one too); a
    heading under them, then a ruled table whose top rule runs under both: the heading is no
    wrapped line of the left block's last field, and that block keeps its first row (issue 13,
    zoo dev11 form-183-hu)."""
    left = [("Kapcsolattartó", "2022. 06. 25."), ("Dátum", "2021. 02. 23."), ("Ajánlatszám", "Hársfa 40")]
    right = [("Cím", "2020. 01. 01."), ("Projekt", "Királyút 36"), ("Ügyfél", "2022. 12. 13.")]
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 50, 68, "Működési költségek régiónként 2021", 16, "bold")
    for x, gap, pitch, block in ((53, 72.8, 13.0, left), (313.5, 38.5, 18.2, right)):
        for i, (key, value) in enumerate(block):
            put(page, x, 88 + pitch * i, key, 8, "bold")
            put(page, x + gap, 88 + pitch * i, value, 8)
            page.draw_line((x - 3, 92 + pitch * i), (x + 129, 92 + pitch * i), width=0.5)
    put(page, 50, 166, "1. Kilátások", 12, "bold")
    for i, row in enumerate([("Telephely", "Költség [Ft]"), ("Vörösfenyő üzem 1307", "838 222"),
                             ("Kőhíd iroda 7711", "615 864"), ("Szőlőhegy iroda 731", "526 264")]):
        put(page, 54, 183 + 11 * i, row[0], 7, "bold" if i == 0 else "sans")
        put(page, 392, 183 + 11 * i, row[1], 7, "bold" if i == 0 else "sans", "right")
    for y in (175.5, 186.6, 197.7, 208.8, 219.9):
        page.draw_line((50, y), (545, y), width=0.5)
    for x in (50, 245, 545):
        page.draw_line((x, 175.5), (x, 219.9), width=0.5)
    path = tmp_path / "blocks.pdf"
    doc.save(path)
    tables = sorted(tables_of(path), key=lambda t: (t.regions[0].bbox[1] > 150, t.regions[0].bbox[0]))
    assert [[tuple(r) for r in t.rows] for t in tables[:2]] == [left, right]
    assert [t.columns for t in tables[2:]] == [("Telephely", "Költség [Ft]")]


def test_rules_broken_at_the_column_gaps_part_no_tables_side_by_side(tmp_path: Path) -> None:
    """Rules between rows drawn as one segment per column, a short break between columns, and
    every column's text inside its segment: the segments are columns of one table (two of
    them hold one column of figures each), not tables side by side; a code and a name a word
    space apart stay one cell (issue 13, zoo dev16 row_rules-272-ja)."""
    rows = [("9132 札幌店舗", "18.6%", "302,342"), ("5353 大阪工場", "70.7%", "307,117"),
            ("4325 長野センター", "93.0%", "211,747"), ("3736 松山倉庫", "17.1%", "558,979"),
            ("3446 盛岡支店", "70.9%", "777,897")]
    doc = pymupdf.open()
    page = new_page(doc, 612, 792)
    put(page, 60, 100, "保守計画 2019", 14, "cjk")
    put(page, 60, 130, "費用には保守、エネルギー及び外部委託を含み、減価償却費は含まない。", 7, "cjk")
    y = 150.0
    for k, row in enumerate([("品目", "利益率", "出力"), *rows]):
        put(page, 66, y, row[0], 7, "cjk")
        put(page, 392.5, y, row[1], 7, "cjk", "right")
        put(page, 546, y, row[2], 7, "cjk", "right")
        for a, b in ((60, 245.5), (251.5, 395.5), (401.5, 552)):
            page.draw_line((a, y + 7), (b, y + 7), width=0.5 if k == 0 else 0.4)
        y += 18.75
    put(page, 60, y + 6, "表1保守計画", 7, "cjk")
    path = tmp_path / "broken.pdf"
    doc.save(path)
    (t,) = tables_of(path)
    assert t.columns == ("品目", "利益率", "出力")
    assert [tuple(r) for r in t.rows] == rows


def test_a_caption_a_row_pitch_over_a_block_ruled_under_each_row_is_its_caption(tmp_path: Path) -> None:
    """A block of fields ruled under each row, none over the first, its caption a row pitch
    over the first field and narrower than the key column (no column edge cuts it): the
    caption stands apart from the first record as its lines stand from the rules; it is the
    table's caption, not a line of the first key (issue 13, zoo dev16 headerless_kv-281-vi)."""
    pairs = [("Dự án", "08/09/2026"), ("Hiệu lực", "639-6304"), ("Khách hàng", "Nha Trang 57"),
             ("Người liên hệ", "617.846 ₫")]
    caption = "Bảng 1 – Nhân sự và ngân sách"
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 60, 100, "Chi phí vận hành theo khu vực 2026", 16, "bold")
    put(page, 60, 150, "Các giá trị đã được làm tròn; tổng có thể chênh lệch nhỏ so với tổng các dòng.", 8.5)
    put(page, 60, 179.5, caption, 8.5, "bold")
    for i, (key, value) in enumerate(pairs):
        y = 197 + 17.6 * i
        put(page, 63, y, key, 8.5, "bold")
        put(page, 303.3, y, value, 8.5)
        page.draw_line((60, y + 7), (535, y + 7), width=0.5)
    put(page, 60, 290, "Số liệu dưới đây thuộc kỳ báo cáo và đã được bộ phận kiểm soát kiểm tra.", 8.5)
    _read_as_one_block(doc, tmp_path, caption, pairs)
