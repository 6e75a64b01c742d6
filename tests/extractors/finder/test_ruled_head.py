"""A ruled header band over an unruled body: one table, its columns where the header's rules
stand (finder/ruled_head.py through the pipeline)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from rowkeeper.config import load_config
from rowkeeper.flows.pipeline import load_document, process_document
from tests.extractors.finder.layout import new_page, put

TABLES = {
    "en": [("Region", "Revenue", "Cost", "Margin"), ("North", "1,204.50", "830.10", "374.40"),
           ("South", "998.00", "702.25", "295.75"), ("East", "1,530.75", "1,101.00", "429.75"),
           ("West", "612.40", "455.90", "156.50"), ("Central", "2,045.10", "1,630.80", "414.30")],
    "de": [("Region", "Umsatz", "Kosten", "Marge"), ("Nord", "1.204,50", "830,10", "374,40"),
           ("Süd", "998,00", "702,25", "295,75"), ("Ost", "1.530,75", "1.101,00", "429,75"),
           ("West", "612,40", "455,90", "156,50"), ("Mitte", "2.045,10", "1.630,80", "414,30")],
}
XS = (72, 170, 260, 350, 440)


def _page(path: Path, rows: list[tuple[str, ...]], unit: str | None) -> list:
    """Header labels set left in boxes (a units row under them when `unit`), figures set right
    in the unruled body, each column's figures ending 4 points left of its header box's edge."""
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 72, 70, "Quarterly results by region", 12, "bold")
    put(page, 72, 88, "All amounts in thousands; the figures are unaudited and may still change.")
    top, bands = 100, 2 if unit else 1
    bottom = top + 16 * bands
    for x in XS:
        page.draw_line((x, top), (x, bottom))
    for k in range(bands + 1):
        page.draw_line((XS[0], top + 16 * k), (XS[-1], top + 16 * k))
    for j, label in enumerate(rows[0]):
        put(page, XS[j] + 4, top + 11, label, face="bold")
        if unit and j:
            put(page, XS[j] + 4, top + 27, unit)
    for i, row in enumerate(rows[1:]):
        y = bottom + 14 * (i + 1) - 2
        put(page, XS[0] + 4, y, row[0])
        for j, text in enumerate(row[1:]):
            put(page, XS[j + 2] - 4, y, text, align="right")
    put(page, 72, bottom + 14 * 7, "Margins rose in every region but the west, where a new branch opened.")
    doc.save(path)
    return process_document(load_document(str(path), path.name), load_config(None)).tables


@pytest.mark.parametrize("lang", ["en", "de"])
def test_labels_in_ruled_boxes_name_the_columns_under_them(tmp_path: Path, lang: str) -> None:
    rows = TABLES[lang]
    (table,) = _page(tmp_path / "head.pdf", rows, None)
    assert table.columns == rows[0]
    assert [tuple(r) for r in table.rows] == rows[1:]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_two_row_ruled_header_is_no_table_of_its_own(tmp_path: Path, lang: str) -> None:
    rows = TABLES[lang]
    unit = "EUR k" if lang == "en" else "Tsd. EUR"
    (table,) = _page(tmp_path / "head.pdf", rows, unit)
    assert table.columns == (rows[0][0], *(f"{c} {unit}" for c in rows[0][1:]))
    assert len(table.rows) == 5 and table.rows[0] == rows[1]
