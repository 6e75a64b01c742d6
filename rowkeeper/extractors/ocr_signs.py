"""A sign printed after a figure on a scan: the word space before it, and the dong sign's bar.

Tesseract glues a unit sign to the figure before it when the word space is a narrow one
("61,1%", "8.253.113đ" for "61,1 %", "8.253.113 ₫"), and reads the dong sign ₫ as the letter
đ, whose glyph it is but for a bar under it. The ink settles both, measured against the
figure's own digits: a blank before the sign as wide as a word space is a space, and a letter
without a descender whose ink drops below the digits' baseline has a bar under it; the one
letter-like sign underlined so is ₫.
"""

from __future__ import annotations

import re
import unicodedata

import cv2
import numpy as np

from rowkeeper.extractors.ocr_engines import OcrBox

SIGN_SPACE = 0.33
"""Blank before the sign over the figure's digit height from which a space stands there. A
word space is about 0.28 em and a digit 0.72 em tall: with the glyphs' own bearings a spaced
sign stands 0.45-0.7 digit heights off, an unspaced one 0.1-0.28 (after a "1", whose stem
leaves a wide right bearing)."""
BAR_DROP = 0.1
"""Ink below the digits' baseline, over their height, from which a letter after a figure is
underlined (a bar the scan's blur may join to the letter's bowl)."""
DESCENDERS = frozenset("gjpqyçşţąęµ")
"""Letters whose own ink drops below the baseline: no evidence of a bar."""
DONG = "₫"

_FIGURE_SIGN = re.compile(r"^(\(?[-+−]?\d(?:[\d.,]*\d)?)([^\d\s.,])$")
_FIGURE = re.compile(r"^\(?[-+−]?\d(?:[\d.,  ]*\d)?$")


def signed_words(words: list[OcrBox], gray: np.ndarray) -> list[OcrBox]:
    """`words` (glyph-tight word boxes) with a sign glued to its figure split off where a word
    space stands before it, and a letter after a figure read as ₫ where it is underlined."""
    out: list[OcrBox] = []
    for w in words:
        m = _FIGURE_SIGN.match(w.text)
        if m and _is_sign(m.group(2)):
            out.extend(_parted(w, m.group(1), m.group(2), gray))
        elif len(w.text) == 1 and w.text.isalpha():
            fig = _figure_before(w, words)
            out.append(_dong(w, w.text, _digits(fig, gray), gray) if fig else w)
        else:
            out.append(w)
    return out


def _is_sign(ch: str) -> bool:
    """A unit sign a figure may carry: a letter, a percent or per-mille sign, a currency sign."""
    return ch.isalpha() or ch in "%‰" or unicodedata.category(ch) == "Sc"


def _figure_before(w: OcrBox, words: list[OcrBox]) -> OcrBox | None:
    """The figure word just left of `w` on its line (a word space or so away), if any."""
    h = w.height
    left = [v for v in words if v is not w and _FIGURE.match(v.text) and 0 <= w.box[0] - v.box[2] < 1.5 * h
            and min(v.box[3], w.box[3]) - max(v.box[1], w.box[1]) > 0.5 * min(v.height, h)]
    return max(left, key=lambda v: v.box[2]) if left else None


def _ink(gray: np.ndarray, box: tuple[float, float, float, float], below: float) -> tuple[np.ndarray, int, int] | None:
    """Binarised ink (1) of `box` reaching `below` pixels further down, with its origin."""
    x0, y0 = max(int(box[0]), 0), max(int(box[1]), 0)
    x1, y1 = int(round(box[2])), int(round(box[3] + below))
    crop = gray[y0:y1, x0:x1]
    if crop.shape[0] < 6 or crop.shape[1] < 4:
        return None
    _, ink = cv2.threshold(cv2.medianBlur(np.ascontiguousarray(crop), 3), 0, 1,
                           cv2.THRESH_BINARY_INV | cv2.THRESH_OTSU)
    return ink, x0, y0


def _segments(ink: np.ndarray) -> list[tuple[int, int]]:
    """Runs of inked columns (x0, x1 exclusive): the glyphs of a word printed apart."""
    cols = np.flatnonzero(ink.sum(axis=0) > 0)
    if not cols.size:
        return []
    breaks = np.flatnonzero(np.diff(cols) > 1)
    starts = [int(cols[0]), *(int(cols[i + 1]) for i in breaks)]
    ends = [*(int(cols[i]) + 1 for i in breaks), int(cols[-1]) + 1]
    return list(zip(starts, ends, strict=True))


def _rows(ink: np.ndarray, a: int, b: int, gap: int) -> tuple[int, int] | None:
    """Top and bottom (exclusive) of the ink of columns a:b, the rows after a blank of more
    than `gap` rows (the next line) left out."""
    rows = np.flatnonzero(ink[:, a:b].sum(axis=1) > 0)
    if not rows.size:
        return None
    cut = np.flatnonzero(np.diff(rows) > gap + 1)
    return int(rows[0]), int(rows[cut[0]] if cut.size else rows[-1]) + 1


def _digit_line(ink: np.ndarray, segs: list[tuple[int, int]], y0: int) -> tuple[float, float] | None:
    """Baseline (page row) and height of the digits among `segs`; marks (, .) left out."""
    spans = [r for r in (_rows(ink, a, b, 0) for a, b in segs) if r]
    if not spans:
        return None
    tall = max(b - a for a, b in spans)
    digits = [(a, b) for a, b in spans if b - a >= 0.6 * tall]
    return y0 + float(np.median([b for _, b in digits])), float(np.median([b - a for a, b in digits]))


def _digits(fig: OcrBox | None, gray: np.ndarray) -> tuple[float, float] | None:
    """Baseline and digit height of a figure word."""
    got = _ink(gray, fig.box, 0) if fig else None
    if got is None:
        return None
    ink, _, y0 = got
    return _digit_line(ink, _segments(ink), y0)


def _underlined(gray: np.ndarray, box: tuple[float, float, float, float], line: tuple[float, float]) -> bool:
    """Whether the glyph in `box` reaches below the digits' baseline by a bar's depth."""
    base, tall = line
    got = _ink(gray, box, 0.5 * tall)
    if got is None:
        return False
    ink, _, y0 = got
    rows = _rows(ink, 0, ink.shape[1], max(1, round(0.1 * tall)))
    return rows is not None and y0 + rows[1] - base >= max(2.0, BAR_DROP * tall)


def _dong(w: OcrBox, letter: str, line: tuple[float, float] | None, gray: np.ndarray) -> OcrBox:
    """`w` read as ₫ where the letter it was read as is underlined."""
    if line is None or letter.lower() in DESCENDERS or not _underlined(gray, w.box, line):
        return w
    return OcrBox(w.text[:-1] + DONG, w.box, w.score, w.words)


def _parted(w: OcrBox, figure: str, sign: str, gray: np.ndarray) -> list[OcrBox]:
    """A figure and the sign glued to it: one word, or two where a word space parts them; the
    sign read as ₫ where it is an underlined letter."""
    got = _ink(gray, w.box, 0)
    segs = _segments(got[0]) if got else []
    line = _digit_line(got[0], segs[:-1], got[2]) if got and len(segs) > 1 else None
    if got is None or line is None:
        return [w]
    x0 = got[1]
    (_, end), (start, stop) = segs[-2], segs[-1]
    sign_box = (float(x0 + start), w.box[1], float(x0 + stop), w.box[3])
    if sign.isalpha():
        sign = _dong(OcrBox(sign, sign_box, w.score), sign, line, gray).text
    if start - end < SIGN_SPACE * line[1]:
        return [OcrBox(figure + sign, w.box, w.score, w.words)]
    return [OcrBox(figure, (w.box[0], w.box[1], float(x0 + end), w.box[3]), w.score),
            OcrBox(sign, sign_box, w.score)]
