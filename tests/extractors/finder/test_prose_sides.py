"""Prose at a region's side (finder/prose_sides.py): on a two-column page whose right column holds
a table and little running text, the left column's paragraph level with the table is no column
of it; two paragraphs side by side are no table; a table's column of long sentences stays."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tests.extractors.finder.layout import new_page, put
from tests.transforms.pdf_docs import tables_of

PROSE = ("The figures below cover the reporting period and were",
         "checked by the controlling team. All amounts are stated",
         "before tax unless a note says otherwise. Sites opened",
         "during the year are included from their first full month",
         "of operation. Costs include maintenance, energy and all",
         "external services but exclude depreciation. Values are",
         "rounded; totals may differ slightly from the sum of rows.")
HEADER = ("Item", "Share", "Staff", "Budget")
BODY = [("1160 Westgate store", "71.4%", "830,355", "92,052.19"),
        ("54 Millbrook office", "31.8%", "289,057", "60,242.60"),
        ("841 Ashford store", "6.5%", "257,032", "4,049.70"),
        ("5061 Bay Point office", "41.2%", "24,403", "19,071.16"),
        ("8981 Brookfield plant", "1.5%", "825,304", "23,345.60"),
        ("8432 Glenwood depot", "68.4%", "769,298", "58,749.16")]


def _paragraph(page: pymupdf.Page, x: float, top: float, lines: int) -> float:
    for i in range(lines):
        put(page, x, top + 11 * i, PROSE[i % len(PROSE)], 8.5, "serif")
    return top + 11 * lines


def _grid(page: pymupdf.Page, cells: tuple, rows: list, top: float, pitch: float, size: float, font: str) -> None:
    """Write `rows` (header first) at x positions `cells` = (xs, aligns), one row every `pitch`."""
    xs, aligns = cells
    for r, row in enumerate(rows):
        for x, text, align in zip(xs, row, aligns, strict=True):
            put(page, x, top + pitch * r, text, size, "bold" if r == 0 and font == "sans" else font, align)


def _two_columns(path: Path, right_prose: bool = False) -> Path:
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 60, 60, "Energy consumption 2024", 16, "bold")
    put(page, 60, 92, "1. Regional sales", 11, "bold")
    _paragraph(page, 60, 108, 28)
    if right_prose:
        _paragraph(page, 320, 108, 12)
    else:
        put(page, 320, 92, "Table 2: Headcount and budget", 8.5, "bold")
        cells = (320, 438, 487, 547), ("left", "right", "right", "right")
        _grid(page, cells, [HEADER, *BODY], 110, 15, 7.5, "sans")
        _paragraph(page, 320, 230, 3)
    doc.save(path)
    return path


def test_the_other_columns_paragraph_is_no_column_of_the_table(tmp_path: Path) -> None:
    tables = tables_of(_two_columns(tmp_path / "paper.pdf"))
    assert len(tables) == 1
    assert tables[0].columns == HEADER
    assert [tuple(r) for r in tables[0].rows] == BODY


def test_two_paragraphs_side_by_side_are_no_table(tmp_path: Path) -> None:
    assert tables_of(_two_columns(tmp_path / "prose.pdf", right_prose=True)) == ()


def test_a_column_of_sentences_stays_in_its_table(tmp_path: Path) -> None:
    """A requirements table whose first column holds sentences, prose right under it at the
    same x: the sentences are the table's cells, not a paragraph beside it."""
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 60, 60, "Requirements", 14, "bold")
    rows = [("Requirement", "Owner", "Due")] + [(PROSE[i][:48].strip(), f"Team {i}", f"2026-0{i + 1}-15") for i in range(5)]
    for r, row in enumerate(rows):
        for x, text in zip((60, 340, 440), row, strict=True):
            put(page, x, 90 + 14 * r, text, 8.5, "bold" if r == 0 else "sans")
    _paragraph(page, 60, 180, 4)
    path = tmp_path / "requirements.pdf"
    doc.save(path)
    (table,) = tables_of(path)
    assert table.columns == ("Requirement", "Owner", "Due")
    assert [r[0] for r in table.rows] == [PROSE[i][:48].strip() for i in range(5)]


def test_a_bulleted_paragraph_is_no_table(tmp_path: Path) -> None:
    """A list whose items run over several lines of running text, bullets at the left, the
    page's paragraphs above and below at the items' x: no column of bullets left as a table."""
    doc = pymupdf.open()
    page = new_page(doc)
    _paragraph(page, 72, 80, 3)
    for i in range(12):
        if i % 3 == 0:
            put(page, 60, 120 + 11 * i, "•", 8.5, "serif")
        put(page, 72, 120 + 11 * i, PROSE[i % len(PROSE)], 8.5, "serif")
    _paragraph(page, 72, 262, 3)
    path = tmp_path / "list.pdf"
    doc.save(path)
    assert tables_of(path) == ()



JA_PROSE = ("以下の数値は報告期間を対象とし、管理部門が確認したものである。数値は四捨五入し",
            "ているため、合計が各行の和と一致しない場合がある。以下の数値は報告期間を対象と",
            "し、管理部門が確認したものである。")
JA_HEADER = ("品目", "構成比", "人数")
JA_BODY = [("神戸工場 3216", "62.8%", "4,097.7"), ("長野倉庫 7999", "83.0%", "92,546.8"),
           ("盛岡工場 3611", "53.1%", "6,193.0"), ("金沢店舗 8355", "73.9%", "78,710.7"),
           ("広島工場 3813", "81.2%", "49,592.06"), ("盛岡センター 1619", "63.1%", "20,877.6")]
JA_WIDE = "費用には保守、エネルギー及び外部委託を含み、減価償却費は含まない。数値は四捨五入しているため"


@pytest.mark.parametrize("last", [JA_PROSE[-1], "め、前年度と比較する。"], ids=["long", "short"])
def test_a_short_paragraph_beside_a_table_at_its_own_leading_is_no_column(tmp_path: Path, last: str) -> None:
    """Three lines of CJK running text right of a borderless table, set closer than its rows
    and ending beside it (no line of the paragraph goes on above or below the table), page-wide
    paragraphs over and under both: a paragraph, not the table's last column. Its last line
    may be short, ending its sentence (issue 13, zoo dev13 borderless_prose-231-ja: the
    paragraph was read into the last column's name)."""
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 60, 90, JA_WIDE, 8, "cjk")
    put(page, 60, 110, "表1 施設別四半期実績", 8, "cjk")
    _grid(page, ((64, 170, 208), ("left", "right", "right")), [JA_HEADER, *JA_BODY], 130, 17, 7.5, "cjk")
    for i, text in enumerate((*JA_PROSE[:-1], last)):
        put(page, 232, 128 + 10 * i, text, 7.5, "cjk")
    put(page, 60, 260, JA_WIDE, 8, "cjk")
    path = tmp_path / "beside.pdf"
    doc.save(path)
    (table,) = tables_of(path)
    assert table.columns == JA_HEADER
    assert [tuple(r) for r in table.rows] == JA_BODY


def test_a_paragraph_beside_a_table_starting_level_with_its_caption_is_no_column(tmp_path: Path) -> None:
    """Three lines of running text right of a borderless table, the first two level with the
    caption over the table and its third level with the header: the region holds the third
    only, and the paragraph's lines over the region count toward it (issue 13, zoo dev8
    borderless_prose-138-ja: the last line was read into the last column's name)."""
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 42, 90, JA_WIDE, 8, "cjk")
    put(page, 42, 112, "表1：保守計画", 8, "cjk")
    cells = (45, 129, 161, 209), ("left", "right", "right", "right")
    header = ("施設", "構成比[%]", "単価[円]", "日付")
    body = [("新潟倉庫 6706", "76.1%", "589,835", "2023年12月1日"), ("福岡倉庫 4049", "64.2%", "868,655", "2020年9月26日"),
            ("新潟工場 2883", "19.1%", "443,365", "2024年1月12日"), ("福岡事務所 7604", "53.5%", "184,930", "2021年3月11日"),
            ("静岡倉庫 1620", "94.7%", "725,820", "2022年10月4日"), ("名古屋工場 8879", "74.0%", "872,044", "2022年6月26日")]
    _grid(page, cells, [header, *body], 130, 18.1, 6.5, "cjk")
    prose = "".join(JA_PROSE) + JA_WIDE
    for i in range(3):
        put(page, 226, 112 + 10.3 * i, prose[42 * i:42 * (i + 1)], 7.6, "cjk")
    put(page, 42, 270, JA_WIDE, 8, "cjk")
    path = tmp_path / "level.pdf"
    doc.save(path)
    (table,) = tables_of(path)
    assert table.columns == header
    assert [tuple(r) for r in table.rows] == body
