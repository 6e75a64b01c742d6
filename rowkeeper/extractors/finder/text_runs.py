"""Aligned text runs: rows of text whose segments line up in columns, as a borderless table
prints (the page-features pass that finds candidate regions without rules).

Pure geometry over a page's text lines (and its picture boxes); a run is closed where a gap,
larger print, a heading or a change of column set ends it, and kept when its rows share at
least two column edges.
"""

from __future__ import annotations

import functools
import re
import statistics
from bisect import bisect_left, bisect_right
from collections.abc import Sequence

from rowkeeper.boxes import bounds, overlap
from rowkeeper.caption_text import is_caption
from rowkeeper.extractors.finder.bold_keys import split_bold_key
from rowkeeper.extractors.finder.field_lines import WordsOf, split_at_columns
from rowkeeper.extractors.finder.field_rows import (
    cut_level_rows,
    field_rows,
    figure_values,
    is_key,
    level_fields,
)
from rowkeeper.extractors.finder.run_heads import (
    HEADING_BOLD,
    caption_row,
    header_lines,
    prose_segment,
)
from rowkeeper.extractors.finder.running_text import (
    SENTENCE_END,
    headings_over,
    is_numeric,
    running_text,
)
from rowkeeper.extractors.finder.spaced_columns import PageWords, cut_label_lines, figure_parts
from rowkeeper.extractors.finder.stacked_runs import (
    REMARK_LINES,
    header_after_body,
    header_again,
    header_apart,
    in_one_column,
    split_at_column_change,
)
from rowkeeper.models import BBox, TextLine
from rowkeeper.page_columns import across_gutters, text_columns, text_rows, units

CAPTION_CHARS = 120
"""Characters a caption line under or over a run may have (a sentence that opens like one is
longer)."""
WIDE_GAP = re.compile(r"\s{2,}|\.{4,}")
"""Where a line printed as one string splits into segments (a monospace report's columns)."""


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
    return len(row) == 2 and any(len(t.text) <= 25 or is_numeric(t.text) or not prose_segment(t) for t in row)


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


def keyed_rows(run: Sequence[Sequence[TextLine]], tol: float = 3.0) -> list[list[TextLine]]:
    """The run's rows as a table's rows: a row that starts right of the run's left edge (its
    key cell empty) is the wrapped lines of the row above it (a description over three lines,
    its amounts on the last: `Bay Point plant 4206 | Delivery of the` over `old parts | 223,687`),
    so the key and the amounts of one row count as one row's edges. A row that a list marker
    starts (`•`, `ｲ`, `1.`: a key of three characters or fewer) keeps its lines apart: a bulleted
    paragraph's hanging lines are no record's."""
    left = min((t.bbox[0] for row in run for t in row), default=0.0)
    out: list[list[TextLine]] = []
    for row in run:
        key = min(out[-1], key=lambda t: t.bbox[0]) if out else None
        if key is not None and min(t.bbox[0] for t in row) > left + tol and key.bbox[0] <= left + tol \
                and len(key.text.strip()) >= 4:
            out[-1] = [*out[-1], *row]
        else:
            out.append(list(row))
    return out


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
        columns = text_columns(lines)
        # a band of the page read across whose row prints a line over the gutter beside other
        # cells (a full-width table's header) is no column's: split at the gutter, the table
        # falls in halves, and the half the line starts in loses it as a caption's sentence
        bands = [b for b in columns.boxes if any(b[0] < m < b[2] for m in columns.gutters)
                 and _row_across(lines, b, gutter)] if columns.multi else []
        whole = [any(_in_band(ln, b) for b in bands) for ln in lines]
        across = [ln for ln, w in zip(lines, whole, strict=True) if w]
        split = [ln for ln, w in zip(lines, whole, strict=True) if not w]
        left = _aligned_regions([ln for ln in split if ln.bbox[0] < gutter], min_rows, pictures, words_of)
        wide = _aligned_regions(across, min_rows, pictures, words_of) if across else ([], 0, 0)
        if left[0] or wide[0]:
            right = _aligned_regions([ln for ln in split if ln.bbox[0] >= gutter], min_rows, pictures, words_of)
            found = [*left[0], *right[0], *wide[0]]
            # a table across the gutter, its rows level on both sides, is one table
            return across_gutters(found, columns), left[1] + right[1] + wide[1], left[2] + right[2] + wide[2]
    return _column_regions(lines, min_rows, pictures, words_of)


def _in_band(line: TextLine, band: BBox) -> bool:
    """Whether a line's middle lies in a band of the page (`page_columns` boxes)."""
    return band[1] <= (line.bbox[1] + line.bbox[3]) / 2 <= band[3]


def _row_across(lines: Sequence[TextLine], band: BBox, gutter: float) -> bool:
    """Whether a row of the band holds a line over `gutter` and other lines beside it (a
    header's labels printed as one line across; a title over the page stands alone, and two
    tables level in their own columns print no line across)."""
    rows = text_rows([ln for ln in lines if _in_band(ln, band)])
    return any(len(row) > 1 and any(ln.bbox[0] < gutter - 2 < ln.bbox[2] for ln in row) for row in rows)


def _gutter(lines: Sequence[TextLine], min_lines: int = 8) -> float | None:
    """x just left of a page column of running text: at least `min_lines` prose lines start
    there, at most two lines (a running head) cross it and `min_lines` lines end before it."""
    prose = [ln for ln in lines if prose_segment(ln)]
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
    column gaps has short cells on both sides). Lengths in `page_columns.units`: a CJK
    character is as wide as two Latin ones, and a column of Japanese prose holds ~23 a line.
    Counted by the column's rows, not its segments: a table in the column prints several
    segments a row, and would outweigh the paragraph under it that makes the column's text."""
    rows = _text_rows(lines)
    return sum(any(units(ln.text) >= min_chars for ln in row) for row in rows) >= share * len(rows)


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
    words = PageWords(words_of, kept)
    close = functools.partial(_close_with_tail, words_of=words_of)
    segs = [fig for key in keyed for seg in _split_wide_gaps(key) for fig in figure_parts(seg, words)]
    rows = _text_rows(cut_label_lines(segs, words))
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
            regions, n_rows, n_num = close(run, tail, min_rows, regions, n_rows, n_num, cuts, headed)
            run, bridged = [], 0
        if ok and run and _larger_print(row, run):
            # a section heading ("3.3  Measuring Financial Literacy") printed larger than the
            # table under or above it: a table's rows share one type size
            regions, n_rows, n_num = close(run, tail, min_rows, regions, n_rows, n_num, cuts, headed,
                                                      row)
            run, bridged, loose = [], 0, False
        if ok:
            if loose and not is_numeric(row[0].text):
                # heading after a gap, then a header row: the next stacked table starts here
                regions, n_rows, n_num = close(run, tail, min_rows, regions, n_rows, n_num, cuts, headed)
                run = []
            if not run:
                run, cuts, headed = [[t] for t in header_lines(above, row)], [], []
            elif bridged or header_after_body(run, row):
                cuts.append(len(run))
                headed += [len(run)] if (header_again(run, row) if bridged else header_apart(run, row)) else []
            run.append(row)
            bottom, bridged, bridge_top, loose = _row_bottom(row, pictures), 0, row[0].bbox[1], False
            above, tail = [], []
            continue
        near = bool(row) and _within_pitch(run, bridge_top, row[0].bbox[1], 1.5)
        far = bool(row) and _within_pitch(run, bridge_top, row[0].bbox[1], 3.0)
        stub = bool(row) and bool(run) and _in_first_column(run, row[0])
        in_cell = near and len(row) == 1 and (in_one_column(run, row[0]) or _under_cell(run, row[0]))
        if run and (near or far) and bridged < (REMARK_LINES if in_cell else 2) and len(row) == 1 \
                and (len(row[0].text) <= 40 or stub or in_cell) and not _larger_print(row, run, HEADING_BOLD) \
                and not _runs_out(row[0], run):
            # a wrapped label ("Investigative Matters / Received by AUSAs") or a group label
            # ("Projected") sits between rows of a table without ending it; it is set in the
            # table's type, a caption between two stacked tables in larger print
            bottom, bridged, bridge_top = max(bottom, row[0].bbox[3]), bridged + 1, row[0].bbox[1]
            loose, tail = loose or not (near or stub), tail + row
            continue
        regions, n_rows, n_num = close(run, tail, min_rows, regions, n_rows, n_num, cuts, headed,
                                                  row)
        run, bridged, tail = [], 0, []
        above = above + row if len(row) == 1 else []
    return regions, n_rows, n_num


def _close_with_tail(run: list[list[TextLine]], tail: Sequence[TextLine], min_rows: int, regions: list[BBox],
                     n_rows: int, n_num: int, cuts: Sequence[int],
                     headed: Sequence[int] = (), after: Sequence[TextLine] = (),
                     words_of: WordsOf | None = None) -> tuple[list[BBox], int, int]:
    """`_close_run`, its last region reaching down over the run's last row's wrapped lines
    (`_cell_tail`). They extend a table the run makes; they count for no row of it, or a
    bulleted list of two items, each wrapped once, would make a table of three rows. `after`:
    the row that ended the run, when one did (a caption under it names it a table)."""
    kept = len(regions)
    under = [*tail, *after][:1]
    captioned = bool(under) and len(under[0].text) <= CAPTION_CHARS and is_caption(under[0].text)
    regions, n_rows, n_num = _close_run(run, min_rows, regions, n_rows, n_num, cuts, headed, captioned, words_of)
    extra = _cell_tail(run, tail)
    if extra and len(regions) > kept and abs(regions[-1][3] - max(t.bbox[3] for t in run[-1])) <= 1.0:
        regions = [*regions[:-1], bounds([regions[-1], *(t.bbox for t in extra)])]
    return regions, n_rows, n_num


def _cell_tail(run: Sequence[Sequence[TextLine]], tail: Sequence[TextLine], tol: float = 3.0) -> list[TextLine]:
    """The lines after the run's last aligned row that are its cells' wrapped lines (a slide's
    last bullet items under the first): each starts on the left edge of a cell of that row other
    than its first, ends before the next cell, and follows the line over it in the same column
    at a line's leading, in a row of three cells or more, or of a form's key (bold, or ending
    in a colon, or a pair of a row of two pairs, `_block_pair`) and its value (a block of fields'
    last value wrapped: `Oak Hill 53` / `52757 Lakeside`, `熊本 10` / `38242 岡山`). A note
    under the table starts at its left edge or runs across columns; a bulleted list's items
    wrap the same way, beside marks."""
    # two plain segments: a bulleted list's marks and items, two text columns
    if not run or len(run[-1]) < 3 and not (len(run[-1]) == 2 and (
            is_key(min(run[-1], key=lambda t: t.bbox[0])) or _block_pair(run) or _keyed_pair(run))):
        return []
    last = _record_cells(run, tol)
    over = {i: t for i, t in enumerate(last)}
    out: list[TextLine] = []
    for t in tail:
        col = next((i for i, c in enumerate(last) if i > 0 and abs(c.bbox[0] - t.bbox[0]) <= tol), None)
        if col is None and is_numeric(t.text) and t.bbox[0] > last[-1].bbox[0] \
                and t.bbox[1] < max(c.bbox[3] for c in over.values()):
            out.append(t)  # the record's amount, set level with the middle of its wrapped lines
            continue
        if col is None or (col + 1 < len(last) and t.bbox[2] > last[col + 1].bbox[0]):
            break
        height = over[col].bbox[3] - over[col].bbox[1]
        if not 0.5 * height <= t.bbox[1] - over[col].bbox[1] <= 1.5 * height:
            break
        over[col] = t
        out.append(t)
    return out


def _record_cells(run: Sequence[Sequence[TextLine]], tol: float) -> list[TextLine]:
    """The run's last row left to right, or, where that row is a wrapped line of the record
    over it (`keyed_rows`: it starts right of the run's left edge), the record's lowest line in
    each of its columns: a tail under the record's last wrapped line (`を含む）` under
    `正（部品代及び作業費 | 975,781`) continues the description column, the record's second."""
    record = keyed_rows(run, tol)[-1]
    if len(record) == len(run[-1]):
        return sorted(run[-1], key=lambda t: t.bbox[0])
    cols: list[TextLine] = []
    for t in sorted(record, key=lambda t: (t.bbox[0], -t.bbox[1])):
        if not cols or abs(t.bbox[0] - cols[-1].bbox[0]) > tol:
            cols.append(t)
    return cols


def _under_cell(run: Sequence[Sequence[TextLine]], line: TextLine, tol: float = 3.0) -> bool:
    """Whether a line is a wrapped line of a cell of the run's last row (a description over
    three lines beside its key, in the table's first rows, before `in_one_column` has rows
    enough to see its columns, or beside a key alone, its amount set level with its middle
    line): it starts on the left edge of a cell other than the first and ends before the next
    cell starts. A row of two cells whose first is a list marker (`•`, `1.`) is a list's item."""
    last = sorted(run[-1], key=lambda t: t.bbox[0]) if run else []
    if len(last) < 2 or len(last) == 2 and len(last[0].text.strip()) < 4:
        return False
    for i, c in enumerate(last[1:], start=1):
        if abs(c.bbox[0] - line.bbox[0]) <= tol:
            return i + 1 == len(last) or line.bbox[2] < last[i + 1].bbox[0]
    return False


def _keyed_pair(run: Sequence[Sequence[TextLine]]) -> bool:
    """Whether the run's last row, two segments, is a record's key and the first line of its
    wrapped description in a table of three columns or more (its amounts on a later line): no
    list marker first, and a row of the run holds three segments."""
    first = min(run[-1], key=lambda t: t.bbox[0])
    return len(first.text.strip()) >= 4 and any(len(r) >= 3 for r in run)


def _block_pair(run: Sequence[Sequence[TextLine]], tol: float = 3.0) -> bool:
    """Whether the run's last row, two segments, is the first key and value of rows of two
    pairs over it (blocks of fields side by side, the left one the longer): each segment starts
    where the same segment of every row of four over it starts."""
    wide = [sorted(r, key=lambda t: t.bbox[0]) for r in run[:-1] if len(r) == 4]
    last = sorted(run[-1], key=lambda t: t.bbox[0])
    return bool(wide) and all(abs(r[i].bbox[0] - last[i].bbox[0]) <= tol for r in wide for i in (0, 1))


def _runs_out(line: TextLine, run: Sequence[Sequence[TextLine]], tol: float = 3.0) -> bool:
    """Whether a single line is a sentence run out of the table: it starts on the run's left edge,
    ends past the right edge of the row over it and ends a sentence ("本節では主な結果をまとめ、
    前年度と比較する。" between two tables: 22 characters, as wide as 44 letters). A wrapped
    label stays in its column, a group label ends no sentence, a paragraph beside the table
    starts right of it."""
    aligned = [r for r in run if len(r) > 1]  # a caption line over the rows aside
    if not aligned or line.text.rstrip()[-1:] not in SENTENCE_END:
        return False
    left = min(t.bbox[0] for r in aligned for t in r)
    return line.bbox[0] <= left + tol and line.bbox[2] > max(t.bbox[2] for t in aligned[-1]) + tol


def _row_bottom(row: Sequence[TextLine], pictures: Sequence[BBox]) -> float:
    """The bottom of a row's text, or of a picture whose top is level with it (a thumbnail
    in a picture column), whichever is lower."""
    top, bottom = min(t.bbox[1] for t in row), max(t.bbox[3] for t in row)
    level = [p[3] for p in pictures if top - (bottom - top) <= p[1] <= bottom]
    return max([bottom, *level])


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


def _close_run(run: list[list[TextLine]], min_rows: int, regions: list[BBox], n_rows: int,
               n_num: int, cuts: Sequence[int] = (), headed: Sequence[int] = (),
               captioned: bool = False, words_of: WordsOf | None = None) -> tuple[list[BBox], int, int]:
    """The regions with the run's, one per table stacked in it (`stacked_runs`); `captioned`:
    a caption stands right under the run (its last part's)."""
    parts = split_at_column_change(run, cuts, min_rows, headed, lambda rows: len(keyed_rows(rows)))
    for i, part in enumerate(parts):
        regions, n_rows, n_num = _close_one(part, min_rows, regions, n_rows, n_num, captioned and i == len(parts) - 1,
                                            words_of)
    return regions, n_rows, n_num


def _close_one(run: list[list[TextLine]], min_rows: int, regions: list[BBox], n_rows: int,
               n_num: int, captioned: bool = False, words_of: WordsOf | None = None) -> tuple[list[BBox], int, int]:
    while len(run) > 1 and caption_row(run[0], run[1:]):
        run = run[1:]
    lead = next((i for i, row in enumerate(run) if len(row) > 1), len(run))  # header lines
    captioned = captioned or any(len(row) == 1 and is_caption(row[0].text) for row in run[:lead])
    if len(run) - lead < min_rows:
        fields = _set_across(run[lead:], captioned, words_of)
        if fields is None:
            return regions, n_rows, n_num
        run, lead = fields, 0  # fields set across have no header: a line over them is a caption's
    keyed = keyed_rows(run[lead:])  # records of wrapped lines: as many as a table's rows at least
    if max(_anchors(run[lead:]), _anchors(keyed) if len(keyed) >= min_rows else 0) < 2:
        return regions, n_rows, n_num
    flat = [t for row in run for t in row]
    return regions + [bounds(t.bbox for t in flat)], n_rows + len(run), n_num + sum(is_numeric(t.text) for t in flat)


def _set_across(rows: Sequence[Sequence[TextLine]], captioned: bool,
                words_of: WordsOf | None) -> list[list[TextLine]] | None:
    """The rows of a run too short for a table as rows of fields set across (`field_rows`),
    two of them cut where their fields start (`cut_level_rows`); None when they are not: plain
    rows need a caption beside them or a figure among their values."""
    if len(rows) < 2:
        return None
    if field_rows(rows) or (captioned or figure_values(rows)) and level_fields(rows):
        return [list(r) for r in rows]
    cut = cut_level_rows(rows, words_of) if len(rows) == 2 else []
    return cut if cut and (captioned or figure_values(cut)) and level_fields(cut) else None
