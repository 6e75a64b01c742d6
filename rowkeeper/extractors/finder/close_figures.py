"""Figures set a word space apart in one text line: a row of two columns of right-aligned
figures set close prints as one line ("1,127,814 (240,082)"), and the columns' edges show only
once each figure is a segment of its own (the page features' rows of segments)."""

from __future__ import annotations

import re

from rowkeeper.models import TextLine

FIGURE_HEAD = re.compile(r"[-−+(]?[$€£¥]?\d")
"""How a figure starts, digits of any script included: a line whose first word starts
otherwise is never split."""
_FIGURE = re.compile(FIGURE_HEAD.pattern + r"[\d.,]*%?\)?")
_GROUP_LEAD = re.compile(r"[-−+(]?\d{1,3}")
_GROUP = re.compile(r"\d{3}(?:[.,]\d+)?%?\)?")


def split_figures(line: TextLine) -> list[TextLine]:
    """A line of whole figures a word space apart ("1,127,814 (240,082)": two right-aligned
    columns set close) as one segment per figure, x estimated from character offsets. Groups
    of one figure ("4 973 160": a leading group of 1-3 digits, then groups of three) stay one."""
    words = line.text.split()
    if len(words) < 2 or not all(_FIGURE.fullmatch(w) for w in words):
        return [line]
    cuts = [i for i in range(1, len(words)) if not (_GROUP_LEAD.fullmatch(words[i - 1]) and _GROUP.fullmatch(words[i]))]
    if not cuts:
        return [line]
    x0, y0, x1, y1 = line.bbox
    per_char = (x1 - x0) / max(len(line.text), 1)
    out, start, at = [], 0, 0
    for i in [*cuts, len(words)]:
        text = " ".join(words[start:i])
        a = line.text.index(text, at)
        out.append(line.model_copy(update={"text": text, "bbox": (x0 + a * per_char, y0, x0 + (a + len(text)) * per_char, y1)}))
        start, at = i, a + len(text)
    return out
