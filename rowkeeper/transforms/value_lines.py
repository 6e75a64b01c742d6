"""A value written over two lines in a key-value table is one value.

Forms and quotes set an address as `Street 12` / `12345 Town` beside its one key; a reader
that makes a row of every text line hands out a row with no key holding the value's second
line, and when that comes first the key-value table's first pair is read as a header over it.
In a table of two columns, a row with an empty key under a full pair, holding words (not a
figure: a total without a label is a row of its own), continues the value above.
"""

from __future__ import annotations

from rowkeeper.models import Cell, RawTable
from rowkeeper.transforms.figures import is_number


def _continues(grid: list[list[str]], r: int) -> bool:
    key, value = grid[r]
    above = grid[r - 1]
    return not key.strip() and bool(value.strip()) and not is_number(value) \
        and all(x.strip() for x in above)


def join_value_lines(piece: RawTable) -> RawTable:
    """The piece with each continuation row's value joined to the value above it (see the
    module); other tables as they are."""
    if piece.n_cols != 2 or piece.n_rows < 3 or any(c.row_span > 1 or c.col_span > 1 for c in piece.cells):
        return piece
    grid = piece.grid()
    rows = [r for r in range(1, piece.n_rows) if _continues(grid, r)]
    keys = sum(1 for row in grid if row[0].strip())
    if not rows or len(rows) * 3 > piece.n_rows or keys < 2:
        return piece
    into: dict[int, int] = {}  # a dropped row -> the row it joins
    for r in rows:
        into[r] = into.get(r - 1, r - 1)
    new_row = {r: r - sum(1 for d in rows if d <= r) for r in range(piece.n_rows)}
    extra: dict[int, list[str]] = {}
    for r in rows:
        extra.setdefault(into[r], []).append(grid[r][1].strip())
    cells: list[Cell] = []
    for c in piece.cells:
        if c.row in into:
            continue
        update: dict = {"row": new_row[c.row]}
        if c.col == 1 and c.row in extra:
            update["text"] = " ".join([c.text.strip(), *extra[c.row]])
        cells.append(c.model_copy(update=update))
    return piece.model_copy(update={"cells": tuple(cells), "n_rows": piece.n_rows - len(rows)})
