"""The words of one cell in reading order: lines top-down, each line left to right.

A cell's text was joined from its words sorted by `round(y1)` then x: on one printed line set in
two fonts (a regular word beside an italic or bolder one), the glyph boxes end a point apart,
the rounded bottoms differ, and the line came out in two halves (`Interpret and and integrate
ideas information`). Words belong to one line when a word's vertical middle lies inside the
line's band (a superscript's too), whatever their bottoms; a wrapped line's middle lies a line
height lower, outside it.

Words are PyMuPDF-style tuples `(x0, y0, x1, y1, text, ...)`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def word_lines(words: Iterable[Any]) -> list[list[Any]]:
    """The words grouped into printed lines, top-down, each line left to right. The tallest
    words set the lines' bands first, so a superscript or a smaller word joins the line its
    middle falls in rather than starting one of its own."""
    bands: list[tuple[float, float, list[Any]]] = []
    for w in sorted(words, key=lambda w: (w[1] - w[3], (w[1] + w[3]) / 2, w[0])):
        mid = (w[1] + w[3]) / 2
        line = next((b for b in bands if b[0] <= mid <= b[1] or w[1] <= (b[0] + b[1]) / 2 <= w[3]), None)
        if line is None:
            bands.append((w[1], w[3], [w]))
        else:
            line[2].append(w)
    bands.sort(key=lambda b: b[0] + b[1])
    return [sorted(b[2], key=lambda w: w[0]) for b in bands]


def reading_order(words: Iterable[Any]) -> list[Any]:
    """The words in reading order: line by line (`word_lines`), left to right in each."""
    return [w for line in word_lines(words) for w in line]
