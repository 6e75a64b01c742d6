"""The gaps inside figures: a figure printed in parts a word space apart ("65 | 000,6",
"74,6 | %", "2020. | 04. | 15.") lines its parts up in every row, so the x projection sees a
column gap there; `join_figure_parts` takes those gaps out again, unless a column's shared
edge or a header label over each part says they are columns. Words are PyMuPDF-style tuples
`(x0, y0, x1, y1, text, ...)`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from rowkeeper.extractors.finder.aligned_columns import column_gap, phrase_ends, text_lines
from rowkeeper.extractors.finder.figure_words import (
    LEADING_GROUP,
    goes_on,
    header_line_count,
    is_figure,
)


def join_figure_parts(words: Sequence[Any], seps: Sequence[float], edges: Sequence[float]) -> list[float]:
    """`seps` less the gaps inside figures: where every line with words on both sides parts
    two parts of one figure ("65 | 000,6", "74,6 | %", "2020. | 04. | 15.") by one and the
    same word space, and no column's shared edge (`edges`) stands by. Figures of one format
    line their parts up in every row, so the projection sees a gap there; a real column of
    figures shows its edge, or gaps of other widths. A header over the column may stand
    apart (its words are no figures), and a header label over each part, flush with the part's
    right edge, makes them two right-aligned columns (`_headed_parts`). Three lines show it,
    or every line of a block of two (a key-value block's amounts "704 | 532 Ft", a slide's two
    dates "2024. 05. | 08."), or two lines under a header label running across the gap."""
    lines = text_lines(words)
    head = lines[:header_line_count(lines)]
    heights = sorted(w[3] - w[1] for w in words)
    wide = max(column_gap(words), 0.8 * heights[len(heights) // 2])
    out = []
    bounds = [-math.inf, *seps, math.inf]
    for k, x in enumerate(seps):
        gaps: list[float] = []
        both = 0  # lines with words on both sides of x
        ends: list[float] = []  # the right edges of the figures' parts left of x
        firsts: list[float] = []  # where the figures those parts end start
        real, own = False, False  # own: a word in the column left of x that no figure goes on from
        for i, ln in enumerate(lines):
            # only the words between the gaps either side: a figure of the column before
            # ("652 127" | "468 123 Ft", a shorter amount) is no part of this one
            left = [w for w in ln if bounds[k] <= w[0] and w[2] <= x]
            right = [w for w in ln if w[0] >= x and w[2] <= bounds[k + 2]]
            if _across(ln, x, wide if i < len(head) else 0.0):
                continue  # a word or a header label across x (a header over both parts)
            if not left or not right:
                own = own or bool(left)
                continue
            a, b = left[-1], right[0]
            both += 1
            parts = _figure_parts(str(a[4]), str(b[4]))
            own = own or not parts
            if parts and b[0] - a[2] < wide:
                gaps.append(b[0] - a[2])
                ends.append(a[2])
                firsts.append(_figure_start(ln, a, wide))
            elif parts or b[0] - a[2] < wide:
                real = True  # figures a column gap apart, or a label run up to a figure
            elif i >= len(head) and is_figure(str(a[4])) and is_figure(str(b[4])):
                # two figures that read as no one figure ("474 342 | 78 447"): two columns,
                # whose widest figures, set tight, part like one figure's groups in other rows
                real = True
        # A shared edge near x is a column's, unless every word left of x is the leading group
        # of a figure going on right of it: right-aligned millions ("1" | "715 727") line up
        # their own edge, and a negative amount ("-450 977") starts on it.
        real = real or own and any(abs(x - e) <= wide for e in edges)
        real = real or bool(ends) and _headed_parts(head, ends, x, bounds[k + 2], wide, max(firsts, default=x))
        # a header label across x heads both parts: two lines of them tell it (a short
        # table's millions, "2 | 315 134 Ft" under "Szállítási idő"), as does a block of two
        need = 2 if any(_across(ln, x, wide) for ln in head) else min(3, max(both, 2))
        if real or len(gaps) < need or max(gaps) - min(gaps) > 1.0:
            out.append(x)
    return out


def _across(line: Sequence[Any], x: float, wide: float) -> bool:
    """Whether a word of `line` runs across `x`, or a label of words of letters closer than
    `wide` does: a header label over a right-aligned column of grouped figures, set in a
    monospaced face ("Szállítási idő" over "296 986"), may have its word space right over the
    figures' group space; it heads both parts as one word across them would."""
    if any(w[0] < x < w[2] for w in line):
        return True
    left, right = [w for w in line if w[2] <= x], [w for w in line if w[0] >= x]
    return bool(left and right) and right[0][0] - left[-1][2] < wide \
        and not is_figure(str(left[-1][4])) and not is_figure(str(right[0][4]))


def _headed_parts(head: Sequence[Sequence[Any]], ends: Sequence[float], x: float, hi: float,
                  wide: float, lo: float, tol: float = 1.5) -> bool:
    """Whether a header line sets a label over each side of `x`: one phrase ending flush with
    the figures' parts left of it (their right edges `ends`, all one), the next starting right
    of `x` before `hi`. Right-aligned columns of grouped figures set a word space apart in a
    monospaced face ("574 872 807 851" under "Mennyiség (db)" and "Tömeg (kg)") part like the
    groups of one figure; a label over the column ends at the whole figure's end. Labels set
    a space apart too ("Keret Költség" over "7 323 802 705") read as one phrase: the one ending
    flush is a label of its own where it lies over the figures left of `x`, from `lo` (where
    the narrowest of them starts), and the word before it ends short of them ("Szállítási idő"
    over "296 986" runs left past its figures: one label)."""
    if max(ends) - min(ends) > tol:
        return False
    for ln in head:
        starts, stops = phrase_ends(ln, wide)
        for i in range(len(ln) - 1):
            if abs(ln[i][2] - ends[0]) > tol or not x <= ln[i + 1][0] < hi:
                continue
            if i in stops and i + 1 in starts or ln[i][0] >= lo - tol and not is_figure(str(ln[i][4])) \
                    and (i == 0 or ln[i - 1][2] < lo - tol):
                return True
    return False


def _figure_start(line: Sequence[Any], last: Any, wide: float) -> float:
    """Where the figure whose last part is `last` starts in `line`: its groups of thousands
    closer than `wide`, back to a leading group (one or two digits) or a word that is none."""
    k = next(i for i, w in enumerate(line) if w is last)
    while k > 0 and len(str(line[k][4])) >= 3 and LEADING_GROUP.fullmatch(str(line[k - 1][4])) \
            and line[k][0] - line[k - 1][2] < wide:
        k -= 1
    return float(line[k][0])


def _figure_parts(left: str, right: str) -> bool:
    """Whether two words a word space apart are parts of one figure: a leading group of
    thousands and the rest ("65" "000,6", "1" "200"), a figure and its unit ("74,6" "%",
    "9 000" "Ft"), or the parts of a date ("2020." "04."). Two whole figures ("36.509,84"
    "76.921,19") are none."""
    if not any(ch.isdigit() for ch in left):
        return False
    if not any(ch.isdigit() for ch in right):
        return 0 < len(right) <= 3 and all(ch.isdigit() or ch in ".,-'%" for ch in left)
    return goes_on(left, right)
