"""A column of pictures set close to the text beside it: the boundary is the pictures' edge.

A table's thumbnails (or tick boxes) stand in a column of their own under its header ("Photo",
"Hình"). Set a little closer to the next column's text than a column gap (a 32-point thumbnail
4 points from the names), the x projection finds no gap there, and the picture column's header
and the next one's run into one cell ("Hình Hạng mục"). A picture is never a word of a phrase:
where the stretch between the column of pictures and the text beside it is clear on every line
(no word, header labels included, crosses it) and a label of its own heads the column (a tick
box set before its cell's text, `☐ Yes`, has none over it), that stretch is a column boundary,
however narrow. Words are PyMuPDF-style tuples `(x0, y0, x1, y1, text, ...)`; pictures are
`projection.picture_words`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

MIN_PICTURES = 2
"""Pictures one over another that make a column (a single image is a logo or a figure)."""
MIN_CLEAR = 1.0
"""Points of clear space between the pictures and the text beside them."""


def picture_edges(words: Sequence[Any], pictures: Sequence[Any], seps: Sequence[float]) -> list[float]:
    """`seps` with a boundary in the clear stretch either side of each column of `pictures`
    that no boundary parts from the text beside it yet (module docstring)."""
    out = sorted(seps)
    for x0, x1, top in _columns(pictures):
        if not any(w[3] <= top + 1 and x0 <= (w[0] + w[2]) / 2 <= x1 for w in words):
            continue  # no label of its own over the pictures: a tick box before its cell's text
        right = [w[0] for w in words if w[0] >= x1]
        left = [w[2] for w in words if w[2] <= x0]
        if right and (b := min(right)) - x1 >= MIN_CLEAR and _clear(words, x1, b) \
                and not any(x0 < s < b for s in out):
            out.append((x1 + b) / 2)
        if left and x0 - (a := max(left)) >= MIN_CLEAR and _clear(words, a, x0) \
                and not any(a < s < x1 for s in out):
            out.append((a + x0) / 2)
        out.sort()
    return out


def _columns(pictures: Sequence[Any]) -> list[tuple[float, float, float]]:
    """The x extents and tops of the columns of pictures: `MIN_PICTURES` or more whose x spans
    overlap."""
    spans: list[tuple[float, float, float, int]] = []
    for p in sorted(pictures, key=lambda p: p[0]):
        if spans and p[0] < spans[-1][1]:
            a, b, top, n = spans[-1]
            spans[-1] = (a, max(b, p[2]), min(top, p[1]), n + 1)
        else:
            spans.append((p[0], p[2], p[1], 1))
    return [(a, b, top) for a, b, top, n in spans if n >= MIN_PICTURES]


def _clear(words: Sequence[Any], a: float, b: float) -> bool:
    """Whether no word inks any of the stretch (a, b)."""
    return not any(w[0] < b and w[2] > a for w in words)
