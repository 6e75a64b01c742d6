"""Text lines cut where a figure ends on a column's edge: two cells of adjacent columns that
the text layer printed as one line ("1,127,814 (240,082)").

MuPDF joins words into one line when no more than a word space or two parts them, so two
figures in adjacent columns, set close, read as one segment of the row; rows of a table then
show fewer segments than columns, and their column edges no longer line up with the other
rows'. The gap alone cannot tell (figures set close stand a word space apart): the column can.
A word boundary beside a figure where the word before it ends on the right edge that figures
of other rows end on (or the word after it starts on their left edge) parts two cells.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from rowkeeper.models import TextLine

EDGE_TOL = 2.0
"""Points within which two segments' edges are one column edge."""
MIN_ROWS = 2
"""Other rows whose figures end (or start) on an edge for it to be a column's."""
MAX_WORDS = 8
"""Words a line holds at most to be cut (longer lines are running text)."""


def _figure(text: str) -> bool:
    return any(ch.isdigit() for ch in text)


def may_part(line: TextLine) -> bool:
    """Whether a line could hold two cells, one a figure (two words or more, not running text)."""
    words = line.text.split()
    return 2 <= len(words) <= MAX_WORDS and _figure(line.text)


def _centre_in(w: Sequence[Any], box: Sequence[float]) -> bool:
    x, y = (w[0] + w[2]) / 2, (w[1] + w[3]) / 2
    return box[0] - 1 <= x <= box[2] + 1 and box[1] - 1 <= y <= box[3] + 1


def _edges(lines: Sequence[TextLine]) -> tuple[Counter, Counter]:
    """How many figure segments end (right) and start (left) at each rounded x."""
    right: Counter = Counter()
    left: Counter = Counter()
    for ln in lines:
        if _figure(ln.text) and len(ln.text.split()) == 1:
            right[round(ln.bbox[2])] += 1
            left[round(ln.bbox[0])] += 1
    return right, left


def _on(edges: Counter, x: float) -> int:
    return sum(n for e, n in edges.items() if abs(e - x) <= EDGE_TOL)


def cut_line(line: TextLine, words: Sequence[Any], right: Counter, left: Counter) -> list[TextLine]:
    """`line` in parts, cut at each boundary beside a figure that lies on a column edge."""
    mine = sorted((w for w in words if _centre_in(w, line.bbox)), key=lambda w: w[0])
    if len(mine) < 2:
        return [line]
    parts: list[list[Any]] = [[mine[0]]]
    for w in mine[1:]:
        last = parts[-1][-1]
        edge = (_figure(last[4]) and _on(right, last[2]) >= MIN_ROWS) or \
            (_figure(w[4]) and _on(left, w[0]) >= MIN_ROWS)
        if edge and w[0] > last[2]:
            parts.append([w])
        else:
            parts[-1].append(w)
    if len(parts) == 1:
        return [line]
    return [line.model_copy(update={"text": " ".join(w[4] for w in p),
                                    "bbox": (p[0][0], line.bbox[1], p[-1][2], line.bbox[3])}) for p in parts]


def cut_at_gaps(lines: Sequence[TextLine], words: Sequence[Any]) -> list[TextLine]:
    """Every line cut where a figure ends or starts on a column edge of other rows' figures."""
    right, left = _edges(lines)
    return [part for ln in lines for part in (cut_line(ln, words, right, left) if may_part(ln) else [ln])]
