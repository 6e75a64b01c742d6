"""The header row over a borderless table that the aligned region left out.

A header set tight, labels a word space apart, prints as one long text line
("Nhà cung cấp Công suất [kW] Chi phí [VNĐ]"): read as prose, it is no part of the aligned
region, and the table loses its column names (and its caption, now two lines up, with it).
The line of labels right over the region's first row, at its row pitch, standing over its
columns, is that header: it goes back into the table by position, whatever its length.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rowkeeper.extractors.finder.aligned_columns import Word, column_gap, phrase_ends, text_lines
from rowkeeper.extractors.finder.projection import is_figure

_YEAR = re.compile(r"^(?:FY)?(?:19|20)\d\d\S{0,3}$")


def _pitch(lines: Sequence[Sequence[Word]]) -> float:
    """The median step between the tops of consecutive lines."""
    tops = [min(w[1] for w in ln) for ln in lines]
    steps = sorted(b - a for a, b in zip(tops, tops[1:], strict=False))
    return steps[len(steps) // 2]


def _columns_held(line: Sequence[Word], edges: Sequence[float]) -> int:
    """How many of the columns between `edges` hold a word's centre of the line."""
    return sum(any(a <= (w[0] + w[2]) / 2 < b for w in line) for a, b in zip(edges, edges[1:], strict=False))


def header_band(above: Sequence[Word], body: Sequence[Word], edges: Sequence[float]) -> list[Word]:
    """The words of the header row over a borderless table (`body`: its words, `edges`: its
    column boundaries, outer ones included), chosen among the words `above` it; [] when the
    line right above is no header: more than one and a half row pitches up, in larger print,
    one phrase across (word gaps measured by its own print), less than half the columns
    held, a word beyond the table's sides (prose beside it runs on), or figures among the
    labels (a year aside: the last row of a table stacked above)."""
    lines = text_lines(body)
    top = min((w[1] for w in body), default=0.0)
    above = [w for w in above if w[3] <= top + 1 and str(w[4]).strip()]
    if len(lines) < 2 or len(edges) < 3 or not above:
        return []
    line = text_lines(above)[-1]
    if top - min(w[1] for w in line) > 1.5 * _pitch(lines):
        return []
    # labels stand apart by more than the line's own word space; prose set larger than the
    # table (or anything in larger print) is no header of it
    gap = column_gap(body)
    if len(phrase_ends(line, column_gap(line))[0]) < 2 \
            or _columns_held(line, edges) < max(2, (len(edges) - 1) / 2):
        return []
    if max(w[3] - w[1] for w in line) > 1.15 * sorted(w[3] - w[1] for w in body)[len(body) // 2]:
        return []
    if min(w[0] for w in line) < edges[0] - gap or max(w[2] for w in line) > edges[-1] + 3 * gap:
        return []
    if any(is_figure(str(w[4])) and not _YEAR.match(str(w[4])) for w in line):
        return []
    return list(line)
