"""Aligned text runs: rows of text whose segments line up in columns, as a borderless table
prints (the page-features pass that finds candidate regions without rules).

Pure geometry over a page's text lines (and its picture boxes); a run is closed where a gap,
larger print, a heading or a change of column set ends it, and kept when its rows share at
least two column edges.
"""

from __future__ import annotations

import re
import statistics
from bisect import bisect_left, bisect_right
from collections.abc import Sequence

from rowkeeper.boxes import bounds, overlap
from rowkeeper.extractors.finder.bold_keys import split_bold_key
from rowkeeper.extractors.finder.close_figures import split_row_figures
from rowkeeper.extractors.finder.field_lines import WordsOf, split_at_columns
from rowkeeper.extractors.finder.running_text import headings_over, is_numeric, running_text
from rowkeeper.extractors.finder.stacked_runs import (
    REMARK_LINES,
    header_after_body,
    header_again,
    in_one_column,
    split_at_column_change,
)
from rowkeeper.models import BBox, TextLine
from rowkeeper.page_columns import across_gutters, text_columns, text_rows

CLAUSE_END = ".:;。：；"
"""How a line ending a clause ends: a sentence over a table, no line of its header."""
WIDE_GAP = re.compile(r"\s{2,}|\.{4,}")
"""Where a line printed as one string splits into segments (a monospace report's columns)."""
HEADER_CHARS = 40
"""Characters a line over a table's first row may have to be a line of its header."""
HEADING_BOLD = 1.15
"""Times the first row's type size a bold line over a table is printed at to be a heading
(the size that ends a run of rows at a heading between stacked tables, too)."""
SUBSECTION = re.compile(r"\d+(?:\.\d+)+\.?\s+[^\W\d_]")
"""A sub-section's number opening a line ("2.1 Costs", "3.2.1. Hinweise"): a heading's, where a
caption names its table first ("Table 2.1") and a figure has no word after it."""


def _split_wide_gaps(line: TextLine) -> list[TextLine]:
    """A line printed as one string with runs of spaces (monospace reports) as its segments,
    x estimated from character offsets."""
    parts = [(m.start(), m.end()) for m in re.finditer(r"(?:(?!\s{2,}|\.{4,}).)+", line.text)]
    if len(parts) < 2 or not WIDE_GAP.search(line.text):
        return [line]
    x0, y0, x1, y1 = line.bbox
    per_char = (x1 - x0) / max(len(line.text), 1)
    return [line.model_copy(update={"text": line.text[a:b].strip(),
                                    "bbox": (x0 + a * per_char, y0, x0 + b * per_char, y1)})
            for a, b in parts if line.text[a:b].strip()]


def _text_rows(lines: Sequence[TextLine]) -> list[list[TextLine]]:
    """Lines grouped into visual rows (`page_columns.text_rows`), each row left to right."""
    return [sorted(r, key=lambda t: t.bbox[0]) for r in text_rows(lines)]


def _table_like(row: Sequence[TextLine]) -> bool:
    # Two-column prose also gives two segments per row; cells are short or numeric.
    if len(row) >= 3:
        return True
    # a label beside a sentence (an assumptions table's "18- to 24-year-old population" |
    # "Census Bureau projection: ...") is a row too: one segment is no running text
    return len(row) == 2 and any(len(t.text) <= 25 or is_numeric(t.text) or not _prose(t) for t in row)


def _edges(t: TextLine) -> tuple[float, ...]:
    """The left and right edges of a segment as it may align: a negative in parentheses,
    '(106,870)', hangs its ')' right of the column's right-aligned figures in some statements
    and ends flush with them in others, so it offers both right edges."""
    if t.text.endswith(")") and t.text.startswith("(") and is_numeric(t.text):
        return t.bbox[0], t.bbox[2] - (t.bbox[2] - t.bbox[0]) / len(t.text), t.bbox[2]
    return t.bbox[0], t.bbox[2]


def _anchors(run: Sequence[Sequence[TextLine]], tol: float = 3.0) -> int:
    """How many x positions (left or right edges) are shared by >= 60% of the run's rows."""
    per_row = [sorted(e for t in row for e in _edges(t)) for row in run]
    edges = sorted({round(e) for row in per_row for e in row})
    need = max(min(3, len(run)), int(0.6 * len(run) + 0.999))  # two rows: both (fields set across)
    n, last = 0, -1e9
    for x in edges:
        if x - last <= tol * 2:
            continue
        # a row's edges within tol of x are among those within 2 tol (sorted: found by bisection)
        hits = sum(any(abs(e - x) <= tol for e in _within(row, x, 2 * tol)) for row in per_row)
        if hits >= need:
            n, last = n + 1, x
    return n


def _within(xs: Sequence[float], x: float, by: float) -> Sequence[float]:
    """The values of sorted `xs` from x - by to x + by."""
    return xs[bisect_left(xs, x - by):bisect_right(xs, x + by)]


def aligned_regions(lines: Sequence[TextLine], min_rows: int = 3, pictures: Sequence[BBox] = (),
                    words_of: WordsOf | None = None) -> tuple[list[BBox], int, int]:
    """Boxes of runs of rows whose text segments line up in >= 2 columns, rows, numeric cells.

    On a page set in columns of prose, a table in one column would take the running text of
    the other into its rows (level with them, or between them, ending the run). Two readings
    guard against it: a gutter where prose lines start with the columns left of it holding a
    table by themselves (those columns read apart), else each page column read on its own.
    `pictures` (image boxes) level with a row make it as tall as they are: rows of thumbnails
    stand far apart, their text lines do not."""
    gutter = _gutter(lines)
    if gutter is not None:
        left = _aligned_regions([ln for ln in lines if ln.bbox[0] < gutter], min_rows, pictures, words_of)
        if left[0]:
            right = _aligned_regions([ln for ln in lines if ln.bbox[0] >= gutter], min_rows, pictures, words_of)
            # a table across the gutter, its rows level on both sides, is one table
            return across_gutters(left[0] + right[0], text_columns(lines)), left[1] + right[1], left[2] + right[2]
    return _column_regions(lines, min_rows, pictures, words_of)


def _gutter(lines: Sequence[TextLine], min_lines: int = 8) -> float | None:
    """x just left of a page column of running text: at least `min_lines` prose lines start
    there, at most two lines (a running head) cross it and `min_lines` lines end before it."""
    prose = [ln for ln in lines if _prose(ln)]
    starts = sorted({round(ln.bbox[0]) for ln in prose})
    for x in starts:
        at = sum(1 for ln in prose if abs(ln.bbox[0] - x) <= 2)
        if at < min_lines:
            continue
        edge = x - 2
        crossing = sum(1 for ln in lines if ln.bbox[0] < edge - 2 and ln.bbox[2] > edge)
        before = sum(1 for ln in lines if ln.bbox[2] <= edge)
        if crossing <= 2 and before >= min_lines:
            return edge
    return None


def _column_regions(lines: Sequence[TextLine], min_rows: int, pictures: Sequence[BBox] = (),
                    words_of: WordsOf | None = None) -> tuple[list[BBox], int, int]:
    """Aligned regions with each column of a page set in columns of prose also read on its own:
    a table in one column sits level with the other column's prose, whose lines would cut its
    run of rows apart."""
    regions, n_rows, n_num = [], 0, 0
    for part in page_columns(lines):
        more, rows, num = _aligned_regions(part, min_rows, pictures, words_of)
        regions, n_rows, n_num = regions + more, n_rows + rows, n_num + num
    whole, rows, num = _aligned_regions(lines, min_rows, pictures, words_of)
    # a run across the gutter that overlaps a column's table is that table's rows level
    # with the other column's prose
    kept = [b for b in whole if not any(overlap(b, r) > 0 for r in regions)]
    if kept or not regions:
        regions, n_rows, n_num = regions + kept, n_rows + rows, n_num + num
    return regions, n_rows, n_num


def page_columns(lines: Sequence[TextLine], min_gap: float = 8.0, min_share: float = 0.2) -> list[list[TextLine]]:
    """The lines of each column of a page set in columns of prose ([] when it is not): split
    at the gutters no line crosses (titles spanning the columns aside), each side holding at
    least `min_share` of the lines, running text among them."""
    if len(lines) < 10:
        return []
    left, right = min(ln.bbox[0] for ln in lines), max(ln.bbox[2] for ln in lines)
    narrow = [ln for ln in lines if ln.bbox[2] - ln.bbox[0] < 0.6 * (right - left)]
    spans = sorted((ln.bbox[0], ln.bbox[2]) for ln in narrow)
    cuts, end = [], spans[0][1] if spans else right
    for x0, x1 in spans[1:]:
        if x0 - end >= min_gap:
            cuts.append((x0 + end) / 2)
        end = max(end, x1)
    bounds = [-1e9, *cuts, 1e9]
    parts = [[ln for ln in narrow if a <= (ln.bbox[0] + ln.bbox[2]) / 2 < b]
             for a, b in zip(bounds, bounds[1:], strict=False)]
    if len(parts) < 2 or any(len(p) < min_share * len(lines) or not _prose_column(p) for p in parts):
        return []
    return parts


def _prose_column(lines: Sequence[TextLine], min_chars: int = 30, share: float = 0.3) -> bool:
    """Whether a page column reads as running text (a page-wide table split at one of its
    column gaps has short cells on both sides)."""
    return sum(len(ln.text) >= min_chars for ln in lines) >= share * len(lines)



def _aligned_regions(lines: Sequence[TextLine], min_rows: int, pictures: Sequence[BBox] = (),
                     words_of: WordsOf | None = None) -> tuple[list[BBox], int, int]:
    # a typed rule ("-----") under a header must not cut the run of aligned rows in two
    kept = [ln for ln in lines if ln.text.strip("-_=─—. ")]
    # a paragraph set beside the table shares its heights: its lines are no cells of its rows
    blocks = running_text(kept)
    beside = {id(ln) for block in blocks for ln in [*block, *headings_over(kept, block)]}
    kept = [ln for ln in kept if id(ln) not in beside]
    starts = sorted(ln.bbox[0] for ln in kept)
    keyed = split_at_columns([key for ln in kept for key in split_bold_key(ln, starts)], words_of)
    rows = _text_rows([fig for key in keyed for seg in _split_wide_gaps(key) for fig in split_row_figures(seg)])
    heights = [r[0].bbox[3] - r[0].bbox[1] for r in rows] or [10.0]
    gap_max = 2.5 * statistics.median(heights) + 4
    regions, n_rows, n_num = [], 0, 0
    run: list[list[TextLine]] = []
    bottom, bridged, bridge_top, loose = 0.0, 0, 0.0, False
    above: list[TextLine] = []  # the single lines just above, outside any run
    cuts: list[int] = []  # rows of the run that follow a bridged line (a next table may start there)
    headed: list[int] = []  # those of them that are a header row under the body (a caption between)
    tail: list[TextLine] = []  # the single lines bridged since the run's last aligned row
    for row in rows + [[]]:
        ok = bool(row) and _table_like(row)
        if row and run and row[0].bbox[1] - bottom > gap_max:
            regions, n_rows, n_num = _close_with_tail(run, tail, min_rows, regions, n_rows, n_num, cuts, headed)
            run, bridged = [], 0
        if ok and run and _larger_print(row, run):
            # a section heading ("3.3  Measuring Financial Literacy") printed larger than the
            # table under or above it: a table's rows share one type size
            regions, n_rows, n_num = _close_with_tail(run, tail, min_rows, regions, n_rows, n_num, cuts, headed)
            run, bridged, loose = [], 0, False
        if ok:
            if loose and not is_numeric(row[0].text):
                # heading after a gap, then a header row: the next stacked table starts here
                regions, n_rows, n_num = _close_with_tail(run, tail, min_rows, regions, n_rows, n_num, cuts, headed)
                run = []
            if not run:
                run, cuts, headed = [[t] for t in _header_lines(above, row)], [], []
            elif bridged or header_after_body(run, row):
                cuts.append(len(run))
                headed += [len(run)] if bridged and header_again(run, row) else []
            run.append(row)
            bottom, bridged, bridge_top, loose = _row_bottom(row, pictures), 0, row[0].bbox[1], False
            above, tail = [], []
            continue
        near = bool(row) and _within_pitch(run, bridge_top, row[0].bbox[1], 1.5)
        far = bool(row) and _within_pitch(run, bridge_top, row[0].bbox[1], 3.0)
        stub = bool(row) and bool(run) and _in_first_column(run, row[0])
        in_cell = near and len(row) == 1 and in_one_column(run, row[0])
        if run and (near or far) and bridged < (REMARK_LINES if in_cell else 2) and len(row) == 1 \
                and (len(row[0].text) <= 40 or stub or in_cell) and not _larger_print(row, run, HEADING_BOLD):
            # a wrapped label ("Investigative Matters / Received by AUSAs") or a group label
            # ("Projected") sits between rows of a table without ending it; it is set in the
            # table's type, a caption between two stacked tables in larger print
            bottom, bridged, bridge_top = max(bottom, row[0].bbox[3]), bridged + 1, row[0].bbox[1]
            loose, tail = loose or not (near or stub), tail + row
            continue
        regions, n_rows, n_num = _close_with_tail(run, tail, min_rows, regions, n_rows, n_num, cuts, headed)
        run, bridged, tail = [], 0, []
        above = above + row if len(row) == 1 else []
    return regions, n_rows, n_num


def _close_with_tail(run: list[list[TextLine]], tail: Sequence[TextLine], min_rows: int, regions: list[BBox],
                     n_rows: int, n_num: int, cuts: Sequence[int],
                     headed: Sequence[int] = ()) -> tuple[list[BBox], int, int]:
    """`_close_run`, its last region reaching down over the run's last row's wrapped lines
    (`_cell_tail`). They extend a table the run makes; they count for no row of it, or a
    bulleted list of two items, each wrapped once, would make a table of three rows."""
    kept = len(regions)
    regions, n_rows, n_num = _close_run(run, min_rows, regions, n_rows, n_num, cuts, headed)
    extra = _cell_tail(run, tail)
    if extra and len(regions) > kept and abs(regions[-1][3] - max(t.bbox[3] for t in run[-1])) <= 1.0:
        regions = [*regions[:-1], bounds([regions[-1], *(t.bbox for t in extra)])]
    return regions, n_rows, n_num


def _cell_tail(run: Sequence[Sequence[TextLine]], tail: Sequence[TextLine], tol: float = 3.0) -> list[TextLine]:
    """The lines after the run's last aligned row that are its cells' wrapped lines (a slide's
    last bullet items under the first): each starts on the left edge of a cell of that row other
    than its first, ends before the next cell, and follows the line over it in the same column
    at a line's leading, in a row of three cells or more, or of a form's key (bold, or ending
    in a colon) and its value (a block of fields' last value wrapped: `Oak Hill 53` / `52757
    Lakeside`). A note under the table starts at its left edge or runs across columns; a
    bulleted list's items wrap the same way, beside marks."""
    # two plain segments: a bulleted list's marks and items, two text columns
    if not run or len(run[-1]) < 3 and not (len(run[-1]) == 2 and _key(min(run[-1], key=lambda t: t.bbox[0]))):
        return []
    last = sorted(run[-1], key=lambda t: t.bbox[0])
    over = {i: t for i, t in enumerate(last)}
    out: list[TextLine] = []
    for t in tail:
        col = next((i for i, c in enumerate(last) if i > 0 and abs(c.bbox[0] - t.bbox[0]) <= tol), None)
        if col is None or (col + 1 < len(last) and t.bbox[2] > last[col + 1].bbox[0]):
            break
        height = over[col].bbox[3] - over[col].bbox[1]
        if not 0.5 * height <= t.bbox[1] - over[col].bbox[1] <= 1.5 * height:
            break
        over[col] = t
        out.append(t)
    return out


def _row_bottom(row: Sequence[TextLine], pictures: Sequence[BBox]) -> float:
    """The bottom of a row's text, or of a picture whose top is level with it (a thumbnail
    in a picture column), whichever is lower."""
    top, bottom = min(t.bbox[1] for t in row), max(t.bbox[3] for t in row)
    level = [p[3] for p in pictures if top - (bottom - top) <= p[1] <= bottom]
    return max([bottom, *level])


def _header_lines(above: Sequence[TextLine], first: Sequence[TextLine]) -> list[TextLine]:
    """The single lines right above a table's first aligned row that belong to it: a column
    header over one column ("2016" over the figures), a unit line or a group label in the
    first column ("(all amounts in EUR)", "Class A"). Each sits within a line spacing of the
    line under it, starts with the first column or lines up with another column of `first`,
    is short, no sentence's end and no wrapped caption's last line; the first line that is not
    stops the search."""
    out: list[TextLine] = []
    below = first[0]
    lines = above[::-1]
    for i, t in enumerate(lines):
        height = below.bbox[3] - below.bbox[1]
        edges = any(abs(t.bbox[0] - c.bbox[0]) <= 3 or abs(t.bbox[2] - c.bbox[2]) <= 3 for c in first[1:])
        if (below.bbox[1] - t.bbox[1] > 2.5 * height or len(t.text) > HEADER_CHARS
                or t.text.rstrip()[-1:] in CLAUSE_END or _heading_over(t, first) or _wrapped_tail(t, lines[i + 1:i + 2], below, max(c.bbox[2] for c in first))
                or not (abs(t.bbox[0] - first[0].bbox[0]) <= 3 or edges)):
            break
        out.append(t)
        below = t
    return out[::-1]


def _wrapped_tail(t: TextLine, over: Sequence[TextLine], below: TextLine, right: float) -> bool:
    """Whether `t` is the last line of a caption wrapped over it ("Table 1 Quarterly figures by
    site, Headcount" / "and budget"): the line right over it starts where it starts, in its
    type, a line spacing up, is too long for a header line itself and runs no further than the
    table's right edge `right`; it was wrapped there (`t`'s first word would not have fitted),
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
    return (len(o.text) > HEADER_CHARS and abs(o.bbox[0] - t.bbox[0]) <= 1.0 and o.bold == t.bold
            and abs(o.font_size - t.font_size) <= 0.1 and 0 < spacing <= 1.6 * (t.bbox[3] - t.bbox[1])
            and o.bbox[2] - 3 <= right and wrapped)


def _heading_over(t: TextLine, first: Sequence[TextLine]) -> bool:
    """A heading over the table, not a line of its header: printed a quarter larger than the
    first row, or a sub-heading a little larger (`HEADING_BOLD`): unnumbered in bold ("Appendix"
    over a header in 8 pt), or numbered as a sub-section ("1.1 地域別売上", a face with no bold
    that sets headings apart by size alone). A line numbered otherwise in that type is the
    table's caption ("Bảng 1: ...", "Table 2"): the region keeps it, the caption pass takes it
    out (and it keeps a header row under it that `_caption_row` would take for a caption's
    sentence in the region's first row)."""
    sub = (t.bold and not any(ch.isdigit() for ch in t.text)) or bool(SUBSECTION.match(t.text.strip()))
    return t.font_size >= (HEADING_BOLD if sub else 1.25) * max(c.font_size for c in first)


def _within_pitch(run: Sequence[Sequence[TextLine]], last_top: float, top: float,
                  pitches: float) -> bool:
    """A line within the run's row pitch: a wrapped label or a group label ("Projected")
    inside the table, not a heading after a gap between two stacked tables."""
    tops = [r[0].bbox[1] for r in run]
    if not tops:
        return False
    if len(tops) < 2:  # no pitch yet: a line spacing at most
        height = run[-1][0].bbox[3] - run[-1][0].bbox[1]
        return top - last_top <= 2.5 * height * pitches / 1.5
    pitch = statistics.median(b - a for a, b in zip(tops, tops[1:], strict=False))
    return top - last_top < pitches * pitch


def _larger_print(row: Sequence[TextLine], run: Sequence[Sequence[TextLine]], ratio: float = 1.25) -> bool:
    """Every segment of `row` in a type at least `ratio` times larger than any of the run's (a
    header in small print over a body in normal print is no heading)."""
    return min(t.font_size for t in row) >= ratio * max(t.font_size for r in run for t in r)


def _in_first_column(run: Sequence[Sequence[TextLine]], label: TextLine, tol: float = 3.0) -> bool:
    """A label that starts where the run's first column starts and ends in the left half of the
    table: a row-group label ("Wealth index", "Highest enrollment after bachelor's degree by
    2003") after a wider gap inside the table. A heading of the next table stands elsewhere
    (centred over its columns), a paragraph runs across the table."""
    left = min(r[0].bbox[0] for r in run)
    right = max(t.bbox[2] for r in run for t in r)
    return abs(label.bbox[0] - left) <= tol and label.bbox[2] <= (left + right) / 2


def _prose(t: TextLine) -> bool:
    """A segment of running text: long, many words, not a number."""
    return len(t.text) > 40 and len(t.text.split()) >= 6 and not is_numeric(t.text)


def _caption_row(row: Sequence[TextLine], below: Sequence[Sequence[TextLine]]) -> bool:
    """A caption ("Table 15.  Actual and projected percentage changes in ...") printed as a
    label and a sentence looks like a two-column row: its sentence runs across two or more
    cells of a row below. A description in the last column of a table spans one cell. Header
    labels about a word space apart, printed as one line ("Árbevétel [Ft] Pontszám Szállítási
    idő [nap]" in a monospaced face, right-aligned), end flush with a cell of the row under
    them, and the next label stands after them (`_labels_line`)."""
    return any(_prose(t) and any(sum(t.bbox[0] + 1 < c.bbox[0] < t.bbox[2] for c in r[1:]) >= 2 for r in below)
               and not _labels_line(t, row, below[0]) for t in row)


def _labels_line(t: TextLine, row: Sequence[TextLine], under: Sequence[TextLine], tol: float = 1.0) -> bool:
    """Whether a long segment of a row is right-aligned header labels printed as one line:
    another segment of its row stands after it, and it ends where a cell of the row `under` it
    ends. A caption's sentence runs to its row's end, or ends anywhere (its start is no sign:
    a paragraph's lines all start at one margin)."""
    after = any(s.bbox[0] >= t.bbox[2] for s in row if s is not t)
    return after and any(abs(c.bbox[2] - t.bbox[2]) <= tol for c in under)


def _close_run(run: list[list[TextLine]], min_rows: int, regions: list[BBox], n_rows: int,
               n_num: int, cuts: Sequence[int] = (), headed: Sequence[int] = ()) -> tuple[list[BBox], int, int]:
    """The regions with the run's, one per table stacked in it (`stacked_runs`)."""
    for part in split_at_column_change(run, cuts, min_rows, headed):
        regions, n_rows, n_num = _close_one(part, min_rows, regions, n_rows, n_num)
    return regions, n_rows, n_num


def _field_rows(rows: Sequence[Sequence[TextLine]]) -> bool:
    """Whether rows read as fields set across (a form's "Phone | 127-5920 | Date | 976-9271"):
    each row four segments or more, its first a key (bold or colon-ended) and its others no
    keys, or its keys and values alternating. Two such rows are a table; two rows of plain
    segments are too few to tell one from text set level by chance."""
    for row in rows:
        keys = [_key(t) for t in row]
        if len(row) < 4 or not keys[0] or any(keys[1::2]):
            return False
        if any(keys[2::2]) and (len(row) % 2 or not all(keys[0::2])):
            return False
    return True


def _key(t: TextLine) -> bool:
    """Whether a segment is printed as a form's key: bold, or ending with a colon."""
    return t.bold or t.text.rstrip().endswith((":", "\uff1a"))


def _close_one(run: list[list[TextLine]], min_rows: int, regions: list[BBox], n_rows: int,
               n_num: int) -> tuple[list[BBox], int, int]:
    while len(run) > 1 and _caption_row(run[0], run[1:]):
        run = run[1:]
    lead = next((i for i, row in enumerate(run) if len(row) > 1), len(run))  # header lines
    if len(run) - lead < min_rows:
        if len(run) - lead < 2 or not _field_rows(run[lead:]):
            return regions, n_rows, n_num
        run, lead = run[lead:], 0  # fields set across have no header: a line over them is a caption's
    if _anchors(run[lead:]) < 2:
        return regions, n_rows, n_num
    flat = [t for row in run for t in row]
    return regions + [bounds(t.bbox for t in flat)], n_rows + len(run), n_num + sum(is_numeric(t.text) for t in flat)
