"""What a borderless region holds that is not its table's columns: the lead-in lines over the
table (a heading or a sentence that would close every gap of its projection), a page number or
speck level with one row in the margin, and word spaces a short table's two rows happen to
share. Each returns the region's words or gaps less those (projection.py finds the gaps).

Words are PyMuPDF-style tuples `(x0, y0, x1, y1, text, ...)`; rows are `round(y1 / 3)`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rowkeeper.extractors.finder.aligned_columns import column_gap, phrase_ends, text_lines
from rowkeeper.extractors.finder.field_rows import WIDE_SPACE
from rowkeeper.extractors.finder.figure_words import mostly_numbers
from rowkeeper.extractors.finder.projection import aligned_separators, projection_gaps


def lead_in(words: Sequence[Any], tol: float = 3.0) -> list[Any]:
    """Words of the one-phrase lines at the top of a region that start at its table's left
    edge, run across a column gap of the lines under them and stand apart from them (more
    than one and a half row pitches up, or in larger print): a heading or lead-in sentence over
    a borderless table ("Here is a table") is no row of it, and would close every gap of its
    projection. A header row set tight (its labels a cell padding apart), a column header over
    one column, a spanner over its sub-columns (starting right of the stub) stay; at least
    three lines stay."""
    lines = text_lines([w for w in words if w[4].strip(".-_·…")])
    if len(lines) < 4:
        return []
    min_gap = column_gap([w for ln in lines for w in ln])
    k = 0
    while len(lines) - k > 3 and len(phrase_ends(lines[k], min_gap)[0]) == 1:
        k += 1
    if not k:
        return []
    rest = [w for ln in lines[k:] for w in ln]
    seps = aligned_separators(rest, projection_gaps(rest))
    left = min(w[0] for w in rest)
    tops = [min(w[1] for w in ln) for ln in lines]
    pitch = sorted(b - a for a, b in zip(tops[k:], tops[k + 1:], strict=False))[(len(lines) - k - 1) // 2]
    height = sorted(w[3] - w[1] for w in rest)[len(rest) // 2]
    out: list[Any] = []
    for i, ln in enumerate(lines[:k]):
        apart = tops[i + 1] - tops[i] > 1.5 * pitch or min(w[3] - w[1] for w in ln) > 1.1 * height \
            or (i + 1 == k and _header_row(lines[k], min_gap))
        if abs(ln[0][0] - left) > tol or not apart or not any(ln[0][0] < x < ln[-1][2] for x in seps):
            break
        out += ln
    return out


def _header_row(line: Sequence[Any], min_gap: float) -> bool:
    """Whether a line is a header row of its own: labels of several phrases, no figure among
    them. The one-phrase line right over it is then a caption or a title set a row pitch over
    the header ("Bảng 2 Tổng quan nhà cung cấp"), not a header line over that header."""
    return len(phrase_ends(line, min_gap)[0]) >= 2 and not mostly_numbers(line) \
        and not any(sum(ch.isdigit() for ch in str(w[4])) > sum(ch.isalpha() for ch in str(w[4])) for w in line)


def few_rows(words: Sequence[Any], min_rows: int = 3) -> bool:
    """Whether `words` stand on fewer than `min_rows` rows (`round(y1 / 3)`): a short table,
    whose narrow gaps `wide_gaps_only` weighs."""
    return len({round(w[3] / 3) for w in words}) < min_rows


def wide_gaps_only(words: Sequence[Any], seps: Sequence[float], min_rows: int = 3,
                   turns: Sequence[float] = ()) -> list[float]:
    """`seps` of a table of fewer than `min_rows` rows less those in a gap narrower than 1.5
    column gaps: two rows give no shared edge to tell a column from a word space that happens
    to be clear in both ("Valid until" over "Date"; a monospace face's space is a character
    wide, 1.33 column gaps), and two columns set so close are seldom a table's. A narrow gap
    stays where a word of every row starts at its right (values left-aligned beside keys), and
    some row leaves more white than a word space there or changes its print there (`turns`:
    where a line's face changes, a bold key's value in regular print). In a monospaced face
    every word starts on the character grid: two values' words a space after the words before
    them start level by chance ('2026. 01. 20.' over 'Folyópart 8')."""
    if not seps or not few_rows(words, min_rows):
        return list(seps)
    need = 1.5 * column_gap(words)
    space = min(need, WIDE_SPACE * _word_space(words, need))
    rows = {round(w[3] / 3) for w in words}
    out = []
    for x in seps:
        left = max((w[2] for w in words if w[2] <= x), default=None)
        right = min((w[0] for w in words if w[0] >= x), default=None)
        if left is None or right is None or right - left >= need or _shared_start(words, right, rows, space, turns):
            out.append(x)  # a wide gap, or a left edge every row shares (a column of values)
    return out


def _word_space(words: Sequence[Any], need: float) -> float:
    """The narrowest gap between two words of one printed line, each not a figure's group (a
    figure's groups stand a thin space apart), under `need`; `need` when there is none."""
    by_number = {(w[5], w[6], w[7]): w for w in words if len(w) >= 8}
    gaps = [b[0] - a[2] for (block, line, k), b in by_number.items()
            if (a := by_number.get((block, line, k - 1))) is not None
            and not (str(a[4])[:1].isdigit() and str(b[4])[:1].isdigit())]
    return min((g for g in gaps if 0 < g < need), default=need)


def _shared_start(words: Sequence[Any], x: float, rows: set[int], space: float, turns: Sequence[float]) -> bool:
    """Whether a word of every row starts at `x`, and not in every row as the next word of its
    printed line a word space on (`space`: less than 1.5 column gaps and `WIDE_SPACE` times the
    rows' own word space), in one print (`wide_gaps_only`): a key's value after more white
    (keys of their own lengths), set apart with no space (CJK), or where the print turns
    (`turns`) starts a column."""
    at = [w for w in words if abs(w[0] - x) <= 1.5]
    if {round(w[3] / 3) for w in at} != rows:
        return False
    return any(abs(t - x) <= 1.5 for t in turns) or not all(_next_word(words, w, space) for w in at)


def _next_word(words: Sequence[Any], w: Any, need: float) -> bool:
    """Whether word `w` is the next word of its printed line after the one before it (same block
    and line, the next word number: a space between them), less than `need` from it."""
    if len(w) < 8:
        return False
    prev = [v for v in words if len(v) >= 8 and v[5:7] == w[5:7] and v[7] == w[7] - 1]
    return bool(prev) and w[0] - prev[0][2] < need


def drop_margin_numbers(words: list[Any], seps: list[float]) -> tuple[list[Any], list[float]]:
    """Words and gaps without an edge column that holds one number in one inner row, or one
    character in one row: a page number or margin mark printed level with a row (a speck an
    OCR layer reads as a letter beside a scanned table), not a column of the table."""
    rows = sorted({round(w[3] / 3) for w in words})
    for edge in (0, -1):
        if not seps or len(rows) < 4:
            break
        outside = [w for w in words if ((w[0] + w[2]) / 2 < seps[0] if edge == 0 else (w[0] + w[2]) / 2 > seps[-1])]
        at = {round(w[3] / 3) for w in outside}
        speck = len("".join(w[4] for w in outside).strip()) == 1
        if len(at) == 1 and (speck or rows[0] not in at and rows[-1] not in at and all(
                any(ch.isdigit() for ch in w[4]) and not any(ch.isalpha() for ch in w[4]) for w in outside)):
            words = [w for w in words if w not in outside]
            seps = seps[1:] if edge == 0 else seps[:-1]
    return words, seps
