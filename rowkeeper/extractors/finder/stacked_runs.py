"""Where one table ends and the next starts in a run of aligned rows: two tables stacked in one
column with a caption (or a heading) between them, close enough that the run bridges it.

A caption or a group label is one line, so the run of rows goes on over it (a wrapped row
label inside a table is one too). What tells the two apart is what comes after it: under a
group label the rows keep the table's columns, under the next table's caption a new set of
columns starts. Rows are lists of text segments (`TextLine`), left to right.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Callable, Sequence

from rowkeeper.models import TextLine

Row = Sequence[TextLine]

LEADER = ".·…  "
"""What a dot leader between a label and its figures is printed with."""
REMARK_LINES = 4
"""Single lines inside one column (`in_one_column`) a run may bridge in a row (an entry's
remarks under its name: "* see also ...", "See advertisement p. 169")."""
SHARE = 0.6
"""Share of a part's rows an edge must be found in to be one of its columns' edges."""


def column_edges(rows: Sequence[Row], tol: float = 3.0) -> list[float]:
    """x of the left and right edges that at least `SHARE` of the rows (and two) share."""
    need = max(2, math.ceil(SHARE * len(rows)))
    marks = sorted({round(x, 1) for row in rows for t in row for x in (t.bbox[0], t.bbox[2])})
    # each row's edges sorted once: whether a row has one within `tol` of a mark is read off
    # the nearest either side of it (bisection), not a scan of the row's segments per mark
    edges = [sorted(x for t in row for x in (t.bbox[0], t.bbox[2])) for row in rows]
    out: list[float] = []
    for x in marks:
        if out and x - out[-1] <= 2 * tol:
            continue
        if sum(_near(xs, x, tol) for xs in edges) >= need:
            out.append(x)
    return out


def _near(xs: Sequence[float], x: float, tol: float) -> bool:
    """Whether sorted `xs` holds a value within `tol` of `x` (`abs(y - x) <= tol`): the nearest
    value either side of x is the one to test, as the distance grows away from x both ways."""
    i = bisect_left(xs, x)
    return (i < len(xs) and abs(xs[i] - x) <= tol) or (i > 0 and abs(xs[i - 1] - x) <= tol)


def columns_change(before: Sequence[Row], after: Sequence[Row], tol: float = 3.0, fullest: bool = False) -> bool:
    """Whether the rows `after` stand on other columns than those `before`: fewer than half of
    the edges of each part are found among the other's; or, where the parts' rows hold
    different numbers of cells, of one part (two tables of one width share their outer edges
    and a column or two by chance; the one of more columns has most of its edges on its own).
    `fullest`: each part's columns are those of its rows with most cells (`_fullest`)."""
    if fullest:  # the columns of the rows with most cells (`_fullest`)
        before, after = _fullest(before), _fullest(after)
    a, b = column_edges(before, tol), column_edges(after, tol)
    if len(a) < 3 or len(b) < 3:
        return False
    if abs(a[0] - b[0]) <= tol and abs(a[-1] - b[-1]) <= tol and len(a) > 3 and len(b) > 3:
        # two tables set to the column's width share their outer edges by that alone: their
        # inner edges tell whether the columns go on
        a, b = a[1:-1], b[1:-1]

    def shared(xs: Sequence[float], ys: Sequence[float]) -> int:
        return sum(any(abs(x - y) <= tol for y in ys) for x in xs)

    apart = [shared(b, a) < 0.5 * len(b), shared(a, b) < 0.5 * len(a)]
    return all(apart) or (any(apart) and _cells(before) != _cells(after))


def _fullest(rows: Sequence[Row]) -> Sequence[Row]:
    """The rows holding at least half the cells the fullest row holds (two of them or more; all
    rows when fewer): the rows a part's columns are read from. An entry's remarks and wrapped
    names (one or two segments under a row of sixteen) are rows of the run too, and would keep
    the full rows' edges under the share `column_edges` asks of a part of few rows."""
    most = max((len(r) for r in rows), default=0)
    full = [r for r in rows if 2 * len(r) >= most]
    return full if len(full) >= 2 else rows


def _cells(rows: Sequence[Row]) -> int:
    """The number of cells most rows hold."""
    counts = sorted(len(r) for r in rows)
    return max(set(counts), key=counts.count)


def _figures(row: Row) -> bool:
    """Whether a row holds a figure (a segment mostly of digits): a body row, not a header's."""
    return any(sum(ch.isdigit() for ch in t.text) >= 0.5 * len(t.text.replace(" ", "")) > 0 for t in row)


def header_after_body(run: Sequence[Row], row: Row) -> bool:
    """Whether `row` may start a next table stacked under the run without a caption between
    them: a row of two segments or more without a figure (a header) right under a row of
    figures (a body), wholly under every segment of the run (rows whose segments interleave, as
    on a scanned page, would give two regions sharing words). `split_at_column_change` cuts
    there only where the columns change."""
    return len(row) >= 2 and bool(run) and not _figures(row) and _figures(run[-1]) \
        and min(t.bbox[1] for t in row) >= max(t.bbox[3] for r in run for t in r)


def header_again(run: Sequence[Row], row: Row, min_cells: int = 3) -> bool:
    """Whether `row`, after a line the run bridged, is a next table's header: a header under
    the body (`header_after_body`) of `min_cells` labels or more, where the run too opened with
    a header row (labels, no figure) of no more than one label more. A caption between two
    tables in their own type stands over such a row; an entry's remarks in a catalogue, or a
    group label, over the next entry (a name in parts, fewer than the header's) or body rows."""
    first = next((r for r in run if len(r) >= 2), None)
    return first is not None and len(row) >= max(min_cells, len(first) - 1) and _labels(first) \
        and header_after_body(run, row)


def header_apart(run: Sequence[Row], row: Row, pitches: float = 1.5) -> bool:
    """Whether `row`, with no line between, is a next table's header (`header_again`) set
    further under the run's last row than `pitches` times the run's row pitch: two tables
    stacked without a caption between them, the second one's header after a gap. Inside one
    table a row of labels under the body is a group label (one segment) or follows at the
    rows' own pitch."""
    tops = [min(t.bbox[1] for t in r) for r in run if len(r) >= 2]
    if len(tops) < 3 or not header_again(run, row):
        return False
    pitch = sorted(b - a for a, b in zip(tops, tops[1:], strict=False))[(len(tops) - 2) // 2]
    return min(t.bbox[1] for t in row) - tops[-1] > pitches * pitch


def _labels(row: Row) -> bool:
    """Whether a row is one of labels: no figure, most segments words of two letters or more
    (a heading letter-spaced by an OCR layer, "B a d e n", is single letters)."""
    return not _figures(row) and 2 * sum(sum(ch.isalpha() for ch in t.text) >= 2 for t in row) > len(row)


def split_at_column_change(run: Sequence[Row], cuts: Sequence[int], min_rows: int = 3,
                           headed: Sequence[int] = (),
                           count: Callable[[Sequence[Row]], int] = len) -> list[list[Row]]:
    """`run` in pieces at the `cuts` (indices of rows that follow a bridged single line or
    start a header under the body) where the columns change, each piece `min_rows` rows or
    more, the first with two rows of figures (a table's body: the rows of a header of several
    lines, labels over sub-columns, stand on other columns than the body under them); the whole
    run when none does. At the cuts in `headed` (a single line bridged, then a header row under
    the body like the run's own, `header_again`: a caption in the tables' own type between two
    tables, the second one's header under it) the next table starts whatever its columns: two tables of one width may stand
    on nearly the same columns, and a group label inside a table has body rows under it.
    `count`: how many rows a piece holds (a price list's records wrapped over several lines
    count once each: the last two records' lines are no table of their own)."""
    pieces: list[list[Row]] = []
    start = 0
    ends = [*cuts, len(run)]
    for c, end in zip(cuts, ends[1:], strict=False):
        # under a header row right after the body the next table starts with its own header;
        # after a bridged line (an entry's remarks) the rows of few cells are no columns' evidence
        remarks = c < len(run) and not header_after_body(run[start:c], run[c])
        if count(run[start:c]) >= min_rows and count(run[c:end]) >= min_rows and sum(map(_figures, run[start:c])) >= 2 \
                and (c in headed or columns_change(run[start:c], run[c:end], fullest=remarks)):
            pieces.append(list(run[start:c]))
            start = c
    pieces.append(list(run[start:]))
    return pieces


def in_one_column(run: Sequence[Row], t: TextLine, tol: float = 3.0, rows: int = 8) -> bool:
    """A line inside one column of the run's last rows (a catalogue entry's remarks under its
    name, a long label's wrapped lines), in a table of three columns or more: that column's text
    goes on under it and the table with it, however long the line. No column edge the rows share
    lies inside the line, and it starts no left of the rows; a heading, a caption or a paragraph
    between two tables runs across the columns."""
    # a dot leader's last dots ("Zeitung ....... 2 800") are a segment of their own: no column
    recent = [[s for s in r if s.text.strip(LEADER)] for r in run[-rows:] if len(r) >= 3]
    if len(recent) < 3:  # two rows share a ragged edge by chance
        return False
    edges = column_edges(recent, tol)
    left, right = min(s.bbox[0] for r in recent for s in r), max(s.bbox[2] for r in recent for s in r)
    return len(edges) >= 4 and left - tol <= t.bbox[0] and t.bbox[2] <= right + tol \
        and not any(t.bbox[0] + tol < x < t.bbox[2] - tol for x in edges)
