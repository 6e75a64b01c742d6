"""Tables level with each other in the two columns of a page (transforms/sections.py,
page_columns.text_columns with the page's tables): each is read in its own column, so the
section path of the right column's table is the heading in force at the end of the left
column, not the one above the left column's table."""

from __future__ import annotations

import random
from pathlib import Path

import pymupdf

from tests.transforms.pdf_docs import tables_of
from tests.transforms.surroundings_docs import Page, _save

PROSE = ["The figures below cover the reporting period and", "were checked by the controlling team. Sites that",
         "opened during the year are included from their", "first full month. Costs include maintenance and",
         "energy but exclude depreciation. All amounts are"]
COLUMNS = (50.0, 306.0)


def _prose(pg: Page, x: float, y: float, n: int) -> float:
    for k in range(n):
        pg.text(x, y, PROSE[k % len(PROSE)], 9)
        y += 13.5
    return y + 8


def _draw(pg: Page, x: float, y: float, rows: list[list[str]], pitch: float) -> float:
    """Four columns, the first left-aligned, the header row bold; returns the y under the rows."""
    for j, row in enumerate(rows):
        for i, t in enumerate(row):
            pg.text(x + (0, 80, 140, 190)[i], y, t, 8, j == 0, "l" if i == 0 else "r", (80, 50, 40, 40)[i])
        y += pitch
    return y


def _table(pg: Page, x: float, y: float, rnd: random.Random, label: str, pitch: float) -> float:
    rows = [["Site", "Cost", "Output", "Share"]] + [
        [f"{label} depot {i}", f"{rnd.randint(1000, 99999):,}", f"{rnd.randint(10, 999)}.{i}",
         f"{rnd.randint(1, 99)}.{i}%"] for i in range(1, 10)]
    return _draw(pg, x, y, rows, pitch)


def side_by_side(path: Path) -> Path:
    """Left column: section 1, prose, a table, prose, section 2 and prose; right column:
    prose, a table level with the left one, prose (read after the left column: in section 2)."""
    doc = pymupdf.open()
    pg = Page(doc)
    rnd = random.Random(5)
    left, right = COLUMNS
    pg.text(left, 60, "Energy report 2026", 18, True)
    pg.text(left, 100, "1. Procurement", 13, True)
    y = _prose(pg, left, 122, 16)
    y = _table(pg, left, y, rnd, "Harbour", 17)
    pg.text(left, y + 4, "Table 1: Maintenance schedule", 9, True)
    y = _prose(pg, left, y + 26, 4)
    pg.text(left, y + 10, "2. Staff", 13, True)
    _prose(pg, left, y + 32, 10)
    y = _prose(pg, right, 92, 18)
    y = _table(pg, right, y + 4, rnd, "Summit", 20)
    pg.text(right, y + 4, "Table 2: Key indicators", 9, True)
    _prose(pg, right, y + 26, 12)
    return _save(doc, path)


def test_tables_level_across_the_gutter_read_in_their_columns(tmp_path: Path) -> None:
    first, second = sorted(tables_of(side_by_side(tmp_path / "side.pdf")), key=lambda t: t.regions[0].bbox[0])
    assert first.caption == "Table 1: Maintenance schedule" and len(first.rows) == 9
    assert second.caption == "Table 2: Key indicators" and len(second.rows) == 9
    assert first.columns == second.columns == ("Site", "Cost", "Output", "Share")
    assert first.section_path == ("Energy report 2026", "1. Procurement")
    assert second.section_path == ("Energy report 2026", "2. Staff")


JA_PROSE = ["本節では主な結果をまとめ、前年度と比較する。数値", "は四捨五入しているため、合計が各行の和と一致しな",
            "い場合がある。以下の数値は報告期間を対象とし、管", "理部門が確認したものである。費用には保守、エネル",
            "ギー及び外部委託を含み、減価償却費は含まない。本"]


def _ja_prose(pg: Page, x: float, y: float, n: int) -> float:
    """`n` lines of Japanese prose in paragraphs of six lines, each ending short."""
    for k in range(n):
        text = JA_PROSE[k % len(JA_PROSE)]
        pg.text(x, y, text[:9] + "。" if k % 6 == 5 or k == n - 1 else text, 9)
        y += 13.5 + (6 if k % 6 == 5 else 0)
    return y + 8


def _ja_table(pg: Page, x: float, y: float, rnd: random.Random, label: str, pitch: float) -> float:
    rows = [["施設", "費用", "評点", "利益率"]] + [
        [f"{label}{i}号", f"{rnd.randint(1000, 99999):,}", f"{rnd.randint(10, 999)}.{i}",
         f"{rnd.randint(1, 99)}.{i}%"] for i in range(1, 9)]
    return _draw(pg, x, y, rows, pitch)


def covering_tables(path: Path) -> Path:
    """A Japanese paper in two columns. Left: section 1, prose, a caption over a table, prose,
    section 2; right: prose, then a caption over a table whose header stands level with the
    left caption and whose rows, at their own wider pitch, end level with the prose under the
    left table. Every row of the left table has short cells level with the right one's rows
    or between them, as a full-width table's rows across the gutter would."""
    doc = pymupdf.open()
    pg = Page(doc)
    rnd = random.Random(7)
    left, right = COLUMNS
    pg.text(left, 60, "地域別運営費 2023", 18, True)
    pg.text(left, 100, "1. 調達", 13, True)
    top = _ja_prose(pg, left, 122, 14)
    pg.text(left, top, "表1：人員と予算", 9)
    y = _ja_table(pg, left, top + 19, rnd, "那覇センター", 18.25)
    y = _ja_prose(pg, left, y + 10, 3)
    pg.text(left, y + 10, "2. 方法", 13, True)
    _ja_prose(pg, left, y + 32, 14)
    _ja_prose(pg, right, 92, 11)
    pg.text(right, top - 20, "表2：人員と予算", 9)
    y = _ja_table(pg, right, top, rnd, "神戸支店", 21.25)
    _ja_prose(pg, right, y + 14, 18)
    return _save(doc, path)


def test_tables_covering_each_other_across_the_gutter_read_apart(tmp_path: Path) -> None:
    """Two tables, each in its own column of a Japanese paper, with no prose beside them: the
    page's columns are told by its running text (a CJK character as wide as two Latin ones,
    ~24 a line), so each table is read in its column, not as one table across the gutter
    with the other's cells."""
    tables = sorted(tables_of(covering_tables(tmp_path / "cover.pdf")), key=lambda t: t.regions[0].bbox[0])
    assert [t.caption for t in tables] == ["表1：人員と予算", "表2：人員と予算"]
    assert [t.columns for t in tables] == [("施設", "費用", "評点", "利益率")] * 2
    assert [len(t.rows) for t in tables] == [8, 8]
    assert tables[0].rows[0][0] == "那覇センター1号" and tables[1].rows[0][0] == "神戸支店1号"
    assert tables[1].section_path == ("地域別運営費 2023", "2. 方法")
