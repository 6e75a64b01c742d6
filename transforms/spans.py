"""Merged cells: expand row/column spans so every covered slot repeats the cell's text."""

from __future__ import annotations

from collections.abc import Sequence

from rowkeeper.models import Cell

Grid = list[list[str]]


def expand_spans(cells: Sequence[Cell], n_rows: int, n_cols: int) -> Grid:
    """An n_rows x n_cols grid where a spanning cell's text fills every slot it covers."""
    grid = [[""] * n_cols for _ in range(n_rows)]
    # Smaller cells are written last so an explicit cell inside a sloppy span keeps its text.
    for c in sorted(cells, key=lambda c: -(c.row_span * c.col_span)):
        for r in range(c.row, min(c.row + max(c.row_span, 1), n_rows)):
            for k in range(c.col, min(c.col + max(c.col_span, 1), n_cols)):
                if r >= 0 and k >= 0:
                    grid[r][k] = c.text
    return grid


def top_left_grid(cells: Sequence[Cell], n_rows: int, n_cols: int) -> Grid:
    """The grid as printed: a spanning cell's text only in its top-left slot."""
    grid = [[""] * n_cols for _ in range(n_rows)]
    for c in cells:
        if 0 <= c.row < n_rows and 0 <= c.col < n_cols:
            grid[c.row][c.col] = c.text
    return grid


def span_owner(cells: Sequence[Cell], n_rows: int, n_cols: int) -> list[list[Cell | None]]:
    """For each slot, the cell that covers it (None for holes)."""
    owner: list[list[Cell | None]] = [[None] * n_cols for _ in range(n_rows)]
    for c in sorted(cells, key=lambda c: -(c.row_span * c.col_span)):
        for r in range(max(c.row, 0), min(c.row + max(c.row_span, 1), n_rows)):
            for k in range(max(c.col, 0), min(c.col + max(c.col_span, 1), n_cols)):
                owner[r][k] = c
    return owner


def spans_of_row(owner: Sequence[Sequence[Cell | None]], r: int) -> list[bool]:
    """Per column: whether row r's slot belongs to a cell spanning several columns."""
    return [o is not None and o.col_span > 1 for o in owner[r]]
