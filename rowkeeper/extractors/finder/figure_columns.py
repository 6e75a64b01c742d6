"""Two columns of figures set closer than a word space: the boundary whole figures show.

A figure with its unit ("79,8 %", "7 290 496 Ft") is a whole: after its unit, or after a part
that no group of thousands continues, the next figure starts. Where every row of a column of
the projection reads as two figures parted at one shared stretch of x, and that gap is not the
word space the column's figures are set with inside (a string's own space is the same in every
row), the figures were placed apart: two right-aligned columns whose widest cells nearly touch.
Words are PyMuPDF-style tuples `(x0, y0, x1, y1, text, ...)`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

from rowkeeper.extractors.finder.aligned_columns import text_lines
from rowkeeper.extractors.finder.figure_words import goes_on

_NUMBER = re.compile(r"[-−+(]?[$€£¥]?\d[\d.,]*%?\)?")
_UNIT = re.compile(r"[^\d\s]{1,3}")


def figure_starts(texts: Sequence[str]) -> list[int] | None:
    """Indexes of the words that start a figure after the first ("79,8", "%", "7", "290",
    "496", "Ft" -> [2]); None when a word is neither a number nor a unit."""
    starts: list[int] = []
    closed = False  # the figure so far has its unit: a number after it is the next figure
    for i, t in enumerate(texts):
        if _NUMBER.fullmatch(t):
            if i and (closed or not goes_on(texts[i - 1], t)):
                starts.append(i)
            closed = False
        elif _UNIT.fullmatch(t) and i and not closed:
            closed = True
        else:
            return None
    return starts


def close_figure_columns(words: Sequence[Any], seps: Sequence[float], min_rows: int = 3) -> list[float]:
    """`seps` with a boundary inside each column where whole figures of two columns stand
    closer than a word space apart (module docstring)."""
    lines = text_lines([w for w in words if str(w[4]).strip()])
    space = _word_space(lines)
    out = sorted(seps)
    for _ in range(len(out) + 2):  # each pass may add one boundary per column
        bounds = [-math.inf, *out, math.inf]
        more = [x for lo, hi in zip(bounds, bounds[1:], strict=False)
                if (x := _cut_in(lines, lo, hi, min_rows, space)) is not None]
        if not more:
            break
        out = sorted([*out, *more])
    return out


def _word_space(lines: Sequence[Sequence[Any]]) -> float | None:
    """The median space between the words of a phrase (closer than half their height) on
    `lines`, next to a word that is no number (the labels' and names' spaces); None when none."""
    gaps = sorted(g for ln in lines for a, b in zip(ln, ln[1:], strict=False)
                  if 0 < (g := b[0] - a[2]) < 0.5 * (b[3] - b[1])
                  and not (_NUMBER.fullmatch(str(a[4])) and _NUMBER.fullmatch(str(b[4]))))
    return gaps[len(gaps) // 2] if gaps else None


def _cut_in(lines: Sequence[Sequence[Any]], lo: float, hi: float, min_rows: int,
            table_space: float | None = None) -> float | None:
    """x of the boundary inside column [lo, hi) (module docstring), None when there is none.
    A column whose cells are two single-word figures each has no space of its own to tell
    from: the table's word space (`table_space`, the names' and labels') stands for it."""
    cells = [[w for w in ln if lo <= (w[0] + w[2]) / 2 < hi] for ln in lines]
    figures, cuts, spaces = 0, [], []
    for cell in cells:
        starts = figure_starts([str(w[4]) for w in cell]) if cell else None
        if starts is None:
            continue
        figures += 1
        spaces += [b[0] - a[2] for i, (a, b) in enumerate(zip(cell, cell[1:], strict=False)) if i + 1 not in starts]
        if starts:
            cuts.append((cell[starts[0] - 1][2], cell[starts[0]][0]))
    spaces = spaces or ([table_space] if table_space is not None else [])
    if len(cuts) < max(min_rows, 0.6 * figures) or not spaces:
        return None
    a, b = max(c[0] for c in cuts), min(c[1] for c in cuts)
    space = sorted(spaces)[len(spaces) // 2]
    gaps = [c[1] - c[0] for c in cuts]
    # one string's own word space is the same in every row; figures placed apart are not
    if b <= a or (max(gaps) - min(gaps) <= 0.5 and abs(gaps[0] - space) <= 0.5):
        return None
    x = (a + b) / 2
    if any(w[0] < x < w[2] for cell in cells for w in cell):
        return None
    return x
