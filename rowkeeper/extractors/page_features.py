"""Cheap signals that a page holds a table: ruling grids and runs of aligned text columns.

Read from one page's text lines (already extracted) and its vector drawings, so the cascade
can tell "no table candidate on this page" for little more than the cost of get_text.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

import pymupdf

from rowkeeper.extractors.finder.boxed_cells import box_grids
from rowkeeper.extractors.finder.close_figures import split_figures
from rowkeeper.extractors.finder.short_tables import short_ruled_tables
from rowkeeper.extractors.finder.stacked_runs import split_at_column_change
from rowkeeper.extractors.finder.top_rule import under_top_rule
from rowkeeper.models import BBox, TextLine
from rowkeeper.page_columns import across_gutters, text_columns, text_rows

_RULE_MAX_THICKNESS = 3.0
_RULE_MIN_LENGTH = 8.0


@dataclass(frozen=True)
class PageFeatures:
    """What a page looks like to the cascade: rulings, aligned text columns, candidate regions."""

    page: int
    h_rules: int = 0
    v_rules: int = 0
    aligned_rows: int = 0
    """Text rows with >= 2 separate segments whose starts line up with other rows."""
    numeric_cells: int = 0
    ruled_regions: tuple[BBox, ...] = ()
    aligned_regions: tuple[BBox, ...] = ()

    @property
    def has_grid(self) -> bool:
        """Ruling lines that can form a table (>= 2 horizontal and >= 2 vertical, or 3 rules)."""
        return bool(self.ruled_regions)

    @property
    def has_aligned_columns(self) -> bool:
        """Rows of text lined up in >= 2 columns, as a borderless table prints."""
        return bool(self.aligned_regions)

    @property
    def candidate(self) -> bool:
        """Whether the page may hold a table at all (else extractors need not run)."""
        return self.has_grid or self.has_aligned_columns


def rules_of_page(page: pymupdf.Page) -> tuple[list[BBox], list[BBox]]:
    """Horizontal and vertical ruling segments (lines and thin rectangles, rect edges)."""
    hs: list[BBox] = []
    vs: list[BBox] = []
    for path in page.get_cdrawings():
        if invisible(path):
            continue
        for item in path["items"]:
            if item[0] == "l":
                (ax, ay), (bx, by) = item[1], item[2]
                _add_rule(hs, vs, (min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)))
            elif item[0] == "re":
                x0, y0, x1, y1 = item[1]
                r = (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
                if r[2] - r[0] <= _RULE_MAX_THICKNESS or r[3] - r[1] <= _RULE_MAX_THICKNESS:
                    _add_rule(hs, vs, r)
                elif path.get("type") != "f":  # stroked box: its four edges are rules
                    for e in ((r[0], r[1], r[2], r[1]), (r[0], r[3], r[2], r[3]),
                              (r[0], r[1], r[0], r[3]), (r[2], r[1], r[2], r[3])):
                        _add_rule(hs, vs, e)
    return hs, vs


def invisible(path: dict) -> bool:
    """A white shape with no stroke (a background patch on a white page): draws no rule."""
    fill = path.get("fill")
    return path.get("type") == "f" and fill is not None and min(fill) >= 0.95


def _add_rule(hs: list[BBox], vs: list[BBox], r: BBox) -> None:
    w, h = r[2] - r[0], r[3] - r[1]
    if w >= _RULE_MIN_LENGTH and h <= _RULE_MAX_THICKNESS:
        hs.append(r)
    elif h >= _RULE_MIN_LENGTH and w <= _RULE_MAX_THICKNESS:
        vs.append(r)


def ruled_regions(hs: Sequence[BBox], vs: Sequence[BBox], tol: float = 3.0) -> list[BBox]:
    """Boxes of clusters of touching rules that look like a table: rules at >= 3 heights
    crossed by >= 1 vertical rule (rows split by a column rule, frame or not), or >= 3
    vertical rules over 2 heights. A single framed box (a boxed note) is not a table."""
    boxes: list[list[float]] = []
    ys: list[set[int]] = []
    xs: list[set[int]] = []
    for kind, r in [(0, r) for r in hs] + [(1, r) for r in vs]:
        hit = [i for i, b in enumerate(boxes) if _touch(b, r, tol)]
        nb = list(r)
        ny = {round((r[1] + r[3]) / 2 / tol)} if kind == 0 else set()
        nx = {round((r[0] + r[2]) / 2 / tol)} if kind == 1 else set()
        for i in sorted(hit, reverse=True):
            b = boxes.pop(i)
            nb = [min(nb[0], b[0]), min(nb[1], b[1]), max(nb[2], b[2]), max(nb[3], b[3])]
            ny |= ys.pop(i)
            nx |= xs.pop(i)
        boxes.append(nb)
        ys.append(ny)
        xs.append(nx)
    return [
        (b[0], b[1], b[2], b[3]) for b, y, x in zip(boxes, ys, xs, strict=True)
        if ((len(y) >= 3 and len(x) >= 1) or (len(y) >= 2 and len(x) >= 3))
        and b[3] - b[1] > 10 and b[2] - b[0] > 30
    ]


def _touch(b: Sequence[float], r: BBox, tol: float) -> bool:
    return r[0] <= b[2] + tol and b[0] <= r[2] + tol and r[1] <= b[3] + tol and b[1] <= r[3] + tol


_NUMERIC = set("0123456789.,%()-−+$€¥£ ")


_NUMERIC_CHAR = re.compile("[" + re.escape("".join(sorted(_NUMERIC))) + "]")


def _is_numeric(text: str) -> bool:
    t = text.strip()
    # the share first: one regex pass, and it rules out prose, which most lines are
    if not t or len(_NUMERIC_CHAR.findall(t)) < 0.8 * len(t):
        return False
    return any(c.isdigit() for c in t)


_WIDE_GAP = re.compile(r"\s{2,}|\.{4,}")


def _split_wide_gaps(line: TextLine) -> list[TextLine]:
    """A line printed as one string with runs of spaces (monospace reports) as its segments,
    x estimated from character offsets."""
    parts = [(m.start(), m.end()) for m in re.finditer(r"(?:(?!\s{2,}|\.{4,}).)+", line.text)]
    if len(parts) < 2 or not _WIDE_GAP.search(line.text):
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
    return len(row) == 2 and any(len(t.text) <= 25 or _is_numeric(t.text) for t in row)


def _edge(t: TextLine, k: int) -> float:
    """Left (k=0) or right (k=2) edge of a segment as it aligns: a negative in parentheses,
    '(106,870)', hangs its ')' right of the column's right-aligned figures."""
    if k == 2 and t.text.endswith(")") and t.text.startswith("(") and _is_numeric(t.text):
        return t.bbox[2] - (t.bbox[2] - t.bbox[0]) / len(t.text)
    return t.bbox[k]


def _anchors(run: Sequence[Sequence[TextLine]], tol: float = 3.0) -> int:
    """How many x positions (left or right edges) are shared by >= 60% of the run's rows."""
    edges = sorted({round(_edge(t, k)) for row in run for t in row for k in (0, 2)})
    need = max(3, int(0.6 * len(run) + 0.999))
    n, last = 0, -1e9
    for x in edges:
        if x - last <= tol * 2:
            continue
        hits = sum(any(abs(_edge(t, k) - x) <= tol for t in row for k in (0, 2)) for row in run)
        if hits >= need:
            n, last = n + 1, x
    return n


def aligned_regions(lines: Sequence[TextLine], min_rows: int = 3,
                    pictures: Sequence[BBox] = ()) -> tuple[list[BBox], int, int]:
    """Boxes of runs of rows whose text segments line up in >= 2 columns, rows, numeric cells.

    On a page set in columns of prose, a table in one column would take the running text of
    the other into its rows (level with them, or between them, ending the run). Two readings
    guard against it: a gutter where prose lines start with the columns left of it holding a
    table by themselves (those columns read apart), else each page column read on its own.
    `pictures` (image boxes) level with a row make it as tall as they are: rows of thumbnails
    stand far apart, their text lines do not."""
    gutter = _gutter(lines)
    if gutter is not None:
        left = _aligned_regions([ln for ln in lines if ln.bbox[0] < gutter], min_rows, pictures)
        if left[0]:
            right = _aligned_regions([ln for ln in lines if ln.bbox[0] >= gutter], min_rows, pictures)
            # a table across the gutter, its rows level on both sides, is one table
            return across_gutters(left[0] + right[0], text_columns(lines)), left[1] + right[1], left[2] + right[2]
    return _column_regions(lines, min_rows, pictures)


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


def _column_regions(lines: Sequence[TextLine], min_rows: int,
                    pictures: Sequence[BBox] = ()) -> tuple[list[BBox], int, int]:
    """Aligned regions with each column of a page set in columns of prose also read on its own:
    a table in one column sits level with the other column's prose, whose lines would cut its
    run of rows apart."""
    regions, n_rows, n_num = [], 0, 0
    for part in page_columns(lines):
        more, rows, num = _aligned_regions(part, min_rows, pictures)
        regions, n_rows, n_num = regions + more, n_rows + rows, n_num + num
    whole, rows, num = _aligned_regions(lines, min_rows, pictures)
    # a run across the gutter that overlaps a column's table is that table's rows level
    # with the other column's prose
    kept = [b for b in whole if not any(_overlap(b, r) > 0 for r in regions)]
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


def _overlap(a: BBox, b: BBox) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return max(w, 0.0) * max(h, 0.0)


def _aligned_regions(lines: Sequence[TextLine], min_rows: int,
                     pictures: Sequence[BBox] = ()) -> tuple[list[BBox], int, int]:
    # a typed rule ("-----") under a header must not cut the run of aligned rows in two
    kept = [ln for ln in lines if ln.text.strip("-_=─—. ")]
    # a paragraph set beside the table shares its heights: its lines are no cells of its rows
    blocks = running_text(kept)
    beside = {id(ln) for block in blocks for ln in [*block, *_headings_over(kept, block)]}
    kept = [ln for ln in kept if id(ln) not in beside]
    rows = _text_rows([fig for ln in kept for seg in _split_wide_gaps(ln) for fig in split_figures(seg)])
    heights = [r[0].bbox[3] - r[0].bbox[1] for r in rows] or [10.0]
    gap_max = 2.5 * statistics.median(heights) + 4
    regions, n_rows, n_num = [], 0, 0
    run: list[list[TextLine]] = []
    bottom, bridged, bridge_top, loose = 0.0, 0, 0.0, False
    above: list[TextLine] = []  # the single lines just above, outside any run
    cuts: list[int] = []  # rows of the run that follow a bridged line (a next table may start there)
    for row in rows + [[]]:
        ok = bool(row) and _table_like(row)
        if row and run and row[0].bbox[1] - bottom > gap_max:
            regions, n_rows, n_num = _close_run(run, min_rows, regions, n_rows, n_num, cuts)
            run, bridged = [], 0
        if ok and run and _larger_print(row, run):
            # a section heading ("3.3  Measuring Financial Literacy") printed larger than the
            # table under or above it: a table's rows share one type size
            regions, n_rows, n_num = _close_run(run, min_rows, regions, n_rows, n_num, cuts)
            run, bridged, loose = [], 0, False
        if ok:
            if loose and not _is_numeric(row[0].text):
                # heading after a gap, then a header row: the next stacked table starts here
                regions, n_rows, n_num = _close_run(run, min_rows, regions, n_rows, n_num, cuts)
                run = []
            if not run:
                run, cuts = [[t] for t in _header_lines(above, row)], []
            elif bridged:
                cuts.append(len(run))
            run.append(row)
            bottom, bridged, bridge_top, loose = _row_bottom(row, pictures), 0, row[0].bbox[1], False
            above = []
            continue
        near = bool(row) and _within_pitch(run, bridge_top, row[0].bbox[1], 1.5)
        far = bool(row) and _within_pitch(run, bridge_top, row[0].bbox[1], 3.0)
        stub = bool(row) and bool(run) and _in_first_column(run, row[0])
        if run and (near or far) and bridged < 2 and len(row) == 1 and (len(row[0].text) <= 40 or stub) \
                and not _larger_print(row, run, 1.15):
            # a wrapped label ("Investigative Matters / Received by AUSAs") or a group label
            # ("Projected") sits between rows of a table without ending it; it is set in the
            # table's type, a caption between two stacked tables in larger print
            bottom, bridged, bridge_top = max(bottom, row[0].bbox[3]), bridged + 1, row[0].bbox[1]
            loose = loose or not (near or stub)
            continue
        regions, n_rows, n_num = _close_run(run, min_rows, regions, n_rows, n_num, cuts)
        run, bridged = [], 0
        above = above + row if len(row) == 1 else []
    return regions, n_rows, n_num


def _row_bottom(row: Sequence[TextLine], pictures: Sequence[BBox]) -> float:
    """The bottom of a row's text, or of a picture whose top is level with it (a thumbnail
    in a picture column), whichever is lower."""
    top, bottom = min(t.bbox[1] for t in row), max(t.bbox[3] for t in row)
    level = [p[3] for p in pictures if top - (bottom - top) <= p[1] <= bottom]
    return max([bottom, *level])


def running_text(lines: Sequence[TextLine], min_lines: int = 4) -> list[list[TextLine]]:
    """Blocks of running text: at least `min_lines` lines one under the other at one pitch,
    starting at one left edge, each but the last filled to within a fifth of the block's
    widest with a sentence's worth of words, the last one too or a sentence's end. A column
    of wrapped cells breaks the rule at the short last line of every cell."""
    out: list[list[TextLine]] = []
    by_left: dict[int, list[TextLine]] = {}
    for ln in sorted(lines, key=lambda t: t.bbox[1]):
        by_left.setdefault(round(ln.bbox[0] / 2), []).append(ln)
    for column in by_left.values():
        block: list[TextLine] = []
        for ln in [*column, None]:
            if ln is not None and block and _next_line(block, ln):
                block.append(ln)
                continue
            if len(block) >= min_lines and _filled(block):
                out.append(block)
            block = _restart(block, ln)
    return out


def _headings_over(lines: Sequence[TextLine], block: Sequence[TextLine]) -> list[TextLine]:
    """Lines of words set at most two line heights over a paragraph, at its left edge and no
    wider: its heading (or lead-in), prose of the paragraph's column and no row of a table
    beside it, with whose rows it may stand level."""
    first = block[0]
    height = first.bbox[3] - first.bbox[1]
    right = max(ln.bbox[2] for ln in block)
    return [ln for ln in lines if abs(ln.bbox[0] - first.bbox[0]) <= 2 and 0 < first.bbox[1] - ln.bbox[1] <= 2 * height
            and ln.bbox[2] <= right + 2 and _sentence_words(ln.text)]


def _restart(block: list[TextLine], ln: TextLine | None) -> list[TextLine]:
    """The block that starts at `ln`, which did not go on with `block`: with `block`'s last line
    when `ln` goes on with it alone (a heading a line's pitch above a paragraph took its first
    line, and the paragraph's own pitch then broke the block at its second)."""
    if ln is None:
        return []
    if len(block) >= 2 and _next_line(block[-1:], ln):
        return [block[-1], ln]
    return [ln]


def _next_line(block: Sequence[TextLine], below: TextLine) -> bool:
    """Whether `below` goes on with the paragraph `block`: the line under its last, full, line
    at the block's pitch, in its type, with words of a sentence or a sentence's end."""
    above = block[-1]
    pitch = below.bbox[1] - above.bbox[1]
    if not 0 < pitch <= 1.6 * (above.bbox[3] - above.bbox[1]) or abs(below.font_size - above.font_size) >= 0.5:
        return False
    if len(block) > 1 and abs(pitch - (above.bbox[1] - block[-2].bbox[1])) > 0.15 * pitch:
        return False
    return _sentence_words(above.text) and (_sentence_words(below.text) or below.text.rstrip()[-1:] in _SENTENCE_END)


def _filled(block: Sequence[TextLine]) -> bool:
    """Lines filled to the measure, the last ending a sentence: row labels of one length one
    under the other ("Projections of Education Statistics to 2017 / ... 2018") end none.
    A line is filled when it reaches four fifths of the widest, or when the next line's first
    word would not have fitted after it (ragged lines of a narrow column)."""
    widest = max(ln.bbox[2] - ln.bbox[0] for ln in block)
    return all(ln.bbox[2] - ln.bbox[0] + _first_word(nxt) >= 0.97 * widest
               or ln.bbox[2] - ln.bbox[0] >= 0.8 * widest
               for ln, nxt in zip(block, block[1:], strict=False)) and \
        block[-1].text.rstrip()[-1:] in _SENTENCE_END


def _first_word(line: TextLine) -> float:
    """Estimated width of a line's first word and the space before it (a character of
    unspaced script)."""
    text = line.text.strip()
    first = text[:1] if ord(text[:1] or " ") > 0x2E80 else text.split()[0]
    return (line.bbox[2] - line.bbox[0]) * (len(first) + 1) / max(len(text), 1)


_SENTENCE_END = ".!?。！？"
_CLAUSE_END = ".:;。：；"
"""A line ending so is a sentence or a lead-in, no column header (CJK full stops included)."""


def _sentence_words(text: str) -> bool:
    """Enough words for running text: six, or three in 24 characters (a paragraph set in a
    narrow column beside a table: "und außerordentlichen Posten,"), or twelve characters of
    unspaced (CJK) script."""
    n = len(text.split())
    wordy = n >= 6 or (n >= 3 and len(text) >= 24) or (len(text) >= 12 and text.count(" ") <= 2 and
                                                       sum(ord(ch) > 0x2E80 for ch in text) >= 0.5 * len(text))
    # the numeric test last: most lines fail the word count first (the page engineer's profile)
    return wordy and not _is_numeric(text)


def _header_lines(above: Sequence[TextLine], first: Sequence[TextLine]) -> list[TextLine]:
    """The single lines right above a table's first aligned row that belong to it: a column
    header over one column ("2016" over the figures), a unit line or a group label in the
    first column ("(all amounts in EUR)", "Class A"). Each sits within a line spacing of the
    line under it, starts with the first column or lines up with another column of `first`,
    is short and no sentence's end; the first line that is not stops the search."""
    out: list[TextLine] = []
    below = first[0]
    for t in reversed(above):
        height = below.bbox[3] - below.bbox[1]
        edges = any(abs(t.bbox[0] - c.bbox[0]) <= 3 or abs(t.bbox[2] - c.bbox[2]) <= 3 for c in first[1:])
        if (below.bbox[1] - t.bbox[1] > 2.5 * height or len(t.text) > 40 or t.text.rstrip()[-1:] in _CLAUSE_END
                or t.font_size >= 1.25 * max(c.font_size for c in first)
                or not (abs(t.bbox[0] - first[0].bbox[0]) <= 3 or edges)):
            break
        out.append(t)
        below = t
    return out[::-1]


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
    return len(t.text) > 40 and len(t.text.split()) >= 6 and not _is_numeric(t.text)


def _caption_row(row: Sequence[TextLine], below: Sequence[Sequence[TextLine]]) -> bool:
    """A caption ("Table 15.  Actual and projected percentage changes in ...") printed as a
    label and a sentence looks like a two-column row: its sentence runs across two or more
    cells of a row below. A description in the last column of a table spans one cell."""
    return any(_prose(t) and any(sum(t.bbox[0] + 1 < c.bbox[0] < t.bbox[2] for c in r[1:]) >= 2 for r in below)
               for t in row)


def _close_run(run: list[list[TextLine]], min_rows: int, regions: list[BBox], n_rows: int,
               n_num: int, cuts: Sequence[int] = ()) -> tuple[list[BBox], int, int]:
    """The regions with the run's, one per table stacked in it (`stacked_runs`)."""
    for part in split_at_column_change(run, cuts, min_rows):
        regions, n_rows, n_num = _close_one(part, min_rows, regions, n_rows, n_num)
    return regions, n_rows, n_num


def _close_one(run: list[list[TextLine]], min_rows: int, regions: list[BBox], n_rows: int,
               n_num: int) -> tuple[list[BBox], int, int]:
    while len(run) > 1 and _caption_row(run[0], run[1:]):
        run = run[1:]
    lead = next((i for i, row in enumerate(run) if len(row) > 1), len(run))  # header lines
    if len(run) - lead < min_rows or _anchors(run[lead:]) < 2:
        return regions, n_rows, n_num
    flat = [t for row in run for t in row]
    box = (min(t.bbox[0] for t in flat), min(t.bbox[1] for t in flat),
           max(t.bbox[2] for t in flat), max(t.bbox[3] for t in flat))
    return regions + [box], n_rows + len(run), n_num + sum(_is_numeric(t.text) for t in flat)


def page_features(page: pymupdf.Page, pno: int, lines: Sequence[TextLine],
                  rules: tuple[list[BBox], list[BBox]] | None = None,
                  image_info: Sequence[dict] | None = None) -> PageFeatures:
    """Rulings and aligned text columns of one page (its `lines`, and maybe `rules` and its
    get_image_info(), already read)."""
    hs, vs = rules if rules is not None else rules_of_page(page)
    ruled = ruled_regions(hs, vs) if len(hs) + len(vs) <= 4000 else [tuple(page.rect)]
    ruled += [g.bbox for g in box_grids(hs, vs) if not any(_overlap(g.bbox, r) > 0 for r in ruled)]
    infos = (page.get_image_info() if image_info is None else image_info) if page.get_images() else ()
    pictures = [tuple(i["bbox"]) for i in infos]
    aligned, n_rows, n_num = aligned_regions(lines, pictures=pictures)
    aligned = [under_top_rule(r, hs, lines) for r in aligned]
    # two rows between rules are a table the three-row run above does not call one
    aligned += short_ruled_tables(lines, hs, taken=ruled + aligned)
    return PageFeatures(page=pno, h_rules=len(hs), v_rules=len(vs), aligned_rows=n_rows,
                        numeric_cells=n_num, ruled_regions=tuple(ruled),
                        aligned_regions=tuple(aligned))
