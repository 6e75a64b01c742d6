"""Candidate selection (finder/candidates.py): the strategies' tables for a page, each text
line in one table at most; a table found by two strategies is emitted once."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from rowkeeper.extractors.finder.candidates import owned_once
from tests.extractors.finder.layout import new_page, put
from tests.transforms.pdf_docs import tables_of

LEFT = [("Kunde", "H. Meier"), ("Ort", "Berlin"), ("Telefon", "030 1234"), ("Datum", "01.12.2026")]
RIGHT = [("Angebot", "A-118"), ("Gültig", "31.12.2026"), ("Name", "S. Wolf")]


def test_a_box_inside_a_stronger_one_is_the_same_table_and_is_dropped() -> None:
    lines = [(70, 100, 140, 110), (70, 115, 140, 125), (330, 100, 400, 110)]
    ruled, again = (60, 95, 150, 130), (66, 98, 145, 128)
    assert owned_once([ruled, again], lines) == [0]


def test_boxes_side_by_side_and_a_frame_without_text_are_all_kept() -> None:
    lines = [(70, 100, 140, 110), (330, 100, 400, 110), (330, 115, 400, 125)]
    assert owned_once([(60, 95, 150, 130), (320, 95, 410, 130), (60, 300, 400, 400)], lines) == [0, 1, 2]


def test_a_candidate_sharing_a_minority_of_its_lines_is_kept() -> None:
    lines = [(70, 100 + 15 * i, 140, 110 + 15 * i) for i in range(6)]
    assert owned_once([(60, 95, 150, 114), (60, 95, 150, 200)], lines) == [0, 1]


def _boxed_blocks(path: Path, bold: bool) -> Path:
    """Two ruled key-value grids side by side (an estimate's customer and offer blocks)."""
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 60, 70, "Kostenvoranschlag 2026", 14)
    # narrow blocks far apart: the aligned text across both covers more than the two grids do
    for x0, rows in ((60, LEFT), (400, RIGHT)):
        top = 90
        for r, (key, value) in enumerate(rows):
            y = top + 18 * r
            page.draw_rect(pymupdf.Rect(x0, y, x0 + 50, y + 18), width=0.6)
            page.draw_rect(pymupdf.Rect(x0 + 50, y, x0 + 115, y + 18), width=0.6)
            put(page, x0 + 4, y + 13, key, face="bold" if bold else "sans")
            put(page, x0 + 54, y + 13, value)
    doc.save(path)
    return path


@pytest.mark.parametrize("bold", [True, False])
def test_ruled_key_value_blocks_side_by_side_are_each_one_table(tmp_path: Path, bold: bool) -> None:
    tables = tables_of(_boxed_blocks(tmp_path / "form.pdf", bold))
    assert [[tuple(r) for r in t.rows] for t in tables] == [LEFT, RIGHT]
    assert [t.columns for t in tables] == [("", "")] * 2


def test_a_small_table_nested_in_a_larger_box_is_kept() -> None:
    lines = [(70, 100 + 15 * i, 140, 110 + 15 * i) for i in range(3)]
    assert owned_once([(40, 40, 560, 700), (60, 95, 150, 145)], lines) == [0, 1]
