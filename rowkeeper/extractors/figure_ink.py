"""A figure's marks read from its ink where the recogniser dropped or misread them.

Tesseract reads a figure's digits well and its marks badly at scan resolution: a decimal comma
left out ("611" for "61,1"), a comma read as a slash ("1836/95"), a group mark dropped
("75.9827" for "75.982,7"). Each digit of a printed figure is one blot of ink as tall as the
others, and each mark a small blot between two of them on the digits' baseline: where the
blots and the digits read agree in number, the marks are read from the blots between them (a
comma's tail drops below the baseline, a period sits on it), the digits stay the reading's.
"""

from __future__ import annotations

import re

import cv2
import numpy as np

from rowkeeper.extractors.ocr_engines import OcrBox

_FIGURE = re.compile(r"^([(\-+−]?)(\d[\d.,/]*\d)([)]?)$")
_WELL_FORMED = re.compile(r"^\d{1,3}(?:([.,])\d{3})*(?:(?!\1)[.,]\d+)?$|^\d+(?:[.,]\d+)?$")
"""Digits grouped by one mark every three, a decimal part after the other mark; or a plain decimal."""
DIGIT = 0.6
"""Height of a digit's blot over the tallest blot's, at least (a mark is well under it)."""
MIN_MARK = 0.1
"""Side of a mark's blot over the digits' height, at least: scanner specks are smaller."""


def figures_marked(words: list[OcrBox], gray: np.ndarray) -> list[OcrBox]:
    """`words` with each figure's marks read from its ink where they differ from the reading."""
    return [_marked(w, gray) if _FIGURE.match(w.text) else w for w in words]


def _blots(gray: np.ndarray, box: tuple[float, float, float, float]) -> list[tuple[int, int, int, int]] | None:
    """Connected blots of ink (x, y, w, h) in `box` reaching a third of its height further
    down (a comma's tail the box left out), left to right."""
    x0, y0 = max(int(box[0]) - 1, 0), max(int(box[1]) - 1, 0)
    x1, y1 = int(round(box[2])) + 1, int(round(box[3] + (box[3] - box[1]) / 3))
    crop = gray[y0:y1, x0:x1]
    if crop.shape[0] < 6 or crop.shape[1] < 6:
        return None
    _, ink = cv2.threshold(np.ascontiguousarray(crop), 0, 1, cv2.THRESH_BINARY_INV | cv2.THRESH_OTSU)
    n, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    return sorted((int(s[0]), int(s[1]), int(s[2]), int(s[3])) for s in stats[1:n] if s[4] >= 3)


def _mark(blot: tuple[int, int, int, int], base: float, tall: float) -> str | None:
    """Comma or period from a mark's ink, None where the ink is not decisive."""
    _, top, _, h = blot
    below = top + h - base
    if below > 0.12 * tall and h >= 0.2 * tall:
        return ","
    if below <= 0.5 and h <= 0.2 * tall:
        return "."
    return None


def _marked(w: OcrBox, gray: np.ndarray) -> OcrBox:
    """`w` (a figure) with the marks its ink shows between its digits where none was read (or
    a slash), where they are decisive and make a well-formed figure; `w` otherwise."""
    m = _FIGURE.match(w.text)
    blots = _blots(gray, w.box) if m else None
    if not m or not blots:
        return w
    digits = re.sub(r"\D", "", m.group(2))
    tall = max(h for *_, h in blots)
    glyphs = [b for b in blots if b[3] >= DIGIT * tall]
    if len(glyphs) != len(digits) or len(digits) < 2:
        return w
    base = float(np.median([y + h for _, y, _, h in glyphs]))
    read = re.split(r"\d", m.group(2))  # what was read between digit k - 1 and digit k
    out = digits[0]
    for k in range(1, len(glyphs)):
        left, right = glyphs[k - 1][0] + glyphs[k - 1][2], glyphs[k][0]
        marks = [b for b in blots if b[3] < DIGIT * tall and left - 1 <= b[0] + b[2] / 2 <= right + 1
                 and min(b[2], b[3]) >= MIN_MARK * tall and base - 0.2 * tall <= b[1] + b[3] and b[1] <= base]
        if read[k] in (".", ","):  # a mark read stays (the column's vote settles , against .)
            out += read[k]
        elif len(marks) > 1:
            return w
        elif marks:
            mark = _mark(marks[0], base, tall)
            if mark is None:
                return w
            out += mark
        out += digits[k]
    if out == m.group(2) or not _WELL_FORMED.match(out):
        return w
    return OcrBox(m.group(1) + out + m.group(3), w.box, w.score, w.words)
