"""Two figures of neighbouring columns read as one word, and the column gap they hide.

Figure columns set tight ("9.353,4" right-aligned at the edge of its column, "688.977" a
little more than a word space to its right) come out of the recogniser as one word
("9.353,4688.977") on most rows. Read word by word, the two columns are then one footprint
and each row one cell. The gap still shows where the figures stand apart on some row (or the
header's labels do), and every fused word reads as two well-formed figures parted within a
letter of that gap: that is the column boundary, found from the whole column. Pure geometry on
`OcrBox`es in image pixels.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rowkeeper.extractors.ocr_engines import OcrBox
from rowkeeper.glyphs import char_cells, span_x

Span = tuple[float, float]

_FIGURE = re.compile(r"[-+]?\d{1,3}(?:(?P<group>[.,'])\d{3}(?:(?P=group)\d{3})*)?(?:(?P<point>[.,])\d{1,2})?%?")
"""One figure as a column prints it: digits in groups of three after the first, one mark between
them, maybe one or two
decimals (a third would make "9.353,468" | "8.977" of "9.353,4688.977" as likely)."""


def _figure(text: str) -> bool:
    """A figure with marks, its decimal mark other than its group mark ("8.819.62" is none)."""
    m = _FIGURE.fullmatch(text)
    return bool(m) and bool(m["group"] or m["point"]) and m["group"] != m["point"]


def fused_at(text: str) -> list[int]:
    """The places where `text`, no figure itself, parts into two figures with group or decimal
    marks ("9.353,4688.977" -> "9.353,4" | "688.977", also "9.353,46" | "88.977")."""
    if _FIGURE.fullmatch(text) or not text[:1].isdigit() and text[:1] not in "-+":
        return []
    return [i for i in range(2, len(text) - 1) if _figure(text[:i]) and _figure(text[i:])]


def cut_near(word: OcrBox, gap: Span) -> int | None:
    """The place `word` parts into two figures nearest the middle of `gap`, when one stands
    within a letter of it; None otherwise."""
    text, x0, x1 = word.text, word.box[0], word.box[2]
    pitch = (x1 - x0) / max(char_cells(text), 1)
    at = [(abs(span_x(text, x0, x1, 0, i)[1] - (gap[0] + gap[1]) / 2), i) for i in fused_at(text)
          if gap[0] - pitch <= span_x(text, x0, x1, 0, i)[1] <= gap[1] + pitch]
    return min(at)[1] if at else None


def with_fused_gaps(cols: list[Span], words: Sequence[OcrBox], tol: float) -> list[Span]:
    """`cols` with a footprint parted where the words that join it all read as two figures
    fused across one gap that the other words (the header's labels among them) leave white;
    `words` are the table's words (`OcrBox.word_boxes`), `tol` the footprints' tolerance.
    Left as they are otherwise."""
    out: list[Span] = []
    for a, b in cols:
        inside = [w for w in words if a <= (w.box[0] + w.box[2]) / 2 <= b]
        fused = [w for w in inside if fused_at(w.text)]
        rest = sorted((w.box[0], w.box[2] + tol) for w in inside if not fused_at(w.text))
        parts = _clusters(rest)
        if not fused or len(parts) != 2:
            out.append((a, b))
            continue
        gap = (parts[0][1] - tol, parts[1][0])
        if all(w.box[0] < gap[0] and w.box[2] > gap[1] and cut_near(w, gap) is not None for w in fused):
            out += [(a, gap[0]), (gap[1], b)]
        else:
            out.append((a, b))
    return out


def _clusters(intervals: list[Span]) -> list[Span]:
    out: list[Span] = []
    for a, b in intervals:
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out
