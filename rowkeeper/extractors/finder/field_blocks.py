"""Field blocks: short rows whose words start at the same x, row under row (a form's "Key value"
pairs, two pairs to a row or one), read as a table even where a key runs up to its value.

The aligned-run detector sees a row's segments as the page's text lines cut it; a key set close
to its value (a long key, a narrow key column) prints as one line with it, so a block of fields
shows one segment a row and is no run, and a lone frame around it is a boxed note to the ruling
detector. What such a block keeps is the alignment of its whole value column: in the rows,
words start at one x (the values' left edge, and the next key's in a row of two pairs) that no
other word of the block crosses. Inside a frame two such rows make a block (three rows in
five aligned, so a value run into by one long key does not undo it), and the block is the
frame's: aligned regions found inside it (rows whose key and value stand apart) give way to
it, the rows they left out included. Without a frame, three rows or more all aligned at two
such x or more make one.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from typing import Any

from rowkeeper.boxes import bounds, overlap, within
from rowkeeper.models import BBox, TextLine
from rowkeeper.page_columns import running, text_rows

Word = Sequence[Any]  # (x0, y0, x1, y1, text, ...)

TOL = 0.75
"""How far apart (points) two word starts may be to stand in one column: a layout sets a
column's left edge at one x."""
MAX_CELL = 40
"""Characters a field holds at most (a longer one is running text)."""
MAX_LINE = 60
"""Characters a text line of a block holds at most: a key run into its value, and in a row of
two pairs on into the next key, print as one line."""
MARKER = re.compile(r"^(?:\W|\d{1,2}[.)]?|[A-Za-z][.)]|[ivxIVX]+[.)])$")
"""A list item's marker (a bullet, "1.", "a)"): what stands left of a list's text is no key."""
MAX_FRAMES = 60
"""Rules of each direction beyond which frames are not looked for (a page drawn as a grid)."""


def frames(hs: Sequence[BBox], vs: Sequence[BBox], tol: float = 2.0) -> list[BBox]:
    """Closed rectangles drawn as rules (a top and a bottom rule of one extent, a rule down each
    side between them) with no rule across their inside: a box around a block."""
    if len(hs) > MAX_FRAMES or len(vs) > MAX_FRAMES:
        return []
    out = []
    for i, top in enumerate(hs):
        for bottom in hs[i + 1:]:
            a, b = (top, bottom) if top[1] <= bottom[1] else (bottom, top)
            if abs(a[0] - b[0]) > tol or abs(a[2] - b[2]) > tol or b[1] - a[3] < 8:
                continue
            box = (min(a[0], b[0]), a[1], max(a[2], b[2]), b[3])
            sides = [v for v in vs if v[1] <= box[1] + tol and v[3] >= box[3] - tol]
            if not (any(abs(v[0] - box[0]) <= tol for v in sides) and any(abs(v[2] - box[2]) <= tol for v in sides)):
                continue
            if any(_crosses(r, box, tol) for r in [*hs, *vs]):
                continue
            out.append(box)
    return out


def _crosses(rule: BBox, box: BBox, tol: float) -> bool:
    """A rule strictly inside the box (an inner rule of a grid, not one of its edges)."""
    return box[0] + tol < (rule[0] + rule[2]) / 2 < box[2] - tol and box[1] + tol < (rule[1] + rule[3]) / 2 < box[3] - tol


def value_columns(rows: Sequence[Sequence[Word]], need: int, wide_share: float = 0.5) -> list[float]:
    """The x (right of the block's own left edge) where a word starts in `need` rows or more,
    in `wide_share` of them after a gap half as wide again as the row's word space and no narrower
    than a column gap (a paragraph's words start level by chance, after its even spaces; a
    currency sign after values of one width stands a word space off), and no word of the
    other rows but those it leaves (rows - need) runs across."""
    from rowkeeper.extractors.finder.aligned_columns import column_gap  # it imports page_features

    min_gap = column_gap([w for r in rows for w in r])
    left = min(w[0] for r in rows for w in r)
    starts = sorted((w[0], k) for k, r in enumerate(rows) for w in r[1:] if w[0] > left + 2 * TOL)
    out: list[float] = []
    i = 0
    while i < len(starts):
        j = i
        while j + 1 < len(starts) and starts[j + 1][0] - starts[i][0] <= TOL:
            j += 1
        x = starts[i][0]
        held = {k for _, k in starts[i:j + 1] if _key(rows[k], x)}
        if sum(MARKER.match(str(w[4])) is not None for r in rows for w in r if abs(w[0] - x) <= TOL) * 2 > len(held):
            i = j + 1
            continue  # a list's markers (a second column of bullets) start no field
        wide = sum(_gap_before(rows[k], x) >= max(min_gap, 1.5 * _space(rows[k])) for k in held)
        crossed = sum(any(w[0] < x - TOL and w[2] > x + TOL for w in r) for k, r in enumerate(rows) if k not in held)
        if len(held) >= need and wide >= wide_share * len(held) and crossed <= len(rows) - need:
            out.append(x)
        i = j + 1
    return out


def _gap_before(row: Sequence[Word], x: float) -> float:
    """The white between the word starting at x and the end of the words left of it."""
    return x - max((w[2] for w in row if w[0] < x - TOL), default=x)


def _space(row: Sequence[Word]) -> float:
    """A row's word space: its narrowest gap between words, a third of its height at most."""
    gaps = [b[0] - a[2] for a, b in zip(row, row[1:], strict=False) if b[0] - a[2] > 0.3]
    return min([*gaps, max(w[3] - w[1] for w in row) / 3])


def _key(row: Sequence[Word], x: float) -> bool:
    """Whether what a row holds left of x is a key (or a value before the next key), not a
    list item's marker."""
    left = " ".join(str(w[4]) for w in row if w[2] <= x + TOL).strip()
    return bool(left) and not MARKER.match(left)


def _word_rows(rows: Sequence[Sequence[TextLine]], words: Sequence[Word]) -> list[list[Word]]:
    """The words of each row's lines (their centre inside one of its lines), left to right."""
    def on(w: Word, t: TextLine) -> bool:
        x, y = (w[0] + w[2]) / 2, (w[1] + w[3]) / 2
        return t.bbox[0] - 1 <= x <= t.bbox[2] + 1 and t.bbox[1] - 1 <= y <= t.bbox[3] + 1

    return [sorted((w for w in words if any(on(w, t) for t in r)), key=lambda w: w[0]) for r in rows]


def _box(rows: Sequence[Sequence[TextLine]]) -> BBox:
    return bounds(t.bbox for r in rows for t in r)


def _aligned(word_rows: Sequence[Sequence[Word]], framed: bool) -> bool:
    """Whether rows of words read as a block of fields (`value_columns`): in a frame, one
    column x held by three rows in five; bare, two held by every row."""
    if any(not r for r in word_rows):
        return False
    n = len(word_rows)
    need = max(2, math.ceil(0.6 * n)) if framed else n
    xs = value_columns(word_rows, need, 0.5 if framed else 1.0)
    return len(xs) >= (1 if framed else 2) and all(_fields(r, xs) for r in word_rows)


def _bare_blocks(run: Sequence[Sequence[TextLine]], words_of: Callable[[BBox], list[Any]],
                 min_rows: int = 3) -> list[BBox]:
    """The longest stretches of `min_rows` rows or more of a run that read as blocks of fields."""
    word_rows = _word_rows(run, words_of(_box(run)))
    out, i = [], 0
    while i + min_rows <= len(run):
        j = i + min_rows
        if not _aligned(word_rows[i:j], False):
            i += 1
            continue
        while j < len(run) and _aligned(word_rows[i:j + 1], False):
            j += 1
        if not _mid_paragraph(run, i, j):
            out.append(_box(run[i:j]))
        i = j
    return out


def _mid_paragraph(run: Sequence[Sequence[TextLine]], i: int, j: int, tol: float = 1.0) -> bool:
    """Whether rows i..j-1 of a run are lines of a paragraph that goes on over or under them:
    each row one line of words (`_words`), all starting at one x and set at one pitch, and
    the row right over the first or under the last one line of running text too, at that x
    and that pitch. Prose in a monospaced face has its words start on the same character cells line
    under line, as a block of fields has its values; a form's rows hold figures or short keys,
    and a sentence over a table stands apart from its rows."""
    rows = [r[0] for r in run[i:j] if len(r) == 1]
    if len(rows) < j - i or not all(_words(t) for t in rows):
        return False
    x = rows[0].bbox[0]
    steps = [b.bbox[1] - a.bbox[1] for a, b in zip(rows, rows[1:], strict=False)]
    if any(abs(t.bbox[0] - x) > tol for t in rows) or max(steps) - min(steps) > tol:
        return False
    pitch = sum(steps) / len(steps)
    over = run[i - 1] if i > 0 else ()
    under = run[j] if j < len(run) else ()
    return any(len(r) == 1 and running(r[0]) and abs(r[0].bbox[0] - x) <= tol
               and abs(abs(r[0].bbox[1] - end.bbox[1]) - pitch) <= tol
               for r, end in ((over, rows[0]), (under, rows[-1])))


def _words(line: TextLine) -> bool:
    """A line of running text, or a short one of a narrow column's ragged paragraph: three
    words or more, letters mostly, no figure (`tax unless a note says`)."""
    text = line.text.strip()
    return running(line) or (len(text.split()) >= 3 and not any(ch.isdigit() for ch in text)
                             and sum(ch.isalpha() for ch in text) >= 0.7 * len(text))


def _short(row: Sequence[TextLine]) -> bool:
    return all(len(t.text.strip()) <= MAX_LINE for t in row)


def _fields(row: Sequence[Word], xs: Sequence[float]) -> bool:
    """Whether the row's words, cut at the columns' x, make fields of `MAX_CELL` characters at
    most, none a phrase of running text (four words and more, letters mostly: a list item's
    line)."""
    cuts = [-math.inf, *xs, math.inf]
    fields = [[str(w[4]) for w in row if a - TOL <= w[0] < b - TOL] for a, b in zip(cuts, cuts[1:], strict=False)]
    return all(len(" ".join(f)) <= MAX_CELL and not _phrase(f) for f in fields)


def _phrase(words: Sequence[str]) -> bool:
    text = "".join(words)
    return len(words) >= 4 and sum(ch.isalpha() for ch in text) >= 0.7 * len(text)


def _runs(rows: Sequence[Sequence[TextLine]]) -> list[list[Sequence[TextLine]]]:
    """Runs of consecutive short rows, each under the last by at most two line heights."""
    runs: list[list[Sequence[TextLine]]] = []
    for r in rows:
        if not _short(r):
            runs.append([])
            continue
        h = max(t.bbox[3] - t.bbox[1] for t in r)
        if runs and runs[-1] and min(t.bbox[1] for t in r) - max(t.bbox[3] for t in runs[-1][-1]) <= 2 * h:
            runs[-1].append(r)
        else:
            runs.append([r])
    return [run for run in runs if len(run) >= 3]


def field_blocks(lines: Sequence[TextLine], hs: Sequence[BBox], vs: Sequence[BBox],
                 words_of: Callable[[BBox], list[Any]], ruled: Sequence[BBox] = (),
                 aligned: Sequence[BBox] = (), drawn: Sequence[BBox] | None = None) -> list[BBox]:
    """The `aligned` regions with the blocks of fields no `ruled` or aligned region holds
    added: the rows inside a frame, or three short rows or more in a run, whose words start
    column over column (`value_columns`). A frame around aligned regions whose rows read as a
    block replaces them: the rows they left out (a key run up to its value) are the block's.
    `drawn`: the page's `frames`, when the caller has them."""
    texts = [ln for ln in lines if ln.text.strip() and not any(overlap(ln.bbox, t) > 0 for t in ruled)]
    blocks: list[tuple[BBox, BBox]] = []  # (frame, its block's box)
    for frame in frames(hs, vs) if drawn is None else drawn:
        rows = text_rows([ln for ln in texts if within(ln.bbox, frame, 1.0)])
        if len(rows) >= 2 and all(_short(r) for r in rows) \
                and _aligned(_word_rows(rows, words_of(_box(rows))), True):
            blocks.append((frame, _box(rows)))
    kept, spoilt = [], set()
    for a in aligned:
        touched = [k for k, (f, _) in enumerate(blocks) if overlap(a, f) > 0]
        mine = [ln for ln in texts if within(ln.bbox, a, 0.5)]
        if touched and all(any(within(ln.bbox, blocks[k][0], 1.0) for k in touched) for ln in mine):
            continue  # the frames' blocks read what the region held, and the rows it left out
        kept.append(a)
        spoilt |= set(touched)
    out = [box for k, (_, box) in enumerate(blocks) if k not in spoilt]
    rest = [ln for ln in texts if not any(overlap(ln.bbox, b) > 0 for b in [*kept, *out])]
    for run in _runs(text_rows(rest)):
        out += _bare_blocks(run, words_of) or _side_blocks(run, words_of)
    return kept + out


def _river(lines: Sequence[TextLine]) -> float | None:
    """The middle of the widest white band down a run that no line crosses, when it is four
    line heights wide at least (the white between two blocks set side by side); else None."""
    spans = sorted((t.bbox[0], t.bbox[2]) for t in lines)
    river, at, reach = 0.0, 0.0, spans[0][1]
    for x0, x1 in spans[1:]:
        if x0 - reach > river:
            river, at = x0 - reach, (x0 + reach) / 2
        reach = max(reach, x1)
    height = sorted(t.bbox[3] - t.bbox[1] for t in lines)[len(lines) // 2]
    return at if river >= 4 * height else None


def _side_blocks(run: Sequence[Sequence[TextLine]], words_of: Callable[[BBox], list[Any]]) -> list[BBox]:
    """Two blocks of fields set side by side whose rows are not level (two pitches, one block
    longer), one pair a row: each side of the white between them is a block when every row of
    it has its value start at one x (`value_columns`), one side three rows or more and the
    other two or more. A lone block of one pair a row is as often two columns of text; a
    second one beside it says form."""
    flat = [t for r in run for t in r]
    size = sorted(t.font_size for t in flat)[len(flat) // 2]
    # a title over the blocks is none of theirs, nor what stands over it (a running head)
    titles = [i for i, r in enumerate(run) if any(t.font_size >= 1.2 * size for t in r)]
    flat = [t for r in run[titles[-1] + 1 if titles else 0:] for t in r]
    at = _river(flat) if flat else None
    if at is None:
        return []
    sides = [text_rows([t for t in flat if t.bbox[2] <= at]), text_rows([t for t in flat if t.bbox[0] >= at])]
    counts = []
    for side in sides:
        word_rows = _word_rows(side, words_of(_box(side)))
        if any(not r for r in word_rows):
            return []
        wrapped = _wrapped(word_rows)
        xs = value_columns(word_rows, len(side) - len(wrapped), 1.0)
        if not xs or not all(_fields(r, xs) for r in word_rows) \
                or any(all(abs(word_rows[k][0][0] - x) > TOL for x in xs) for k in wrapped):
            return []
        counts.append(len(side) - len(wrapped))
    if min(counts) < 2 or max(counts) < 3:
        return []
    return [_box(s) for s in sides]


def _wrapped(rows: Sequence[Sequence[Word]]) -> list[int]:
    """Rows after the first that hold no key (their words start right of the block's left
    edge): a value wrapped onto a second line ("Harbor View 6 / 51093 Maple Court"), which
    must start at a value column."""
    left = min(w[0] for r in rows for w in r)
    return [k for k, r in enumerate(rows) if k and r[0][0] > left + 2 * TOL]


def field_separators(words: Sequence[Word]) -> list[float]:
    """Column separators of a region's words read as a block of fields: just left of each x
    where words start in three rows in five (`value_columns`); [] for fewer than two rows."""
    from rowkeeper.extractors.finder.aligned_columns import text_lines

    rows = text_lines(words)
    if len(rows) < 2:
        return []
    return [x - TOL for x in value_columns(rows, max(2, math.ceil(0.6 * len(rows))))]
