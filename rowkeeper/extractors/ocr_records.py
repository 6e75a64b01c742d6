"""Records whose cells wrap over several lines in a borderless table on a scan: one row each.

The aligned finder (`ocr_tables.aligned_tables`) gives every printed line a row, and a line
holding only a record's figures (set level with the record's middle or last line, between the
lines of its wrapped description) a row of its own. The text layer reads such tables with
`finder.wrapped_records.join_wrapped_records`: a record is the band from the line that starts a
new key down to the next one, told by the white between records, which is wider than the
leading inside one. The same function reads the scan's pixel table here, each cell standing
for its words by its ink: the rows of dark pixels in its box (`line_print.ink_box`). The
detector pads its boxes by a share of the line's height, so between padded boxes the white
inside a record reads below nought and the white between records as narrow as a quarter line:
no band to tell (a slide's list cells, an item a line, were read a row per item).

A table ruled between its records (a slide's table: a rule across the table under each record,
set close to the text, a record's cell a list of bullets, one a line at a loose leading) tells
its records by the rules instead, where the white between them is no wider than inside one: a
line under no rule, its key cell empty, is a wrapped line of the record over it
(`ruled_records`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import reduce

import numpy as np

from rowkeeper.boxes import bounds
from rowkeeper.extractors.finder.wrapped_records import join_wrapped_records
from rowkeeper.extractors.grid_lines import PxBox
from rowkeeper.extractors.line_print import ink_box
from rowkeeper.extractors.ocr_tables import PxCell, PxTable
from rowkeeper.glyphs import run_on

ACROSS = 0.9
"""Share of the table's text width a rule must run under to part two records."""


def joined_records(table: PxTable, pieces: Sequence[PxBox] = (), ink: np.ndarray | None = None) -> PxTable:
    """`table` with each record's wrapped lines joined into the row that starts it (see the
    module); a ruled table, or one with spans, as it is. `pieces` are the page's horizontal
    rules (`ocr_merged.rule_pieces`), `ink` the page binarized (`grid_lines.binarize`)."""
    order = table.aligned_rows()
    if order is None:
        return table
    boxes = [[c.box for c in row] for row in order]
    texts = [[c.text or None for c in row] for row in order]
    starts = ruled_records(boxes, texts, pieces)
    if starts is not None:
        return _rows_joined(table, boxes, texts, starts)
    words = [[[c.box if ink is None else ink_box(ink, c.box)] if c.text else [] for c in row] for row in order]
    rows, cells, _ = join_wrapped_records(boxes, texts, words)
    if len(rows) == table.n_rows:
        return table
    return _table_of(table, rows, cells)


def ruled_records(boxes: Sequence[Sequence[PxBox]], texts: Sequence[Sequence[str | None]],
                  pieces: Sequence[PxBox]) -> list[int] | None:
    """The rows that start a record when rules across the table part its records (None when
    they do not): every row with a key (its first cell filled) after the first has a rule over
    it, at least two such rules stand between rows, and the rows under no rule at all, their key
    cell empty, are wrapped lines (a rule left out under some columns only is a merged cell's,
    `ocr_merged`'s)."""
    lines = [i for i, t in enumerate(texts) if any(t)]
    if len(lines) < 3 or not pieces:
        return None
    spans = [(min(b[1] for b, t in zip(boxes[i], texts[i], strict=True) if t),
              max(b[3] for b, t in zip(boxes[i], texts[i], strict=True) if t)) for i in lines]
    mids = [(a + b) / 2 for a, b in spans]
    x0 = min(b[0] for i in lines for b, t in zip(boxes[i], texts[i], strict=True) if t)
    x1 = max(b[2] for i in lines for b, t in zip(boxes[i], texts[i], strict=True) if t)
    starts, ruled = [lines[0]], 0
    for n, i in enumerate(lines[1:], start=1):
        over = [p for p in pieces if mids[n - 1] < (p[1] + p[3]) / 2 < mids[n] and p[2] > x0 and p[0] < x1]
        across = sum(min(p[2], x1) - max(p[0], x0) for p in over) >= ACROSS * (x1 - x0)
        if across:
            ruled += 1
            starts.append(i)
        elif over or texts[i][0]:
            return None  # a key under no rule, or a rule under some columns only
    if ruled < 2 or len(starts) == len(lines):
        return None
    return starts


def _rows_joined(table: PxTable, boxes: Sequence[Sequence[PxBox]], texts: Sequence[Sequence[str | None]],
                 starts: Sequence[int]) -> PxTable:
    """`table` with the lines from each start down to the next joined into one row."""
    ends = [*starts[1:], len(texts)]
    rows, cells = [], []
    for a, b in zip(starts, ends, strict=True):
        band = [i for i in range(a, b) if any(texts[i])]
        rows.append([bounds(boxes[i][k] for i in band) for k in range(table.n_cols)])
        cells.append([reduce(run_on, (t for i in band if (t := texts[i][k])), "") or None for k in range(table.n_cols)])
    if starts[0] > 0:  # blank rows over the first line stay as they were
        rows = [list(r) for r in boxes[:starts[0]]] + rows
        cells = [list(t) for t in texts[:starts[0]]] + cells
    return _table_of(table, rows, cells)


def _table_of(table: PxTable, rows: Sequence[Sequence[PxBox | None]],
              cells: Sequence[Sequence[str | None]]) -> PxTable:
    out = tuple(PxCell(r, k, 1, 1, text or "", box)  # type: ignore[arg-type]
                for r, (row, texts_of) in enumerate(zip(rows, cells, strict=True))
                for k, (box, text) in enumerate(zip(row, texts_of, strict=True)))
    return PxTable(table.box, len(rows), table.n_cols, out, table.kind)
