"""The words of one cell in reading order: lines top-down, each line left to right.

A cell's text was joined from its words sorted by `round(y1)` then x: on one printed line set in
two fonts (a regular word beside an italic or bolder one), the glyph boxes end a point apart,
the rounded bottoms differ, and the line came out in two halves (`Interpret and and integrate
ideas information`). Words belong to one line when their boxes overlap vertically over most of
the shorter one's height, whatever their bottoms; a wrapped line lies a line height lower, and
a line of prose beside the table (read into a cell with it) some way off.

Words are PyMuPDF-style tuples `(x0, y0, x1, y1, text, ...)`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

SAME_LINE = 0.8
"""Share of the shorter of two boxes that their vertical overlap must reach for one line: a word
in a smaller size on the same baseline lies wholly inside the line; a line of prose beside the
table half a line off (read into a cell with it) does not."""


_TOUCH = 0.5
"""Points two words of one line may overlap sideways (kerning); words printed over one another
are two lines (a table drawn over a paragraph)."""


def _overlap(a: tuple[float, float], b: tuple[float, float]) -> float:
    return min(a[1], b[1]) - max(a[0], b[0])


def word_lines(words: Iterable[Any]) -> list[list[Any]]:
    """The words grouped into printed lines, top-down, each line left to right. The tallest
    words set the lines' bands first, so a smaller word on the same baseline joins the line
    it lies in rather than starting one of its own; a word printed over a word of a line
    belongs to another line."""
    bands: list[tuple[float, float, list[Any]]] = []
    for w in sorted(words, key=lambda w: (w[1] - w[3], (w[1] + w[3]) / 2, w[0])):
        line = next((b for b in bands if _overlap((b[0], b[1]), (w[1], w[3]))
                     >= SAME_LINE * min(b[1] - b[0], w[3] - w[1])
                     and all(_overlap((v[0], v[2]), (w[0], w[2])) <= _TOUCH for v in b[2])), None)
        if line is None:
            bands.append((w[1], w[3], [w]))
        else:
            line[2].append(w)
    bands.sort(key=lambda b: b[1])  # by the bottom, as the rounded-bottom sort did between lines
    return [sorted(b[2], key=lambda w: w[0]) for b in bands]


def reading_order(words: Iterable[Any]) -> list[Any]:
    """The words in reading order: line by line (`word_lines`), left to right in each."""
    return [w for line in word_lines(words) for w in line]
