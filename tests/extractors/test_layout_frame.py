"""A ruled layout of labels and paragraphs with a table set inside one paragraph's cell (issue
13, camelot/table_region's kind): the layout is no table and goes, the table set in it is the
page's one table, and the layout's ruled area counts as read by it, so the cheapest layer
(PyMuPDF) is accepted and no word is in two tables (`finder/shared_cells.layouts_apart`)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from rowkeeper.api import extract
from tests.extractors.helpers import draw_grid

LABELS = ("PURPOSE", "OPTIONS", "DEATH BENEFIT", "OTHER EVENTS")
PARAGRAPHS = {
    "PURPOSE": ("The contract is a unit-linked life insurance policy that invests the premiums",
                "in units of the internal fund and pays a benefit on the insured's death."),
    "OPTIONS": ("None provided.",),
    "DEATH BENEFIT": ("On the death of the insured the company pays the beneficiaries the value of",
                      "the units, raised by a share that depends on the insured's age:"),
    "OTHER EVENTS": ("None provided.",),
}
RATES = [["Age of the insured", "Increase"], ["18-75", "1,00%"], ["76-80", "0,50%"], ["81 and over", "0,10%"]]
TAIL = "The company gives no financial guarantee on the amount paid."


def _layout(path: Path, fontname: str) -> Path:
    """Label | paragraph rows in a ruled frame; the death benefit's cell holds a ruled rates
    table between its paragraph's lines and a closing line."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    left, mid, right = 40.0, 160.0, 555.0
    ys = [80.0, 130.0, 160.0, 330.0, 360.0]
    for y in ys:
        page.draw_line((left, y), (right, y))
    for x in (left, mid, right):
        page.draw_line((x, ys[0]), (x, ys[-1]))
    for label, top in zip(LABELS, ys, strict=False):
        page.insert_text((left + 4, top + 14), label, fontsize=9, fontname=fontname)
        for i, line in enumerate(PARAGRAPHS[label]):
            page.insert_text((mid + 4, top + 14 + 12 * i), line, fontsize=9, fontname=fontname)
    draw_grid(page, [220.0, 380.0, 480.0], [200.0 + 20 * k for k in range(5)], RATES, baseline=14,
              fontsize=9, fontname=fontname)
    page.insert_text((mid + 4, 318.0), TAIL, fontsize=9, fontname=fontname)
    doc.save(path)
    return path


@pytest.mark.parametrize("fontname", ["helv", "tiro"])
def test_the_table_in_a_layout_cell_is_the_one_table(tmp_path: Path, fontname: str) -> None:
    rec = extract(_layout(tmp_path / f"layout-{fontname}.pdf", fontname))
    (table,) = rec.tables
    assert table.columns == ("Age of the insured", "Increase")
    assert [list(r) for r in table.rows] == RATES[1:]
    texts = {c.text for t in rec.tables for c in t.cells}
    assert not texts & set(LABELS)  # the layout's labels are text, not a table's cells
    assert next(a for a in rec.document.attempts if a.extractor == "pymupdf").accepted


def test_a_label_row_holding_a_whole_table_alone_keeps_its_frame(tmp_path: Path) -> None:
    """Without a label or paragraph beside the cell (a frame's full-width cell around a table),
    the frame is no layout of labels: its own item rows stay a table, beside the rates table."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    left, right = 40.0, 555.0
    for y in (80.0, 240.0, 263.0, 286.0, 309.0):
        page.draw_line((left, y), (right, y))
    for x in (left, right):
        page.draw_line((x, 80.0), (x, 309.0))
    page.draw_line((300.0, 240.0), (300.0, 309.0))
    for i, row in enumerate([["Item", "Amount"], ["Garden care", "$80.00"], ["Hedges", "$40.00"]]):
        for x, text in zip((left, 300.0), row, strict=True):
            page.insert_text((x + 4, 240.0 + 23 * i + 16), text, fontsize=10)
    draw_grid(page, [320.0, 420.0, 540.0], [100.0 + 20 * k for k in range(5)], RATES, baseline=14, fontsize=9)
    pdf = tmp_path / "frame.pdf"
    doc.save(pdf)
    rec = extract(pdf)
    rates = next(t for t in rec.tables if t.columns == ("Age of the insured", "Increase"))
    assert [list(r) for r in rates.rows] == RATES[1:]
    items = [list(r) for t in rec.tables if t is not rates for r in t.rows]
    assert ["Garden care", "$80.00"] in items and ["Hedges", "$40.00"] in items
