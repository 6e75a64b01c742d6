"""The lines over an aligned run and its first rows (finder/text_runs.py): which single lines
right above a table's first aligned row are its header (a column header, a unit line, a group
label) and which are not (a heading in larger print, a wrapped caption's last line, a sentence);
and a first row that is a caption printed as a label and a sentence, not a two-column row.

Pure functions over a page's text lines.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rowkeeper.caption_text import is_caption
from rowkeeper.extractors.finder.running_text import is_numeric
from rowkeeper.models import TextLine

CLAUSE_END = ".:;。：；"
"""How a line ending a clause ends: a sentence over a table, no line of its header."""
HEADER_CHARS = 40
"""Characters a line over a table's first row may have to be a line of its header."""
OVERHANG = 1.0
"""Points a line over a table may reach past the right edge of its last column and still line
up with a column by its right edge: one reaching further is set right-aligned to the text
block's margin (a unit note, `in Tausend`, flush with the paragraphs), not to a column's
labels. A line flush left with a column's label is that label's first line however far it
reaches (`One Withholding` over `Allowance`, peer tabula_us-007)."""
HEADING_BOLD = 1.15
"""Times the first row's type size a bold line over a table is printed at to be a heading
(the size that ends a run of rows at a heading between stacked tables, too)."""
SUBSECTION = re.compile(r"\d+(?:\.\d+)+\.?\s+[^\W\d_]")
"""A sub-section's number opening a line ("2.1 Costs", "3.2.1. Hinweise"): a heading's, where a
caption names its table first ("Table 2.1") and a figure has no word after it."""


def header_lines(above: Sequence[TextLine], first: Sequence[TextLine]) -> list[TextLine]:
    """The single lines right above a table's first aligned row that belong to it: a column
    header over one column ("2016" over the figures), a unit line or a group label in the
    first column ("(all amounts in EUR)", "Class A"). Each sits within a line spacing of the
    line under it, starts with the first column or lines up with another column of `first`
    (by its right edge only within `OVERHANG` of the table's right edge), is short, no sentence's end and no wrapped caption's last line; the first line that is not
    stops the search."""
    out: list[TextLine] = []
    below = first[0]
    lines = above[::-1]
    right = max(c.bbox[2] for c in first)
    for i, t in enumerate(lines):
        height = below.bbox[3] - below.bbox[1]
        edges = any(abs(t.bbox[0] - c.bbox[0]) <= 3 or abs(t.bbox[2] - c.bbox[2]) <= 3 and t.bbox[2] <= right + OVERHANG
                    for c in first[1:])
        if (below.bbox[1] - t.bbox[1] > 2.5 * height or len(t.text) > HEADER_CHARS
                or t.text.rstrip()[-1:] in CLAUSE_END or _heading_over(t, first) or _wrapped_tail(t, lines[i + 1:i + 2], below, right)
                or not (abs(t.bbox[0] - first[0].bbox[0]) <= 3 or edges)):
            break
        out.append(t)
        below = t
    return out[::-1]


def _wrapped_tail(t: TextLine, over: Sequence[TextLine], below: TextLine, right: float) -> bool:
    """Whether `t` is the last line of a caption wrapped over it ("Table 1 Quarterly figures by
    site, Headcount" / "and budget"): the line right over it starts where it starts, in its
    type, a line spacing up, is too long for a header line itself or reads as a caption (`Table 1:
    Maintenance schedule, Energy` is short enough for one) and runs no further than the table's
    right edge `right`; it was wrapped there (`t`'s first word would not have fitted),
    or at a narrower width of the caption's own, which the space under `t` tells: the line
    `below` it stands further down than a third more than the caption's line spacing (a
    paragraph's last line keeps its spacing, a table starts after a gap). A note over notes
    ("* Significantly different ..." / "** P<0.01") runs past the table, or stops short with
    the next note a line spacing under it."""
    if not over or not t.text.split():
        return False
    o = over[0]
    em = (t.bbox[2] - t.bbox[0]) / max(len(t.text), 1)
    spacing = t.bbox[1] - o.bbox[1]
    wrapped = right <= o.bbox[2] + em * (len(t.text.split()[0]) + 1) or below.bbox[1] - t.bbox[1] > 1.33 * spacing
    return ((len(o.text) > HEADER_CHARS or is_caption(o.text)) and abs(o.bbox[0] - t.bbox[0]) <= 1.0 and o.bold == t.bold
            and abs(o.font_size - t.font_size) <= 0.1 and 0 < spacing <= 1.6 * (t.bbox[3] - t.bbox[1])
            and o.bbox[2] - 3 <= right and wrapped)


def _heading_over(t: TextLine, first: Sequence[TextLine]) -> bool:
    """A heading over the table, not a line of its header: printed a quarter larger than the
    first row, or a sub-heading a little larger (`HEADING_BOLD`): unnumbered in bold ("Appendix"
    over a header in 8 pt), or numbered as a sub-section ("1.1 地域別売上", a face with no bold
    that sets headings apart by size alone). A line numbered otherwise in that type is the
    table's caption ("Bảng 1: ...", "Table 2"): the region keeps it, the caption pass takes it
    out (and it keeps a header row under it that `caption_row` would take for a caption's
    sentence in the region's first row)."""
    sub = (t.bold and not any(ch.isdigit() for ch in t.text)) or bool(SUBSECTION.match(t.text.strip()))
    return t.font_size >= (HEADING_BOLD if sub else 1.25) * max(c.font_size for c in first)


def prose_segment(t: TextLine) -> bool:
    """A segment of running text: long, many words, not a number."""
    return len(t.text) > 40 and len(t.text.split()) >= 6 and not is_numeric(t.text)


def caption_row(row: Sequence[TextLine], below: Sequence[Sequence[TextLine]]) -> bool:
    """A caption ("Table 15.  Actual and projected percentage changes in ...") printed as a
    label and a sentence looks like a two-column row: its sentence runs across two or more
    cells of a row below. A description in the last column of a table spans one cell. Header
    labels about a word space apart, printed as one line ("Árbevétel [Ft] Pontszám Szállítási
    idő [nap]" in a monospaced face, right-aligned), end flush with a cell of the row under
    them, and the next label stands after them (`_labels_line`)."""
    return any(prose_segment(t) and any(sum(t.bbox[0] + 1 < c.bbox[0] < t.bbox[2] for c in r[1:]) >= 2 for r in below)
               and not _labels_line(t, row, below[0]) for t in row)


def _labels_line(t: TextLine, row: Sequence[TextLine], under: Sequence[TextLine], tol: float = 1.0) -> bool:
    """Whether a long segment of a row is right-aligned header labels printed as one line:
    another segment of its row stands after it, and it ends where a cell of the row `under` it
    ends. A caption's sentence runs to its row's end, or ends anywhere (its start is no sign:
    a paragraph's lines all start at one margin)."""
    after = any(s.bbox[0] >= t.bbox[2] for s in row if s is not t)
    return after and any(abs(c.bbox[2] - t.bbox[2]) <= tol for c in under)
