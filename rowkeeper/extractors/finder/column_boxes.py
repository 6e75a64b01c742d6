"""Aligned regions read inside the page's column boxes (`page_columns.text_columns`).

On a page set in columns, a table in one column stands level with the running text of the
other: read over the whole page width, the prose lines' starts and ends line up with the
table's rows, and the run of aligned rows takes the prose in as a column of cells (and the
column's heading as its header). Read inside the column box that holds it, the table is alone.
A region across a gutter of a part of the page set in columns is replaced by the regions found
inside its column boxes; a table over the full width (a full-width band of the column model)
keeps its region, and halves found level either side of a gutter in such a band are one;
so is a region whose reads in two columns stand level (a full-width table whose long row
labels look like running text on one side).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rowkeeper.boxes import centre_in, overlap
from rowkeeper.caption_text import is_caption
from rowkeeper.extractors.finder.field_lines import WordsOf
from rowkeeper.extractors.finder.plots import over_plot
from rowkeeper.extractors.finder.text_runs import aligned_regions
from rowkeeper.models import BBox, TextLine
from rowkeeper.page_columns import across_gutters, running, text_columns


def in_column_boxes(regions: Sequence[BBox], lines: Sequence[TextLine], pictures: Sequence[BBox],
                    min_rows: int = 3, plots: Sequence[BBox] = (), words_of: WordsOf | None = None) -> list[BBox]:
    """`regions` with each one across a gutter, running text inside it on a side, replaced by
    the regions found in the page's columns either side of the gutter, and the regions found
    in one column alone clear of them all (none round a chart's plotted line, `plots`), each
    column's rows read with the page's words as the page's read had them (`words_of`: a row
    label glued to its amount in the text layer is two segments where the words part it)."""
    columns = text_columns(lines)
    if not columns.multi:
        return list(regions)
    out: list[BBox] = []
    for r in regions:
        apart = _read_apart(r, lines, columns.gutters, pictures, min_rows, words_of=words_of)
        out += [r] if apart is None else apart
    # a table level with the other column's prose or table makes no region over the page
    # width (the run mixes them, and no column's edges hold through it): each column read
    # alone adds what lies clear of every region the page's read found (one read apart above,
    # prose on every side, stays dropped), but a chart's labels round its plotted line
    alone = [b for part in _column_parts(lines, columns.gutters)
             for b in aligned_regions(part, min_rows, pictures, words_of)[0] if not over_plot(b, plots)]
    out += [b for b in alone if not any(overlap(b, r) > 0 for r in [*out, *regions])]
    return across_gutters(list(dict.fromkeys(out)), columns)


def _column_parts(lines: Sequence[TextLine], gutters: Sequence[float], tol: float = 2.0) -> list[list[TextLine]]:
    """The lines of each of the page's columns: those between two gutters, none across one."""
    xs = [-1e9, *gutters, 1e9]
    return [[ln for ln in lines if a - tol <= ln.bbox[0] and ln.bbox[2] <= b + tol] for a, b in zip(xs, xs[1:], strict=False)]


def _read_apart(region: BBox, lines: Sequence[TextLine], gutters: Sequence[float],
                pictures: Sequence[BBox], min_rows: int, tol: float = 2.0,
                words_of: WordsOf | None = None) -> list[BBox] | None:
    """The regions of the page's columns (the lines between its gutters, none across one) that
    overlap `region`, when it runs over a gutter with running text inside it on a side; None
    (keep it) when it does not: a table over the full width has short cells on both sides.
    Running text on every side and no region in any column: two columns of prose, no table."""
    if not any(region[0] < g - tol and g + tol < region[2] for g in gutters):
        return None
    parts = _column_parts(lines, gutters, tol)
    held = [[ln for ln in part if overlap(region, ln.bbox) > 0] for part in parts]
    prose = [sum(running(ln) for ln in h) for h in held]
    if not any(n >= 2 and _sentences(h) for n, h in zip(prose, held, strict=True)):
        return None  # long row labels fill their column too, but no sentence ends in them
    sides = [[b for b in aligned_regions(part, min_rows, pictures, words_of)[0] if overlap(region, b) > 0]
             for part in parts]
    if _level_halves(sides, parts):
        return None  # one table over the gutter, its long labels on one side: read whole
    found = [b for side in sides for b in side]
    if found or all(n >= max(2, 0.5 * len(h)) for n, h in zip(prose, held, strict=True) if h):
        return found
    return None


_SENTENCE_END = re.compile(r"\w[.!?。](?:\s|$)")


def _sentences(lines: Sequence[TextLine]) -> bool:
    """Whether a sentence ends in these lines (prose does; a column of labels does not, nor a
    table's caption over them: 'Tabelle 1. Wartungsplan' numbers the table, it ends nothing)."""
    return any(_SENTENCE_END.search(ln.text) and not is_caption(ln.text) for ln in lines)


def _level_halves(sides: Sequence[Sequence[BBox]], parts: Sequence[Sequence[TextLine]],
                  share: float = 0.5) -> bool:
    """Whether regions found in two of the page's columns stand level (the shorter one's
    height mostly beside the other) and so do their rows (`_level_rows`): the halves of one
    table, not a table beside prose, nor two tables each in its own column."""
    for i, left in enumerate(sides):
        for j, right in enumerate(sides[i + 1:], i + 1):
            for a in left:
                for b in right:
                    shared = min(a[3], b[3]) - max(a[1], b[1])
                    if (shared >= share * min(a[3] - a[1], b[3] - b[1]) > 0
                            and _level_rows(_inside(parts[i], a), _inside(parts[j], b), share)):
                        return True
    return False


def _inside(lines: Sequence[TextLine], box: BBox) -> list[TextLine]:
    return [ln for ln in lines if centre_in(ln.bbox, box)]


def _level_rows(left: Sequence[TextLine], right: Sequence[TextLine], share: float) -> bool:
    """Whether most lines of the side with fewer lines have a line of the other side level
    with them (middles within a quarter of their height): one table's rows run across the
    gutter; two tables set each in its own column keep their own row pitches and tops."""
    fewer, more = sorted((left, right), key=len)
    mids = [(ln.bbox[1] + ln.bbox[3]) / 2 for ln in more]
    level = sum(any(abs((ln.bbox[1] + ln.bbox[3]) / 2 - m) <= 0.25 * (ln.bbox[3] - ln.bbox[1]) for m in mids)
                for ln in fewer)
    return level >= share * len(fewer)
