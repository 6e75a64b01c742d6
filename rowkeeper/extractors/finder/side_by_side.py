"""Blocks side by side: a table whose columns repeat one block's layout two or more times
across the page (a list flowed into two columns, "Name Age | Name Age") is one table per
block.

A finder reading the page's aligned text sees one row per text line across all blocks and
reads them as one wide table. The blocks are told by their columns, not by one gap: every
column of a later block stands where the same column of the first block stands, moved by one
distance (its left or right ink edge), the white space between blocks is wider than any
between the columns inside a block, no cell spans two blocks, and a header row, where there
is one, repeats the same labels over each block (different labels over matching columns are
one table's columns: "Q1 Q2 | Q3 Q4").
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from typing import Any

from rowkeeper.boxes import centre_in
from rowkeeper.caption_text import is_caption
from rowkeeper.models import Cell, RawTable

MIN_BLOCK_COLS = 2
"""Columns a block has at least (a single column repeated is any evenly spaced table)."""
EDGE_TOL = 3.0
"""Points a column's edge may stand off the first block's, moved by the blocks' distance."""
GUTTER_RATIO = 1.5
"""How much wider than any gap inside a block the white space between blocks is."""

_NUMBER = re.compile(r"^[\s(+\-−$€£¥]*\d[\d\s.,%)]*$")


def column_ink(cells: Sequence[Cell], n_cols: int, words: Sequence[Any]) -> list[tuple[float, float] | None]:
    """Each column's ink extent (left, right) from the words in its single-column cells."""
    # words by the height of their centre: a cell looks only at those level with it
    by_y = sorted(((w[1] + w[3]) / 2, i) for i, w in enumerate(words))
    ys = [y for y, _ in by_y]
    xs: dict[int, list[tuple[float, float]]] = {}
    for c in cells:
        if c.col_span == 1 and c.bbox and c.text.strip():
            level = by_y[bisect_left(ys, c.bbox[1] - 1.0):bisect_right(ys, c.bbox[3] + 1.0)]
            xs.setdefault(c.col, []).extend((words[i][0], words[i][2]) for _, i in level
                                            if centre_in(words[i], c.bbox))
    return [(min(a for a, _ in xs[k]), max(b for _, b in xs[k])) if xs.get(k) else None
            for k in range(n_cols)]


def header_like(cells: Sequence[Cell]) -> bool:
    """Row 0 names columns: flagged so, or words over columns whose other rows are figures."""
    first = [c for c in cells if c.row == 0 and c.text.strip()]
    if any(c.is_header for c in first):
        return True
    for c in first:
        below = [d.text for d in cells if d.col == c.col and d.row > 0 and d.text.strip()]
        if not _NUMBER.match(c.text) and below and sum(bool(_NUMBER.match(t)) for t in below) * 2 > len(below):
            return True
    return False


def below_caption(cells: Sequence[Cell]) -> list[Cell]:
    """The cells under a caption read in as the table's first row (its one filled cell reads as
    a caption, `Table 2: Staff and budget`), their rows counted from 0: the row under it holds
    the labels a header test reads, and a caption over one block is no sign of blocks."""
    first = [c for c in cells if c.row == 0 and c.text.strip()]
    if len(first) != 1 or not is_caption(first[0].text) or not any(c.row > 0 for c in cells):
        return list(cells)
    return [c.model_copy(update={"row": c.row - 1}) for c in cells if c.row > 0]


def _blocks_match(ink: Sequence[tuple[float, float] | None], k: int) -> bool:
    """Every block of `k` columns is the first one moved sideways, with a gutter between."""
    if any(e is None for e in ink):
        return False
    edges = [e for e in ink if e is not None]
    inner = [edges[j + 1][0] - edges[j][1] for j in range(len(edges) - 1) if (j + 1) % k]
    gutters = [edges[j + 1][0] - edges[j][1] for j in range(k - 1, len(edges) - 1, k)]
    if min(gutters) < GUTTER_RATIO * max(max(inner), 1.0):
        return False
    for b in range(1, len(edges) // k):
        dx = edges[b * k][0] - edges[0][0]
        for j in range(k):
            left, right = edges[b * k + j], edges[j]
            if abs(left[0] - right[0] - dx) > EDGE_TOL and abs(left[1] - right[1] - dx) > EDGE_TOL:
                return False
    return True


def _same_labels(cells: Sequence[Cell], k: int, n_blocks: int) -> bool:
    """Row 0 of every block reads the same, column by column."""
    first = {c.col: c.text.strip() for c in cells if c.row == 0}
    return all(first.get(b * k + j, "") == first.get(j, "") for b in range(1, n_blocks) for j in range(k))


def block_width(table: RawTable, words: Sequence[Any]) -> int:
    """Columns per block when the table is blocks side by side, else 0."""
    n = table.n_cols
    ink: list[tuple[float, float] | None] | None = None
    for k in range(MIN_BLOCK_COLS, n // 2 + 1):
        if n % k or any(c.col // k != (c.col + c.col_span - 1) // k for c in table.cells):
            continue
        ink = ink or column_ink(table.cells, n, words)
        if not _blocks_match(ink, k):
            continue
        head = below_caption(table.cells)
        if header_like(head) and not _same_labels(head, k, n // k):
            continue
        return k
    return 0


def _block(table: RawTable, b: int, k: int, start: int | None = None, end: int | None = None) -> RawTable | None:
    """Block `b` (columns b*k .. b*k+k-1, or `start` .. `end`-1) as a table of its own, less
    the empty rows under its last filled one (a flowed list's last block ends early); None
    when under two rows."""
    start, end = (b * k, (b + 1) * k) if start is None or end is None else (start, end)
    mine = [c for c in table.cells if start <= c.col < end]
    n_rows = 1 + max((c.row for c in mine if c.text.strip()), default=-1)
    if n_rows < 2:
        return None
    k = end - start
    cells = tuple(c.model_copy(update={"col": c.col - start, "row_span": min(c.row_span, n_rows - c.row)})
                  for c in mine if c.row < n_rows)
    boxes = [c.bbox for c in cells if c.bbox]
    bbox = (min(x[0] for x in boxes), min(x[1] for x in boxes), max(x[2] for x in boxes), max(x[3] for x in boxes))
    pid = table.piece_id if b == 0 else f"{table.piece_id}.b{b}"
    return table.model_copy(update={"piece_id": pid, "cells": cells, "n_rows": n_rows, "n_cols": k,
                                    "bbox": tuple(round(v, 2) for v in bbox)})


def _text_column(cells: Sequence[Cell], col: int) -> bool:
    """Whether the body of column `col` (rows under row 0) is mostly words, not figures or dates."""
    body = [c.text.strip() for c in cells if c.col == col and c.row > 0 and c.text.strip()]
    return bool(body) and 2 * sum(1 for t in body if _wordy(t)) > len(body)


def _wordy(text: str) -> bool:
    """More letters than digits: a name or a label, not a figure, a date or a code."""
    letters = sum(ch.isalpha() for ch in text)
    return letters > 0 and letters >= sum(ch.isdigit() for ch in text)


def _filled_rows(cells: Sequence[Cell]) -> set[int]:
    return {c.row for c in cells if c.text.strip()}


def two_tables_at(table: RawTable, words: Sequence[Any]) -> int:
    """The column where a second, different table starts beside the first, else 0: a gutter
    twice as wide as any gap inside either part, the part right of it starting with a column
    of words as the left one does (a table's own columns past a wide gap are figures: "Q1 Q2 |
    Q3 Q4"), each part two columns or more with its own header row, no cell across, and rows
    filled on one side only (one table runs on longer than the other)."""
    n = table.n_cols
    if n < 2 * MIN_BLOCK_COLS:
        return 0
    ink = column_ink(table.cells, n, words)
    if any(e is None for e in ink):
        return 0
    edges = [e for e in ink if e is not None]
    gaps = [edges[j + 1][0] - edges[j][1] for j in range(n - 1)]
    for j in range(MIN_BLOCK_COLS, n - MIN_BLOCK_COLS + 1):
        inner = gaps[:j - 1] + gaps[j:]
        if gaps[j - 1] < 2 * max(max(inner), 1.0) or any(c.col < j < c.col + c.col_span for c in table.cells):
            continue
        if not (_text_column(table.cells, 0) and _text_column(table.cells, j)):
            continue
        left = [c for c in table.cells if c.col < j]
        right = [c.model_copy(update={"col": c.col - j}) for c in table.cells if c.col >= j]
        # two tables end apart: rows filled on one side only (the same rows on both sides are
        # one table's records, whatever the gap before a column of words)
        if header_like(left) and header_like(right) and _filled_rows(left) != _filled_rows(right):
            return j
    return 0


def split_side_by_side(table: RawTable, words: Sequence[Any]) -> list[RawTable]:
    """The table as one table per block when its columns are blocks side by side (the same
    layout repeated, or two different tables a wide gutter apart), else itself."""
    k = block_width(table, words)
    if not k:
        j = two_tables_at(table, words)
        parts = [_block(table, 0, 0, 0, j), _block(table, 1, 0, j, table.n_cols)] if j else []
        return [p for p in parts if p is not None] if parts and all(parts) else [table]
    parts = [_block(table, b, k) for b in range(table.n_cols // k)]
    if any(p is None for p in parts):
        return [table]
    return [p for p in parts if p is not None]
