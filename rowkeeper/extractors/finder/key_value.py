"""Key-value blocks: a form's "Key: value" pairs read as two-column tables with no header.

A borderless grid whose columns pair up as (keys, values) side by side (an estimate's customer
block beside its offer block) is one table per pair: keys end with a colon in most rows, or
are printed in bold beside values that are not. Such a table has no header row; the
transforms see it in the piece's `metrics` (`KEY_VALUE`).
"""

from __future__ import annotations

from collections.abc import Sequence

from rowkeeper.extractors.finder.aligned_columns import Word, column_gap, phrase_ends, text_lines
from rowkeeper.extractors.finder.figure_words import is_figure
from rowkeeper.models import Cell

KEY_VALUE = "key_value"
"""`RawTable.metrics` key set to 1.0 on a key-value table: its first row is no header."""

_COLONS = (":", "：")


def key_value_pairs(cells: Sequence[Cell], n_cols: int, min_rows: int = 2) -> list[tuple[int, int]]:
    """(key column, value column) of each block when every even column holds keys and the one
    after it their values, in at least `min_rows` rows each; [] for any other grid."""
    if n_cols < 2 or n_cols % 2 or any(c.col_span > 1 or c.row_span > 1 for c in cells):
        return []
    by_col: dict[int, list[Cell]] = {}
    for c in cells:
        if c.text.strip():
            by_col.setdefault(c.col, []).append(c)
    pairs = [(k, k + 1) for k in range(0, n_cols, 2)]
    for k, v in pairs:
        keys, values = by_col.get(k, []), by_col.get(v, [])
        if len(keys) < min_rows or not _keys(keys, values) or _keys(values, keys):
            return []
        rows_k, rows_v = {c.row for c in keys}, {c.row for c in values}
        if len(rows_k & rows_v) < max(min_rows, 0.6 * len(rows_k)):
            return []  # keys without values are a list of labels, not a form
    return pairs


def fields_across(cells: Sequence[Cell], n_rows: int, n_cols: int) -> bool:
    """Whether a grid read from aligned text is two rows of fields set across in plain print
    (`Customer | Glenwood | Valid until | Bay Point` over `Address | 2019-10-16 | Date |
    2021-11-24`): two pairs or more a row, every cell filled, the keys (even columns) words,
    nothing bold (a bold header row; bold keys are `key_value_pairs`'), a figure among the
    values. Two such rows are found as fields only (`field_rows`: a run needs more rows), so
    their first row is one more field, no header."""
    if n_rows != 2 or n_cols < 4 or n_cols % 2 or len(cells) != 2 * n_cols or \
            any(c.col_span > 1 or c.row_span > 1 or not c.text.strip() for c in cells):
        return False
    keys = [c for c in cells if c.col % 2 == 0]
    values = [c for c in cells if c.col % 2]
    return not any(is_figure(c.text.strip()) for c in keys) and any(is_figure(c.text.strip()) for c in values) \
        and not any(c.bold for c in cells)


def _keys(keys: Sequence[Cell], values: Sequence[Cell]) -> bool:
    """Labels of a form: most end with a colon, or all are bold beside values that are not."""
    colons = sum(c.text.rstrip().endswith(_COLONS) for c in keys)
    if colons >= 0.6 * len(keys):
        return True
    return all(c.bold for c in keys) and bool(values) and not any(c.bold for c in values)


def split_pairs(cells: Sequence[Cell], pairs: Sequence[tuple[int, int]]) -> list[list[Cell]]:
    """The cells of each (key, value) pair as a two-column grid of its own, its rows
    renumbered from 0 without the rows it leaves empty, none flagged as header."""
    out = []
    for k, v in pairs:
        mine = [c for c in cells if c.col in (k, v)]
        rows = sorted({c.row for c in mine if c.text.strip()})
        at = {r: i for i, r in enumerate(rows)}
        out.append([c.model_copy(update={"row": at[c.row], "col": c.col - k, "is_header": False})
                    for c in mine if c.row in at])
    return out


EDGE = 1.5
"""How far apart (points) two words may start to stand at one column's left edge."""
RIVER = 3.0
"""How many times the white inside either block the white space between two blocks side by
side is, at least: the widest gap between two phrases of a line where the sides' lines stand
level (as a table's rows do across a wide gap), else the gutter between a block's keys and its
values (blocks of their own lengths and pitches, a fixed-width key column padded wide)."""


def _phrase_gaps(lines: Sequence[Sequence[Word]], gap: float) -> float:
    """The widest gap between two phrases of one line."""
    out = 0.0
    for ln in lines:
        starts, _ = phrase_ends(ln, gap)
        out = max([out, *(ln[i][0] - ln[i - 1][2] for i in starts if i)])
    return out


def _level(left: Sequence[Sequence[Word]], right: Sequence[Sequence[Word]]) -> bool:
    """Whether two sides' lines stand level, line for line (one table's rows on either side of
    a wide gap, a roll call's names and provinces), not two blocks of their own lengths or
    pitches."""
    def mid(ln: Sequence[Word]) -> float:
        return (ln[0][1] + ln[0][3]) / 2

    return len(left) == len(right) and all(abs(mid(a) - mid(b)) < 0.5 * (a[0][3] - a[0][1])
                                           for a, b in zip(left, right, strict=True))


def _gutter(lines: Sequence[Sequence[Word]], gap: float) -> float:
    """The white between a block's keys and its values: from the end of its longest key (the
    words ending before the values start) to where its values start. A short key stands
    further off its value, the more so in a fixed-width face whose key column is padded to its
    longest key: the column's gutter is the narrowest of those gaps."""
    left = _values_left(lines, gap)
    return left - max((w[2] for ln in lines for w in ln if w[2] <= left), default=left)


def _block(lines: Sequence[Sequence[Word]], gap: float) -> bool:
    """Whether lines read as a block of fields: two lines or more, half of them or more with a
    key and a value (two phrases), most starting with words (keys), not figures, each starting
    where the keys start or where the values start (a value wrapped onto a line of its own).
    A column of keys alone, far from its values (a two-column block set wide), has a second
    phrase only where a key of two words is set in a fixed-width face (`Quote no.`); a
    table's row set across under the block starts elsewhere, and so does a phrase right of
    where the values start, further from the words before it than the values stand from the
    keys (a third column: fields set across under the block, `Phone` `Quote no.` over their
    values, the third in the next block's place)."""
    if len(lines) < 2 or 2 * sum(len(phrase_ends(ln, gap)[0]) >= 2 for ln in lines) < len(lines):
        return False
    left, values = min(ln[0][0] for ln in lines), _values_left(lines, gap)
    if any(abs(ln[0][0] - left) > EDGE and abs(ln[0][0] - values) > EDGE for ln in lines):
        return False
    white = _gutter(lines, gap)  # a value's own words stand closer (a date in a fixed-width face)
    if any(ln[i][0] > values + EDGE and ln[i][0] - ln[i - 1][2] > white
           for ln in lines for i in phrase_ends(ln, gap)[0] if i):
        return False
    return sum(not is_figure(str(ln[0][4])) for ln in lines) >= 0.6 * len(lines)


def blocks_apart(words: Sequence[Word]) -> list[tuple[float, float, float]]:
    """(left, key-value boundary, right) of two blocks of fields side by side in one aligned region (an estimate's
    customer block and its offer block, no rules around them), parted by white space that no
    word crosses, `RIVER` times wider than the white inside either block and four line heights
    wide at least, its values starting where the block's second phrases start at the
    earliest; [] for a table whose columns are merely far apart (its right-hand columns
    hold figures, or its gaps are alike)."""
    if len(words) < 4:
        return []
    river, at, _ = _river(words)
    height = sorted(w[3] - w[1] for w in words)[len(words) // 2]
    if river < 4 * height:
        return []
    gap = column_gap(words)
    sides = [text_lines([w for w in words if w[2] <= at + 0.5]), text_lines([w for w in words if w[0] > at])]
    inner = _phrase_gaps if _level(*sides) else _gutter
    if not all(_block(s, gap) for s in sides) or river < RIVER * max(inner(s, gap) for s in sides):
        return []
    return [(min(w[0] for ln in s for w in ln), _values_left(s, gap) - 0.5, max(w[2] for ln in s for w in ln))
            for s in sides]


def _river(words: Sequence[Word]) -> tuple[float, float, float]:
    """The widest white that no word crosses, left to right: (its width, the x it starts at,
    the x it ends at, a word's left edge); (0, 0, 0) when every word overlaps the next."""
    spans = sorted((w[0], w[2]) for w in words)
    river, at, end = 0.0, 0.0, 0.0
    reach = spans[0][1]
    for x0, x1 in spans[1:]:
        if x0 - reach > river:
            river, at, end = x0 - reach, reach, x0
        reach = max(reach, x1)
    return river, at, end


def _values_left(lines: Sequence[Sequence[Word]], gap: float) -> float:
    """Where a block's values start: the x where the most lines start a phrase after their
    first, the leftmost of those (a key set close to its value, printed as one phrase, has its
    value's words right of it all the same; a key of two words in a fixed-width face starts a
    phrase at its second word, in its own line only)."""
    starts = sorted(ln[i][0] for ln in lines for i in phrase_ends(ln, gap)[0] if i)
    # the starts within EDGE of each start, counted with a window that slides along the sorted
    # starts (one pass, not one over all starts for each: a region of many rows has thousands)
    best, most, lo, hi = starts[0], -1, 0, 0
    for x in starts:
        while abs(starts[lo] - x) > EDGE:
            lo += 1
        while hi < len(starts) and abs(starts[hi] - x) <= EDGE:
            hi += 1
        if hi - lo > most:  # the leftmost of the most held (x only grows)
            best, most = x, hi - lo
    return best


def under_blocks(words: Sequence[Word]) -> float | None:
    """The height where two blocks of fields side by side (`blocks_apart`) end and rows set
    across the white between them start (a form's fields across under its blocks, no rules to
    part them): the region's top lines make the blocks, two lines or more under them do not
    and cross the blocks' river; None when no such cut is found. A line under them that starts
    where the left block's values start is that block's value going on (a slide's list items
    under the first, wider than the first line's), no row set across."""
    lines = text_lines(words)
    for k in range(len(lines) - 2, 1, -1):
        top = [w for ln in lines[:k] for w in ln]
        # the blocks' inner edges stand at the top lines' river or inside it (the left block
        # ends at its start or further right, the right one starts at its end or further left):
        # lines under that do not all reach into the river cross no blocks', and the costlier
        # reading of the blocks is skipped
        river, at, end = _river(top)
        if river > 0 and not all(any(at < w[2] and w[0] < end for w in ln) for ln in lines[k:]):
            continue
        blocks = blocks_apart(top)
        if blocks and abs(lines[k][0][0] - blocks[0][1] - 0.5) > EDGE and \
                all(any(blocks[0][2] < w[2] and w[0] < blocks[1][0] for w in ln) for ln in lines[k:]):
            return (max(w[3] for w in top) + min(w[1] for ln in lines[k:] for w in ln)) / 2
    return None
