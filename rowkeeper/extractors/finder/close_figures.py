"""Figures set a word space apart in one text line: a row of two columns of right-aligned
figures set close prints as one line ("1,127,814 (240,082)"), and the columns' edges show only
once each figure is a segment of its own (the page features' rows of segments)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from rowkeeper.glyphs import span_x
from rowkeeper.models import TextLine

FIGURE_HEAD = re.compile(r"[-−+(]?[$€£¥]?\d")
"""How a figure starts, digits of any script included: a line whose first word starts
otherwise is never split."""
_FIGURE = re.compile(FIGURE_HEAD.pattern + r"[\d.,]*%?\)?|\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}|\d{2,4}年\d{1,2}月(?:\d{1,2}日)?")
"""A whole figure, or a date ("2024-03-01", "01/12/2026", "2020年8月1日"): a column of dates
aligns like one of figures."""
_GROUP_LEAD = re.compile(r"[-−+(]?\d{1,3}")
_GROUP = re.compile(r"\d{3}(?:[.,]\d+)?%?\)?")


def split_figures(line: TextLine) -> list[TextLine]:
    """A line of whole figures a word space apart ("1,127,814 (240,082)": two right-aligned
    columns set close) as one segment per figure, x estimated from character offsets. Groups
    of one figure ("4 973 160": a leading group of 1-3 digits, then groups of three) stay one;
    so does a figure with the unit printed after it ("2 314 412 Ft 1 424 832 Ft"), where every
    figure of the line has that unit (`_unit_after`: "568 033 63,3 %" stays whole), and one
    with a currency sign after it where the next column's figures have none ("3.584.393 €
    4.401.290 € 298.600")."""
    words = line.text.split()
    unit = _unit_after(words)
    signs = {k for k, w in enumerate(words) if w == unit or k and _sign(w) and _FIGURE.fullmatch(words[k - 1])}
    if len(words) < 2 or not all(_FIGURE.fullmatch(w) or k in signs for k, w in enumerate(words)):
        return [line]
    cuts = [i for i in range(1, len(words)) if i not in signs
            and not (_GROUP_LEAD.fullmatch(words[i - 1]) and _GROUP.fullmatch(words[i]))]
    if not cuts or (unit and any(words[i - 1] != unit for i in [*cuts, len(words)])):
        return [line]
    out, start, at = [], 0, 0
    for i in [*cuts, len(words)]:
        text = " ".join(words[start:i])
        a = line.text.index(text, at)
        out.append(_part(line, a, a + len(text)))
        start, at = i, a + len(text)
    return out


def _sign(word: str) -> bool:
    """A currency or percent sign printed as a word of its own (`9.800.132 €`)."""
    return len(word) == 1 and (unicodedata.category(word) == "Sc" or word in "%‰")


def _unit_after(words: Sequence[str]) -> str | None:
    """The unit a line's last figure is printed with ("Ft", "€", "%", "kg": a word of three
    letters at most, or a currency or percent sign, after a figure), or None."""
    if len(words) < 2 or not _FIGURE.fullmatch(words[-2]):
        return None
    w = words[-1]
    sign = len(w) == 1 and (unicodedata.category(w) == "Sc" or w in "%‰")
    return w if sign or (len(w) <= 3 and w.isalpha()) else None


def _part(line: TextLine, a: int, b: int) -> TextLine:
    """The segment of `line` holding its characters a to b, x estimated from character offsets
    (a full-width glyph `glyphs.WIDE_CELLS` characters wide)."""
    x0, y0, x1, y1 = line.bbox
    left, right = span_x(line.text, x0, x1, a, b)
    return line.model_copy(update={"text": line.text[a:b].strip(), "bbox": (left, y0, right, y1)})


def split_row_figures(line: TextLine, min_figures: int = 2) -> list[TextLine]:
    """A row printed as one line ("North Ridge unit 2788 $1,555,492 $1,976,359 694,393"): a
    label, then `min_figures` figures or more to the line's end (each may be printed with the
    unit of the last one, "7685 Nyugati kapu egység 2 314 412 Ft 1 424 832 Ft"), their columns set close
    (right-aligned figures as wide as their columns leave a gap no wider than the space the
    line's reader bridges). The label is a segment, the figures as `split_figures` parts
    them, x estimated from character offsets; a line of figures alone as `split_figures`.
    A sentence before the figures is running text, never a row's label: kept whole."""
    words = line.text.split()
    unit, tail = _unit_after(words), len(words)
    while tail > 0 and (_FIGURE.fullmatch(words[tail - 1])
                        or ((words[tail - 1] == unit or _sign(words[tail - 1]))
                            and tail >= 2 and _FIGURE.fullmatch(words[tail - 2]))):
        tail -= 1
    if tail == 0:
        return split_figures(line)
    label = " ".join(words[:tail])
    if sum(bool(_FIGURE.fullmatch(w)) for w in words[tail:]) < min_figures or (len(label) > 40 and tail >= 6):
        return [line]
    start = line.text.index(label)
    at = line.text.index(words[tail], start + len(label))
    return [_part(line, start, start + len(label)), *split_figures(_part(line, at, len(line.text)))]
