"""Wrapped row labels in a borderless table: the lines a long first-column label wraps onto.

"Applications and mashups developed" / "by the public and government" prints its values on the
label's first line; a text-strategy grid reads the second line as a row of its own with only a
label. Such a line is the label's tail when it stands tight under its row while the table's
rows stand apart (the grid then has an empty row of white between any two records, none
between a label's lines), or, in a table set at one pitch throughout, when it starts in
lower case (a sentence runs on; a row label or a group label starts a phrase), or after a
label broken off after a connector (`American Indian/` / `Alaska Native`). A label line
with values-only rows under it is their label, not a tail (`merge_wrapped_rows` joins those).
A record whose cells all wrap (a label and a sentence) runs on in a row whose every filled
cell starts in lower case.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import takewhile

from rowkeeper.boxes import centre_in, union
from rowkeeper.label_text import breaks_off
from rowkeeper.models import BBox, TextLine
from rowkeeper.page_columns import text_rows

_NOTE = re.compile(r"^(?:[*†‡§¹²³]|\(?[a-z\d]{1,2}\)\s|[a-z\d]\s)")
"""A footnote's marker ("a Data are provisional", "1) ..."): a note under the table, no tail."""
APART = 2 / 3
"""Share of consecutive records that an empty grid row parts for the table's rows to stand apart."""


def _full(t: Sequence[str]) -> bool:
    return bool(t[0]) and any(t[1:])


def _label_only(t: Sequence[str]) -> bool:
    return bool(t[0]) and not any(t[1:])


def _values_only(t: Sequence[str]) -> bool:
    return len(t) > 1 and not t[0] and any(t[1:])


def rows_apart(texts: Sequence[Sequence[str]]) -> bool:
    """Whether the grid has an empty row between most consecutive records (label and values)."""
    filled = [i for i, t in enumerate(texts) if any(t)]
    pairs = [(a, b) for a, b in zip(filled, filled[1:], strict=False) if _full(texts[a]) and _full(texts[b])]
    return len(pairs) >= 2 and sum(b - a > 1 for a, b in pairs) >= APART * len(pairs)


def join_label_tails(rows: Sequence[Sequence[BBox | None]], texts: Sequence[Sequence[str | None]],
                     starts: Sequence[float | None] = ()) -> tuple[list[list[BBox | None]], list[list[str | None]]]:
    """The grid with each wrapped label's tail lines joined to its record's first cell (grids
    with spans, None slots, are left alone); `starts`: where each row's label starts (x), its
    indent."""
    rs = [list(r) for r in rows]
    ts: list[list[str]] = [[x or "" for x in t] for t in texts]
    if any(b is None for r in rs for b in r) or not ts or len(ts[0]) < 2:
        return rs, [list(t) for t in texts]
    apart = rows_apart(ts)
    # lower case tells a run-on line only where the records' labels start otherwise (a column
    # of lower-case identifiers or codes starts every record so)
    labels = [t[0] for t in ts if _full(t)]
    lower = 3 * sum(1 for x in labels if x[:1].islower()) <= len(labels)
    out_r: list[list[BBox | None]] = []
    out_t: list[list[str]] = []
    owner: int | None = None  # the record (index in out) a tail line would join
    last = -2  # the grid row of the last line read
    for i, t in enumerate(ts):
        if not any(t):
            out_r.append(rs[i])
            out_t.append(t)
            continue
        tight = owner is not None and i == last + 1 and not _values_next(ts, i)
        low = lower and t[0][:1].islower()
        group = owner is not None and _label_only(out_t[owner])  # a group label wraps in lower case only
        if tight and owner is not None and (_label_only(t) and (apart and _lone_line(ts, i, starts) and not group or low
                                                                or _broken_off(out_t[owner][0]))
                                            or lower and _runs_on(t) and not group):
            out_t[owner] = [f"{a} {b}" if a and b else a or b for a, b in zip(out_t[owner], t, strict=False)]
            out_r[owner] = [union(x, y) for x, y in zip(out_r[owner], rs[i], strict=False)]
        else:
            out_r.append(rs[i])
            out_t.append(t)
            # the grid's first line is its header (or a title read into it), no record: a
            # header's wrapped lines are the header code's (`label_text.wrapped_rows`)
            owner = len(out_t) - 1 if (_full(t) or _label_only(t)) and any(any(x) for x in out_t[:-1]) else None
        last = i
    return out_r, [list(t) for t in out_t]


def _lone_line(ts: Sequence[Sequence[str]], i: int, starts: Sequence[float | None] = ()) -> bool:
    """Whether label-only line i is the one line between its record and the white under it: a
    second one there (a group label set tight under a wrapped record: "American Indian/Alaska"
    / "Native" / "Annual income ($)") leaves it unclear which line is whose, unless the lines
    are indented: those at the record label's indent or right of it are its tail, up to the
    first set out left of it (a group label of an outer level: "Native" under "American
    Indian/Alaska", then "Sex, by race/ethnicity" at the margin)."""
    j = i - 1
    while j >= 0 and _label_only(ts[j]):
        j -= 1
    k = i + 1
    while k < len(ts) and any(ts[k]):
        k += 1
    lines = [m for m in range(j + 1, k) if _label_only(ts[m])]
    if len(lines) == 1:
        return True
    at = starts[j] if 0 <= j < len(starts) else None
    if at is None or len(starts) < k:
        return False
    own = list(takewhile(lambda m: (starts[m] or 0.0) >= at - INDENT_TOL, lines))
    return i in own and len(own) < len(lines)


INDENT_TOL = 1.0
"""How far (pt) left of its record's label a tail line may start (both set at one indent)."""


def _broken_off(label: str) -> bool:
    """Whether a record's label breaks off after a connector (`American Indian/` over `Alaska
    Native`, `Percentage of`): the label-only line tight under it is its tail, even where a
    group label follows it before the white. A band's open end (`65+`) connects nothing."""
    return breaks_off(label) and not label.rstrip().endswith("+")


def _runs_on(t: Sequence[str]) -> bool:
    """The row has a label and every filled cell starts in lower case: each runs on a sentence of the row
    above ("Disposable income per capita in" / "constant dollars", "... -1.9% and 2.2%" /
    "with an annual growth rate of 1.4%"); a sub-row's label or a figure does not."""
    filled = [x for x in t if x]
    return bool(t[0]) and all(x[:1].islower() for x in filled)


def _values_next(ts: Sequence[Sequence[str]], i: int) -> bool:
    """Whether the row right under row i holds values only (the line is their label)."""
    return i + 1 < len(ts) and _values_only(ts[i + 1])




def with_last_tail(region: BBox, lines: Sequence[TextLine], hs: Sequence[BBox] = ()) -> BBox:
    """`region` (an aligned run) reaching down over the tail lines of its last record's label:
    lines alone on their row right under it, starting in its first column and ending before
    its middle or before its other columns' text, each tighter under the line above than the run's rows stand apart (or, at the
    run's one pitch, starting in lower case), no rule between."""
    inside = [ln for ln in lines if centre_in(ln.bbox, region) and ln.text.strip()]
    rows = text_rows(inside)
    if len(rows) < 3:
        return region
    gaps = sorted(min(t.bbox[1] for t in b) - max(t.bbox[3] for t in a) for a, b in zip(rows, rows[1:], strict=False))
    gap = gaps[len(gaps) // 2]
    first = min(t.bbox[0] for t in rows[-1])
    # the tail stays in the first column: it ends before the middle, or before any other column
    ends = max((region[0] + region[2]) / 2, min((t.bbox[0] for r in rows for t in r if t.bbox[0] > first + 1),
                                                default=region[2]) - 2)
    lower = 3 * sum(1 for r in rows if min(r, key=lambda t: t.bbox[0]).text.strip()[:1].islower()) <= len(rows)
    # (the other page column's prose level with the tail is beside the table, not under it)
    below = sorted((ln for ln in lines if ln.bbox[1] >= region[3] - 1 and ln.text.strip()
                    and ln.bbox[2] > region[0] and ln.bbox[0] < region[2]), key=lambda t: t.bbox[1])
    bottom = region[3]
    for row in text_rows(below):
        ln = row[0]
        step = ln.bbox[1] - bottom
        if len(row) > 1 or not (first - 1 <= ln.bbox[0] and ln.bbox[2] < ends):
            break
        if _NOTE.match(ln.text.strip()) or not (step < 0.5 * gap or (lower and step <= gap + 0.5 and ln.text.strip()[:1].islower())):
            break
        if any(h[1] >= bottom - 0.5 and h[3] <= ln.bbox[1] + 0.5 and h[0] <= ln.bbox[2] and h[2] >= ln.bbox[0] for h in hs):
            break
        bottom = ln.bbox[3]
    return region if bottom == region[3] else (region[0], region[1], region[2], bottom)


