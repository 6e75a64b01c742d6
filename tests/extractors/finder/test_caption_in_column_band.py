"""A table's caption ends no sentence (finder/column_boxes._sentences): a table whose figures
stand far right of its wrapped text cells sits in a band of the page set in two columns, and
a region over the gutter is read apart when a side holds running text that ends a sentence.
'Table 1. Maintenance plan' has `1. ` in it, which read as a sentence's end: the text cells
and the figures came out as two tables, the figures' header lost (zoo dev16 wrapped_body-280-de)."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from tests.extractors.finder.layout import grids, new_page, put

RECORDS = [
    ("Oakfield office 9465", ["Replacement of the emergency lighting, with", "a written test report, without the",
                              "lifting platform"], "646.719", "662.527"),
    ("Lakeside plant 1614", ["Delivery and assembly of the", "office chairs"], "222.542", "942.336"),
    ("Old town line 7135", ["Repair of the cooling unit, within", "five working days"], "330.017", "331.839"),
    ("Birch road office 8595", ["Replacement of the main distribution,", "outside opening hours"], "212.542", "1.630"),
    ("Hill office 2957", ["Replacement of the LED ceiling lights,", "within five working days, without the",
                          "lifting platform"], "525.233", "496.932"),
    ("Valley line 6748", ["Monthly maintenance of the", "LED ceiling lights"], "169.294", "652.857"),
]


def _page(path: Path, caption: str) -> list[list[list[str]]]:
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 72, 110, "The costs include maintenance, energy and services, but no depreciation.", 9)
    put(page, 72, 140, caption, 9, "bold")
    y = 160
    for x, label in ((74, "Site"), (180, "Scope")):
        put(page, x, y, label, 8, "bold")
    put(page, 455, y, "Lead time [days]", 8, "bold", align="right")
    put(page, 521, y, "Sales [EUR]", 8, "bold", align="right")
    y += 18
    for site, scope, lead, sales in RECORDS:
        put(page, 74, y, site, 8)
        for k, line in enumerate(scope):
            put(page, 180, y + 11 * k, line, 8)
        mid = y + 11 * (len(scope) - 1) / 2  # the figures centred on the record's lines
        put(page, 455, mid, lead, 8, align="right")
        put(page, 521, mid, sales, 8, align="right")
        y += 11 * len(scope) + 8
    put(page, 72, y + 20, "The costs include maintenance, energy and services. New sites are in from their first month.", 9)
    return grids(doc, path)


def test_figures_right_of_wrapped_cells_under_a_numbered_caption_stay_in_the_table(tmp_path: Path) -> None:
    (grid,) = _page(tmp_path / "caption.pdf", "Table 1. Maintenance plan")
    assert grid[0] == ["Site", "Scope", "Lead time [days]", "Sales [EUR]"]
    assert len(grid) == 1 + len(RECORDS)
    assert grid[1][0] == "Oakfield office 9465" and grid[1][2:] == ["646.719", "662.527"]
    assert grid[-1][3] == "652.857"
