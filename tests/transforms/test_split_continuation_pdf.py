"""A long table whose continuation pages read its first column as two (ids of one width line
the names up, and no header on those pages joins them): still one table over every page
(transforms/split_columns.py through the pipeline)."""

from __future__ import annotations

import random
from pathlib import Path

import pymupdf
import pytest

import rowkeeper
from rowkeeper.config import load_config
from rowkeeper.flows.pipeline import load_document, process_document
from tests.extractors.finder.layout import new_page, put

NAMES = {"en": ["Matsuyama depot", "Osaka north", "Kobe harbour", "Sendai east", "Nagoya central"],
         "de": ["Lager Nord", "Hafen Hamburg", "Werk München", "Depot Köln Ost", "Halle Süd"]}
HEADER = {"en": ("Warehouse", "Units", "Value"), "de": ("Lager", "Stück", "Wert")}


def _long_table(path: Path, lang: str, n: int) -> list[tuple[str, str, str]]:
    """`n` rows over as many pages as they need; the header on page 1 only. Each first cell is
    an id and a name, the names all starting at one x."""
    rng = random.Random(n)
    rows = [(f"{3700 + 7 * i} {NAMES[lang][i % 5]} {i // 5 + 1}", str(rng.randint(10, 999)),
             f"{rng.randint(1000, 99999):,}.00") for i in range(n)]
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 72, 60, "Stock by warehouse", 12, "bold")
    for x, label, align in zip((72, 300, 420), HEADER[lang], ("left", "right", "right"), strict=True):
        put(page, x, 80, label, face="bold", align=align)
    y = 94.0
    for key, units, value in rows:
        if y > 800:
            page, y = new_page(doc), 60.0
        ident, name = key.split(" ", 1)
        put(page, 72, y, ident)
        put(page, 100, y, name)
        put(page, 300, y, units, align="right")
        put(page, 420, y, value, align="right")
        y += 14
    put(page, 72, y + 20, "Values at cost at the end of the quarter.")
    doc.save(path)
    return rows


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("n", [70, 130])  # two and three pages
def test_continuation_with_its_first_column_split_still_merges(tmp_path: Path, lang: str, n: int) -> None:
    rows = _long_table(tmp_path / "long.pdf", lang, n)
    (table,) = process_document(load_document(str(tmp_path / "long.pdf"), "long.pdf"), load_config(None)).tables
    assert table.columns == HEADER[lang]
    assert [tuple(r) for r in table.rows] == rows


MONO = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
MONO_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"
SITES = ["Lake depot", "Hill store north", "Old mill yard", "River office", "Harbour works east"]
MONO_HEADER = ("Site", "Delivery cost", "Volume", "Output")


def _mono_table(path: Path, per_page: int = 30) -> list[tuple[str, str, str, str]]:
    """A monospaced long table, its header repeated on every page; the last page holds two
    rows whose names' word spaces fall on the same character columns ("Riverstone depot 5430"
    over "Lakes yard 3073"): read alone, those two rows part the name at its word spaces."""
    rng = random.Random(5)
    rows = [(f"{SITES[i % 5]} {1000 + 37 * i}", f"{rng.randint(100000, 999999):,} Ft".replace(",", " "),
             f"{rng.randint(10000, 99999):,}".replace(",", " "), f"{rng.randint(100, 999)} {rng.randint(100, 999)}")
            for i in range(2 * per_page)]
    rows += [("Riverstone depot 5430", "3 288 417 Ft", "602 212", "196 286"),
             ("Lakes yard 3073", "7 416 161 Ft", "179 598", "683 453")]
    doc = pymupdf.open()
    page = None
    for i, row in enumerate(rows):
        if i % per_page == 0:
            page = doc.new_page(width=595, height=842)
            page.insert_font(fontname="mono", fontfile=MONO)
            page.insert_font(fontname="monob", fontfile=MONO_BOLD)
            if i == 0:
                page.insert_text((45, 40), "Table 1. Energy use", fontsize=11, fontname="monob")
            _mono_row(page, 58, MONO_HEADER, "monob")
        _mono_row(page, 82 + 23.7 * (i % per_page), row, "mono")
    assert page is not None
    doc.save(path)
    return rows


def _mono_row(page: pymupdf.Page, y: float, row: tuple[str, ...], face: str) -> None:
    font = pymupdf.Font(fontfile=MONO_BOLD if face == "monob" else MONO)
    page.insert_text((45, y), row[0], fontsize=11, fontname=face)
    for right, text in zip((354.1, 438.8, 550.0), row[1:], strict=True):
        page.insert_text((right - font.text_length(text, fontsize=11), y), text, fontsize=11, fontname=face)


def test_a_last_page_of_two_rows_with_a_name_read_as_three_columns_still_merges(tmp_path: Path) -> None:
    rows = _mono_table(tmp_path / "mono.pdf")
    (table,) = process_document(load_document(str(tmp_path / "mono.pdf"), "mono.pdf"), load_config(None)).tables
    assert table.columns == MONO_HEADER
    assert [tuple(r) for r in table.rows] == rows
    assert table.pages == (1, 2, 3)


AREAS = ["Hải Phòng nhà máy", "Vũng Tàu kho", "Phan Thiết chi nhánh", "Huế cửa hàng", "Cần Thơ kho"]
KINDS = ["Nhà máy", "Kho", "Chi nhánh", "Văn phòng"]
VI_HEADER = ("Hạng mục", "Khu vực", "Số nhân viên", "Ngân sách", "Khối lượng", "Tỷ trọng")
VI_XS = ((52, "left"), (221.6, "left"), (358, "right"), (420.7, "right"), (485, "right"), (536.7, "right"))


def _ruled_long_table(path: Path, long_name: str, n: int = 70) -> list[tuple[str, ...]]:
    """`n` rows ruled apart over pages, the header on page 1 only; one row of page 1 holds a
    name that runs to a word space before the next column (no row of the other pages does)."""
    rng = random.Random(n)
    def dots(n: int) -> str:
        return f"{n:,}".replace(",", ".")

    rows = [(f"{AREAS[i % 5]} {rng.randint(100, 9999)}", KINDS[i % 4], f"{dots(rng.randint(10**5, 10**7))} ₫",
             f"{dots(rng.randint(1000, 99999))},{rng.randint(10, 99)}", dots(rng.randint(10**4, 10**6)),
             f"{rng.randint(1, 99)},{rng.randint(0, 9)} %") for i in range(n)]
    rows[9] = (long_name, *rows[9][1:])
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 50, 176, "Bảng 1 Kế hoạch bảo trì", 11, "bold")
    _vi_row(page, 197, VI_HEADER, "bold")
    top = 202.8
    for row in rows:
        if top + 19.5 > 740:
            page.draw_line((50, top), (538.7, top), width=0.48)
            page, top = new_page(doc), 50.0
        page.draw_line((50, top), (538.7, top), width=0.48)
        _vi_row(page, top + 14, row, "sans")
        top += 19.5
    page.draw_line((50, top), (538.7, top), width=0.48)
    doc.save(path)
    return rows


def _vi_row(page: pymupdf.Page, y: float, row: tuple[str, ...], face: str) -> None:
    for (x, align), text in zip(VI_XS, row, strict=True):
        put(page, x, y, text, 10, face, align)


def test_a_long_name_on_the_first_page_alone_does_not_part_the_table(tmp_path: Path) -> None:
    rows = _ruled_long_table(tmp_path / "ruled.pdf", "Buôn Ma Thuột dây chuyền 9564")
    (table,) = process_document(load_document(str(tmp_path / "ruled.pdf"), "ruled.pdf"), load_config(None)).tables
    assert table.columns == VI_HEADER
    assert table.caption == "Bảng 1 Kế hoạch bảo trì"
    assert [tuple(r) for r in table.rows] == rows
    assert table.pages == (1, 2, 3)

_MONO = {"mono": "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
         "monobold": "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"}
SEGMENTS = ((60.0, 159.8), (165.8, 203.9), (209.9, 252.6), (258.6, 332.8), (338.8, 386.0), (392.0, 442.1))
LABELS = ("Site", "Supplier", "Share (%)", "Lead time (days)", "Margin (%)", "Date")
TEXT_X = (64.0, 166.8, 248.6, 328.8, 382.0, 438.1)  # left, left, then right edges


def _mono_page(doc: pymupdf.Document) -> pymupdf.Page:
    page = doc.new_page(width=612, height=792)
    for name, file in _MONO.items():
        page.insert_font(fontname=name, fontfile=file)
    return page


def _ruled_rows(page: pymupdf.Page, top: float, rows: list[tuple[str, ...]], header: bool = True) -> float:
    """The header (or not) and `rows` from baseline `top`, 16.4 pt apart, a rule under each
    drawn column by column (a gap between two columns' rules)."""
    for i, row in enumerate([LABELS, *rows] if header else rows, start=0 if header else 1):
        y = top + 16.4 * (i - (not header))
        face = "monobold" if i == 0 else "mono"
        for k, (x, text) in enumerate(zip(TEXT_X, row, strict=True)):
            left = x if k < 2 else x - pymupdf.Font(fontfile=_MONO[face]).text_length(text, fontsize=7.5)
            page.insert_text((left, y), text, fontsize=7.5, fontname=face)
        for x0, x1 in SEGMENTS:
            page.draw_line((x0, y + 5.0), (x1, y + 5.0), width=0.5)
    return top + 16.4 * (len(rows) + header)


def _over_two_pages(path: Path, rows: list[tuple[str, ...]], first: int, caption_y: float, next_top: float,
                    header_again: bool) -> Path:
    """A titled page whose captioned table's first `first` rows stand at its foot, the rest on
    the next page from `next_top` (under the header printed again, or not), a note under them."""
    doc = pymupdf.open()
    page = _mono_page(doc)
    page.insert_text((60, 80), "Supplier overview 2024", fontsize=16, fontname="monobold")
    page.insert_text((60, caption_y), "Table 2 - Energy consumption", fontsize=8, fontname="monobold")
    _ruled_rows(page, caption_y + 17.0, rows[:first])
    page = _mono_page(doc)
    end = _ruled_rows(page, next_top, rows[first:], header=header_again)
    page.insert_text((60, end + 8), "Sites opened during the year are included from their first full month.",
                     fontsize=8, fontname="mono")
    doc.save(path)
    return path


def test_a_table_ruled_column_by_column_over_two_pages_is_one_table(tmp_path: Path) -> None:
    """A long table ruled under each row with a gap between the columns' rules, its last two
    rows on the next page under the header printed again: each page's reader may make an
    empty column at one of the gaps, another on each page, so the pages' columns line up only
    with those left out (issue 13, zoo dev9 row_rules-152-en)."""
    rng = random.Random(152)
    rows = [(f"{name} {rng.randint(1000, 9999)}", kind, f"{rng.randint(10, 999) / 10:.1f}%",
             f"{rng.randint(10_000, 999_999):,}", f"{rng.randint(10, 999) / 10:.1f}%",
             f"202{rng.randint(0, 6)}-{rng.randint(1, 12):02d}-{rng.randint(10, 28)}")
            for name, kind in [("Riverside depot", "Depot"), ("Fairfield line", "Unit"), ("Brookfield store", "Store"),
                               ("Riverside hub", "Plant"), ("Glenwood store", "Plant"), ("Maple Court unit", "Unit"),
                               ("Elm Street plant", "Plant"), ("Brookfield hub", "Office"),
                               ("Stone Bridge hub", "Unit")]]
    path = _over_two_pages(tmp_path / "ruled.pdf", rows, first=7, caption_y=590, next_top=79.0, header_again=True)
    (table,) = [t for t in rowkeeper.extract(str(path)).tables]
    assert table.columns == LABELS
    assert [tuple(r) for r in table.rows] == rows
    assert table.pages == (1, 2)


def test_a_first_page_of_two_rows_whose_names_split_at_their_numbers_joins_its_continuation(
        tmp_path: Path) -> None:
    """The table's first page holds two rows under the header, their names of one length, so
    the numbers after them start level and the reader makes them a column of their own (an
    empty label over it); the next page's names are of many lengths and keep their numbers:
    the first page's split column is joined again, one table (issue 13, zoo dev9 row_rules-145-ja)."""
    rng = random.Random(145)
    names = ["Toyama plant", "Sendai store", "Naha office", "Kumamoto depot", "Sapporo hub", "Kobe line",
             "Hiroshima centre", "Nagano store", "Oita plant"]
    rows = [(f"{name} {rng.randint(1000, 9999)}", "Plant", f"{rng.randint(10, 999) / 10:.1f}%",
             f"{rng.randint(10_000, 999_999):,}", f"{rng.randint(10, 999) / 10:.1f}%",
             f"202{rng.randint(0, 6)}-{rng.randint(1, 12):02d}-{rng.randint(10, 28)}") for name in names]
    path = _over_two_pages(tmp_path / "split.pdf", rows, first=2, caption_y=672, next_top=62.0, header_again=False)
    (table,) = [t for t in rowkeeper.extract(str(path)).tables]
    assert table.columns == LABELS
    assert [tuple(r) for r in table.rows] == rows
