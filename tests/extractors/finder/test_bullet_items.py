"""Bullet lists inside cells (finder/bullet_items.py): a slide table's cell listing items one a
line is one cell, not a row per item; items beside their own figures stay rows; a dash before
a figure is a value, not an item."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from rowkeeper.extractors.finder.bullet_items import is_item
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
    y = 140
    for i, (key, items, owner, due) in enumerate(records):
        height = 17.5 * len(items) + 8
        if stripes and i % 2 == 0:
            page.draw_rect(pymupdf.Rect(40, y - 16, 820, y - 16 + height), color=None, fill=(0.9, 0.9, 0.9))
        for x, text in ((XS[0], key), (XS[2], owner), (XS[3], due)):
            put(page, x, y, text, size)
        for k, item in enumerate(items):
            put(page, XS[1], y + 17.5 * k, item, size)
        y += height + 8
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
