"""A scanned page's text lines: the engine's runs on one row joined, not across a gutter.

The detector reads a line of print as one run, or as several where its spaces are wide (a
justified line, a form's key and its value); runs on one row up to JOIN box heights apart
(about two font sizes) are one line. A gutter can be narrower than that: a caption over a
table set beside a paragraph stood 22 pt (2.2 font sizes) right of the paragraph's first line
and was read into it ('Costs include maintenance, energy Table 1 - Energy consumption'), so
the table had no caption. A gap that the page's rows just above or below leave open, with
print on both sides of it there too, is a gutter between two blocks: the runs are two lines,
where one of them is running text (a table's rows, which stand that way too, stay one line
each).
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from rowkeeper.boxes import bounds
from rowkeeper.extractors.grid_lines import PxBox
from rowkeeper.extractors.ocr_engines import OcrBox
from rowkeeper.extractors.ocr_runs import row_bands
from rowkeeper.extractors.ocr_text import join_text
from rowkeeper.page_columns import PROSE_UNITS, units

JOIN = 1.5
"""Gap between two runs of a row, in box heights, up to which they are one line."""
GUTTER = 0.6
"""Gap in box heights (about a font size) from which a gap the rows around leave open parts
two lines: a word space is a fraction of a font size, a gutter one or more."""
REACH = 1.6
"""How far above and below a row (in box heights) the rows that show a gutter lie."""


def text_lines(runs: Sequence[OcrBox], page: Sequence[OcrBox] = ()) -> list[tuple[str, PxBox, float]]:
    """`runs` (those outside tables) joined into lines: (text, box, median box height); `page`
    (every run of the page, the tables' too) shows where gutters run."""
    out = []
    for band in row_bands(runs):
        cur = [band[0]]
        for b in band[1:]:
            a = cur[-1]
            h = max(a.height, b.height)
            gap = b.box[0] - a.box[2]
            if gap < JOIN * h and not (gap >= GUTTER * h and _beside_prose(a, b) and _gutter(a, b, page or runs)):
                cur.append(b)
            else:
                out.append(_line(cur))
                cur = [b]
        out.append(_line(cur))
    return out


def _beside_prose(a: OcrBox, b: OcrBox) -> bool:
    """Whether one of the runs is running text (a table's row outside its box, read run by
    run, is joined as before: the steps that shape tables read it as one line)."""
    return max(units(a.text), units(b.text)) >= PROSE_UNITS


def _gutter(a: OcrBox, b: OcrBox, page: Sequence[OcrBox]) -> bool:
    """Whether the gap between `a` and `b` (one row) runs on down or up the page: the rows
    above or below it hold print left and right of the gap's middle and none across it."""
    mid = (a.box[2] + b.box[0]) / 2
    h = max(a.height, b.height)
    top, bottom = min(a.box[1], b.box[1]), max(a.box[3], b.box[3])

    def centre(r: OcrBox) -> float:
        return (r.box[1] + r.box[3]) / 2

    above = [r for r in page if top - REACH * h <= centre(r) < top]
    below = [r for r in page if bottom < centre(r) <= bottom + REACH * h]
    return any(rows and not any(r.box[0] < mid < r.box[2] for r in rows)
               and any(r.box[2] <= mid for r in rows) and any(r.box[0] >= mid for r in rows)
               for rows in (above, below))


def _line(bs: list[OcrBox]) -> tuple[str, PxBox, float]:
    return join_text([b.text for b in bs]), bounds(b.box for b in bs), statistics.median([b.height for b in bs])
