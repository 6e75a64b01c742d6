"""Borderless tables ruled between rows only: the rules, not the text lines, make the rows."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from rowkeeper.extractors.pymupdf_extractor import PyMuPDFExtractor
from tests.extractors.helpers import doc_for

X = [60, 200, 300]
RULE = (56, 480)


def _page(path: Path, rows: list[tuple[str, str, list[str]]], rule_every_row: bool) -> None:
    """Rows of (label, code, lines of a wrapped note); rules under the header and between rows
    (or, without `rule_every_row`, only under the header and at the foot)."""
    doc = pymupdf.open()
    page = doc.new_page()
    y = 100.0
    page.insert_text((X[0], y), "Item", fontsize=10)
    page.insert_text((X[1], y), "Code", fontsize=10)
    page.insert_text((X[2], y), "Note", fontsize=10)
    y += 5
    page.draw_line((RULE[0], y), (RULE[1], y))
    for label, code, note in rows:
        y += 13
        page.insert_text((X[0], y), label, fontsize=10)
        page.insert_text((X[1], y), code, fontsize=10)
        for k, line in enumerate(note):
            page.insert_text((X[2], y + 13 * k), line, fontsize=10)
        y += 13 * (len(note) - 1) + 5
        if rule_every_row:
            page.draw_line((RULE[0], y), (RULE[1], y))
    if not rule_every_row:
        page.draw_line((RULE[0], y), (RULE[1], y))
    doc.save(path)


def test_wrapped_cells_stay_in_the_row_their_rules_bound(tmp_path: Path) -> None:
    rows = [("Cat", "C1", ["Meow"]), ("Bee", "B2", ["Buzz", "and a long hum"]),
            ("Fox", "F3", ["Ring-", "ding-ding-dingeringeding", "gering-ding"])]
    path = tmp_path / "rules.pdf"
    _page(path, rows, rule_every_row=True)
    tables = PyMuPDFExtractor().extract(doc_for(path), [1]).tables
    assert [tuple(r) for r in tables[0].grid()] == [
        ("Item", "Code", "Note"), ("Cat", "C1", "Meow"), ("Bee", "B2", "Buzz and a long hum"),
        ("Fox", "F3", "Ring- ding-ding-dingeringeding gering-ding")]


def test_rules_under_header_and_at_foot_leave_text_rows(tmp_path: Path) -> None:
    rows = [(f"Row {i}", str(100 + i), [f"{i}.5"]) for i in range(5)]
    path = tmp_path / "booktabs.pdf"
    _page(path, rows, rule_every_row=False)
    tables = PyMuPDFExtractor().extract(doc_for(path), [1]).tables
    assert [tuple(r) for r in tables[0].grid()] == [("Item", "Code", "Note")] + [
        (f"Row {i}", str(100 + i), f"{i}.5") for i in range(5)]


def test_tables_side_by_side_are_read_apart_by_their_rules(tmp_path: Path) -> None:
    """Two tables level with each other, each ruled between its rows at its own width."""
    doc = pymupdf.open()
    page = doc.new_page()
    tables = {40: [("Cat", "C1", ["Meow"]), ("Bee", "B2", ["Buzz", "hum"]), ("Owl", "O4", ["Hoot"])],
              310: [("Dog", "D1", ["Woof", "ruff"]), ("Cow", "C2", ["Moo"]), ("Fox", "F3", ["Ring-", "ding"])]}
    for x, rows in tables.items():
        y = 100.0
        for j, head in enumerate(("Item", "Code", "Note")):
            page.insert_text((x + 4 + 80 * j, y), head, fontsize=10)
        y += 5
        page.draw_line((x, y), (x + 250, y))
        for label, code, note in rows:
            y += 13
            page.insert_text((x + 4, y), label, fontsize=10)
            page.insert_text((x + 84, y), code, fontsize=10)
            for k, line in enumerate(note):
                page.insert_text((x + 164, y + 13 * k), line, fontsize=10)
            y += 13 * (len(note) - 1) + 5
            page.draw_line((x, y), (x + 250, y))
    path = tmp_path / "side.pdf"
    doc.save(path)
    found = PyMuPDFExtractor().extract(doc_for(path), [1]).tables
    grids = sorted(([tuple(r) for r in t.grid()] for t in found), key=lambda g: g[1][0])
    assert grids == [
        [("Item", "Code", "Note"), ("Cat", "C1", "Meow"), ("Bee", "B2", "Buzz hum"), ("Owl", "O4", "Hoot")],
        [("Item", "Code", "Note"), ("Dog", "D1", "Woof ruff"), ("Cow", "C2", "Moo"), ("Fox", "F3", "Ring- ding")],
    ]
