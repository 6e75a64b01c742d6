"""A figure's group and decimal marks taken from the other reading of the page, where both
readings saw the same digits.

A Vietnamese page is read by Tesseract (its `vie` pack has the tone marks) after a first
reading by RapidOCR (`ocr_extractor.OcrExtractor._read_words`). At scan resolution Tesseract
drops a group mark to a space or to nothing ("8.552 661", "409311") where RapidOCR's recogniser,
trained on far more figures, reads the marks ("8.552.661", "409.311"). Letters stay
Tesseract's; only the run of digits and marks is taken, and only where both readings hold one
such run with the same digits. `with_marks` is how one reading takes the other's evidence.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from rowkeeper.extractors.ocr_engines import OcrBox
from rowkeeper.extractors.ocr_language import restore_marks

_FIGURE = re.compile(r"\d(?:[\d.,]| (?=\d))*\d|\d")
"""Digits with the marks and single spaces between them: one figure as either engine prints it."""

_MARKED = re.compile(r"^\d{1,3}(?:([.,])\d{3})*(?:[.,]\d+)?$")
"""A figure whose digits are grouped by marks only (a decimal part allowed)."""


def figure_marks(text: str, hint: str) -> str:
    """`text` with its one figure printed as `hint`'s one figure, where the two hold the same
    digits, `hint`'s grouped by marks alone and `text`'s not (a space or no mark between its
    groups: a figure both read with marks keeps `text`'s); `text` otherwise."""
    mine, theirs = _FIGURE.findall(text), _FIGURE.findall(hint)
    if len(mine) != 1 or len(theirs) != 1 or mine[0] == theirs[0]:
        return text
    a, b = mine[0], theirs[0]
    if _MARKED.match(a) or re.sub(r"\D", "", a) != re.sub(r"\D", "", b) or not _MARKED.match(b):
        return text
    return text.replace(a, b, 1)


def marks_and_figures(text: str, hint: str) -> str:
    """`ocr_language.restore_marks` (the letters' marks `text` lacks), then `figure_marks`: how the
    page's second reading takes the first one's evidence (`ocr_extractor.with_marks`)."""
    return figure_marks(restore_marks(text, hint), hint)


def with_marks(boxes: list[OcrBox], hints: list[OcrBox],
               merge: Callable[[str, str], str] = restore_marks) -> list[OcrBox]:
    """`boxes` (one reading of the page) with the marks the other reading (`hints`) saw on the
    same words, as `merge` takes them (`ocr_language.restore_marks` by default: marks `boxes` lack);
    the other reading's runs are matched by their centres."""
    out = []
    for b in boxes:
        x0, y0, x1, y1 = b.box
        inside = [h for h in hints if x0 <= (h.box[0] + h.box[2]) / 2 <= x1 and y0 <= (h.box[1] + h.box[3]) / 2 <= y1]
        hint = " ".join(h.text for h in sorted(inside, key=lambda h: h.box[0]))
        text = merge(b.text, hint) if inside else b.text
        out.append(b if text == b.text else b.with_text(text))
    return out
