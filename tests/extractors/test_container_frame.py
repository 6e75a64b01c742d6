"""A frame drawn around a page's tables is a container, not a table (issue 13): an invoice's
outer frame whose first ruled cell holds the block of fields and whose last holds the totals
gives those cells up to the tables inside them and keeps only the item rows of its own, so no
word is in two tables (`finder/shared_cells.nested_first`); a stamp printed slanted across the
items ("PAID" at 45 degrees) adds no letters to their cells (`pdfplumber_extractor`)."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from rowkeeper.extractors.pdfplumber_extractor import PdfplumberExtractor
from tests.extractors.helpers import doc_for, draw_grid

FIELDS = [["Invoice Number", "INV-5521"], ["Order Number", "88412"], ["Due Date", "March 3, 2024"]]
ITEMS = [["Qty", "Service", "Price", "Amount"], ["2.00", "Garden care", "$40.00", "$80.00"]]
TOTALS = [["Sub Total", "$80.00"], ["Tax", "$8.00"], ["Total", "$88.00"]]


def _invoice(path: Path, stamp: bool = False) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    left, right = 40.0, 555.0
    # the outer frame: a band of fields, two rows of items ruled in four columns, a band of totals
    for y in (100.0, 320.0, 343.0, 366.0, 520.0):
        page.draw_line((left, y), (right, y))
    for x in (left, right):
        page.draw_line((x, 100.0), (x, 520.0))
    for x in (95.0, 330.0, 440.0):
        page.draw_line((x, 320.0), (x, 366.0))
    for i, row in enumerate(ITEMS):
        for x, text in zip((left, 95.0, 330.0, 440.0), row, strict=True):
            page.insert_text((x + 4, 320.0 + 23 * i + 16), text, fontsize=10)
    # two ruled blocks inside the frame's first and last cells
    draw_grid(page, [340.0, 440.0, 545.0], [115.0 + 16 * k for k in range(4)], FIELDS, baseline=12)
    draw_grid(page, [340.0, 440.0, 545.0], [385.0 + 16 * k for k in range(4)], TOTALS, baseline=12)
    page.insert_text((50.0, 130.0), "From: Acme Gardens", fontsize=10)
    if stamp:  # "PAID" stamped across the items at 45 degrees, its letters over their cells
        origin = pymupdf.Point(250.0, 330.0)
        page.insert_text(origin, "PAID", fontsize=36, color=(0.8, 0.2, 0.2), morph=(origin, pymupdf.Matrix(-45)))
    doc.save(path)
    return path


def test_a_frame_around_tables_keeps_only_its_own_rows(tmp_path: Path) -> None:
    pdf = _invoice(tmp_path / "invoice.pdf")
    tables = PdfplumberExtractor().extract(doc_for(pdf), [1]).tables
    grids = sorted(t.grid() for t in tables)
    assert grids == sorted([FIELDS, ITEMS, TOTALS])


def test_a_stamp_across_the_page_is_no_cell_text(tmp_path: Path) -> None:
    """A stamp printed slanted across the items ("PAID" at 45 degrees): its letters are no
    text of the cells they fall in."""
    pdf = _invoice(tmp_path / "paid.pdf", stamp=True)
    tables = PdfplumberExtractor().extract(doc_for(pdf), [1]).tables
    assert sorted(t.grid() for t in tables) == sorted([FIELDS, ITEMS, TOTALS])
