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


def hollow_columns(header: Sequence[Sequence[str]], body: Sequence[Sequence[str]]) -> list[int]:
    """Columns with no content of their own: empty in every body row, and in the header either
    empty or only repeating a neighbour's label (a span, or a label the extractor split).

    Ruling artifacts make extractors emit such slivers; keeping them shifts every value one
    column right of where a reader (or a scorer) expects it. At least one column is kept.
    """
    n_cols = max((len(r) for r in (*header, *body)), default=0)

    def at(row: Sequence[str], c: int) -> str:
        return row[c].strip() if c < len(row) else ""

    out = []
    for c in range(n_cols):
        if any(at(r, c) for r in body):
            continue
        if all(not at(r, c) or at(r, c) in (at(r, c - 1) if c else "", at(r, c + 1)) for r in header):
            out.append(c)
    return out if len(out) < n_cols else out[1:]


def drop_columns(rows: Sequence[Sequence[str]], drop: Sequence[int]) -> list[list[str]]:
    """Rows without the columns in `drop`."""
    gone = set(drop)
    return [[t for c, t in enumerate(r) if c not in gone] for r in rows]


def drop_cell_columns(cells: Sequence[Cell], drop: Sequence[int]) -> list[Cell]:
    """Cells renumbered for a grid without the columns in `drop` (spans shrink accordingly)."""
    gone = set(drop)
    out = []
    for c in cells:
        kept = [k for k in range(c.col, c.col + max(c.col_span, 1)) if k not in gone]
        if not kept:
            continue
        new_col = sum(1 for k in range(kept[0]) if k not in gone)
        out.append(c.model_copy(update={"col": new_col, "col_span": len(kept)}))
    return out
