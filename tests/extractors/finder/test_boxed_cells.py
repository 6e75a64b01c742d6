"""Tables drawn as one box per cell with gutters between the boxes: no rule meets another."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from rowkeeper.config import load_config
from rowkeeper.extractors.finder.boxed_cells import box_grids
from rowkeeper.extractors.page_features import rules_of_page
from rowkeeper.flows.pipeline import load_document, process_document

HEADER = ["Name", "Team", "Age", "City"]
BODY = [["Jules", "Smith", "34", "San Juan"], ["Mary", "Ramos", "45", "Orlando"],
        ["Carlson", "Banks", "19", "Los Angeles"], ["Lucas", "Cimon", "31", "Angers"]]
LEFT, WIDTH, HEIGHT, GUTTER = 40.0, 120.0, 24.0, 8.0


def _box(page: pymupdf.Page, x0: float, y0: float, x1: float, y1: float, text: str,
         fill: tuple[float, float, float] | None = None) -> None:
    page.draw_rect(pymupdf.Rect(x0, y0, x1, y1), color=(0, 0, 0), fill=fill)
    page.insert_text((x0 + 4, y0 + 16), text, fontsize=10, color=(1, 1, 1) if fill else (0, 0, 0))


def _x(col: int) -> float:
    return LEFT + col * (WIDTH + GUTTER)


def _y(row: int, top: float = 60.0) -> float:
    return top + row * (HEIGHT + GUTTER)


def _results(path: Path):
    return process_document(load_document(str(path), path.name), load_config(None))


def test_boxes_a_gutter_apart_are_one_table_and_the_rows_under_it_another(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    for i, row in enumerate([HEADER, *BODY]):
        for j, text in enumerate(row):
            _box(page, _x(j), _y(i), _x(j) + WIDTH, _y(i) + HEIGHT, text)
    for i, row in enumerate([HEADER, *BODY]):  # the same table again, borderless, below it
        for j, text in enumerate(row):
            page.insert_text((_x(j) + 4, 300 + 26 * i), text, fontsize=10)
    path = tmp_path / "gutter.pdf"
    doc.save(path)
    tables = _results(path).tables
    assert len(tables) == 2
    for t in tables:
        assert list(t.columns) == HEADER
        assert [list(r) for r in t.rows] == BODY


def test_a_box_over_several_lanes_is_a_spanning_cell(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    for j, text in enumerate(HEADER):
        _box(page, _x(j), _y(0), _x(j) + WIDTH, _y(0) + HEIGHT, text)
    _box(page, _x(0), _y(1), _x(1) + WIDTH, _y(2) + HEIGHT, "Merged", fill=(1, 0, 0))  # 2 x 2
    for i in (1, 2):
        _box(page, _x(2), _y(i), _x(2) + WIDTH, _y(i) + HEIGHT, f"{i}0")
        _box(page, _x(3), _y(i), _x(3) + WIDTH, _y(i) + HEIGHT, f"Town {i}")
    _box(page, _x(0), _y(3), _x(3) + WIDTH, _y(3) + HEIGHT, "Total", fill=(0, 0, 1))  # a whole row
    path = tmp_path / "spans.pdf"
    doc.save(path)
    (table,) = _results(path).tables
    assert list(table.columns) == HEADER
    assert [list(r) for r in table.rows] == [["Merged", "Merged", "10", "Town 1"],
                                             ["Merged", "Merged", "20", "Town 2"],
                                             ["Total"] * 4]


def test_boxed_notes_off_any_grid_make_no_table() -> None:
    """Four framed notes of different sizes near each other: their edges share no lanes."""
    doc = pymupdf.open()
    page = doc.new_page()
    for x0, y0, x1, y1 in [(40, 60, 200, 90), (210, 70, 400, 120), (50, 100, 180, 160), (190, 130, 420, 150)]:
        page.draw_rect(pymupdf.Rect(x0, y0, x1, y1))
    assert box_grids(*rules_of_page(page)) == []
