"""A ruled header's box over several rows, no rule parting them, stays one cell when a table
open at its sides is read again with its row edges drawn out to them (issue 13, peer us-001 p3):
the row edges were drawn across the whole width, through `Difference` (boxed beside the `2005` /
`2010` row and the sub-labels under it), which was then read in the sub-labels' row with an
empty slot over it, and `2010` reached over that slot (`Age-adjusted rate 2010 Difference`);
`Category`, boxed down the whole header at the open side, sat in its middle row."""

from __future__ import annotations

import random
from pathlib import Path

import pymupdf

import rowkeeper
from tests.extractors.finder.layout import centred, new_page, put

ROWS = ["All people", "Male", "Female", "White alone", "Black alone", "Asian alone", "Hispanic"]


def boxed_header_page(path: Path) -> Path:
    """A ruled table open at both sides (no outer column rule; its row rules run out to the
    edges): `Category` boxed down three header rows at the left, two groups (`Age-adjusted
    rate`, `Unadjusted rate`) over `2005` and `2010` (two columns each) and `Difference`, boxed
    down the last two header rows (the rule under the years stops at its sides)."""
    rnd = random.Random(3)
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 50, 70, "Table 2. Disability rate by sex and race: 2005 and 2010", 10, "bold")
    xs = [50.0 + 90 * (j > 0) + 42 * max(j - 1, 0) for j in range(12)]
    ys = [90.0, 104.0, 118.0, 142.0] + [142.0 + 14 * (k + 1) for k in range(len(ROWS))]
    groups = (1, 6)  # each group's first column
    bands = [(ys[0], ys[1], (1, 6)), (ys[1], ys[2], (1, 3, 5, 6, 8, 10)), (ys[2], ys[-1], range(1, 11))]
    for top, bottom, sides in bands:  # box sides drawn band by band, none at the open sides
        for j in sides:
            page.draw_line((xs[j], top), (xs[j], bottom), width=0.5)
    page.draw_line((xs[0], ys[0]), (xs[-1], ys[0]), width=0.5)
    page.draw_line((xs[1], ys[1]), (xs[-1], ys[1]), width=0.5)
    for g in groups:  # under the years: stops at `Difference`
        page.draw_line((xs[g], ys[2]), (xs[g + 4], ys[2]), width=0.5)
    for y in ys[3:]:
        page.draw_line((xs[0], y), (xs[-1], y), width=0.5)
    centred(page, (xs[0] + xs[1]) / 2, 114, "Category")
    for g, label in zip(groups, ("Age-adjusted rate", "Unadjusted rate"), strict=True):
        centred(page, (xs[g] + xs[g + 5]) / 2, 100, label)
        centred(page, (xs[g] + xs[g + 2]) / 2, 114, "2005")
        centred(page, (xs[g + 2] + xs[g + 4]) / 2, 114, "2010")
        for k in range(4):
            centred(page, (xs[g + k] + xs[g + k + 1]) / 2, 133, ("Estimate", "Margin")[k % 2], 7)
        centred(page, (xs[g + 4] + xs[g + 5]) / 2, 133, "Difference", 7)
    for k, name in enumerate(ROWS):
        y = ys[3 + k] + 10
        put(page, xs[0] + 2, y, name, 8)
        for j in range(2, 12):
            put(page, xs[j] - 6, y, f"{rnd.randint(10, 30)}.{rnd.randint(0, 9)}", 8, align="right")
    doc.save(path)
    return path


def test_a_box_down_the_header_rows_is_one_cell(tmp_path: Path) -> None:
    (table,) = rowkeeper.extract(str(boxed_header_page(tmp_path / "t2.pdf"))).tables
    names = [f"{g} {n}" for g in ("Age-adjusted rate", "Unadjusted rate")
             for n in ("2005 Estimate", "2005 Margin", "2010 Estimate", "2010 Margin", "Difference")]
    assert table.columns == ("Category", *names)
    assert [r[0] for r in table.rows] == ROWS
    assert table.header_grid[0][0] == "Category"
