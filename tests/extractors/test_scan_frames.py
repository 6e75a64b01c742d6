"""A frame on a scan bounds the table inside it (extractors/scan_frames.py, OcrExtractor.read_image)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tests.extractors.ocr_fixtures import scanned_rows

FIELDS = [("Quote no.", "Q-2291"), ("Phone", "564-306"), ("Project", "Bay Point"), ("Address", "Harbor View 6")]
RIGHT = [("Date", "178-6103"), ("Valid", "2024-03-01")]
HEADER = ("Customer", "Contact", "Valid until")
VALUES = ("404-2707", "377-2742", "Summit")


def _form() -> bytes:
    """An estimate's top: a block of fields (key and value at two x), and right under it a frame
    ruled under its header only, holding a header and one row of values in three columns."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((70, 70), "Estimate", fontsize=18, fontname="hebo")
    y = 120.0
    for k, (key, value) in enumerate(FIELDS):
        page.insert_text((72, y), key, fontsize=10)
        page.insert_text((160, y), value, fontsize=10)
        if k < 2:  # a second block of fields beside the first, as on an estimate
            page.insert_text((330, y), RIGHT[k][0], fontsize=10)
            page.insert_text((400, y), RIGHT[k][1], fontsize=10)
        y += 20
    top = y - 8  # the frame right under the block: its header a little more than a line below
    page.draw_rect(pymupdf.Rect(68, top, 520, top + 44), width=0.8)
    page.draw_line((68, top + 22), (520, top + 22), width=0.8)
    for x, (head, value) in zip((72, 240, 400), zip(HEADER, VALUES, strict=True), strict=True):
        page.insert_text((x, top + 15), head, fontsize=10)
        page.insert_text((x, top + 37), value, fontsize=10)
    page.insert_text((70, top + 80), "Prices are stated before tax.", fontsize=10)
    data = doc.tobytes()
    doc.close()
    return data


def test_a_framed_header_and_row_under_a_block_of_fields_is_a_table_of_its_own(tmp_path: Path) -> None:
    """The frame's two rows are one table with the frame's three columns, and the only one that
    holds them (on the base the blocks of fields ran on into the frame's rows, a 6 x 5 table, and
    the frame stood beside it with the same words)."""
    pytest.importorskip("rapidocr")
    rows = scanned_rows(_form(), rotate_deg=0.3, seed=4)
    holding = [t for t in rows if any("Customer" in text for row in t for text in row)]
    assert holding == [[list(HEADER), list(VALUES)]], rows


def test_a_framed_table_with_a_two_line_header_stays_one_table() -> None:
    """A frame around a whole table whose header wraps onto a second line ("Lead time" over
    "(days)"): read with the page's three rows first, the header's two lines stay on the body
    (read with two rows, they were cut off as a table of their own)."""
    from rowkeeper.extractors.ocr_engines import OcrBox
    from rowkeeper.extractors.ocr_tables import PxTable, aligned_tables
    from rowkeeper.extractors.scan_frames import framed_tables

    def run(text: str, x0: float, x1: float, y: float) -> OcrBox:
        return OcrBox(text, (x0 - 4, y, x1 + 4, y + 40), 0.99, ((text, x0, x1),))

    boxes = [run("Site", 140, 260, 470), run("Lead time", 560, 720, 470), run("Quantity", 860, 1010, 470),
             run("(days)", 560, 660, 508), run("(units)", 860, 960, 508)]  # labels left, figures right
    for r in range(6):
        y = 560 + 44 * r
        boxes += [run(f"Talweg line {r}", 140, 400, y), run("20.544,7", 650, 760, y), run("429.113", 945, 1050, y)]
    frame = PxTable((130, 460, 1030, 840), 2, 1, (), "ruled")
    tables, taken = framed_tables([(frame, set(range(len(boxes))))], boxes, boxes,
                                  lambda bs, n: aligned_tables(bs, n), 3)
    assert [(t.n_rows, t.n_cols) for t in tables] == [(8, 3)]
    assert len(taken) == len(boxes)
