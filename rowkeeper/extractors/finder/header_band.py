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
from rowkeeper.extractors.finder.figure_words import is_figure
from rowkeeper.extractors.finder.run_heads import CLAUSE_END

_YEAR = re.compile(r"^(?:FY)?(?:19|20)\d\d\S{0,3}$")
_UNIT = re.compile(r"^[(\[].*[^\W\d_].*[)\]]$")
"""A unit in brackets after a label ("(m3)", "[m²]"): a digit in it makes no figure of it."""


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
    held or none over the last column (a paragraph's last line stops short of it), a word
    beyond the table's sides (prose beside it runs on), or figures among the labels (a year
    aside: the last row of a table stacked above), or a clause's end closing it (a sentence
    over the table, its word spaces as wide as a column gap in a monospaced face)."""
    lines = text_lines(body)
    top = min((w[1] for w in body), default=0.0)
    above = [w for w in above if w[3] <= top + 1 and str(w[4]).strip()]
    if len(lines) < 2 or len(edges) < 3 or not above:
        return []
    gap = column_gap(body)
    line = _over_table(text_lines(above)[-1], edges, gap)
    if not line or str(line[-1][4]).rstrip()[-1:] in CLAUSE_END:
        return []
    if top - min(w[1] for w in line) > 1.5 * _pitch(lines):
        return []
    # labels stand apart by more than the line's own word space; prose set larger than the
    # table (or anything in larger print) is no header of it
    if len(phrase_ends(line, column_gap(line))[0]) < 2 \
            or _columns_held(line, edges) < max(2, (len(edges) - 1) / 2):
        return []
    # a header names the columns out to the table's right side; a paragraph's last line, set
    # right over the table, stops short of it
    if not _columns_held(line, edges[-2:]):
        return []
    if max(w[3] - w[1] for w in line) > 1.15 * sorted(w[3] - w[1] for w in body)[len(body) // 2]:
        return []
    if min(w[0] for w in line) < edges[0] - gap or max(w[2] for w in line) > edges[-1] + 3 * gap:
        return []
    if any(is_figure(str(w[4])) and not _YEAR.match(str(w[4])) and not _UNIT.match(str(w[4])) for w in line):
        return []
    return list(line)


def _over_table(line: Sequence[Word], edges: Sequence[float], gap: float) -> list[Word]:
    """The words of a line less those beside the table: past its left or right side and set
    off from the rest by a gutter (over two column gaps: a paragraph beside the table whose
    line is level with the header). A line that runs on past a side at a word space (prose
    across the table) keeps its words there, and is no header."""
    line = list(line)
    past = [i for i, w in enumerate(line) if w[0] > edges[-1]]
    if past and past[0] > 0 and line[past[0]][0] - line[past[0] - 1][2] > 2 * gap:
        line = line[: past[0]]
    before = [i for i, w in enumerate(line) if w[2] < edges[0]]
    if before and before[-1] + 1 < len(line) and line[before[-1] + 1][0] - line[before[-1]][2] > 2 * gap:
        line = line[before[-1] + 1:]
    return line
