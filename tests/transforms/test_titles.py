"""Caption and heading rows taken back out of a table's rows (transforms/titles.py)."""

from __future__ import annotations

from rowkeeper.transforms.titles import split_at_titles
from tests.transforms.builders import line, raw_table

BODY = [["Site", "Amount"], ["Berlin", "1,200"], ["Hamburg", "980"], ["Köln", "730"]]


def test_a_caption_row_leaves_the_table() -> None:
    piece = raw_table([["Table 1 Costs", ""], *BODY])
    (out,) = split_at_titles(piece, [line("Table 1 Costs", 1, 90)])
    assert out.grid()[0] == ["Site", "Amount"] and out.n_rows == 4
    assert out.bbox[1] == piece.bbox[1] + 16  # the caption's line is outside the box now


def test_a_caption_and_a_header_read_as_one_row_stay() -> None:
    # the caption line and the header line merged into one row: taking it out loses the header
    piece = raw_table([["Table 1 Costs Site", "Amount"], *BODY[1:]])
    assert split_at_titles(piece, [line("Table 1 Costs", 1, 90)]) == [piece]


def test_a_larger_heading_between_two_tables_parts_them() -> None:
    grid = [*BODY, ["2. Ausgaben", ""], *BODY]
    piece = raw_table(grid)
    cells = tuple(c.model_copy(update={"font_size": 12.0 if c.row == 4 else 9.0,
                                       "bold": c.row in (0, 4, 5)}) for c in piece.cells)
    parts = split_at_titles(piece.model_copy(update={"cells": cells}))
    assert [p.grid()[0][0] for p in parts] == ["Site", "Site"]
    assert [p.n_rows for p in parts] == [4, 4]


def test_a_spanner_over_the_figures_is_no_heading() -> None:
    piece = raw_table([["", "Releases"], *BODY])
    cells = tuple(c.model_copy(update={"font_size": 11.0 if c.row == 0 else 9.0}) for c in piece.cells)
    piece = piece.model_copy(update={"cells": cells})
    assert split_at_titles(piece) == [piece]


def test_a_caption_read_as_the_last_row_leaves_the_table() -> None:
    piece = raw_table([*BODY, ["Table 1 Costs", ""]])
    (out,) = split_at_titles(piece, [line("Table 1 Costs", 1, 164)])
    assert out.grid()[-1] == ["Köln", "730"] and out.n_rows == 4
    assert out.bbox[3] == piece.bbox[3] - 16  # the caption's line is under the box now


def test_a_last_row_that_only_starts_like_a_caption_stays() -> None:
    # "Table 3 rows" is a cell's text, not a line of the page of its own: a body row
    piece = raw_table([*BODY, ["Table 3 rows", "12"]])
    assert split_at_titles(piece, [line("Table 3 rows", 1, 164)]) == [piece]
