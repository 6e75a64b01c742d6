"""A note mark set raised and smaller right after a figure (`24.91` + `2`) is no digit of the
figure (extractors/note_marks.py): the cell keeps the mark in superscript digits (`24.91²`)
and its column reads the figure 24.91; the raised digits of a unit after letters (`m²`-like)
and a figure set in one size stay as printed."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from rowkeeper.transforms.column_types import parse_cell
from tests.extractors.finder.layout import new_page, put
from tests.transforms.pdf_docs import tables_of

ROWS = [("Kerala", "29.03", "24.91", "2"), ("Goa", "1.40", "1.02", None), ("Assam", "12.69", "10.02", None),
        ("Bihar", "40.75", "41.54", "3"), ("Punjab", "11.53", "9.67", None), ("Sikkim", "0.98", "0.71", None)]


def _page(path: Path, ruled: bool) -> Path:
    """States, two figure columns right-aligned; some figures of the last column carry a
    footnote number set raised in 5.2 pt print right after them (no space)."""
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 60, 70, "Table 4. Outstanding debt by state (billion)", 11, "bold")
    rights = (220.0, 300.0)
    put(page, 60, 100, "State", 9, "bold")
    for x, label in zip(rights, ("Total", "Market"), strict=True):
        put(page, x, 100, label, 9, "bold", "right")
    for i, (state, total, market, note) in enumerate(ROWS):
        y = 118 + 14 * i
        put(page, 60, y, state, 9)
        put(page, rights[0], y, total, 9, align="right")
        put(page, rights[1], y, market, 9, align="right")
        if note:
            put(page, rights[1], y - 3.1, note, 5.2)
    if ruled:
        for y in [88, 105, *(105 + 14 * (i + 1) for i in range(len(ROWS)))]:
            page.draw_line((55, y), (310, y), width=0.5)
        for x in (55, 150, 230, 310):
            page.draw_line((x, 88), (x, 105 + 14 * len(ROWS)), width=0.5)
    doc.save(path)
    return path


@pytest.mark.parametrize("ruled", [False, True])
def test_a_raised_note_number_after_a_figure_is_no_digit_of_it(tmp_path: Path, ruled: bool) -> None:
    (t,) = tables_of(_page(tmp_path / "t.pdf", ruled))
    by_state = {r[0]: r for r in t.rows}
    assert by_state["Kerala"][2] == "24.91²" and by_state["Bihar"][2] == "41.54³"
    assert by_state["Goa"][2] == "1.02"
    assert t.column_types[2] == "decimal"
    assert parse_cell(by_state["Kerala"][2]).value == 24.91


def test_the_mark_is_left_out_of_the_value_only_after_a_figure() -> None:
    assert parse_cell("12.5%³").value == 12.5
    assert parse_cell("2").value == 2.0 and parse_cell("m²").kind == "text"

