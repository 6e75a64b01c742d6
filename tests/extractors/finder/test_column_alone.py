"""Each page column read alone (finder/column_boxes.in_column_boxes) adds the tables a page-wide
read missed, but not a chart's labels: the ticks of a line chart's two axes and its years line
up as rows inside one column (peer us-023 p3), and what tells them apart is the plotted line
they stand round (finder/plots.plot_box). A table's rules, a rounded box and a drawn dot are
no plotted line."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from rowkeeper.extractors.finder.column_boxes import in_column_boxes
from rowkeeper.extractors.finder.plots import plot_box
from rowkeeper.extractors.page_model import PageModel
from tests.extractors.finder.layout import new_page, put

PROSE = ("Premature mortality before age 75 years is a common measure of early death. Although the "
         "rate has been declining in recent years, considerable variation still exists across states, "
         "and the gap between them, as measured by the index, grew from the first year to the last.")
SITES = [("Site", "Budget"), ("Fairfield office", "$8,892,419"), ("Cedar Park store", "$1,305,554"),
         ("Maple Court store", "$4,704,876"), ("Pine Valley depot", "$3,528,565"), ("Redwood depot", "$3,474,334")]


def _prose(page: pymupdf.Page, x: float, y: float, n: int) -> None:
    words, line = PROSE.split(), []
    for k in range(n):
        while len(" ".join(line)) < 48:
            line.append(words[len(line) % len(words)])
        put(page, x, y + 12 * k, " ".join(line))
        words, line = words[3:] + words[:3], []


def _chart(page: pymupdf.Page, x0: float, top: float) -> None:
    """A line chart: ticks left and right of its frame, years under it, a curve and a polyline."""
    ticks = [("7,400", "0.12"), ("7,200", "0.11"), ("7,000", "0.10"), ("6,800", "0.09"), ("6,600", "0.08")]
    x1 = x0 + 175
    for k, (left, right) in enumerate(ticks):
        put(page, x0 - 5, top + 5 + 18 * k, left, 7, align="right")
        put(page, x1 + 5, top + 5 + 18 * k, right, 7)
    for k, year in enumerate(("1997", "1999", "2001", "2003", "2005")):
        put(page, x0 + 5 + 34 * k, top + 94, year, 7)
    page.draw_rect(pymupdf.Rect(x0, top, x1, top + 82))
    curve = page.new_shape()  # a smooth line of three curves, one path
    for a, b in ((5, 60), (60, 30), (115, 50)):
        curve.draw_bezier((x0 + a, top + b), (x0 + a + 20, top + 5), (x0 + a + 40, top + 75), (x0 + a + 55, top + 30))
    curve.finish(width=1.5, closePath=False)
    curve.commit()
    page.draw_polyline([(x0 + 5, top + 30), (x0 + 40, top + 70), (x0 + 80, top + 40), (x1 - 5, top + 20)], width=2)


def test_a_column_read_alone_adds_its_table_not_a_charts_labels(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 50, 60, "Supplement: premature mortality and inequality between states", 12, "bold")
    _prose(page, 50, 100, 30)
    for i, (site, budget) in enumerate(SITES):
        put(page, 312, 100 + 16 * i, site, 8, "bold" if i == 0 else "sans")
        put(page, 445, 100 + 16 * i, budget, 8, "bold" if i == 0 else "sans", align="right")
    put(page, 312, 210, "Figure 3. Mortality and inequality", 9, "bold")
    _chart(page, 345, 225)
    doc.save(tmp_path / "chart.pdf")
    with pymupdf.open(tmp_path / "chart.pdf") as pdf:
        model = PageModel(pdf[0], 1)
        (table,) = in_column_boxes([], model.lines, [], plots=model.plots)
        assert 90 < table[1] < 100 and 170 < table[3] < 185  # the sites, header to last row
        # the same column read without the plotted line takes the chart's labels for a table
        assert len(in_column_boxes([], model.lines, [])) == 2


def test_a_plotted_line_is_no_rule_box_or_dot(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = new_page(doc)
    _chart(page, 100, 100)
    page.draw_rect(pymupdf.Rect(60, 300, 400, 420), radius=0.05)  # a rounded box round a table
    page.draw_circle((80, 500), 3, fill=(0, 0, 0))  # a dot in a cell
    for y in (520, 540, 560):
        page.draw_line((60, y), (400, y))
    doc.save(tmp_path / "drawn.pdf")
    with pymupdf.open(tmp_path / "drawn.pdf") as pdf:
        boxes = [b for b in (plot_box(p) for p in pdf[0].get_cdrawings()) if b is not None]
    assert len(boxes) == 2  # the curve and the polyline, nothing else
    assert all(100 <= b[0] and b[2] <= 275 and 100 <= b[1] and b[3] <= 190 for b in boxes)
