"""Cells merged down over several rows of a table ruled between its rows only: a benefit
schedule's category printed once beside its items, a site beside its categories.

Such a table draws the rule between two rows across every column except those whose cell runs
on into the next row. A text-strategy read puts the merged cell's text in the one row where it
is printed (the band's first row, or its middle when centred) and leaves the others empty;
here the band's slots become one spanning cell (the covered slots None, the owner's box the
band's), so `text_cells.cells_from_rows` gives it its row span and `transforms.spans` repeats
its text into every row it covers, as it does for a ruled grid's spans.

Only the geometry decides: a boundary counts when a rule runs under some of its columns, and a
column joins its rows across it when that rule leaves it out. A band takes one text only (two
texts in it are two cells: a subtotal rule over the amounts leaves the labels column open too).
"""

from __future__ import annotations

from collections.abc import Sequence

from rowkeeper.boxes import union
from rowkeeper.models import BBox

COVER = 0.5
"""Share of a column's width a rule must run under for the column to be closed there."""

def _column_spans(rows: Sequence[Sequence[BBox | None]], n_cols: int) -> list[tuple[float, float] | None]:
    out: list[tuple[float, float] | None] = []
    for j in range(n_cols):
        xs = [r[j] for r in rows if j < len(r) and r[j] is not None]
        out.append((min(b[0] for b in xs), max(b[2] for b in xs)) if xs else None)
    return out


def _covered(span: tuple[float, float], rules: Sequence[BBox]) -> bool:
    """Whether the rules run under at least COVER of the column span."""
    x0, x1 = span
    if x1 <= x0:
        return False
    pieces = sorted((max(r[0], x0), min(r[2], x1)) for r in rules if r[2] > x0 and r[0] < x1)
    total, end = 0.0, x0
    for a, b in pieces:
        a = max(a, end)
        if b > a:
            total += b - a
            end = b
    return total >= COVER * (x1 - x0)


def _boundary(upper: Sequence[BBox | None], lower: Sequence[BBox | None], hrules: Sequence[BBox],
              spans: Sequence[tuple[float, float] | None]) -> list[bool] | None:
    """Per column: whether a rule closes it between the two rows; None when no rule lies
    between them at all (an unruled boundary says nothing)."""
    up = [b[1] for b in upper if b is not None]
    low = [b[3] for b in lower if b is not None]
    if not up or not low:
        return None
    # from the upper row's top to the lower row's bottom: a label centred on the rule makes
    # a row reach past it, or a line of its own that the rule cuts
    lo, hi = max(up), min(low)
    between = [r for r in hrules if lo < (r[1] + r[3]) / 2 < hi]
    if not between:
        return None
    return [s is not None and _covered(s, _nearest(between, upper, lower)) for s in spans]


LEVEL = 3.0
"""Points within which rule pieces are taken for one rule between two rows."""


def _nearest(between: Sequence[BBox], upper: Sequence[BBox | None], lower: Sequence[BBox | None]) -> list[BBox]:
    """The rule pieces at the one height nearest the white between the two rows: a label
    centred on the next rule down (a site merged over two categories) makes the lower row
    reach past that rule too, and its pieces say nothing of this boundary."""
    gap = (max(b[3] for b in upper if b is not None) + min(b[1] for b in lower if b is not None)) / 2
    height = min(((r[1] + r[3]) / 2 for r in between), key=lambda y: abs(y - gap))
    return [r for r in between if abs((r[1] + r[3]) / 2 - height) <= LEVEL]


def _body(rows: Sequence[Sequence[BBox | None]], texts: Sequence[Sequence[str | None]],
          hrules: Sequence[BBox]) -> tuple[list[list[BBox | None]], list[list[str | None]],
                                           tuple[int, list[tuple[float, float] | None], int] | None]:
    """Copies of the rows and texts, and where merged cells may be read: the column count, the
    columns' x spans and the first body row under the rule across every column; None for a
    grid too small or ragged, or without such a rule."""
    rs = [list(r) for r in rows]
    ts = [list(t) for t in texts]
    n_cols = max((len(r) for r in rs), default=0)
    if len(rs) < 3 or n_cols < 2 or any(len(r) != n_cols for r in rs) or any(len(t) != n_cols for t in ts):
        return rs, ts, None
    spans = _column_spans(rs, n_cols)
    first = _body_start(rs, hrules, spans)
    return rs, ts, None if first is None else (n_cols, spans, first)


def merged_down(rows: Sequence[Sequence[BBox | None]], texts: Sequence[Sequence[str | None]],
                hrules: Sequence[BBox]) -> tuple[list[list[BBox | None]], list[list[str | None]]]:
    """Rows and texts with each band of rows that a column spans unruled (rules close other
    columns between those rows) made one cell: its text and the band's box in the band's first
    slot, None in the others (a slot a span covers already ends a band)."""
    rs, ts, body = _body(rows, texts, hrules)
    if body is None:
        return rs, ts
    n_cols, spans, first = body
    open_below = [_boundary(rs[i], rs[i + 1], hrules, spans) for i in range(len(rs) - 1)]
    for j in range(n_cols):
        i = first + 1
        while i < len(rs):
            k = i
            while k + 1 < len(rs) and rs[k][j] is not None and rs[k + 1][j] is not None \
                    and (b := open_below[k]) is not None and not b[j] and any(b):
                k += 1
            if k > i:
                _join(rs, ts, j, i, k)
            i = k + 1
    # a row that held nothing but merged texts (centred between two rows, read as a line of
    # their own) is no row of the table: its texts went to their bands
    keep = [i for i in range(len(rs)) if i == 0 or any((t or "").strip() for t in ts[i])
            or any(b is not None for b in rs[i]) and not any(t is None for t in ts[i])]
    return [rs[i] for i in keep], [ts[i] for i in keep]


def _body_start(rs: Sequence[Sequence[BBox | None]], hrules: Sequence[BBox],
                spans: Sequence[tuple[float, float] | None]) -> int | None:
    """The row over the first rule across every column (the header's last), None when no rule
    runs across: rules under a header's group labels leave its stub open, and no body cell is
    merged up into the header."""
    for i in range(len(rs) - 1):
        b = _boundary(rs[i], rs[i + 1], hrules, spans)
        if b is not None and all(b):
            return i
    return None


def _join(rs: list[list[BBox | None]], ts: list[list[str | None]], j: int, first: int, last: int) -> None:
    """Rows first..last of column j made one cell when exactly one of them holds text, printed
    in the first row or centred on them: a text in the last row (a header's stub set at the
    foot of the header, beside the rules under group labels) is left where it is printed."""
    filled = [i for i in range(first, last + 1) if (ts[i][j] or "").strip()]
    if len(filled) != 1 or filled[0] == last:
        return
    box: BBox | None = None
    for i in range(first, last + 1):
        box = union(box, rs[i][j])
    text = ts[filled[0]][j]
    for i in range(first, last + 1):
        rs[i][j] = None
        ts[i][j] = None
    rs[first][j] = box
    ts[first][j] = text


CENTRED = 0.08
"""Share of the columns' width a text's middle may sit off their middle: a text-strategy read
places column edges at the words, a little off the drawn cells the text is centred in."""

ALIGNED = 2.0
"""Points within which a text's edge or centre lines up with its column's other texts."""


def merged_across(rows: Sequence[Sequence[BBox | None]], texts: Sequence[Sequence[str | None]],
                  words: Sequence[Sequence[float]],
                  hrules: Sequence[BBox]) -> tuple[list[list[BBox | None]], list[list[str | None]]]:
    """Rows and texts with a body row's text centred over empty neighbouring columns (`included`,
    `n/a` merged across the amounts) made one cell over those columns: its text and the columns'
    box in the first slot, None in the others.

    A text-strategy read puts such a text in the one column under its middle. It is taken for
    merged when its middle sits on the middle of a run of two or more columns empty but for it,
    right of the row's key (a filled cell on its left), while it lines up with nothing of its
    own column (a left or right edge, or a middle, shared
    with the column's other texts): a sparse row's value in its own column stays where it is.
    `words`: the table's words (x0, y0, x1, y1, ...). Only the body of a table ruled between
    its rows is read so, under the first rule across every column (`_body_start`): a header's
    group labels are centred over empty columns too.
    """
    rs, ts, body = _body(rows, texts, hrules)
    if body is None:
        return rs, ts
    n_cols, spans, first = body
    extents = [[_extent(b, words) if b is not None and (t or "").strip() else None for b, t in zip(r, t_, strict=True)]
               for r, t_ in zip(rs, ts, strict=True)]
    for i in range(first + 1, len(rs)):
        filled = [j for j in range(n_cols) if (ts[i][j] or "").strip()]
        for j in filled:
            run = _centred_run(i, j, rs, ts, spans, extents)
            if run is None:
                continue
            a, b = run
            box: BBox | None = None
            for k in range(a, b + 1):
                box = union(box, rs[i][k])
            text = ts[i][j]
            for k in range(a, b + 1):
                rs[i][k] = None
                ts[i][k] = None
            rs[i][a], ts[i][a] = box, text
    return rs, ts


def _extent(slot: BBox, words: Sequence[Sequence[float]]) -> tuple[float, float] | None:
    """x0, x1 of the words centred in the slot."""
    inside = [w for w in words if slot[0] <= (w[0] + w[2]) / 2 < slot[2] and slot[1] <= (w[1] + w[3]) / 2 < slot[3]]
    return (min(w[0] for w in inside), max(w[2] for w in inside)) if inside else None


def _centred_run(i: int, j: int, rs: Sequence[Sequence[BBox | None]], ts: Sequence[Sequence[str | None]],
                 spans: Sequence[tuple[float, float] | None],
                 extents: Sequence[Sequence[tuple[float, float] | None]]) -> tuple[int, int] | None:
    """The widest run of columns around j, empty in row i but for j, whose middle row i's text
    in column j sits on while lining up with none of its column's other texts; None if none."""
    own = extents[i][j]
    if own is None:
        return None
    mid = (own[0] + own[1]) / 2
    others = [e for r, row in enumerate(extents) if r not in (0, i) and (e := row[j]) is not None]
    if not others or _lines_up(own, others, not any(ch.isdigit() for ch in ts[i][j] or "")):
        return None
    lo = j
    while lo > 0 and rs[i][lo - 1] is not None and not (ts[i][lo - 1] or "").strip():
        lo -= 1
    hi = j
    while hi + 1 < len(rs[i]) and rs[i][hi + 1] is not None and not (ts[i][hi + 1] or "").strip():
        hi += 1
    best = None
    # the row's own key stands left of the run: a label in the first column (indented, or
    # beside a column of currency signs) is no word merged across the amounts
    lo = max(lo, 1 + min((k for k in range(j) if (ts[i][k] or "").strip()), default=j))
    for a in range(lo, j + 1):
        for b in range(j, hi + 1):
            sa, sb = spans[a], spans[b]
            if b > a and sa is not None and sb is not None \
                    and abs((sa[0] + sb[1]) / 2 - mid) <= CENTRED * (sb[1] - sa[0]) \
                    and (best is None or b - a > best[1] - best[0]):
                best = (a, b)
    return best


def _lines_up(own: tuple[float, float], others: Sequence[tuple[float, float]], word: bool = False) -> bool:
    """Whether the text's left edge, right edge or middle is one its column's other texts share
    (half of them at least). `word`: the text holds no digit."""
    need = max(1, len(others) // 2)
    mid = (own[0] + own[1]) / 2
    if word and len(others) >= 2 \
            and all(abs(e[0] - others[0][0]) <= ALIGNED and abs(e[1] - others[0][1]) <= ALIGNED for e in others):
        # texts of one width (`54,7 %`, `82,6 %`) share all three lines, so which one the column
        # keeps is not seen: a word lines up with them only on both its edges (`benne
        # foglaltatik`, centred over two columns, starts level with the percents by chance);
        # a figure among figures of one width (`808.711` under `1.034.248`) is the column's own
        return abs(others[0][0] - own[0]) <= ALIGNED and abs(others[0][1] - own[1]) <= ALIGNED
    return sum(abs(e[0] - own[0]) <= ALIGNED for e in others) >= need \
        or sum(abs(e[1] - own[1]) <= ALIGNED for e in others) >= need \
        or sum(abs((e[0] + e[1]) / 2 - mid) <= ALIGNED for e in others) >= need


EDGE = 4.0
"""Points between rule ends taken for one column edge."""


def rule_edges(hrules: Sequence[BBox], words: Sequence[Sequence[float]], region: Sequence[float],
               seps: Sequence[float]) -> list[float]:
    """`seps` with the column edges the rules between rows show and the words' gaps missed: a
    rule left out over a merged cell starts at the next column's edge (and a rule drawn in one
    piece per column breaks at every edge). An edge is taken where two rules or more end
    level with it inside the table, no word crosses it, and the words on its two sides between
    the separators around it stand level on two lines or more (`_level`): a column read as one
    beside its mostly empty merged neighbour (`Group Detail`) splits there; a column of figures
    under a spanner's label does not (peer icdar2013/us-017, `Grade` over `7 .. 12`)."""
    rs = [r for r in hrules if region[1] - 2 <= (r[1] + r[3]) / 2 <= region[3] + 2
          and r[2] > region[0] and r[0] < region[2]]
    if len(rs) < 3 or not words:
        return list(seps)
    left, right = min(r[0] for r in rs), max(r[2] for r in rs)
    ends = sorted([r[0] for r in rs if r[0] > left + EDGE] + [r[2] for r in rs if r[2] < right - EDGE])
    runs: list[list[float]] = []
    for x in ends:
        if runs and x - runs[-1][-1] <= EDGE:
            runs[-1].append(x)
        else:
            runs.append([x])
    out = sorted(seps)
    for run in runs:
        if len(run) < 2:
            continue
        x = (run[0] + run[-1]) / 2
        if any(w[0] < x < w[2] for w in words) or any(abs(x - s) <= 2 * EDGE for s in out):
            continue
        lo = max((s for s in out if s < x), default=-1e9)
        hi = min((s for s in out if s > x), default=1e9)
        beside = [w for w in words if lo < (w[0] + w[2]) / 2 < hi]
        if _level([w for w in beside if w[2] <= x], [w for w in beside if w[0] >= x]) >= 2:
            out = sorted([*out, x])
    return out



def _level(left: Sequence[Sequence[float]], right: Sequence[Sequence[float]]) -> int:
    """How many of the left words' lines hold right words level with them: two columns read
    as one share their rows (a merged label beside its first item, the header's two names);
    labels over a spanner's rule above a column of figures share none."""
    mids = sorted({round((w[1] + w[3]) / 2, 1) for w in left})
    return sum(1 for m in mids if any(abs((w[1] + w[3]) / 2 - m) <= 2.0 for w in right))
