"""Two tables set close, one under the other, each between its own top and bottom rule
(booktabs), are two tables (finder/rule_frame._apart_at_closing_rules): the first one's bottom
rule and the second one's top rule lie a few points apart with no text between, and the
aligned rows of two short tables whose column edges partly meet had run on into one region,
read as one table of mixed columns (zoo dev13 stacked-232-en)."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from tests.extractors.finder.layout import new_page, put
from tests.transforms.pdf_docs import tables_of

# (text, x, right-aligned) per cell; the first table in 7.5 pt, the second in 8 pt
FIRST = [[("Item", 66, False), ("Headcount", 212.2, True), ("Power", 262.3, True), ("Share", 274.3, False)],
         [("5508 Maple Court store", 66, False), ("92,924", 212.2, True), ("10,953.60", 262.3, True), ("70.0%", 275.1, False)],
         [("8957 Ashford store", 66, False), ("645,473", 212.2, True), ("56,457.45", 262.3, True), ("48.9%", 275.1, False)],
         [("1320 Bay Point depot", 66, False), ("931,906", 212.2, True), ("7,289.9", 262.3, True), ("10.4%", 275.1, False)]]
SECOND = [[("Site", 64, False), ("Category", 161.9, False), ("Margin", 242.3, True), ("Cost", 296.1, True),
           ("Weight", 305.0, False), ("Score", 378.3, True)],
          [("701 Harbor View store", 64, False), ("Store", 161.9, False), ("56.2%", 242.3, True), ("$9,300,727", 296.1, True),
           ("924,280", 304.1, False), ("131,566", 378.3, True)],
          [("9751 Bay Point unit", 64, False), ("Unit", 161.9, False), ("66.3%", 242.3, True), ("$204,288", 296.1, True),
           ("872,206", 304.1, False), ("3,359", 378.3, True)],
          [("321 Fairfield office", 64, False), ("Hub", 161.9, False), ("89.3%", 242.3, True), ("$5,552,561", 296.1, True),
           ("895,706", 304.1, False), ("129,470", 378.3, True)]]


def _table(page: pymupdf.Page, rows: list, top: float, right: float, size: float, pitch: float) -> None:
    """`rows` between a top rule at `top` and a bottom rule, a rule under the header."""
    page.draw_line((60, top), (right, top), width=1.2)
    for i, row in enumerate(rows):
        y = top + 7.8 + pitch * i
        for text, x, flush_right in row:
            put(page, x, y, text, size, "bold" if i == 0 else "sans", align="right" if flush_right else "left")
        if i == 0:
            page.draw_line((60, y + 3.4), (right, y + 3.4), width=0.6)
    page.draw_line((60, top + 49.5), (right, top + 49.5), width=1.2)


def test_two_ruled_tables_set_close_are_two(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 60, 128, "Sites opened during the year are included from their first full month of operation.", 8)
    put(page, 60, 150.5, "Table 1: Quarterly figures by site", 8, "bold")
    _table(page, FIRST, 157.5, 304.9, 7.5, 12.4)
    _table(page, SECOND, 213.0, 382.3, 8.0, 13.0)
    put(page, 60, 290, "Costs include maintenance, energy and external services but exclude depreciation.", 8)
    doc.save(tmp_path / "stacked.pdf")
    first, second = tables_of(tmp_path / "stacked.pdf")
    assert first.caption == "Table 1: Quarterly figures by site"
    assert list(first.columns) == [text for text, _, _ in FIRST[0]]
    assert [list(r) for r in first.rows] == [[text for text, _, _ in row] for row in FIRST[1:]]
    assert list(second.columns) == [text for text, _, _ in SECOND[0]]
    assert [list(r) for r in second.rows] == [[text for text, _, _ in row] for row in SECOND[1:]]
