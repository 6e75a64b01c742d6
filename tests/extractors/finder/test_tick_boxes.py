"""A column of drawn tick boxes under its header ("Included") is a column of the table, with
empty cells, not a header label joined to its neighbour's (finder/tick_boxes)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from rowkeeper.extractors.finder.tick_boxes import tick_boxes
from tests.extractors.finder.layout import grids, new_page, put

ROWS = [("Item", "Included", "Weight", "Cost (USD)"), ("Oak Hill depot 8474", "", "947,781", "334,093"),
        ("Brookfield unit 906", "", "874,625", "457,665"), ("Ashford depot 8774", "", "167,423", "654,876"),
        ("Cedar Park store 1588", "", "740,241", "922,553"), ("Glenwood depot 4313", "", "489,307", "515,900")]


def _box(page: pymupdf.Page, x: float, top: float, side: float, as_lines: bool, ticked: bool) -> None:
    r = pymupdf.Rect(x, top, x + side, top + side)
    if as_lines:
        for a, b in ((r.tl, r.tr), (r.bl, r.br), (r.tl, r.bl), (r.tr, r.br)):
            page.draw_line(a, b, width=0.5)
    else:
        page.draw_rect(r, width=0.5)
    if ticked:
        page.draw_rect(r + (1.5, 1.5, -1.5, -1.5), color=None, fill=(0.15, 0.15, 0.15))


@pytest.mark.parametrize("as_lines", [True, False])
@pytest.mark.parametrize("rules", [True, False])  # rules between the rows, or none
def test_a_column_of_tick_boxes_keeps_its_header(tmp_path: Path, as_lines: bool, rules: bool) -> None:
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 60, 80, "Order items", 12, "bold")
    y = 110.0
    for i, row in enumerate(ROWS):
        face = "bold" if i == 0 else "sans"
        put(page, 62, y, row[0], 8, face)
        if i == 0:
            put(page, 230, y, row[1], 8, face)
        else:
            _box(page, 243, y - 6.5, 6.5, as_lines, ticked=i % 2 == 0)
        put(page, 360, y, row[2], 8, face, "right")
        put(page, 440, y, row[3], 8, face, "right")
        if rules:
            page.draw_line((60, y + 4), (445, y + 4), width=0.5)
        y += 15
    (grid,) = grids(doc, tmp_path / "ticks.pdf")
    assert [tuple(r) for r in grid] == ROWS


def test_a_square_of_four_segments_is_a_tick_box_and_a_long_frame_is_not():
    square = ([(10, 10, 17, 10), (10, 17, 17, 17)], [(10, 10, 10, 17), (17, 10, 17, 17)])
    assert tick_boxes(*square) == [(10, 10, 17, 17)]
    frame = ([(10, 10, 80, 10), (10, 17, 80, 17)], [(10, 10, 10, 17), (80, 10, 80, 17)])
    assert tick_boxes(*frame) == []


@pytest.mark.parametrize("as_lines", [True, False])
def test_the_page_model_keeps_the_short_segments_its_rules_leave_out(as_lines: bool) -> None:
    from rowkeeper.extractors.finder.tick_boxes import tick_boxes_on
    from rowkeeper.extractors.page_model import PageModel

    doc = pymupdf.open()
    page = new_page(doc)
    for i in range(4):
        _box(page, 243, 100 + 15 * i, 6.5, as_lines, ticked=i % 2 == 0)
    page.draw_line((60, 170), (445, 170), width=0.5)  # a rule: long, kept by the rules
    view = PageModel(page, 1)
    want = [(243.0, 100.0 + 15 * i, 249.5, 106.5 + 15 * i) for i in range(4)]
    assert [tuple(round(v, 1) for v in b) for b in tick_boxes_on(page, (200, 90, 300, 200), view.short_segments)] == want
    assert tick_boxes_on(page, (200, 90, 300, 200), view.short_segments) == tick_boxes_on(page, (200, 90, 300, 200))
    assert tick_boxes_on(page, (300, 90, 400, 200), view.short_segments) == []  # centred elsewhere
    assert [h[2] - h[0] for h in view.rules[0]] == [385.0]  # the squares' sides are no rules
