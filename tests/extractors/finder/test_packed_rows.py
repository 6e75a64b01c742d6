"""Ruled tables whose body is one frame around borderless rows (column rules in the header only)."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from rowkeeper.extractors.pymupdf_extractor import PyMuPDFExtractor
from tests.extractors.helpers import doc_for

HEADER = ("Item", "2013", "2014", "2015")
BODY = [("Exports", "2.6", "3.2", "3.0"), ("Imports", "0.7", "1.3", "1.1"),
        ("Investment", "2.5", "3.4", "2.9"), ("Consumption", "0.3", "3.2", "2.9")]
X = [100, 220, 300, 380, 460]


def _framed_body(path: Path, body_rules: bool) -> None:
    """A header row ruled into 4 columns over one framed body cell holding 4 lines of figures
    (or, with `body_rules`, the same table with every row and column ruled)."""
    doc = pymupdf.open()
    page = doc.new_page()
    top, head, pitch = 150, 174, 14
    bottom = head + pitch * len(BODY) + 6
    for yi in (top, head, bottom):
        page.draw_line((X[0], yi), (X[-1], yi))
    for xi in X:
        page.draw_line((xi, top), (xi, bottom if body_rules or xi in (X[0], X[-1]) else head))
    if body_rules:
        for i in range(1, len(BODY)):
            page.draw_line((X[0], head + 3 + pitch * i), (X[-1], head + 3 + pitch * i))
    for j, text in enumerate(HEADER):
        page.insert_text((X[j] + 4, top + 16), text, fontsize=10)
    for i, row in enumerate(BODY):
        for j, text in enumerate(row):
            page.insert_text((X[j] + 4, head + 14 + pitch * i), text, fontsize=10)
    doc.save(path)


def test_lines_of_figures_in_a_framed_body_become_rows(tmp_path: Path) -> None:
    path = tmp_path / "framed.pdf"
    _framed_body(path, body_rules=False)
    tables = PyMuPDFExtractor().extract(doc_for(path), [1]).tables
    assert len(tables) == 1
    assert [tuple(r) for r in tables[0].grid()] == [HEADER, *BODY]


def test_fully_ruled_table_is_read_as_ruled(tmp_path: Path) -> None:
    path = tmp_path / "ruled.pdf"
    _framed_body(path, body_rules=True)
    tables = PyMuPDFExtractor().extract(doc_for(path), [1]).tables
    assert [tuple(r) for r in tables[0].grid()] == [HEADER, *BODY]
