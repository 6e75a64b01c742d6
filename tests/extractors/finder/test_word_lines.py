"""Words of one printed line in two sizes stay one line in their cell (finder/word_lines.py):
a label set partly in a smaller face has glyph boxes ending a point higher, and sorting by the
rounded bottom read it as two lines (`Interpret and and integrate ideas information`)."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from rowkeeper.extractors.finder.word_lines import reading_order
from tests.extractors.finder.layout import new_page, put, width
from tests.extractors.helpers import draw_grid
from tests.transforms.pdf_docs import tables_of

HEADER = ("Process", "All items", "New items", "Trend items")
# each label: (text, size) runs on one baseline; "and" and "of" set smaller, as in a report's
# house style where joining words are a lighter, smaller face
LABELS = [[("Interpret", 10), ("and", 7), ("integrate ideas", 10), ("and", 7), ("information", 10)],
          [("Focus on", 10), ("and", 7), ("retrieve stated facts", 10)],
          [("Examine", 10), ("and", 7), ("evaluate content", 10)],
          [("Make straightforward inferences", 10)]]
FIGURES = [("38", "18", "20"), ("33", "14", "19"), ("18", "9", "9"), ("46", "20", "26")]
XS = (72, 300, 380, 460)


def _label(page: pymupdf.Page, x: float, y: float, runs: list[tuple[str, int]]) -> None:
    for text, size in runs:
        put(page, x, y, text, size)
        x += width(text, size) + width(" ", 10)


def _text(runs: list[tuple[str, int]]) -> str:
    return " ".join(t for t, _ in runs)


def _borderless(path: Path) -> Path:
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 72, 60, "Table 2. Items by reading process", 11, "bold")
    for x, text in zip(XS, HEADER, strict=True):
        put(page, x, 90, text, 10, "bold")
    for i, (runs, figures) in enumerate(zip(LABELS, FIGURES, strict=True)):
        y = 110.5 + 16 * i  # the small words' bottoms round a point above the large ones'
        _label(page, XS[0], y, runs)
        for x, v in zip(XS[1:], figures, strict=True):
            put(page, x, y, v, 10)
    doc.save(path)
    return path


def _ruled(path: Path) -> Path:
    doc = pymupdf.open()
    page = new_page(doc)
    ys = [80.5 + 20 * i for i in range(len(LABELS) + 2)]
    draw_grid(page, (68, 296, 376, 456, 530), ys, [HEADER], baseline=14)
    for i, (runs, figures) in enumerate(zip(LABELS, FIGURES, strict=True)):
        y = ys[i + 1] + 14
        _label(page, 72, y, runs)
        for x, v in zip(XS[1:], figures, strict=True):
            put(page, x, y, v, 10)
    doc.save(path)
    return path


def test_a_line_in_two_sizes_reads_in_order_in_a_borderless_table(tmp_path: Path) -> None:
    (table,) = tables_of(_borderless(tmp_path / "borderless.pdf"))
    assert table.columns == HEADER
    assert [r[0] for r in table.rows] == [_text(runs) for runs in LABELS]
    assert [tuple(r[1:]) for r in table.rows] == FIGURES


def test_a_line_in_two_sizes_reads_in_order_in_a_ruled_table(tmp_path: Path) -> None:
    (table,) = tables_of(_ruled(tmp_path / "ruled.pdf"))
    assert [r[0] for r in table.rows] == [_text(runs) for runs in LABELS]


def test_wrapped_lines_and_a_line_half_a_line_off_keep_their_order() -> None:
    """A smaller word on the line joins it; the cell's wrapped line and a line of prose beside
    the table half a line lower (read into the cell with it) stay lines of their own."""
    words = [(10, 20.0, 40, 30.0, "second"), (10, 8.0, 40, 18.0, "first"), (45, 10.5, 60, 17.2, "small"),
             (45, 21.0, 70, 29.0, "line"), (30, 13.5, 80, 23.5, "prose")]
    assert [w[4] for w in reading_order(words)] == ["first", "small", "prose", "second", "line"]
