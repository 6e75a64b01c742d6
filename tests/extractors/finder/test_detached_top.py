"""A title and a date a blank line above a borderless items table line up with its outer
columns: they are no row of it, and the column names are the header's alone
(finder/detached_top.py through the pipeline)."""

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


@pytest.mark.parametrize("lang", ["en", "de"])
def test_title_and_date_above_the_items_are_no_row(tmp_path: Path, lang: str) -> None:
    title, date, header, items = ITEMS[lang]
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 72, 80, "Kraxi Systems, 17 Aviation Road, Paperfield", 9)
    put(page, 72, 150, title, 11)
    put(page, 530, 150, date, 11, align="right")
    right = (None, None, 370, 450, 530)
    for i, row in enumerate([header, *[(str(k + 1), *r) for k, r in enumerate(items)]]):
        y = 190 + 18 * i
        put(page, 110, y, row[0], align="right")
        put(page, 118, y, row[1])
        for x, text in zip(right[2:], row[2:], strict=True):
            put(page, x, y, text, align="right")
    path = tmp_path / "invoice.pdf"
    doc.save(path)
    (table,) = process_document(load_document(str(path), path.name), load_config(None)).tables
    assert table.columns == header
    assert len(table.rows) == len(items) and table.rows[0][1] == items[0][0]
