"""Key-value blocks: a form's "Key: value" pairs read as two-column tables with no header.

A borderless grid whose columns pair up as (keys, values) side by side (an estimate's customer
block beside its offer block) is one table per pair: keys end with a colon in most rows, or
are printed in bold beside values that are not. Such a table has no header row; the
transforms see it in the piece's `metrics` (`KEY_VALUE`).
"""

from __future__ import annotations

from collections.abc import Sequence

from rowkeeper.models import Cell

KEY_VALUE = "key_value"
"""`RawTable.metrics` key set to 1.0 on a key-value table: its first row is no header."""

_COLONS = (":", "：")


def key_value_pairs(cells: Sequence[Cell], n_cols: int, min_rows: int = 2) -> list[tuple[int, int]]:
    """(key column, value column) of each block when every even column holds keys and the one
    after it their values, in at least `min_rows` rows each; [] for any other grid."""
    if n_cols < 2 or n_cols % 2 or any(c.col_span > 1 or c.row_span > 1 for c in cells):
        return []
    by_col: dict[int, list[Cell]] = {}
    for c in cells:
        if c.text.strip():
            by_col.setdefault(c.col, []).append(c)
    pairs = [(k, k + 1) for k in range(0, n_cols, 2)]
    for k, v in pairs:
        keys, values = by_col.get(k, []), by_col.get(v, [])
        if len(keys) < min_rows or not _keys(keys, values) or _keys(values, keys):
            return []
        rows_k, rows_v = {c.row for c in keys}, {c.row for c in values}
        if len(rows_k & rows_v) < max(min_rows, 0.6 * len(rows_k)):
            return []  # keys without values are a list of labels, not a form
    return pairs


def _keys(keys: Sequence[Cell], values: Sequence[Cell]) -> bool:
    """Labels of a form: most end with a colon, or all are bold beside values that are not."""
    colons = sum(c.text.rstrip().endswith(_COLONS) for c in keys)
    if colons >= 0.6 * len(keys):
        return True
    return all(c.bold for c in keys) and bool(values) and not any(c.bold for c in values)


def split_pairs(cells: Sequence[Cell], pairs: Sequence[tuple[int, int]]) -> list[list[Cell]]:
    """The cells of each (key, value) pair as a two-column grid of its own, its rows
    renumbered from 0 without the rows it leaves empty, none flagged as header."""
    out = []
    for k, v in pairs:
        mine = [c for c in cells if c.col in (k, v)]
        rows = sorted({c.row for c in mine if c.text.strip()})
        at = {r: i for i, r in enumerate(rows)}
        out.append([c.model_copy(update={"row": at[c.row], "col": c.col - k, "is_header": False})
                    for c in mine if c.row in at])
    return out
