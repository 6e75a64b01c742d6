"""Rows of fields set across (a form's "Phone | 127-5920 | Date | 976-9271"): two of them are a
table though a run needs more rows, when their keys say so (bold or colon-ended, alternating
with values) or, in plain print, when a caption beside them says so and their segments stand
level column by column (finder/text_runs.py asks, closing a short run), or with no caption
when a figure among their values says their keys name values.

Two such rows may print a key and its value as one segment (`Customer Glenwood`: the two a few
points apart, a little more than a word space in a fixed-width face): `cut_level_rows` cuts both
rows where a word of each starts at one x after more than a word space.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rowkeeper.extractors.finder.field_lines import TOL, WordsOf
from rowkeeper.extractors.finder.run_heads import prose_segment
from rowkeeper.extractors.finder.running_text import is_numeric
from rowkeeper.models import TextLine


def field_rows(rows: Sequence[Sequence[TextLine]]) -> bool:
    """Whether rows read as fields set across (a form's "Phone | 127-5920 | Date | 976-9271"):
    each row four segments or more, its first a key (bold or colon-ended) and its others no
    keys, or its keys and values alternating. Two such rows are a table; two rows of plain
    segments are too few to tell one from text set level by chance."""
    for row in rows:
        keys = [is_key(t) for t in row]
        if len(row) < 4 or not keys[0] or any(keys[1::2]):
            return False
        if any(keys[2::2]) and (len(row) % 2 or not all(keys[0::2])):
            return False
    return True


def level_fields(rows: Sequence[Sequence[TextLine]], tol: float = 3.0) -> bool:
    """Whether rows are fields set across in plain print, as a caption beside them says a
    table's rows are: each four short segments or more, as many in every row, each starting
    where a segment of every other row starts (two pairs or more of keys and values), each key
    (the first of a pair) words, no figure: a table's last rows of figures on a new page, over
    the caption printed under the table, are its continuation, no fields."""
    ordered = [sorted(row, key=lambda t: t.bbox[0]) for row in rows]
    starts = [[t.bbox[0] for t in row] for row in ordered]
    keys = [t for row in ordered for t in row[0::2]]
    return len({len(s) for s in starts}) == 1 and len(starts[0]) >= 4 \
        and not any(prose_segment(t) for row in rows for t in row) \
        and not any(is_numeric(t.text) for t in keys) \
        and all(abs(a - b) <= tol for s in starts[1:] for a, b in zip(starts[0], s, strict=True))


def figure_values(rows: Sequence[Sequence[TextLine]]) -> bool:
    """Whether a value (the second of a pair) of rows of fields set across is a figure (a date,
    an amount, a number): their keys then name values, and rows of words set level by chance
    have none."""
    return any(is_numeric(t.text) for row in rows for t in sorted(row, key=lambda t: t.bbox[0])[1::2])


WIDE_SPACE = 1.5
"""How many times the narrowest gap between two words of the rows (a word space) a gap is, at
least, that stands between two fields rather than two words of one (a proportional face's
space is a third of an em: a key and its value 6 pt apart at 9.5 pt are no word space apart;
`region_trims.wide_gaps_only` keeps such a column gap too)."""
LOOSE_SPACE = 1.1
"""How many times a word space a gap is, more than, that is no word space (a face sets every
space alike: in a fixed-width face every word a space on starts on the character grid, and
two rows' words meet there by chance)."""


def cut_level_rows(rows: Sequence[Sequence[TextLine]], words_of: WordsOf | None) -> list[list[TextLine]]:
    """Two rows of fields cut where a word of each row starts at one x, each starting a segment
    or standing more than a word space from the word before, one of them starting a segment
    or standing `WIDE_SPACE` word spaces off (a key and its value printed a few points apart,
    `Customer Glenwood` over `Address 2019-10-16 Date`); the rows as they are when nothing is
    cut."""
    if words_of is None or len(rows) != 2:
        return [list(r) for r in rows]
    ordered = [sorted(row, key=lambda t: t.bbox[0]) for row in rows]
    words = [[_line_words(t, words_of) for t in row] for row in ordered]
    gaps = [b[0] - a[2] for row in words for ln in row for a, b in zip(ln, ln[1:], strict=False)]
    if not gaps:
        return [list(r) for r in rows]
    space = max(min(gaps), 0.1)
    marks = [_starts(row, space) for row in words]
    # both words stand off more than a word space, one of them well off or starting a segment
    cuts = [x for x, off, apart in marks[0] if any(abs(x - y) <= TOL and off and off2 and (apart or apart2)
                                                   for y, off2, apart2 in marks[1])]
    return [[part for t, ln in zip(row, lines, strict=True)
             for part in _cut_at(t, ln, cuts)] for row, lines in zip(ordered, words, strict=True)]


def _line_words(t: TextLine, words_of: WordsOf) -> list[Any]:
    """The words of segment `t`, left to right."""
    mid = (t.bbox[1] + t.bbox[3]) / 2
    return sorted((w for w in words_of(t.bbox) if w[1] <= mid <= w[3] and str(w[4]).strip()), key=lambda w: w[0])


def _starts(lines: Sequence[Sequence[Any]], space: float) -> list[tuple[float, bool, bool]]:
    """Each word start of a row's segments; whether it starts a segment or stands more than a
    word space (`LOOSE_SPACE` times `space`) from the word before; and whether it starts a
    segment or stands `WIDE_SPACE` times `space` from it."""
    out = []
    for ln in lines:
        for k, w in enumerate(ln):
            gap = w[0] - ln[k - 1][2] if k else None
            out.append((w[0], gap is None or gap > LOOSE_SPACE * space, gap is None or gap >= WIDE_SPACE * space))
    return out


def _cut_at(t: TextLine, words: Sequence[Any], cuts: Sequence[float]) -> list[TextLine]:
    """Segment `t` cut before each of its words (after the first) starting at one of `cuts`."""
    parts: list[list[Any]] = []
    for k, w in enumerate(words):
        if not parts or any(abs(w[0] - x) <= TOL for x in cuts) and k:
            parts.append([])
        parts[-1].append(w)
    if len(parts) < 2:
        return [t]
    x0, y0, x1, y1 = t.bbox
    return [t.model_copy(update={"text": " ".join(str(w[4]) for w in p), "bold_lead": None,
                                 "bbox": (max(x0, p[0][0]), y0, min(x1, p[-1][2]), y1)}) for p in parts]


def is_key(t: TextLine) -> bool:
    """Whether a segment is printed as a form's key: bold, or ending with a colon."""
    return t.bold or t.text.rstrip().endswith((":", "\uff1a"))
