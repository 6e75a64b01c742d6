"""Prose at a region's side: the other page column's paragraph read into a table's rows.

On a page set in two columns, a table in one column stands level with the running text of the
other; where that column holds too little running text for a gutter to be found, the rows of
the table and the lines of the paragraph beside it run into one aligned region, and the
paragraph becomes the table's first (or last) column. What tells the paragraph from a column
of long cells is that it runs on: the region's side column is running text in most of its rows,
and the same paragraph goes on outside the region, a line of running text starting at the same
x right above or below it. Such a side is cut off; a region left with running text only (two
paragraphs side by side) is no table.
"""

from __future__ import annotations

from collections.abc import Sequence

from rowkeeper.boxes import bounds, centre_in
from rowkeeper.extractors.finder.running_text import SENTENCE_END, is_numeric
from rowkeeper.models import BBox, TextLine
from rowkeeper.page_columns import running, text_rows

TOL = 2.0
"""Points within which lines start at one x."""
SHARE = 0.6
"""Share of a paragraph's lines in the region that are running text."""
ALONE = 0.25
"""Share of a paragraph's lines level with no other line of the region."""
WIDE = 0.35
"""Share of the region's width a paragraph's lines span (a column of long cells is narrower)."""


def _runs_on(side: Sequence[TextLine], lines: Sequence[TextLine], box: BBox) -> bool:
    """Whether a line of running text starting where the side's lines do stands right above or
    below the box (within two line heights): the paragraph goes on."""
    x = side[0].bbox[0]
    pitch = 2.0 * max(ln.bbox[3] - ln.bbox[1] for ln in side)
    return any(running(ln) and abs(ln.bbox[0] - x) <= TOL
               and (0 <= box[1] - ln.bbox[3] <= pitch or 0 <= ln.bbox[1] - box[3] <= pitch)
               for ln in lines if not centre_in(ln.bbox, box, 1.0))


def _starts(inside: Sequence[TextLine]) -> list[list[TextLine]]:
    """The region's lines grouped by the x they start at."""
    groups: list[list[TextLine]] = []
    for ln in sorted(inside, key=lambda t: t.bbox[0]):
        if groups and ln.bbox[0] - groups[-1][0].bbox[0] <= TOL:
            groups[-1].append(ln)
        else:
            groups.append([ln])
    return groups


def _own_leading(side: Sequence[TextLine], inside: Sequence[TextLine]) -> bool:
    """Whether the side is one block of running text at its own leading: every line running
    text, set at one pitch (baselines within a point of it), and that pitch under 0.8 of the
    table's rows' (or most of its lines level with no line of the table). A short paragraph
    beside a table ends where it ends, and does not run on outside the region; a column of
    wrapped cells steps wider between cells than between a cell's lines, and a column's
    header label, no running text, starts where its cells do. The paragraph's last line may
    be short where it ends its sentence (`め、前年度と比較する。`)."""
    *lines, last = sorted(side, key=lambda ln: ln.bbox[1])
    if not all(running(ln) for ln in lines) or not (running(last) or _ends_sentence(last)):
        return False
    steps = _steps(side)
    if max(steps) - min(steps) > 1.0:
        return False
    rows = _steps([row[0] for row in text_rows([ln for ln in inside if not any(ln is s for s in side)])])
    if not rows:
        return False  # nothing beside it: a report printed line by line is the table itself
    if max(steps) < 0.8 * sorted(rows)[len(rows) // 2]:
        return True
    return sum(_alone(ln, inside, side) for ln in side) > 0.5 * len(side)


def _ends_sentence(line: TextLine) -> bool:
    """Whether a line of words ends a sentence (`... the prior year.`, `比較する。`)."""
    text = line.text.rstrip()
    return text[-1:] in SENTENCE_END and not is_numeric(text)


def _steps(lines: Sequence[TextLine]) -> list[float]:
    """The steps between the lines' successive baselines, top to bottom."""
    bases = sorted(ln.bbox[3] for ln in lines)
    return [b - a for a, b in zip(bases, bases[1:], strict=False)]


def _paragraph(side: Sequence[TextLine], lines: Sequence[TextLine], box: BBox, rows: int,
               inside: Sequence[TextLine]) -> bool:
    """Lines starting at one x that are a page column's paragraph: three at least (a caption
    over the table is not), most of them running text, wide (a third of the region at least),
    and either level with two rows in five of the region's `rows` and going on outside the
    region, or a block at its own leading (`_own_leading`, however short beside the table)."""
    prose = [ln for ln in side if running(ln)]
    if len(side) < 3 or len(prose) < SHARE * len(side):
        return False
    widths = sorted(ln.bbox[2] - ln.bbox[0] for ln in prose)
    return widths[len(widths) // 2] >= WIDE * (box[2] - box[0]) \
        and (len(side) >= 0.4 * rows and _runs_on(side, lines, box) or _own_leading(side, inside))


def _with_lines_over(side: Sequence[TextLine], lines: Sequence[TextLine], box: BBox,
                     inside: Sequence[TextLine]) -> list[TextLine]:
    """A side of fewer than three lines right of the region's left edge, with the lines of
    running text over it that start where it starts, each a line's leading over the next (a
    paragraph beside the table that started level with its caption: its last line only is
    level with the table's header). A table's column starts no paragraph over the table."""
    out = sorted(side, key=lambda ln: ln.bbox[1])
    if len(out) >= 3 or out[0].bbox[0] <= box[0] + TOL:
        return out
    while len(out) < 3:
        top = out[0]
        height = top.bbox[3] - top.bbox[1]
        # (the box tests first: `running` reads the text, and few lines start where `top` does)
        over = [ln for ln in lines if abs(ln.bbox[0] - top.bbox[0]) <= TOL
                and 0 < top.bbox[1] - ln.bbox[1] <= 1.6 * height and running(ln) and not any(ln is o for o in inside)]
        if not over:
            break
        out.insert(0, max(over, key=lambda ln: ln.bbox[1]))
    return out


def _alone(ln: TextLine, inside: Sequence[TextLine], side: Sequence[TextLine]) -> bool:
    """Whether no line of the region but the side's stands level with `ln` (centres within a
    quarter of its height: a row's cells share a baseline)."""
    cy, h = (ln.bbox[1] + ln.bbox[3]) / 2, ln.bbox[3] - ln.bbox[1]
    return not any(abs((o.bbox[1] + o.bbox[3]) / 2 - cy) <= 0.25 * h
                   for o in inside if not any(o is s for s in side))


def without_prose_sides(box: BBox, lines: Sequence[TextLine]) -> BBox | None:
    """An aligned region less the paragraphs of the page columns beside the table in it
    (`_paragraph`) and what stands level with their lines; None when what is left holds fewer
    than two rows of two lines or more, or is mostly running text itself."""
    inside = [ln for ln in lines if centre_in(ln.bbox, box, 1.0)]
    rows = text_rows(inside)
    sides = [side for side in (_with_lines_over(s, lines, box, inside) for s in _starts(inside))
             if _paragraph(side, lines, box, len(rows), inside)]
    if sides and sum(running(ln) for ln in inside) >= SHARE * len(inside):
        return None  # paragraphs side by side, level line for line
    # a paragraph keeps its own leading: some of its lines stand level with nothing of the
    # table (a column of sentences in a table has the row's other cells level with each)
    prose = [ln for side in sides if sum(_alone(ln, inside, side) for ln in side) >= ALONE * len(side) for ln in side]
    if not prose:
        return box
    spans = [(ln.bbox[0], ln.bbox[2]) for ln in prose]
    rest = [ln for ln in inside if not any(min(ln.bbox[2], b) - max(ln.bbox[0], a) > 0 for a, b in spans)]
    if sum(len(r) >= 2 for r in text_rows(rest)) < 2 or sum(running(ln) for ln in rest) >= SHARE * len(rest):
        return None  # no two rows of two cells left (a list's bullets beside its items' text)
    return bounds(ln.bbox for ln in rest)
