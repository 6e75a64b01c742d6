"""An invoice's borderless items table. A title and a date a blank line above it line up with
its outer columns: they are no row of it, and the column names are the header's alone
(finder/detached_top.py). The total printed as a bare figure under the amounts is its last row
(finder/figure_tail.py)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from rowkeeper.config import load_config
from rowkeeper.flows.pipeline import load_document, process_document
from tests.extractors.finder.layout import new_page, put

ITEMS = {
    "en": ("INVOICE 2020-10", "January 8, 2020", ("Item", "Description", "Quantity", "Price", "Amount"),
           [("Super Kite", "2", "20.00", "40.00"), ("Turbo Flyer", "5", "40.00", "200.00"),
            ("Giga Trash", "1", "180.00", "180.00"), ("Bare Bone Kit", "3", "50.00", "150.00"),
            ("Free Gift", "1", "0.00", "0.00")]),
    "de": ("RECHNUNG 2020-10", "8. Januar 2020", ("Pos.", "Bezeichnung", "Menge", "Preis", "Betrag"),
           [("Drachen Super", "2", "20,00", "40,00"), ("Turbo-Flieger", "5", "40,00", "200,00"),
            ("Müllsammler", "1", "180,00", "180,00"), ("Bausatz Basis", "3", "50,00", "150,00"),
            ("Geschenk", "1", "0,00", "0,00")]),
}


def _invoice(path: Path, lang: str, total: str | None) -> list:
    title, date, header, items = ITEMS[lang]
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 72, 80, "Kraxi Systems, 17 Aviation Road, Paperfield", 9)
    put(page, 72, 150, title, 11)
    put(page, 530, 150, date, 11, align="right")
    right = (None, None, 370, 450, 530)
    rows = [header, *[(str(k + 1), *r) for k, r in enumerate(items)]]
    for i, row in enumerate(rows):
        y = 190 + 18 * i
        put(page, 110, y, row[0], align="right")
        put(page, 118, y, row[1])
        for x, text in zip(right[2:], row[2:], strict=True):
            put(page, x, y, text, align="right")
    if total:
        put(page, 530, 190 + 18 * len(rows), total, align="right")
    put(page, 72, 190 + 18 * (len(rows) + 3), "Payment within 30 days. Thank you for your order.")
    doc.save(path)
    return list(process_document(load_document(str(path), path.name), load_config(None)).tables)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_title_and_date_above_the_items_are_no_row(tmp_path: Path, lang: str) -> None:
    _, _, header, items = ITEMS[lang]
    (table,) = _invoice(tmp_path / "invoice.pdf", lang, None)
    assert table.columns == header
    assert len(table.rows) == len(items) and table.rows[0][1] == items[0][0]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_bare_total_under_the_amounts_is_the_last_row(tmp_path: Path, lang: str) -> None:
    _, _, header, items = ITEMS[lang]
    total = "570.00" if lang == "en" else "570,00"
    (table,) = _invoice(tmp_path / "invoice.pdf", lang, total)
    assert table.columns == header
    assert len(table.rows) == len(items) + 1 and table.rows[-1] == ("", "", "", "", total)


def test_a_header_of_years_set_apart_over_the_figures_stays(tmp_path: Path) -> None:
    """Years over figure columns with a blank line under them: a part over nearly every
    column, so a header row, not a title standing apart."""
    rows = [("Exports", "120.4", "133.9", "141.2"), ("Imports", "98.7", "104.1", "110.6"),
            ("Balance", "21.7", "29.8", "30.6"), ("Reserves", "55.0", "61.3", "64.8")]
    doc = pymupdf.open()
    page = new_page(doc)
    for x, year in zip((300, 380, 460), ("1994", "1997", "2003"), strict=True):
        put(page, x, 120, year, align="right")
    for i, row in enumerate(rows):
        put(page, 72, 160 + 14 * i, row[0])
        for x, text in zip((300, 380, 460), row[1:], strict=True):
            put(page, x, 160 + 14 * i, text, align="right")
    path = tmp_path / "years.pdf"
    doc.save(path)
    (table,) = process_document(load_document(str(path), path.name), load_config(None)).tables
    assert table.columns == ("", "1994", "1997", "2003")
    assert [tuple(r) for r in table.rows] == rows
