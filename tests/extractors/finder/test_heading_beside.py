"""A column of prose beside a borderless table, its heading level with a row of the table: the
heading and the paragraph under it (whose first line the heading's pitch set apart) are no
cells of the table."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pymupdf

from rowkeeper.config import load_config
from rowkeeper.flows.pipeline import load_document, process_document

WORDS = ("Revenue growth will be driven by the rail projects to be added to the order book in "
         "the spring, which should significantly boost top line growth in the second half of the "
         "year. Profitability will be positively impacted by increasing volumes and easing cost "
         "pressures, and a recovering market drives the company to profit growth in the "
         "following years. There is a risk that project phases will be extended or postponed.")
YEARS = ["2024", "2025e", "2026e", "2027e"]
ROWS = [("Revenue", ["275.5", "295.6", "319.4", "330.7"]), ("EBITA", ["8.8", "10.3", "12.2", "12.7"]),
        ("Net income", ["4.4", "5.6", "7.1", "7.5"]), ("EPS (adj.)", ["0.43", "0.63", "0.80", "0.84"]),
        ("P/E (adj.)", ["16.5", "11.9", "9.4", "8.9"]), ("P/B", ["1.5", "1.5", "1.4", "1.3"]),
        ("Dividend yield-%", ["7.0 %", "6.8 %", "7.1 %", "7.2 %"]), ("EV/EBIT", ["11.4", "9.4", "7.9", "7.5"]),
        ("EV/S", ["0.3", "0.3", "0.3", "0.3"])]


def _page(path: Path) -> None:
    """A landscape page: prose at the left (a paragraph, a bold heading, a paragraph), a
    borderless table of figures at the right whose rows run level with the prose."""
    doc = pymupdf.open()
    page = doc.new_page(width=842, height=595)
    y = 80.0
    for line in textwrap.wrap(WORDS, 62):
        page.insert_text((40, y), line, fontsize=9)
        y += 12.5
    y += 8
    page.insert_text((40, y), "Moderate upside in valuation, dividend offers support", fontsize=9,
                     fontname="hebo")
    y += 19
    for line in textwrap.wrap(WORDS, 62):
        page.insert_text((40, y), line, fontsize=9)
        y += 12.5
    top = 92.0
    for j, year in enumerate(YEARS):
        page.insert_text((560 + 60 * j, top), year, fontsize=8, fontname="hebo")
    for i, (label, figures) in enumerate(ROWS):
        yy = top + 14 + 14.5 * i
        page.insert_text((460, yy), label, fontsize=8)
        for j, f in enumerate(figures):
            page.insert_text((560 + 60 * j, yy), f, fontsize=8)
    doc.save(path)


def test_prose_and_its_heading_beside_a_table_stay_out_of_it(tmp_path: Path) -> None:
    path = tmp_path / "beside.pdf"
    _page(path)
    result = process_document(load_document(str(path), path.name), load_config(None))
    assert len(result.tables) == 1
    table = result.tables[0]
    grid = [list(table.columns), *map(list, table.rows)]
    body = [r for r in grid if r[0] in {label for label, _ in ROWS}]
    assert [r[0] for r in body] == [label for label, _ in ROWS]
    assert [r[1:] for r in body] == [figures for _, figures in ROWS]
    assert all(len(r) == 5 for r in grid)
