"""A figure's group and decimal marks taken from the other reading of the page, where both
readings saw the same digits.

A Vietnamese page is read by Tesseract (its `vie` pack has the tone marks) after a first
reading by RapidOCR (`ocr_extractor.OcrExtractor._read_words`). At scan resolution Tesseract
drops a group mark to a space or to nothing ("8.552 661", "409311") where RapidOCR's recogniser,
trained on far more figures, reads the marks ("8.552.661", "409.311"). Letters stay
Tesseract's; only the run of digits and marks is taken, and only where both readings hold one
such run with the same digits. `with_marks` is how one reading takes the other's evidence.
Once a table is read, `harmonize_marks` makes a column's group marks agree.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

from rowkeeper.extractors.ocr_engines import OcrBox
from rowkeeper.extractors.ocr_language import restore_marks
from rowkeeper.extractors.ocr_tables import PxCell, PxTable

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


_GROUPED = re.compile(r"^\D*\d{1,3}(?:([.,])\d{3})+\D*$")
_DOUBLE_MARK = re.compile(r"(?<=\d)([.,])[.,](?=\d)")
_UNGROUPED = re.compile(r"^(\D*)(\d{5,}|\d{1,3}(?: \d{3})+)(\D*)$")
"""Digits that lost their group marks: 5 or more in a run (a 4-digit run may be a year: a
header's "2025" over "33.705"s stays), or groups set apart by spaces."""


def _grouped(digits: str, mark: str) -> str:
    digits = digits.replace(" ", "")
    head = len(digits) % 3 or 3
    return mark.join([digits[:head]] + [digits[i:i + 3] for i in range(head, len(digits), 3)])


def harmonize_marks(table: PxTable) -> PxTable:
    """Thousands separators made consistent down each column.

    A scan at 150 dpi leaves "," and "." a pixel apart, or loses the mark altogether; a column
    prints its numbers one way. Where at least 4 cells of a column read as digit groups
    ("12,345", "1.234.567") and 3 in 4 of them use one mark, the others are read with it too,
    and a digit run of 5 or more, or groups set apart by spaces ("52461", "52 461"), gets the
    column's groups. A doubled mark
    ("12,.433") is one.
    """
    cells = [PxCell(c.row, c.col, c.row_span, c.col_span, _DOUBLE_MARK.sub(r"\1", c.text), c.box)
             for c in table.cells]
    for col in {c.col for c in cells}:
        marks = Counter(m.group(1) for c in cells if c.col == col and (m := _GROUPED.match(c.text)))
        total = sum(marks.values())
        if total < 4:
            continue
        mark, n = marks.most_common(1)[0]
        if n < 0.75 * total:
            continue
        other = "." if mark == "," else ","
        cells = [_with_mark(c, mark, other) if c.col == col else c for c in cells]
    return PxTable(table.box, table.n_rows, table.n_cols, tuple(cells), table.kind)


def _with_mark(c: PxCell, mark: str, other: str) -> PxCell:
    text = c.text
    if _GROUPED.match(text):
        text = text.replace(other, mark)
    elif m := _UNGROUPED.match(text):
        text = m.group(1) + _grouped(m.group(2), mark) + m.group(3)
    return PxCell(c.row, c.col, c.row_span, c.col_span, text, c.box)
