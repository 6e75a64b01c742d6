"""A continuation piece read with one column split in two (or three): page 2 of a long table,
its header left on page 1, whose first column ("3752 Matsuyama depot") the reader parts where
ids of one width line the names up. The piece is the table's continuation with those columns one."""

from __future__ import annotations

from collections.abc import Callable

from rowkeeper.boxes import union
from rowkeeper.models import Cell, RawTable

MAX_JOINS = 2
"""Columns a continuation may hold more than the table it continues, for joins to mend it."""


def join_columns(piece: RawTable, k: int) -> RawTable:
    """`piece` with columns `k` and `k + 1` one column: the texts of a row's two cells joined
    by a space, their boxes united; a span over both loses one column."""
    by_row: dict[int, list[Cell]] = {}
    out: list[Cell] = []
    for c in piece.cells:
        if c.col == k + 1 and c.col_span == 1:
            by_row.setdefault(c.row, []).append(c)
        elif c.col > k + 1:
            out.append(c.model_copy(update={"col": c.col - 1}))
        elif c.col <= k < c.col + c.col_span - 1:
            out.append(c.model_copy(update={"col_span": c.col_span - 1}))
        else:
            out.append(c)
    joined = []
    for c in out:
        right = by_row.pop(c.row, []) if c.col == k and c.col_span == 1 else []
        texts = [t for t in (c.text, *(r.text for r in right)) if t.strip()]
        box = c.bbox
        for r in right:
            box = union(box, r.bbox)
        joined.append(c.model_copy(update={"text": " ".join(texts), "bbox": box}) if right else c)
    joined += [r.model_copy(update={"col": k}) for rs in by_row.values() for r in rs]  # no left cell
    return piece.model_copy(update={"cells": tuple(joined), "n_cols": piece.n_cols - 1})


def rejoined_continuation(prev: RawTable, nxt: RawTable,
                          lines_up: Callable[[RawTable, RawTable], bool]) -> RawTable | None:
    """`nxt` with neighbouring columns joined when it has one or two columns more than `prev`
    and only so do their columns line up (`lines_up`); None when no join does. A last page of
    two rows gives the reader too few lines to keep a name's words together ("Patakvölgy" |
    "iroda" | "5430"): two joins."""
    if prev.n_cols < 2 or not 0 < nxt.n_cols - prev.n_cols <= MAX_JOINS:
        return None
    for k in range(nxt.n_cols - 1):
        joined = join_columns(nxt, k)
        if joined.n_cols > prev.n_cols:
            deeper = rejoined_continuation(prev, joined, lines_up)
            if deeper is not None:
                return deeper
        elif lines_up(prev, joined):
            return joined
    return None


def hollow_columns_of(piece: RawTable) -> set[int]:
    """The columns of a piece no cell with text covers (a narrow column a reader makes at the
    gap between two rules drawn under each column, `Site` | `` | `Supplier`)."""
    filled = {k for c in piece.cells if c.text.strip() for k in range(c.col, c.col + c.col_span)}
    return set(range(piece.n_cols)) - filled


def relaid_continuation(prev: RawTable, nxt: RawTable,
                        lines_up: Callable[[RawTable, RawTable], bool]) -> RawTable | None:
    """`nxt` with its columns laid on `prev`'s, when they line up only so: its text columns
    in order onto `prev`'s, its empty columns dropped and `prev`'s kept empty (each page's
    reader makes its empty column at another rule gap, or on one page only); None when the
    text columns differ in number, a span crosses columns, or they do not line up then."""
    gone, kept = hollow_columns_of(nxt), hollow_columns_of(prev)
    if not (gone or kept) or nxt.n_cols - len(gone) != prev.n_cols - len(kept) \
            or any(c.col_span > 1 for c in nxt.cells):
        return None
    to = dict(zip((k for k in range(nxt.n_cols) if k not in gone),
                  (k for k in range(prev.n_cols) if k not in kept), strict=True))
    cells = tuple(c.model_copy(update={"col": to[c.col]}) for c in nxt.cells if c.col in to)
    relaid = nxt.model_copy(update={"cells": cells, "n_cols": prev.n_cols})
    return relaid if lines_up(prev, relaid) else None
