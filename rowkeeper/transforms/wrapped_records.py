"""A record's text wrapped onto a second line of its own row band is part of that record.

A ruled or boxed table whose cells wrap (`Software Technology Parks` / `of India`, `Mr. Devesh
Tyagi,` / `Director`) is sometimes read with each text line a row: the wrapped lines come out
as a row with no key holding the ends of the cells above, and a reader of that row gets half a
name, half an address and a row that is no record. Such a row is recognised by what it holds,
not by where: its first (key) cell is empty, the row above is a record (a key and a value that
reads as data), and every text it holds stands under a text and visibly carries it on (starts
in lower case, or the text above breaks off after a comma, a hyphen or a connecting word). A
figure is never a continuation (a total without a label is a row of its own). Two-column
key-value tables are `value_lines`' case.
"""

from __future__ import annotations

from rowkeeper.boxes import union
from rowkeeper.label_text import continues_label
from rowkeeper.models import Cell, RawTable
from rowkeeper.transforms.figures import is_number
from rowkeeper.transforms.headers import reads_as_data


def _continues(grid: list[list[str]], r: int) -> bool:
    """Whether row `r` only carries on the texts of row `r - 1` (see the module)."""
    row, above = grid[r], grid[r - 1]
    filled = [c for c, t in enumerate(row) if t.strip()]
    if row[0].strip() or not filled or not above[0].strip() or not reads_as_data(above):
        return False
    return all(above[c].strip() and not is_number(row[c])
               and continues_label(above[c], row[c]) for c in filled)


def join_wrapped_records(piece: RawTable) -> RawTable:
    """The piece with each wrapped-line row joined, cell by cell, into the record above it (see
    the module); other tables as they are."""
    if piece.n_cols < 3 or piece.n_rows < 3 or any(c.row_span > 1 or c.col_span > 1 for c in piece.cells):
        return piece
    grid = piece.grid()
    rows = [r for r in range(2, piece.n_rows) if _continues(grid, r)]
    if not rows:
        return piece
    at = {(c.row, c.col): c for c in piece.cells}
    dropped = set(rows)
    new_row = {r: r - sum(1 for d in rows if d <= r) for r in range(piece.n_rows)}
    cells: list[Cell] = []
    for c in piece.cells:
        if c.row in dropped:
            continue
        under = [at[(r, c.col)] for r in rows if r == c.row + 1 and (r, c.col) in at and at[(r, c.col)].text.strip()]
        update: dict = {"row": new_row[c.row]}
        if under:
            update["text"] = f"{c.text.strip()} {under[0].text.strip()}"
            update["bbox"] = union(c.bbox, under[0].bbox)
        cells.append(c.model_copy(update=update))
    return piece.model_copy(update={"cells": tuple(cells), "n_rows": piece.n_rows - len(rows)})
