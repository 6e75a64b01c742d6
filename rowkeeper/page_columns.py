"""The text columns of a page: the gutters its running text is set around, and the order its
column boxes read in.

One detector for every reader. The table finder searches each column box on its own (a table
in one column never takes the other column's prose into its rows), and headings, tables and
text chunks are placed in one reading order (the left column top to bottom, then the right).
Pure, over text line boxes: the extractors (from the page model) and the transforms (from the
lines an extraction returned) get the same columns for the same page.

A gutter is a vertical band that no line of running text crosses, with running text on both
sides of it. Rows of the page that cross it (a title, an abstract, a figure caption set across
the page) or that print short cells of one type on both sides of it (a full-width table) make
a full-width band of the page; the rows between those are read column by column.
"""

from __future__ import annotations

import functools
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass

from rowkeeper.boxes import within
from rowkeeper.glyphs import is_cjk
from rowkeeper.models import BBox, TextLine

PROSE_UNITS = 24
"""Length (a CJK character counts two) from which a line can be running text."""
MIN_GUTTER = 6.0
"""Points of white that part two columns of running text (a word space is ~3)."""
MIN_SIDE = 3
"""Lines of running text each column needs, at the least."""


@dataclass(frozen=True)
class PageColumns:
    """A page's column boxes in reading order: one box for a page set in one column; on a page
    set in columns, the full-width bands and the columns of each band, top to bottom and left
    to right within a band."""

    boxes: tuple[BBox, ...] = ()
    gutters: tuple[float, ...] = ()
    """x of each gutter's middle (none on a page set in one column)."""

    @property
    def multi(self) -> bool:
        """Whether any part of the page is set in more than one column."""
        return bool(self.gutters) and len(self.boxes) > 1

    def index(self, bbox: BBox) -> int:
        """The reading-order index of the box where `bbox` starts (its top-left corner): a box
        over a gutter is read where it starts."""
        if len(self.boxes) <= 1:
            return 0
        x, y = bbox[0] + 1.0, bbox[1] + 1.0
        zone = max((b[1] for b in self.boxes if b[1] <= y), default=self.boxes[0][1])
        row = [i for i, b in enumerate(self.boxes) if b[1] == zone]
        nxt = min((b[1] for b in self.boxes if b[1] > zone), default=None)
        below = [i for i, b in enumerate(self.boxes) if b[1] == nxt]
        if (len(row) == 1 and len(below) > 1 and bbox[3] > self.boxes[below[0]][1] + 1.0
                and not any(bbox[0] + 1.0 < g < bbox[2] - 1.0 for g in self.gutters)):
            # it starts in the white under a band read across and runs down inside one column
            # of the band under it (a table at the top of the right column, a little higher
            # than the left column's first line): read in that column
            return next((i for i in below if x < self.boxes[i][2]), below[-1])
        return next((i for i in row if x < self.boxes[i][2]), row[-1])

    def position(self, bbox: BBox, height: float) -> float:
        """`bbox`'s place in reading order on its page, as a top: its own top, plus one page
        `height` per column box read before the one it starts in."""
        return bbox[1] + self.index(bbox) * height

    def box_of(self, line: TextLine) -> int:
        """The index of the box holding a line's centre (the box it is read in)."""
        cx, cy = (line.bbox[0] + line.bbox[2]) / 2, (line.bbox[1] + line.bbox[3]) / 2
        return self.index((cx - 1.0, cy - 1.0, cx, cy))


def text_columns(lines: Sequence[TextLine], tables: Sequence[BBox] = ()) -> PageColumns:
    """The column boxes of one page from its text lines (all of them, table cells too). With
    the page's `tables` known, the cells of a table that stays inside one column are its
    column's content: two such tables level with each other across a gutter make no
    full-width band (the rows of one full-width table would)."""
    lines = [ln for ln in lines if ln.text.strip()]
    if not lines:
        return PageColumns()
    left, right = min(ln.bbox[0] for ln in lines), max(ln.bbox[2] for ln in lines)
    top, bottom = min(ln.bbox[1] for ln in lines), max(ln.bbox[3] for ln in lines)
    whole = PageColumns(((left, top, right, bottom),))
    mids = gutters(lines, left, right)
    if not mids:
        return whole
    inner = [b for b in tables if not any(b[0] < m < b[2] for m in mids)]
    zones = _zones(text_rows([ln for ln in lines if not any(_holds(b, ln) for b in inner)] or lines), mids)
    if not any(split for _, _, split in zones):
        return whole
    xs = [left, *mids, right]
    boxes: list[BBox] = []
    for i, (y0, _, split) in enumerate(zones):
        y1 = zones[i + 1][0] if i + 1 < len(zones) else bottom
        cuts = xs if split else [left, right]
        boxes += [(a, y0, b, y1) for a, b in zip(cuts, cuts[1:], strict=False)]
    return PageColumns(tuple(_overhang_order(boxes, lines, mids)), tuple(mids))


def _overhang_order(boxes: list[BBox], lines: Sequence[TextLine], mids: Sequence[float]) -> list[BBox]:
    """`boxes` with a band read across that is the left column's own moved into that column's
    reading order: a band (a table wider than its column, under the column's text) that starts
    in the left column and stops short of the right column's middle, between two bands of two
    columns whose right one is blank beside the left column's text under the band (the right
    column ended above it). The left column reads on through the band and under it, then the
    right column: [left, right, band, left under, right under] reads [left, band, left under,
    right, right under]. A page of two columns only; a band reaching across most of the page
    stays a full-width band, read after both columns over it."""
    if len(mids) != 1:
        return boxes
    m = mids[0]
    out = list(boxes)
    for i in range(2, len(out) - 2):
        above, band, under = out[i - 2:i], out[i], out[i + 1:i + 3]
        if not (band[0] < m < band[2] and above[0][2] == m == under[0][2] and above[0][1] == above[1][1]
                and under[0][1] == under[1][1] and above[1][1] < band[1]):
            continue
        inside = [ln for ln in lines if band[1] - 1.0 <= ln.bbox[1] and ln.bbox[3] <= under[0][1] + 1.0]
        left = [ln for ln in lines if _centre_in(under[0], ln)]
        right = [ln for ln in lines if _centre_in(under[1], ln)]
        if not inside or not left or min(ln.bbox[0] for ln in inside) >= m \
                or max(ln.bbox[2] for ln in inside) >= (m + band[2]) / 2 \
                or any(ln.bbox[1] < max(t.bbox[3] for t in left) for ln in right):
            continue
        return [*out[:i - 1], band, under[0], above[1], *out[i + 2:]]
    return out


def _centre_in(box: BBox, line: TextLine) -> bool:
    x, y = (line.bbox[0] + line.bbox[2]) / 2, (line.bbox[1] + line.bbox[3]) / 2
    return box[0] <= x < box[2] and box[1] <= y < box[3]


def _holds(box: BBox, line: TextLine) -> bool:
    x, y = (line.bbox[0] + line.bbox[2]) / 2, (line.bbox[1] + line.bbox[3]) / 2
    return box[0] - 2 <= x <= box[2] + 2 and box[1] - 2 <= y <= box[3] + 2


def units(text: str) -> int:
    """A line's length in Latin letters (a CJK character is as wide as two)."""
    t = text.strip()
    if t.isascii():
        return len(t)
    return sum(2 if is_cjk(ch) else 1 for ch in t)


def running(line: TextLine) -> bool:
    """A line that can be running text: long, words or CJK script, few figures."""
    return _running(line.text)


@functools.lru_cache(maxsize=8192)
def _running(text: str) -> bool:
    # a pure function of the text, asked of the same lines again and again (every gutter band,
    # every side of a region): kept for the texts of a page or two
    text = text.strip()
    if units(text) < PROSE_UNITS:
        return False
    digits = sum(ch.isdigit() for ch in text)
    wide = any(map(is_cjk, text))
    return digits <= 0.3 * len(text) and (wide or len(text.split()) >= 4)


def gutters(lines: Sequence[TextLine], left: float, right: float) -> list[float]:
    """x of the middle of each gutter: a band of at least MIN_GUTTER points that the page's
    narrow lines of running text leave white (a few may cross it: a wide table's long cell),
    with MIN_SIDE such lines wholly on each side; else one band no narrow line crosses between
    a column of running text and other lines not level with it (a table beside the running
    text of the next column). Lines over most of the text width (a title, an abstract) cross
    every gutter and are left out."""
    width = right - left
    narrow = [ln for ln in lines if ln.bbox[2] - ln.bbox[0] < 0.6 * width]
    prose = [ln for ln in narrow if running(ln)]
    need = max(MIN_SIDE, round(0.15 * len(prose)))
    mids: list[float] = []
    prev = -1e9  # the right edge of the gutter before: a column lies between two gutters
    for lo, hi in _bands(prose, left, width, len(prose) // 20):
        n_left = sum(1 for ln in prose if ln.bbox[0] >= prev - 1 and ln.bbox[2] <= lo + 1)
        n_right = sum(1 for ln in prose if ln.bbox[0] >= hi - 1)
        if n_left >= need and n_right >= need:
            mids.append(_clearest(narrow, lo, hi))
            prev = hi
    if mids or len(prose) < need:
        return mids
    for lo, hi in _bands(narrow, left, width, len(narrow) // 20):
        sides = ([ln for ln in narrow if ln.bbox[2] <= lo + 1], [ln for ln in narrow if ln.bbox[0] >= hi - 1])
        for text, other in (sides, sides[::-1]):
            if sum(running(ln) for ln in text) >= need and len(other) >= need and not _level(other, text):
                return [(lo + hi) / 2]
    return []


def _bands(lines: Sequence[TextLine], left: float, width: float, allowed: int) -> list[tuple[float, float]]:
    """The x bands of at least MIN_GUTTER points inside the text width that at most `allowed`
    of `lines` cover."""
    cover = [0] * (int(width) + 2)
    last = len(cover) - 1
    for ln in lines:
        a, b = sorted((ln.bbox[0], ln.bbox[2]))
        cover[min(max(int(a - left), 0), last)] += 1
        cover[min(max(int(b - left) + 1, 0), last)] -= 1
    depth, start, bands = 0, None, []
    for i, step in enumerate(cover):
        depth += step
        if depth <= allowed and start is None:
            start = i
        elif depth > allowed and start is not None:
            if i - start >= MIN_GUTTER and start > 0:
                bands.append((left + start, left + i))
            start = None
    return bands


def _clearest(lines: Sequence[TextLine], lo: float, hi: float) -> float:
    """The middle of the widest stretch of the band (lo, hi) that the fewest `lines` cover: the
    white between a table's last column and the next column's text, not the middle of the band
    the running text alone leaves."""
    steps = [lo + k for k in range(int(hi - lo) + 1)]
    cover = [sum(1 for ln in lines if ln.bbox[0] <= x <= ln.bbox[2]) for x in steps]
    least = min(cover)
    best, start = (0.0, (lo + hi) / 2), None
    for k, c in enumerate([*cover, least + 1]):
        if c == least and start is None:
            start = k
        elif c != least and start is not None:
            best = max(best, (k - start, (steps[start] + steps[k - 1]) / 2))
            start = None
    return best[1]


def _level(other: Sequence[TextLine], text: Sequence[TextLine]) -> bool:
    """Whether most of `other` stand level with lines of `text`, row by row, as the labels of
    a form stand beside their values or a table's cells beside a long description; the running
    text of another page column keeps its own line pitch."""
    mids = sorted((ln.bbox[1] + ln.bbox[3]) / 2 for ln in text)
    level = 0
    for ln in other:
        y = (ln.bbox[1] + ln.bbox[3]) / 2
        k = bisect_left(mids, y - 1.5)
        level += k < len(mids) and mids[k] <= y + 1.5
    return level >= 0.5 * len(other)


def text_rows(lines: Sequence[TextLine]) -> list[list[TextLine]]:
    """Lines grouped into visual rows of the page, top to bottom: vertical centres within half
    a line height of the row's first line (the one grouping of lines into rows)."""
    rows: list[list[TextLine]] = []
    for ln in sorted(lines, key=lambda t: ((t.bbox[1] + t.bbox[3]) / 2, t.bbox[0])):
        cy, h = (ln.bbox[1] + ln.bbox[3]) / 2, ln.bbox[3] - ln.bbox[1]
        if rows:
            first = rows[-1][0]
            if abs((first.bbox[1] + first.bbox[3]) / 2 - cy) <= max(h, 2.0) / 2:
                rows[-1].append(ln)
                continue
        rows.append([ln])
    return rows


def _kind(row: Sequence[TextLine], mids: Sequence[float]) -> str:
    """'S' a line crosses a gutter; 'P' short lines of one type on both sides of one (a row of
    a full-width table, whose label may be as long as running text); 'C' running text in a
    column; 'O' one side only, no running text."""
    if any(ln.bbox[0] < m - 1 and ln.bbox[2] > m + 1 for ln in row for m in mids):
        return "S"
    short = [ln for ln in row if not running(ln)]
    sides = {sum(ln.bbox[0] >= m for m in mids) for ln in short}
    sizes = [ln.font_size for ln in row if ln.font_size]
    if len(sides) >= 2 and (not sizes or max(sizes) - min(sizes) <= 1.0):
        return "P"
    return "C" if len(short) < len(row) else "O"


def _zones(rows: Sequence[Sequence[TextLine]], mids: Sequence[float]) -> list[tuple[float, float, bool]]:
    """(top, bottom, read in columns) for each band of the page, top to bottom. Read across:
    a row with a line over a gutter; a run of three rows or more printing short cells on both
    sides of one (most of the run's rows; one-sided rows between them are its rows too, running
    text ends it); one-sided rows between two rows read across; a band of columns one row high
    between two full-width ones. The rest is read column by column."""
    kinds = [_kind(r, mids) for r in rows]
    across = [k == "S" for k in kinds]
    i = 0
    while i < len(rows):
        if kinds[i] != "P":
            i += 1
            continue
        j, last, pairs = i, i, 0
        while j < len(rows) and kinds[j] != "C":
            if kinds[j] != "O":
                last, pairs = j, pairs + (kinds[j] == "P")
            j += 1
        if pairs >= 3 and pairs >= 0.6 * (last - i + 1):
            across[i:last + 1] = [True] * (last - i + 1)
        i = j
    _wide_rows(rows, kinds, mids, across)
    known = [k for k in range(len(rows)) if kinds[k] != "O"]
    for a, b in zip(known, known[1:], strict=False):
        if across[a] and across[b]:
            across[a:b] = [True] * (b - a)
    for k in range(1, len(rows) - 1):
        if not across[k] and across[k - 1] and across[k + 1]:
            across[k] = True
    runs: list[list[int]] = []
    for k, a in enumerate(across):
        if runs and across[runs[-1][0]] == a:
            runs[-1].append(k)
        else:
            runs.append([k])
    zones: list[tuple[float, float, bool]] = []
    for run in runs:
        band = [ln for k in run for ln in rows[k]]
        split = not across[run[0]] and _columns_of_text(band, mids)
        y0, y1 = min(ln.bbox[1] for ln in band), max(ln.bbox[3] for ln in band)
        if zones and zones[-1][2] == split:
            zones[-1] = (zones[-1][0], max(zones[-1][1], y1), split)
        else:
            zones.append((y0, y1, split))
    return zones


def _wide_rows(rows: Sequence[Sequence[TextLine]], kinds: Sequence[str], mids: Sequence[float],
               across: list[bool]) -> None:
    """Mark across the rows of a wide table whose first column holds labels as long as running
    text (two-line labels stand between its rows of figures): three rows or more with two
    cells or more on each of two sides of a gutter, a third of the rows from the first to the
    last of them (running text of a column beside a table has no cells on both sides)."""
    def strong(row: Sequence[TextLine]) -> bool:
        sides: dict[int, int] = {}
        for ln in row:
            if not running(ln):
                k = sum(ln.bbox[0] >= m for m in mids)
                sides[k] = sides.get(k, 0) + 1
        return sum(n >= 2 for n in sides.values()) >= 2
    marks = [k for k, row in enumerate(rows) if kinds[k] == "P" and strong(row)]
    if len(marks) < 3:
        return
    seen = sum(1 for k in range(marks[0], marks[-1] + 1) if kinds[k] != "O")
    if len(marks) >= 0.3 * seen:
        across[marks[0]:marks[-1] + 1] = [True] * (marks[-1] - marks[0] + 1)


def _columns_of_text(band: Sequence[TextLine], mids: Sequence[float]) -> bool:
    """Whether a band of the page is set in columns: running text makes most lines on both
    sides of a gutter, or on one side with a line pitch of its own. A table's long labels or
    descriptions on one side stand level with its cells across the gutter, row by row."""
    sides: dict[int, list[TextLine]] = {}
    for ln in band:
        sides.setdefault(sum(ln.bbox[0] >= m for m in mids), []).append(ln)
    if len(sides) < 2:
        return True
    # by characters: a column of running text beside a table holds more text than its cells
    prose = [k for k, v in sides.items()
             if sum(len(ln.text) for ln in v if running(ln)) >= 0.5 * sum(len(ln.text) for ln in v)]
    if len(prose) >= 2:
        return True
    if not prose:
        return False
    other = [ln for k, v in sides.items() if k != prose[0] for ln in v]
    return not _level([ln for ln in sides[prose[0]] if running(ln)], other)


def across_gutters(regions: Sequence[BBox], columns: PageColumns, tol: float = 3.0) -> list[BBox]:
    """Regions found column by column joined where one table's rows run across a gutter: two
    regions either side of it, level (tops and bottoms within `tol`), inside one full-width
    band of `columns` (whose rows cross the gutter), are that table's halves."""
    out = list(regions)
    for g in columns.gutters:
        bands = [b for b in columns.boxes if b[0] < g < b[2]]
        joined = True
        while joined:
            joined = False
            for i, a in enumerate(out):
                b = next((b for b in out[i + 1:] if _halves(a, b, g, tol) or _halves(b, a, g, tol)), None)
                if b is None:
                    continue
                u = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                if any(within(u, band, tol) for band in bands):
                    out = [r for r in out if r is not a and r is not b] + [u]
                    joined = True
                    break
    return out


def _halves(left: BBox, right: BBox, gutter: float, tol: float) -> bool:
    return left[2] <= gutter <= right[0] and abs(left[1] - right[1]) <= tol and abs(left[3] - right[3]) <= tol


