"""Ruled tables whose row labels stand left of the first rule (an open stub column)."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from rowkeeper.extractors.pymupdf_extractor import PyMuPDFExtractor
from tests.extractors.helpers import doc_for, draw_grid

HEADER = ("Votes", "Turnout")
BODY = [("Alcona", "963", "439"), ("Caledonia", "923", "393"), ("Curtis", "1026", "349"),
        ("Greenbush", "1212", "423")]


def _grid_with_labels_left(path: Path, prose_left: bool) -> None:
    """A 2-column ruled grid at x 200-400; row labels at x 130 (or a paragraph at x 60)."""
    doc = pymupdf.open()
    page = doc.new_page()
    x = [200, 300, 400]
    y = [200 + 24 * i for i in range(len(BODY) + 2)]
    draw_grid(page, x, y)
    for j, text in enumerate(HEADER):
        page.insert_text((x[j] + 4, y[0] + 16), text, fontsize=10)
    for i, row in enumerate(BODY, start=1):
        for j, text in enumerate(row[1:]):
            page.insert_text((x[j] + 4, y[i] + 16), text, fontsize=10)
        if not prose_left:
            page.insert_text((130, y[i] + 16), row[0], fontsize=10)
    if prose_left:  # paragraphs in the left column of the page, running past the table
        for base in range(150, 400, 14):
            if not (195 < base < 212 or 315 < base < 332):  # no line astride the table's edges
                page.insert_text((60, base), "words of a paragraph", fontsize=10)
    doc.save(path)


def test_row_labels_left_of_the_rules_join_the_table(tmp_path: Path) -> None:
    path = tmp_path / "stub.pdf"
    _grid_with_labels_left(path, prose_left=False)
    tables = PyMuPDFExtractor().extract(doc_for(path), [1]).tables
    assert len(tables) == 1
    assert [tuple(r) for r in tables[0].grid()] == [("", *HEADER), *BODY]


def test_a_paragraph_beside_the_table_stays_out(tmp_path: Path) -> None:
    path = tmp_path / "prose.pdf"
    _grid_with_labels_left(path, prose_left=True)
    tables = PyMuPDFExtractor().extract(doc_for(path), [1]).tables
    assert [tuple(r) for r in tables[0].grid()] == [HEADER, *(row[1:] for row in BODY)]


def test_codes_left_of_the_rules_stay_out(tmp_path: Path) -> None:
    """Numbers beside a grid (item codes, line numbers) are not a stub of row labels."""
    doc = pymupdf.open()
    page = doc.new_page()
    x, y = [200, 300, 400], [200 + 24 * i for i in range(len(BODY) + 1)]
    draw_grid(page, x, y)
    for i, row in enumerate(BODY):
        page.insert_text((150, y[i] + 16), f"03{i:02d}", fontsize=10)
        for j, text in enumerate(row[:2]):
            page.insert_text((x[j] + 4, y[i] + 16), text, fontsize=10)
    path = tmp_path / "codes.pdf"
    doc.save(path)
    tables = PyMuPDFExtractor().extract(doc_for(path), [1]).tables
    assert [tuple(r) for r in tables[0].grid()] == [row[:2] for row in BODY]
