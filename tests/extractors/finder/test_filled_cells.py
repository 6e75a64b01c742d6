"""Tables drawn as tinted cells (one filled rectangle per cell, hairline white gutters, no rule)."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from rowkeeper.config import load_config
from rowkeeper.extractors.finder.filled_cells import fill_grids
from rowkeeper.flows.pipeline import load_document, process_document

DARK, LIGHT, MID = (0.09, 0.21, 0.36), (0.78, 0.85, 0.95), (0.56, 0.70, 0.89)
HEADER = ["", "Launch", "First year", "Second year"]
BODY = [["Data sets available", "47", "272,768", "389,933"],
        ["Applications developed by the public and by government", "0", "237", "1,079"],
        ["Data set downloads", "0", "652,412", "2,348,928"],
        ["Nations with open data sites of their own", "0", "6", "21"]]
EDGES = [60.0, 250.0, 340.0, 430.0, 530.0]


def _cell(page: pymupdf.Page, x0: float, y0: float, x1: float, y1: float, text: str,
          fill: tuple[float, float, float]) -> None:
    page.draw_rect(pymupdf.Rect(x0, y0, x1, y1), color=None, fill=fill)
    color = (1, 1, 1) if fill == DARK else (0, 0, 0)
    # a long label wraps inside its cell, as a report's row labels do
    page.insert_textbox(pymupdf.Rect(x0 + 5, y0 + 4, x1 - 5, y1 - 2), text, fontsize=10, color=color)


def _mosaic(page: pymupdf.Page, top: float = 300.0) -> None:
    """The table as tinted cells a 1-point gutter apart: a dark label column, lighter values."""
    y = top
    for i, row in enumerate([HEADER, *BODY]):
        height = 40.0 if any(len(t) > 30 for t in row) else 26.0
        for j, text in enumerate(row):
            fill = DARK if i == 0 or j == 0 else (LIGHT, MID, LIGHT)[j - 1]
            _cell(page, EDGES[j] + 0.5, y, EDGES[j + 1] - 0.5, y + height, text, fill)
        y += height + 1.0


def _tables(path: Path):
    return process_document(load_document(str(path), path.name), load_config(None)).tables


def test_a_table_of_tinted_cells_keeps_its_wrapped_labels_in_their_rows(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_textbox(pymupdf.Rect(60, 80, 530, 280), "The open data site makes public-sector data "
                        "available to everyone and keeps a directory of all data the agencies publish. " * 4,
                        fontsize=11)
    _mosaic(page)
    path = tmp_path / "tinted.pdf"
    doc.save(path)
    (table,) = _tables(path)
    assert list(table.columns) == HEADER
    assert [list(r) for r in table.rows] == BODY


def test_zebra_stripes_under_a_tinted_header_are_no_grid_of_cells(tmp_path: Path) -> None:
    """A header of tinted cells over full-width stripes: the stripes are row backgrounds, not
    cells spanning the table (each row keeps its four values)."""
    doc = pymupdf.open()
    page = doc.new_page()
    rows = [["Region", "Units", "Revenue", "Margin"], ["North", "120", "4,300", "12%"],
            ["South", "95", "3,150", "9%"], ["East", "143", "5,020", "14%"], ["West", "88", "2,760", "8%"]]
    for i, row in enumerate(rows):
        y = 100 + 22 * i
        if i == 0:
            for j in range(4):
                page.draw_rect(pymupdf.Rect(EDGES[j] + 0.5, y, EDGES[j + 1] - 0.5, y + 21), color=None, fill=DARK)
        else:
            page.draw_rect(pymupdf.Rect(EDGES[0], y, EDGES[-1], y + 21), color=None,
                           fill=LIGHT if i % 2 else MID)
        for j, text in enumerate(row):
            page.insert_text((EDGES[j] + 6, y + 15), text, fontsize=10, color=(1, 1, 1) if i == 0 else (0, 0, 0))
    path = tmp_path / "zebra.pdf"
    doc.save(path)
    (table,) = _tables(path)
    assert list(table.columns) == rows[0]
    assert [list(r) for r in table.rows] == rows[1:]


def test_tiles_without_text_make_no_grid() -> None:
    """A chart's or a picture wall's tiles on lanes hold no text: no table."""
    tiles = [(60 + 50 * c, 100 + 30 * r, 108 + 50 * c, 128 + 30 * r) for r in range(3) for c in range(4)]
    assert fill_grids(tiles, [(300.0, 500.0, 400.0, 510.0)]) == []
    lines = [(t[0] + 5, t[1] + 8, t[0] + 30, t[1] + 18) for t in tiles]
    (grid,) = fill_grids(tiles, lines)
    assert (len(grid.rows), len(grid.columns)) == (3, 4)
