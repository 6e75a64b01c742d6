"""A ruled header over an unruled body: the header's labels stand in boxes whose column rules
stop at the header's bottom, and the body below is plain aligned text. The body's own gaps may
put a boundary elsewhere (right-aligned figures leave their column's left side open, so a label
set left in its box falls in the column before it); the rules the printer drew over the
header are the columns' boundaries, the body's words crossing none of them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rowkeeper.boxes import area, overlap

BBox = Sequence[float]
MAX_LINES = 3
"""Text lines a ruled header band holds at most."""


def head_rules(vs: Sequence[BBox], words: Sequence[Sequence[Any]], region: BBox) -> list[float]:
    """x of the inner column rules of a ruled band at the top of `region` (an aligned region
    of `words`), when they part its columns: three or more vertical rules of one height (a
    header of `MAX_LINES` text lines at most) ending over the body's top, the outer two around the words, no
    word of the region under the band across an inner one, and every column between two rules
    holding words in most rows. [] when there is no such band."""
    if not words:
        return []
    height = sorted(w[3] - w[1] for w in words)[len(words) // 2]
    top = min(w[1] for w in words)
    band = [v for v in vs if v[3] - v[1] <= MAX_LINES * height * 1.5 and top - height <= v[3] <= top + MAX_LINES * height * 1.5]
    if len(band) < 3:
        return []
    bottom = max(v[3] for v in band)
    if any(abs(v[1] - band[0][1]) > 0.5 * height or abs(v[3] - bottom) > 0.5 * height for v in band):
        return []  # rules of one band share its top and bottom
    xs = sorted({round((v[0] + v[2]) / 2, 1) for v in band})
    left, right = min(w[0] for w in words), max(w[2] for w in words)
    if not (xs[0] <= left + height and right - height <= xs[-1]) or len(xs) < 3:
        return []
    inner = xs[1:-1]
    body = [w for w in words if w[1] >= bottom - 1]
    if not body or any(w[0] < x - 0.5 and w[2] > x + 0.5 for w in body for x in inner):
        return []
    rows = {round(w[3]) for w in body}
    bounds = [xs[0] - height, *inner, xs[-1] + height]
    for a, b in zip(bounds, bounds[1:], strict=False):
        filled = {round(w[3]) for w in body if a <= (w[0] + w[2]) / 2 < b}
        if len(filled) < 0.5 * len(rows):
            return []
    return inner


def without_ruled_heads(ruled: Sequence[Any], read: Sequence[Any]) -> list[Any]:
    """Ruled tables (find_tables' `Table`s) less those that are only the ruled header band of
    a table read from the text under it (`read`), which holds the header's rows too: two
    rows at most, inside the top of that table's box."""
    out = []
    for t in ruled:
        box = tuple(t.bbox)
        head = any(overlap(box, tuple(b.bbox)) >= 0.6 * area(box) and box[3] < (b.bbox[1] + b.bbox[3]) / 2
                   for b in read)
        if not (head and t.row_count <= 2):
            out.append(t)
    return out
