"""A column that is only the last words of the cells on its left.

In a monospaced face a word space is a character wide, as wide as the narrowest column gap:
where two cells of one column hold values of one shape (`Bergheim 23`, `Feldkamp 54`: a
word of eight letters, then a number), their second words line up and the x projection shows a
white stretch at their word space, so the read makes them a column of their own. Such a column
holds nothing but those tails: every line with a word in it has a word of the column on its
left a word space off, the same in each line. A column of its own starts somewhere else in
some line (a value with nothing just left of it, a header label a column gap from the one
before it). Only a monospaced face's word space is as wide as a column gap: in a
proportional face a word space is narrower than a character, and the tails' test is not met.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from rowkeeper.caption_text import is_caption
from rowkeeper.extractors.finder.aligned_columns import text_lines


def join_tail_columns(words: Sequence[Any], seps: Sequence[float], min_lines: int = 2) -> list[float]:
    """`seps` less the left edge of each column whose words are all tails of the cells left of
    it: in `min_lines` lines or more, each one character right of the line's word before it,
    both words set in one monospaced advance (every character as wide, the space too), while
    another line's cell left of it has no tail (values of other shapes). Where every line has
    its word there (a code and a name in each row) it may be a column: it stays. A caption
    line read with the table ("Tabelle 1. Quartalszahlen nach Standort") holds no cell."""
    lines = [ln for ln in text_lines(words) if not is_caption(" ".join(str(w[4]) for w in ln))]
    bounds = [-math.inf, *seps, math.inf]
    out = []
    for k, x in enumerate(seps):
        tails, short = 0, False  # short: a line with a cell left of x and nothing after it
        for ln in lines:
            inside = [w for w in ln if x <= w[0] < bounds[k + 2]]
            if not inside:
                short = short or any(bounds[k] <= w[0] and w[2] <= x for w in ln)
                continue
            left = [w for w in ln if w[2] <= inside[0][0] and w[0] >= bounds[k]]
            if not left or left[-1][2] > x or not _one_space(left[-1], inside[0]):
                tails = 0
                break
            tails += 1
        if tails < min_lines or not short:
            out.append(x)
    return out


def _advance(w: Sequence[Any]) -> float:
    return (w[2] - w[0]) / max(len(str(w[4])), 1)


def _one_space(a: Sequence[Any], b: Sequence[Any], tol: float = 0.03) -> bool:
    """Whether word `b` follows word `a` one space off, both in one monospaced advance."""
    step = _advance(a)
    return abs(_advance(b) - step) <= tol * step and abs(b[0] - a[2] - step) <= 0.15 * step
