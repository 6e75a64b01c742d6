"""Cells merged down over several rows of a borderless table on a scan, told by its rules.

A table ruled between its rows only under some columns (a site printed once, centred beside its
categories; a category beside its items) leaves its rule out under the cells that run on into
the next row. The text layer reads that with `finder.merged_rows.merged_down` over the page's
rule segments; on a scan the rules are the OCR layer's rule mask (`grid_lines.find_grids`),
whose horizontal pieces are the same evidence. The aligned finder put the merged text in the
one row where it is printed and left the others blank; here the band becomes one cell spanning
its rows, whose text the assembly repeats into each of them, as for a ruled grid's spans.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from rowkeeper.extractors.finder.merged_rows import merged_down
from rowkeeper.extractors.grid_lines import PxBox
from rowkeeper.extractors.ocr_tables import PxCell, PxTable

FLAT = 4.0
"""Width over height from which a piece of the rule mask is a horizontal rule."""


def rule_pieces(rules: np.ndarray) -> list[PxBox]:
    """The horizontal rules of a page's rule mask, one box (pixels) per connected piece."""
    n, _, stats, _ = cv2.connectedComponentsWithStats((rules > 0).astype(np.uint8), connectivity=8)
    return [(int(x), int(y), int(x + w), int(y + h)) for x, y, w, h, _ in stats[1:n] if w >= FLAT * h]


def merged_cells(table: PxTable, pieces: Sequence[PxBox], scale: float) -> PxTable:
    """`table` (an aligned one, without spans) with each band of rows that a column spans
    unruled made one cell spanning them (`merged_down`, in points: `scale` pixels a point)."""
    order = table.aligned_rows() if pieces else None
    if order is None:
        return table

    def pt(b: Sequence[float]) -> tuple[float, float, float, float]:
        return (b[0] / scale, b[1] / scale, b[2] / scale, b[3] / scale)

    rows = [[pt(c.box) for c in row] for row in order]
    texts = [[c.text or None for c in row] for row in order]
    x0, _, x1, _ = table.box
    hrules = [pt(p) for p in pieces if p[2] > x0 and p[0] < x1]
    rs, ts = merged_down(rows, texts, hrules)
    if all(b is not None for r in rs for b in r) and len(rs) == table.n_rows:
        return table
    cells: list[PxCell] = []
    for r, (row, text) in enumerate(zip(rs, ts, strict=True)):
        for k, (box, t) in enumerate(zip(row, text, strict=True)):
            if box is None:
                continue
            span = 1
            while r + span < len(rs) and rs[r + span][k] is None:
                span += 1
            px = (box[0] * scale, box[1] * scale, box[2] * scale, box[3] * scale)
            cells.append(PxCell(r, k, span, 1, t or "", px))
    return PxTable(table.box, len(rs), table.n_cols, tuple(cells), table.kind)
