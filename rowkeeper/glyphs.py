"""Full-width glyphs (CJK ideographs, kana, hangul, full-width forms): a whole em wide each,
set with no space between words; a gap between two of them in a line is no word space. Also
where a stretch of a line's characters lies when only the line's box is known (`span_x`), and
the marks an OCR text layer reads from specks beside a figure (`STRAY_MARKS`)."""

from __future__ import annotations

import re


def is_cjk(ch: str) -> bool:
    """Whether `ch` (its first character; "" is not) is a CJK ideograph, kana or full-width
    form, code point U+2E80 or above: set with no space between words, so a line break
    touching one joins with nothing."""
    return bool(ch) and ord(ch[0]) >= 0x2E80


def run_on(upper: str, lower: str) -> str:
    """A cell's text and its next printed line as one: a space between them, none where the
    break touches a CJK character (Japanese runs on over a line break)."""
    if not upper or not lower:
        return upper or lower
    return f"{upper}{lower}" if is_cjk(upper[-1]) or is_cjk(lower[0]) else f"{upper} {lower}"


SPACELESS = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]")
"""Kana, Han and Hangul: scripts whose letter spacing the label rules read (`施 設 種 類`), not
the narrow letter-spacing join, and where a header line's spacing is the reader's."""

WIDE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff01-\uff60]")


WIDE_CELLS = 1.4
"""Characters a full-width glyph counts as when a column gap is sized (`char_cells`): a CJK
key and its value printed 0.55-0.75 em apart (MuPDF glues them into one word up to about
0.75 em) are two columns, a half-width space (0.5 em in IPA and MS fonts: `高松 10`) is not."""


def char_cells(text: str) -> float:
    """`text`'s length in characters, a full-width glyph counting `WIDE_CELLS`, so a column
    gap sized from the median character stays above a half-width space in CJK text."""
    if not WIDE.search(text):  # no full-width glyph (most words): the count, as the sum of ones gives it
        return len(text)
    return sum(WIDE_CELLS if WIDE.match(ch) else 1 for ch in text)


def span_x(text: str, x0: float, x1: float, a: int, b: int) -> tuple[float, float]:
    """The x extent of characters `a` to `b` of `text` printed from `x0` to `x1`, estimated
    from character offsets (a full-width glyph `WIDE_CELLS` characters wide): one estimator
    for every place that cuts a line's box at its text."""
    per_cell = (x1 - x0) / max(char_cells(text), 1)
    left = x0 + char_cells(text[:a]) * per_cell
    return left, left + char_cells(text[a:b]) * per_cell


STRAY_MARKS = "'\"„“”‚‘’«»^—–-*"
"""Marks an OCR text layer reads from specks and rule ends beside a figure ("200—", "500^",
"3 400-"): the finder reads a column's ink without them (`finder.stray_marks`), the packed-cell
check a letter-spaced figure within them (`validate.spaced_figure`)."""
