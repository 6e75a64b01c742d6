"""A sub-heading in bold a little larger than a borderless table's header, right above it
(a stacked table under a heading of its own, "Appendix"), is the heading of its section, not a
line of the table's header: the column names stay the header's and the section path ends in
the heading (finder/run_heads._heading_over). So is a sub-section's numbered heading set a
little larger in a face with no bold ("1.1 地域別売上" in a Japanese report), over a table ruled
between rows, and over a caption and a narrow table whose first columns stand closer than the
heading is wide."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from pathlib import Path

import pymupdf
import pytest

import rowkeeper
from tests.extractors.finder.layout import grids, new_page, put

FIRST = [("Item", "Supplier", "Quantity", "Headcount"), ("Stone Bridge hub", "Line", "673,208", "600,990"),
         ("Riverside hub", "Plant", "333,336", "306,523"), ("Maple Court store", "Depot", "483,884", "498,468"),
         ("Millbrook unit", "Unit", "587,630", "767,687")]
SECOND = [("Site", "Region", "Unit price", "Volume"), ("Summit office", "Unit", "$4,891,905", "55,552.93"),
          ("Brookfield depot", "Store", "$3,789,168", "16,594.00"), ("Harbor View plant", "Line", "$9,192,454", "88,342.4"),
          ("Cedar Park store", "Office", "$8,431,237", "4,405.3")]
XS = (63, 200, 330, 440)


def _rows(page: pymupdf.Page, y: float, rows: list[tuple[str, ...]], size: float) -> float:
    for i, row in enumerate(rows):
        for x, text in zip(XS, row, strict=True):
            put(page, x, y, text, size, "bold" if i == 0 else "sans")
        y += 2 * size
    return y


@pytest.mark.parametrize("size", [8.0, 9.0])
def test_bold_subheading_over_a_stacked_table_is_its_section(tmp_path: Path, size: float) -> None:
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 60, 70, "Energy consumption", 1.45 * size, "bold")
    put(page, 60, 95, "Costs include maintenance and energy but exclude depreciation.", size)
    put(page, 60, 115, "Table 1 Supplier overview", size, "bold")
    y = _rows(page, 132, FIRST, size)
    put(page, 60, y + 1.2 * size, "Appendix", 1.2 * size, "bold")  # the sub-heading, bold, 1.2 times
    _rows(page, y + 3.2 * size, SECOND, size)
    path = tmp_path / "subheading.pdf"
    read = grids(doc, path)
    assert read[1][0] == list(SECOND[0])  # the finder's header row is the header, not the heading
    tables = rowkeeper.extract(path).tables
    assert [t.columns for t in tables] == [FIRST[0], SECOND[0]]
    assert [list(r) for r in tables[1].rows] == [list(r) for r in SECOND[1:]]
    assert list(tables[0].section_path) == ["Energy consumption"]
    assert list(tables[1].section_path) == ["Energy consumption", "Appendix"]




GOTHIC = Path("/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf")
"""IPA Gothic: no bold face, a half-width space of half an em (a numbered heading's number
stands a column gap from its title, as in Japanese reports)."""
needs_gothic = pytest.mark.skipif(not GOTHIC.exists(), reason="IPA Gothic not installed")


def _nfkc(texts: Sequence[str]) -> list[str]:
    """The texts as a reader compares them: the font maps a space to U+00A0 and ¥ to ￥."""
    return [unicodedata.normalize("NFKC", t) for t in texts]


def _ja(page: pymupdf.Page, x: float, y: float, text: str, size: float, align: str = "left") -> None:
    """`text` in IPA Gothic on its baseline `y`, from `x` or ending there (align "right")."""
    if align == "right":
        x -= pymupdf.Font(fontfile=str(GOTHIC)).text_length(text, fontsize=size)
    page.insert_text((x, y), text, fontsize=size, fontname="ipag")


JA_FIRST = [("施設", "利益率(%)", "売上高", "人数(人)"), ("3651 鹿児島店舗", "84.5%", "¥1,933,907", "69,551.42"),
            ("9706 岡山工場", "60.5%", "¥1,814,282", "8,497.74"), ("3170 広島店舗", "40.9%", "¥4,837,448", "8,059.2"),
            ("3899 熊本支店", "50.2%", "¥5,192,473", "44,730.8")]
JA_XS = ((45, "left"), (258, "right"), (363, "right"), (567, "right"))


def _ja_heading_page(size: float, heading: str) -> pymupdf.Document:
    """A report's title, section heading and paragraph, and a numbered sub-heading 1.2 times the
    body size; the page's y under the sub-heading."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_font(fontname="ipag", fontfile=str(GOTHIC))
    _ja(page, 42, 70, "取引先一覧 2020", 1.9 * size)
    _ja(page, 42, 105, "1. 運営費", 1.45 * size)
    _ja(page, 42, 128, "費用には保守、エネルギー及び外部委託を含み、減価償却費は含まない。本節では主な結果をまとめる。", size)
    _ja(page, 42, 155, heading, 1.2 * size)  # no bold face: larger print alone
    return doc


@needs_gothic
@pytest.mark.parametrize("size", [8.5, 9.0])
def test_numbered_subheading_over_a_table_ruled_between_rows_is_its_section(tmp_path: Path, size: float) -> None:
    doc = _ja_heading_page(size, "1.1 地域別売上")
    page = doc[0]
    y = 155 + 2.0 * size  # the heading's leading: closer than 2.5 lines of the table's type
    for row in JA_FIRST:
        for (x, align), text in zip(JA_XS, row, strict=True):
            _ja(page, x, y, text, size, align)
        page.draw_line((42, y + 0.6 * size), (570, y + 0.6 * size), width=0.5)  # a rule under every row
        y += 1.8 * size
    _ja(page, 42, y + size, "表1：主要指標", size)
    path = tmp_path / "ja_subheading.pdf"
    doc.save(path)
    tables = rowkeeper.extract(path).tables
    assert [t.columns for t in tables] == [JA_FIRST[0]]
    assert [_nfkc(r) for r in tables[0].rows] == [list(r) for r in JA_FIRST[1:]]
    assert _nfkc(tables[0].section_path) == ["取引先一覧 2020", "1. 運営費", "1.1 地域別売上"]


JA_NARROW = [("品目", "地域", "費用(千円)", "評点"), ("5046 岡山センター", "店舗", "80,914.7", "277,731"),
             ("8627 静岡事務所", "センター", "55,928.09", "398,661"), ("6834 札幌センター", "支店", "55,899.2", "739,700"),
             ("5959 大阪倉庫", "センター", "72,009.6", "659,869"), ("7015 静岡店舗", "センター", "66,454.44", "315,978")]


@needs_gothic
def test_numbered_subheading_over_a_caption_keeps_a_narrow_tables_columns(tmp_path: Path) -> None:
    size = 8.5
    doc = _ja_heading_page(size, "2.1 エネルギー使用量")
    page = doc[0]
    _ja(page, 42, 155 + 2.0 * size, "表2：主要指標、取引先一覧", size)
    # the first column's longest code and name end 0.6 em before the next column's left edge,
    # which the heading's line runs across
    second = 45 + pymupdf.Font(fontfile=str(GOTHIC)).text_length("5046 岡山センター", fontsize=size) + 0.6 * size
    xs = ((45, "left"), (second, "left"), (second + 80, "right"), (second + 120, "right"))
    y = 155 + 4.2 * size
    for row in JA_NARROW:
        for (x, align), text in zip(xs, row, strict=True):
            _ja(page, x, y, text, size, align)
        y += 2.4 * size
    path = tmp_path / "ja_narrow.pdf"
    doc.save(path)
    tables = rowkeeper.extract(path).tables
    assert [t.columns for t in tables] == [JA_NARROW[0]]
    assert [_nfkc(r) for r in tables[0].rows] == [list(r) for r in JA_NARROW[1:]]
    assert tables[0].caption == "表2：主要指標、取引先一覧"
    assert _nfkc(tables[0].section_path)[-1] == "2.1 エネルギー使用量"


HU = [("Tétel", "Szállító", "Mennyiség", "Ár (Ft)"), ("Kőbánya raktár", "Üzem", "673 208", "600 990"),
      ("Folyópart bolt", "Telep", "333 336", "306 523"), ("Malomárok iroda", "Raktár", "483 884", "498 468"),
      ("Fenyves egység", "Üzem", "587 630", "767 687")]


@pytest.mark.parametrize("size", [8.0, 9.0])
@pytest.mark.parametrize("face", ["bold", "sans"])
def test_a_caption_numbered_by_chapter_a_little_larger_stays_the_caption(tmp_path: Path, size: float,
                                                                          face: str) -> None:
    """A Hungarian caption opens with its chapter's number ("2.1. táblázat: Havi díjak"), as a
    sub-section's heading does; set 1.2 times the table's size right over it, it is still the
    table's caption, not a heading in its section path nor a header line."""
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 60, 70, "2. Árak és díjak", 1.45 * size, "bold")
    put(page, 60, 95, "Az alábbi táblázat a havi díjakat foglalja össze telephelyenként.", size)
    put(page, 60, 118, "2.1. táblázat: Havi díjak", 1.2 * size, face)
    y = 118 + 2.2 * size
    for i, row in enumerate(HU):
        for x, text in zip(XS, row, strict=True):
            put(page, x, y, text, size, "bold" if i == 0 else "sans")
        y += 2 * size
    path = tmp_path / "caption.pdf"
    doc.save(path)
    (table,) = rowkeeper.extract(path).tables
    assert table.caption == "2.1. táblázat: Havi díjak"
    assert list(table.section_path) == ["2. Árak és díjak"]
    assert table.columns == HU[0]
    assert [tuple(r) for r in table.rows] == HU[1:]
