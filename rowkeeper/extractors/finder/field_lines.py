"""A row of a block printed as one line: its value starts where the rows next to it start theirs.

A block of fields whose key and value stand one word space apart in some row (the longest key,
`Kapcsolattartó 717-3673`; a key in one face run up to its value in another, `有効期限広島`)
gets that row as one text line, in the same print throughout or with no print change to cut at
(`bold_keys` cuts at bold turning regular). The row is one segment, and the block falls short
of the rows a run needs, or loses that row. What the line keeps is the block's alignment: one
of its words starts where a short segment of a row right over or under it starts (the block's
value column, the next pair's key), and the line itself starts where a segment of that row
starts (the key column), and a word of it starts at every segment start of that row inside it.
The line is cut at those words, each part a field's length. A paragraph's or a note's words
start level with a table's column only by chance, not with each one they run across; a group
label over sub-columns starts where none of them does; a heading beside its number is no field.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from typing import Any

from rowkeeper.extractors.finder.field_blocks import MAX_CELL, MAX_LINE
from rowkeeper.models import BBox, TextLine
from rowkeeper.page_columns import text_rows

TOL = 1.0
"""How far apart (points) a word's start and a segment's start may be to stand in one column."""
REACH = 4.5
"""Line heights from the line to a row whose segments it is cut by: a price list's records
wrap over two or three lines, so the record over a key run into its description (`Nyugati
kapu sor 1610 Javítás: ...`, the longest key a word space from the description column) starts
three lines up."""
WordsOf = Callable[[BBox], list[Any]]
"""A page's word reader: the words inside a box."""


def split_at_columns(lines: Sequence[TextLine], words_of: WordsOf | None) -> list[TextLine]:
    """`lines` cut by `_split_once` until no line is cut further: a row cut by the row next to
    it lends its cuts to the one past it (a block's last row of one line, `電話番号¥409,752`,
    two rows under the nearest row read apart)."""
    out = list(lines)
    seen: dict[int, tuple[TextLine, list[list[float]], list[TextLine]]] = {}  # a line's cut, by the columns asked
    for _ in range(MAX_PASSES):
        cut = _split_once(out, words_of, seen)
        if len(cut) == len(out):
            return cut
        out = cut
    return out


MAX_PASSES = 4
"""How many times a cut may be passed on from row to row."""


def _split_once(lines: Sequence[TextLine], words_of: WordsOf | None,
                seen: dict[int, tuple[TextLine, list[list[float]], list[TextLine]]]) -> list[TextLine]:
    """`lines`, each short line (`MAX_LINE` characters at most: longer is running text) cut
    where its words start at the left edges of the short segments of a row of two segments or
    more right over or under it, at every one inside the line, when the line starts where that
    row starts a segment too, each part a field's length (`MAX_CELL`: the segments a line is
    cut by, and the parts it is cut into; a heading beside its number is no row of fields;
    see the module). `seen`: the lines cut (or not) in an earlier pass, and by which columns."""
    if words_of is None:
        return list(lines)
    rows = text_rows(lines)
    row_of = {id(t): i for i, r in enumerate(rows) for t in r}
    starts = sorted((t.bbox[0], row_of[id(t)]) for r in rows if len(r) >= 2 for t in r if len(t.text.strip()) <= MAX_CELL)
    xs = [x for x, _ in starts]
    tops = [r[0].bbox[1] for r in rows]
    out: list[TextLine] = []
    for t in lines:
        inner = starts[bisect_right(xs, t.bbox[0] + TOL):bisect_left(xs, t.bbox[2] - TOL)]
        i = row_of[id(t)]
        wrapped = _wrapped_under(rows, i, t) if len(t.text) > MAX_LINE else None
        if not inner or (len(t.text) > MAX_LINE and wrapped is None):
            out.append(t)
            continue
        reach = REACH * (t.bbox[3] - t.bbox[1])
        at_left = {j for _, j in starts[bisect_left(xs, t.bbox[0] - TOL):bisect_right(xs, t.bbox[0] + TOL)] if j != i}
        segments = {j: [x for x, k in inner if k == j] for j in at_left}  # each row's starts inside the line
        level = {j for j in at_left if abs(tops[j] - t.bbox[1]) <= reach} or _past_wrapped(rows, i, t, segments)
        columns = [c for c in (segments[k] for k in sorted(level)) if c]
        if not columns:
            out.append(t)
            continue
        before = seen.get(id(t))
        if before is None or before[0] is not t or before[1] != columns:  # the same line, asked the same
            seen[id(t)] = before = (t, columns, _cut(t, columns, words_of, wrapped))
        out += before[2]
    return out


def _past_wrapped(rows: Sequence[Sequence[TextLine]], i: int, line: TextLine,
                  inner: dict[int, list[float]]) -> set[int]:
    """The rows, past the reach, that start where `line` (of row `i`) starts and are the next
    such rows over and under it, when only the wrapped lines of records stand between: each
    starts right of `line`'s start (no key of its own), and one starts at a segment start of
    that row inside `line` (its cell's column; `inner`: the segment starts inside `line` of
    each row starting where it starts). A record whose key runs up to its description
    (`North Ridge plant 1796 Repair of all fire doors,`) prints as one line a record's height
    away from the records over and under it; a paragraph's lines start where it starts."""
    out: set[int] = set()
    for step in (-1, 1):
        firsts: list[float] = []
        j = i + step
        while 0 <= j < len(rows) and abs(j - i) <= MAX_WRAPPED:
            x = min(t.bbox[0] for t in rows[j])
            if x <= line.bbox[0] + TOL:
                if j in inner and any(abs(f - s) <= TOL for f in firsts for s in inner[j]):
                    out.add(j)
                break
            firsts.append(x)
            j += step
    return out


def _wrapped_under(rows: Sequence[Sequence[TextLine]], i: int, line: TextLine) -> float | None:
    """x where the row right under `line` (of row `i`, within two line heights) starts, when
    that is inside `line` and right of its start: a record's key run up to its description's
    first line (`5979 Maple Court hub Annual inspection of ventilation filters, with`), the
    description's next line under it in its own column (`disposal of old parts, as agreed in
    the`). A row of the record's figures alone, set level between its lines right of the
    description, stands between them and is passed over. A paragraph's next line starts where
    its line starts. None when there is no such row."""
    height = line.bbox[3] - line.bbox[1]
    for row in rows[i + 1:]:
        if row[0].bbox[1] - line.bbox[1] > 2 * height:
            return None
        x = min(t.bbox[0] for t in row)
        if x < line.bbox[2] - TOL:
            return x if x > line.bbox[0] + TOL else None
    return None


MAX_WRAPPED = 6
"""Rows (a record's wrapped lines, its figures' row) between a line and the row it is cut by."""


def _cut(line: TextLine, columns: Sequence[Sequence[float]], words_of: WordsOf,
         wrapped: float | None = None) -> list[TextLine]:
    """`line` as segments, one starting at each column x of the first of `columns` (a row's
    segment starts inside the line) at which one of its words starts, when each of that row's
    x has a word starting at it: a sentence under a table (`Abbreviation: CI = confidence
    interval.`) runs across some of its columns. The line itself when no row's columns fit.
    `wrapped`: x where the line under this one starts (`_wrapped_under`): the part starting
    there is a wrapped cell's first line and may be longer than a field."""
    mid = (line.bbox[1] + line.bbox[3]) / 2
    words = sorted((w for w in words_of(line.bbox) if w[1] <= mid <= w[3] and str(w[4]).strip()),
                   key=lambda w: w[0])
    # a figure's groups (`4 774 446 Ft`) part at no column: a right-aligned column's figures
    # start anywhere
    starts = [w[0] for k, w in enumerate(words) if k and not (_digit(words[k - 1]) and _digit(w))]
    xs = next((c for c in columns if all(any(abs(s - x) <= TOL for s in starts) for x in c)), None)
    if xs is None:
        return [line]
    parts: list[list[Any]] = []
    for w in words:
        if not parts or (w[0] in starts and any(abs(w[0] - x) <= TOL for x in xs)):
            parts.append([])
        parts[-1].append(w)
    if len(parts) < 2 or any(len(" ".join(str(w[4]) for w in p)) > MAX_CELL
                             and (wrapped is None or abs(p[0][0] - wrapped) > TOL) for p in parts):
        return [line]
    x0, y0, x1, y1 = line.bbox
    return [line.model_copy(update={"text": " ".join(str(w[4]) for w in p), "bold_lead": None,
                                    "bbox": (max(x0, p[0][0]), y0, min(x1, p[-1][2]), y1)}) for p in parts]


def _digit(word: Any) -> bool:
    return str(word[4])[:1].isdigit()
