"""A paragraph set beside a table on a scan: lines at their own leading, not a column of cells.

The borderless finder on OCR runs groups runs into row bands across the whole page width, so
the lines of a paragraph standing beside a table join the table's rows: the paragraph becomes
its first column and its lines alone become rows. What tells the paragraph from a column of
cells is its leading: its lines follow each other at one pitch, tighter than the rows of the
runs level with it, and they start where those rows do only by chance. A column of wrapped
cells also steps tighter than its rows, but each row's first line starts level with the row.
Works on pixel boxes (`OcrBox`); no engine, no image.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from rowkeeper.extractors.ocr_engines import OcrBox

MIN_LINES = 4
"""Lines of a paragraph, at least."""
STEADY = 1.25
"""Largest over smallest step between a paragraph's lines, at most (one leading)."""
LOOSER = 1.25
"""The rows beside over the paragraph's leading, at least."""
LEVEL = 0.5
"""Share of the rows beside that start level with a paragraph line, under which the lines are
not the rows' cells."""


def side_paragraphs(boxes: Sequence[OcrBox], lh: float) -> set[int]:
    """Indices of `boxes` that are lines of a paragraph set beside other runs at a looser pitch."""
    out: set[int] = set()
    for chain in _chains(boxes, lh):
        lines = [boxes[j] for j in chain]
        tops = [b.box[1] for b in lines]
        steps = [t1 - t0 for t0, t1 in zip(tops, tops[1:], strict=False)]
        if min(steps) <= 0 or max(steps) > STEADY * min(steps):
            continue
        x0, x1 = min(b.box[0] for b in lines), max(b.box[2] for b in lines)
        beside = [b for j, b in enumerate(boxes) if j not in chain and b.text
                  and tops[0] - lh <= (b.box[1] + b.box[3]) / 2 <= lines[-1].box[3] + lh
                  and (b.box[0] >= x1 or b.box[2] <= x0)]
        rows = _row_tops(beside, lh)
        if len(rows) < 3:
            continue
        pitch = statistics.median(t1 - t0 for t0, t1 in zip(rows, rows[1:], strict=False))
        level = sum(any(abs(t - r) <= 0.2 * lh for t in tops) for r in rows)
        if pitch >= LOOSER * statistics.median(steps) and level < LEVEL * len(rows):
            out.update(chain)
    return out


def _chains(boxes: Sequence[OcrBox], lh: float) -> list[list[int]]:
    """Runs of text starting at one x (within a quarter line height), each under the last within
    two line heights with nothing starting at that x between: candidate paragraphs, top down."""
    order = sorted((j for j, b in enumerate(boxes) if b.text), key=lambda j: boxes[j].box[0])
    groups: list[list[int]] = []
    for j in order:
        if groups and boxes[j].box[0] - boxes[groups[-1][0]].box[0] <= 0.25 * lh:
            groups[-1].append(j)
        else:
            groups.append([j])
    chains = []
    for group in groups:
        cur: list[int] = []
        for j in sorted(group, key=lambda k: boxes[k].box[1]):
            if cur and boxes[j].box[1] - boxes[cur[-1]].box[1] > 2 * lh:
                chains.append(cur)
                cur = []
            cur.append(j)
        chains.append(cur)
    return [c for c in chains if len(c) >= MIN_LINES]


def _row_tops(boxes: Sequence[OcrBox], lh: float) -> list[float]:
    """Tops of the rows the boxes stand in (boxes within half a line height of a row's top)."""
    tops: list[float] = []
    for b in sorted(boxes, key=lambda b: b.box[1]):
        if not tops or b.box[1] - tops[-1] > 0.5 * lh:
            tops.append(b.box[1])
    return tops
