"""Figures of adjacent columns set a word space apart (finder/word_gaps.py): the text layer prints
them as one line, the column edges that other rows' figures end on part them again, so the
table is found with its columns."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from rowkeeper.extractors.finder.word_gaps import cut_at_gaps
from rowkeeper.models import TextLine
from tests.extractors.finder.layout import new_page, put, width
from tests.transforms.pdf_docs import tables_of

ROWS = [("Net sales", "1,127,814", "(240,082)"), ("Cost of sales", "864,296", "938,860"),
        ("Gross profit", "(490,339)", "(37,319)"), ("Selling expenses", "349,116", "613,048"),
        ("Administrative expenses", "472,639", "1,173,175"), ("Other operating income", "757,331", "2,198,622"),
        ("Operating result", "306,555", "971,058"), ("Total", "4,527,962", "9,054,024")]
RIGHT = (233.0, 233.0 + 6.0 + width("(240,082)", 8.5))
"""Right edges of the two figure columns: the first row's figures stand a word space apart."""


def _statement(path: Path) -> Path:
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 50, 70, "Supplier overview 2019", 16, "bold")
    put(page, 50, 100, "All amounts are stated before tax unless a note says otherwise.", 10)
    put(page, 233, 125, "2024", 8.5, align="right")
    put(page, RIGHT[1], 125, "2023", 8.5, align="right")
    for i, (label, a, b) in enumerate(ROWS):
        y = 140 + 13.6 * i
        put(page, 63, y, label, 8.5)
        put(page, RIGHT[0], y, a, 8.5, align="right")
        put(page, RIGHT[1], y, b, 8.5, align="right")
    put(page, 50, 270, "This section summarises the main results and compares them with the previous year.", 10)
    doc.save(path)
    return path


def test_figures_a_word_space_apart_are_read_in_their_columns(tmp_path: Path) -> None:
    path = _statement(tmp_path / "statement.pdf")
    with pymupdf.open(path) as pdf:
        joined = [ln for b in pdf[0].get_text("dict")["blocks"] for ln in b.get("lines", [])
                  if len(ln["spans"]) > 1 and any(ch.isdigit() for ch in ln["spans"][0]["text"])]
    assert joined, "the text layer no longer joins the close figures: the test lost its point"
    (table,) = tables_of(path)
    assert table.columns == ("", "2024", "2023")
    assert [tuple(r) for r in table.rows] == ROWS


def _line(x0: float, x1: float, y: float, text: str) -> TextLine:
    return TextLine(page=1, bbox=(x0, y, x1, y + 9), text=text, font_size=8.5)


def test_a_sentence_with_a_figure_is_not_cut() -> None:
    """A figure in running text ends on no column edge of other rows' figures."""
    lines = [_line(197, 233, 10, "864,296"), _line(197, 233, 24, "349,116"),
             _line(50, 300, 40, "Sales rose 12 percent to 1,204 units")]
    words = [(197, 10, 233, 19, "864,296"), (197, 24, 233, 33, "349,116")] + \
            [(50 + 35 * i, 40, 80 + 35 * i, 49, w) for i, w in enumerate("Sales rose 12 percent to 1,204 units".split())]
    assert [ln.text for ln in cut_at_gaps(lines, words)] == ["864,296", "349,116",
                                                             "Sales rose 12 percent to 1,204 units"]
