"""Two tables stacked in one column, the caption between them one line in the tables' own type
and close enough that the run of aligned rows bridges it: the next table starts where the
columns change (`finder.stacked_runs`); a group label inside one table, with its columns
going on under it, does not end the table."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from rowkeeper.extractors.finder.stacked_runs import columns_change, split_at_column_change
from rowkeeper.models import TextLine
from tests.extractors.finder.layout import grids, new_page, put

FIRST = [("Item", "Region", "Weight", "Budget"), ("Stone Bridge office 3453", "Hub", "277,770", "36,170.85"),
         ("Bay Point line 7598", "Plant", "154,354", "24,483.43"), ("Harbor View store 6333", "Depot", "240,535", "41,851.4")]
SECOND = [("Item", "Share", "Revenue", "Date"), ("Stone Bridge line 8876", "70.0%", "$8,539,423", "2020-07-21"),
          ("Redwood line 6870", "41.1%", "$9,284,646", "2019-12-14"), ("Pine Valley office 7365", "77.1%", "$8,695,533", "2023-10-05"),
          ("Brookfield line 2304", "94.0%", "$1,657,365", "2022-12-09")]
FIRST_X = ((54, "left"), (258, "left"), (480, "right"), (607, "right"))
SECOND_X = ((54, "left"), (340, "right"), (474, "right"), (487, "left"))


def _rows(page: pymupdf.Page, y: float, rows, xs, ruled: bool, pitch: float = 16.0) -> float:
    for i, row in enumerate(rows):
        for text, (x, align) in zip(row, xs, strict=True):
            put(page, x, y, text, 9, "bold" if i == 0 else "sans", align)
        if ruled:
            page.draw_line((48, y + 5), (613, y + 5), width=0.5)
        y += pitch
    return y


@pytest.mark.parametrize("ruled", [True, False])
def test_two_tables_apart_by_a_close_caption_are_two(tmp_path: Path, ruled: bool) -> None:
    doc = pymupdf.open()
    page = new_page(doc, 660, 842)
    put(page, 48, 100, "This section summarises the main results and compares them with the previous year.", 9)
    y = _rows(page, 130, FIRST, FIRST_X, ruled)
    put(page, 48, y + 2, "Table 1 Key indicators", 9, "bold")
    _rows(page, y + 22, SECOND, SECOND_X, ruled)
    got = grids(doc, tmp_path / "stacked.pdf")
    assert [g[0] for g in got] == [list(FIRST[0]), list(SECOND[0])]
    assert got[0][1:] == [list(r) for r in FIRST[1:]]
    assert got[1][1:] == [list(r) for r in SECOND[1:]]


def _row(y: float, xs: list[float], text: str = "1,204") -> list[TextLine]:
    return [TextLine(page=1, bbox=(x, y, x + 40, y + 9), text=text) for x in xs]


def test_a_group_label_keeps_the_columns_under_it() -> None:
    run = [_row(100 + 14 * i, [50, 200, 300]) for i in range(6)]
    assert not columns_change(run[:3], run[3:])
    assert split_at_column_change(run, [3]) == [run]


def test_new_columns_after_a_bridged_line_start_a_table() -> None:
    run = [_row(100 + 14 * i, [50, 200, 300]) for i in range(3)] + [_row(150 + 14 * i, [50, 150, 390]) for i in range(4)]
    assert split_at_column_change(run, [3]) == [run[:3], run[3:]]
    assert split_at_column_change(run, [2]) == [run]  # a piece of two rows is no table


def test_a_header_of_several_lines_stays_with_its_body() -> None:
    """Labels over sub-columns stand on other columns than the figures under them."""
    head = [_row(100 + 14 * i, [50, 200, 300], "Postnatal Day 4") for i in range(3)]
    body = [_row(150 + 14 * i, [50, 150, 390]) for i in range(4)]
    assert split_at_column_change(head + body, [3]) == [head + body]
