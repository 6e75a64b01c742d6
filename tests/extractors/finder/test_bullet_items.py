"""Bullet lists inside cells (finder/bullet_items.py): a slide table's cell listing items one a
line is one cell, not a row per item; items beside their own figures stay rows; a dash before
a figure is a value, not an item."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pymupdf
import pytest

from rowkeeper.extractors.finder.bullet_items import is_item, lines_text
from tests.extractors.finder.layout import new_page, put
from tests.transforms.pdf_docs import tables_of

HEADER = ("Category", "Results", "Owner", "Due")
RECORDS = [("Energy use", ["• Operating costs per region", "• Key indicators"], "Pine Valley", "2024-04-13"),
           ("Procurement", ["• Maintenance schedule"], "Glenwood", "2022-03-23"),
           ("Staffing", ["• Headcount and budget", "• Supplier overview", "• Regional sales"], "Oak Hill",
            "2025-01-09")]
XS = (43, 240, 560, 740)


def _slide(path: Path, stripes: bool, records: list = RECORDS, size: float = 14) -> Path:
    doc = pymupdf.open()
    page = new_page(doc, 960, 540)
    put(page, 40, 70, "Headcount and budget", 26, "bold")
    for x, text in zip(XS, HEADER, strict=True):
        put(page, x, 110, text, 14, "bold")
    _records(page, XS, 140, 820, records, stripes, lambda x, y, text: put(page, x, y, text, size))
    doc.save(path)
    return path


def test_a_cells_bullet_items_are_one_cell(tmp_path: Path) -> None:
    for stripes in (False, True):
        (table,) = tables_of(_slide(tmp_path / f"slide{stripes}.pdf", stripes))
        assert table.columns == HEADER
        assert [tuple(r) for r in table.rows] == [(k, " ".join(items), o, d) for k, items, o, d in RECORDS]


def test_the_last_rows_second_item_stays_in_its_cell(tmp_path: Path) -> None:
    # the last row's items under its first are single lines after the last aligned row: the
    # table's region must reach down to them, or they are lost
    records = [RECORDS[1], ("Outlook", ["• Regional sales", "• Supplier overview"], "Ashford", "2021-08-10")]
    for stripes in (False, True):
        for size in (14, 16):
            (table,) = tables_of(_slide(tmp_path / f"last{stripes}{size}.pdf", stripes, records, size))
            assert table.rows[-1] == ("Outlook", "• Regional sales • Supplier overview", "Ashford", "2021-08-10")
            assert len(table.rows) == 2


def test_items_beside_their_own_figures_stay_rows(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = new_page(doc)
    rows = [("Measure", "Cost", "Saving"), ("• LED lighting", "12,400", "3,100"),
            ("• Heat pumps", "88,000", "14,250"), ("• Roof insulation", "41,900", "6,800")]
    for r, row in enumerate(rows):
        for x, text in zip((72, 300, 420), row, strict=True):
            put(page, x, 100 + 14 * r, text, 9, "bold" if r == 0 else "sans")
    path = tmp_path / "measures.pdf"
    doc.save(path)
    (table,) = tables_of(path)
    assert [tuple(r) for r in table.rows] == rows[1:]


def test_a_dash_before_a_figure_is_a_value() -> None:
    assert is_item("• Key indicators") and is_item("– Operating costs") and is_item("・施設別")
    assert not is_item("- 5") and not is_item("–") and not is_item("-12.5") and not is_item("•")


_MONO = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
_MONO_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"
MONO_HEADER = ("Kategorie", "Personal", "Verantwortlich", "Termin")
MONO_RECORDS = [("Energieverbrauch", ["Energieverbrauch", "Quartalszahlen nach Standort"], "Eichenau", "16.12.2022"),
                ("Personal", ["Wartungsplan", "Quartalszahlen nach Standort", "Kennzahlen"], "Kirchberg", "11.08.2026"),
                ("Wartung", ["Quartalszahlen nach Standort", "Lieferantenübersicht", "Kennzahlen"], "Weidenhof", "14.12.2021"),
                ("Ergebnisse", ["Kennzahlen", "Quartalszahlen nach Standort", "Wartungsplan"], "Buchenallee", "09.11.2026")]


def _mono_slide(path: Path, marker: str, stripes: bool, records: list = MONO_RECORDS) -> Path:
    """A slide set in DejaVu Sans Mono, as a monospaced deck prints one: each item `marker`
    and a space, so the space after the marker is a character wide, as wide as the narrowest
    column gap, and the markers line up as a column of their own."""
    doc = pymupdf.open()
    page = new_page(doc, 960, 540)
    page.insert_font(fontname="mono", fontfile=_MONO)
    page.insert_font(fontname="monob", fontfile=_MONO_BOLD)
    xs = (44.0, 251.4, 576.7, 767.2)
    page.insert_text((40, 70), "Lieferantenübersicht", fontsize=26, fontname="monob")
    for x, text in zip(xs, MONO_HEADER, strict=True):
        page.insert_text((x, 106), text, fontsize=14, fontname="monob")
    mono = [(key, [f"{marker} {item}" for item in items], owner, due) for key, items, owner, due in records]
    _records(page, xs, 132.0, 920, mono, stripes,
             lambda x, y, text: page.insert_text((x, y), text, fontsize=14, fontname="mono"))
    doc.save(path)
    return path


@pytest.mark.parametrize("marker", ["▪", "–", "•"])
@pytest.mark.parametrize("stripes", [False, True])
def test_a_monospaced_slides_markers_stay_with_their_items(tmp_path: Path, marker: str, stripes: bool) -> None:
    # the marker's space is as wide as a column gap: the markers made a column of their own
    # (named ""), and each later item a row
    (table,) = tables_of(_mono_slide(tmp_path / "mono.pdf", marker, stripes))
    assert table.columns == MONO_HEADER
    assert [tuple(r) for r in table.rows] == [
        (k, " ".join(f"{marker} {x}" for x in items), o, d) for k, items, o, d in MONO_RECORDS]


JA_RECORDS = [("見通し", ["・ 人員と予算", "・ 地域別運営費", "・ 保守計画"], "高松", "2024年5月17日"),
              ("評価", ["・ 主要指標"], "静岡", "2022年1月28日"),
              ("方法", ["・ 人員と予算", "・ 施設別四半期実績"], "富山", "2024年8月2日")]


@pytest.mark.parametrize("rules", ["rows", "grid"])
def test_japanese_items_in_a_cell_join_as_items_of_rows_do(tmp_path: Path, rules: str) -> None:
    # items a grid gives rows of their own join without a space after CJK text
    # (`join_bullet_items`); read as one cell's lines (rules between the records, or a full
    # grid) they joined with one: one cell read two ways
    doc = pymupdf.open()
    page = new_page(doc, 960, 540)
    put(page, 40, 70, "エネルギー消費量", 26, "cjk")
    xs = (44, 228, 516, 684)
    edges = [40.0, 224.0, 512.0, 680.0, 920.0]
    for x, text in zip(xs, ("区分", "地域別売上", "担当", "期限"), strict=True):
        put(page, x, 114, text, 16, "cjk")
    ys = [98.0, 126.0]
    for key, items, owner, due in JA_RECORDS:
        y = ys[-1] + 16
        for x, text in ((xs[0], key), (xs[2], owner), (xs[3], due)):
            put(page, x, y, text, 16, "cjk")
        for k, item in enumerate(items):
            put(page, xs[1], y + 20 * k, item, 16, "cjk")
        ys.append(ys[-1] + 20 * len(items) + 8)
    for y in ys[1:] if rules == "rows" else ys:
        page.draw_line((edges[0], y), (edges[-1], y))
    if rules == "grid":
        for x in edges:
            page.draw_line((x, ys[0]), (x, ys[-1]))
    path = tmp_path / "ja.pdf"
    doc.save(path)
    (table,) = tables_of(path)
    assert [tuple(r) for r in table.rows] == [(k, "".join(items), o, d) for k, items, o, d in JA_RECORDS]


def test_a_wrapped_label_keeps_its_space_and_items_after_cjk_join_without() -> None:
    # a label wrapped over a line break (a Japanese statement's `持分法の適用範囲 の変動`,
    # tabula's reading) keeps its space; only a list item's line joins CJK text without one
    assert lines_text(["持分法の適用範囲", "の変動"]) == "持分法の適用範囲 の変動"
    assert lines_text(["・ 人員と予算", "・ 保守計画"]) == "・ 人員と予算・ 保守計画"
    assert lines_text(["• Regional sales", "• Key indicators"]) == "• Regional sales • Key indicators"


def _records(page: pymupdf.Page, xs: Sequence[float], y: float, right: float, records: list,
             stripes: bool, write: Callable[[float, float, str], Any]) -> None:
    """A slide's records from `y` down: key, owner and due date on the record's first line, its
    items one a line in the second column, every other record on a grey stripe when `stripes`."""
    for i, (key, items, owner, due) in enumerate(records):
        height = 17.5 * len(items) + 8
        if stripes and i % 2 == 0:
            page.draw_rect(pymupdf.Rect(40, y - 16, right, y - 16 + height), color=None, fill=(0.9, 0.9, 0.9))
        for x, text in ((xs[0], key), (xs[2], owner), (xs[3], due)):
            write(x, y, text)
        for k, item in enumerate(items):
            write(xs[1], y + 17.5 * k, item)
        y += height + 8
