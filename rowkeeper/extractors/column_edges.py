"""Column edges under a line of labels: where the two lines right under it end words at one x
(a column of right-aligned figures) or start them at one x (a column of left-aligned cells).

A header's labels set with letter spacing run into each other where two columns stand close:
the gap between two labels is the spacing of their own glyphs or less (`容 積` right over its
figures, `数 量 ( 個 )` right over the next, 5 pt apart as every glyph; `E N - V I` and
`E N - D E` touching). No gap tells where one label ends, but its column does: a label over
right-aligned figures ends where they end, one over left-aligned cells starts where they
start. A word of a letter-spaced line is parted at a glyph that ends on such an edge, or
starts on one (`part_at_edges`), and a run of spaced single letters is not joined across one
(`ColumnEdges.parted`). The two lines right under must share the edge, as a table's first
body rows do; a paragraph's lines share a word's end only by chance.
"""

from __future__ import annotations

import statistics
from bisect import bisect_left
from collections.abc import Callable, Sequence
from typing import Any

TOL = 0.5
"""How far (points) a glyph's edge may stand from a column edge and still be on it: the
figures of a column and its label are set to one x, differing by rounding only."""
DEPTH = 4.0
"""How far under a line (its heights) the first of the two lines under it may stand."""
SPACED = 0.36
"""The least median gap between a word's glyphs (share of its height) that is letter spacing
(`spaced_letters.LEAST_GAP`): only such words, and words of two glyphs between spaced letters
(two spaced labels' touching ends, `IE`: `part_at_edges`), are parted at an edge."""


class ColumnEdges:
    """The right ends and left starts the two lines under each line of `words` share."""

    def __init__(self, words: Sequence[Any]) -> None:
        self._lines: list[tuple[float, float, list[float], list[float]]] = []
        lines = _lines(words)
        for i, ln in enumerate(lines):
            y0, y1 = min(w[1] for w in ln), max(w[3] for w in ln)
            h = statistics.median(w[3] - w[1] for w in ln)
            under = [u for u in lines[i + 1:i + 3] if min(w[1] for w in u) > y1 - 0.2 * h]
            if len(under) < 2 or min(w[1] for w in under[0]) > y1 + DEPTH * h:
                continue
            rights = _shared([w[2] for w in under[0]], [w[2] for w in under[1]])
            # figures of one width share their starts too; they are set right-aligned
            lefts = _shared([w[0] for w in under[0] if not _shared([w[2]], rights)], [w[0] for w in under[1]])
            if rights or lefts:
                self._lines.append((y0, y1, rights, lefts))
        # the lines' bottoms rise line by line (`_lines` sorts the words by bottom), so the
        # first line reaching down to a word's middle is found by bisection; a later line may
        # start higher (a tall word), so the least top from each line on bounds the search
        self._bottoms = [ln[1] for ln in self._lines]
        self._tops_after = [ln[0] for ln in self._lines]
        for i in range(len(self._lines) - 2, -1, -1):
            self._tops_after[i] = min(self._tops_after[i], self._tops_after[i + 1])
        self._sorted = all(a <= b for a, b in zip(self._bottoms, self._bottoms[1:], strict=False))

    def _of(self, w: Any) -> tuple[list[float], list[float]]:
        """The edges of the first line whose height holds the word's middle."""
        mid = (w[1] + w[3]) / 2
        i = bisect_left(self._bottoms, mid) if self._sorted else 0
        for k in range(i, len(self._lines)):
            y0, y1, rights, lefts = self._lines[k]
            if y0 <= mid <= y1:
                return rights, lefts
            if self._sorted and self._tops_after[k] > mid:
                break
        return [], []

    def inside(self, w: Any) -> bool:
        """Whether an edge lies inside word `w` (a cut may be due there)."""
        rights, lefts = self._of(w)
        return any(w[0] + TOL < x < w[2] - TOL for x in (*rights, *lefts))

    def parted(self, a: Any, b: Any) -> bool:
        """Whether a column edge parts word `a` from word `b`, the next on its line: `a` ends
        on a right edge or `b` starts on a left one."""
        rights, lefts = self._of(a)
        return any(abs(a[2] - x) <= TOL for x in rights) or any(abs(b[0] - x) <= TOL for x in lefts)

    def part(self, w: Any, glyphs: Sequence[dict[str, Any]]) -> list[Any]:
        """Word `w` (its glyphs, with a width, in order, spelling it) cut after each glyph that
        ends on a right edge and before each that starts on a left one, when its glyphs are
        letter-spaced, or two; `w` itself otherwise."""
        if len(glyphs) < 2 or "".join(g["c"] for g in glyphs) != w[4]:
            return [w]
        gaps = [b["bbox"][0] - a["bbox"][2] for a, b in zip(glyphs, glyphs[1:], strict=False)]
        if len(glyphs) > 2 and statistics.median(gaps) < SPACED * (w[3] - w[1]):
            return [w]
        rights, lefts = self._of(w)
        cuts = [0, *(i + 1 for i, (a, b) in enumerate(zip(glyphs, glyphs[1:], strict=False))
                     if any(abs(a["bbox"][2] - x) <= TOL for x in rights)
                     or any(abs(b["bbox"][0] - x) <= TOL for x in lefts)), len(glyphs)]
        return [(glyphs[a]["bbox"][0], w[1], glyphs[b - 1]["bbox"][2], w[3],
                 "".join(g["c"] for g in glyphs[a:b]), *w[5:]) for a, b in zip(cuts, cuts[1:], strict=False)]


def part_at_edges(words: Sequence[Any], edges: ColumnEdges,
                  glyphs_of: Callable[[Any], list[dict[str, Any]]]) -> list[Any]:
    """`words` with each that a column edge lies inside cut there (`ColumnEdges.part`), a word
    of two glyphs only between two single glyphs on its line (the touching ends of two spaced
    labels, `V` `IE` `N`; a figure's group, `10 842,3`, is none); `glyphs_of` reads a word's
    glyphs, asked only for those words."""
    by_line: dict[tuple[Any, ...], list[Any]] = {}
    for w in words:
        by_line.setdefault(tuple(w[5:7]), []).append(w)
    for line in by_line.values():
        line.sort(key=lambda w: w[0])

    def between_letters(w: Any) -> bool:
        line = by_line[tuple(w[5:7])]
        k = next(i for i, v in enumerate(line) if v is w)
        return 0 < k < len(line) - 1 and len(line[k - 1][4]) == 1 and len(line[k + 1][4]) == 1

    return [p for w in words for p in (
        edges.part(w, glyphs_of(w)) if len(w[4]) >= 2 and edges.inside(w) and (len(w[4]) > 2 or between_letters(w))
        else [w])]


def _lines(words: Sequence[Any]) -> list[list[Any]]:
    """`words` in lines, top to bottom: a word joins the line whose bottom it shares within a
    fifth of its height."""
    lines: list[list[Any]] = []
    for w in sorted(words, key=lambda w: (w[3], w[0])):
        if lines and abs(lines[-1][-1][3] - w[3]) <= 0.2 * max(w[3] - w[1], 0.1):
            lines[-1].append(w)
        else:
            lines.append([w])
    return lines


def _shared(xs: Sequence[float], ys: Sequence[float]) -> list[float]:
    """The x of `xs` that `ys` has too, within `TOL`."""
    ys = sorted(ys)
    return [x for x in xs if _near(ys, x)]


def _near(ys: Sequence[float], x: float) -> bool:
    """Whether sorted `ys` (finite, as MuPDF's coordinates are) holds a y within `TOL` of x:
    the nearest below and the nearest at or above are the ones to test, since a float
    difference grows as y moves away from x."""
    i = bisect_left(ys, x)
    return (i < len(ys) and abs(x - ys[i]) <= TOL) or (i > 0 and abs(x - ys[i - 1]) <= TOL)
