"""Note marks set after a figure: `24.91` with a raised `2` in smaller print is the figure 24.91
and the note mark 2, not the figure 24.912.

A PDF that sets the mark with no space before it gives the word reader one word of both, and a
cell reads a wrong number that no check sees. MuPDF flags a span set raised (superscript); a
span of digits so flagged, in smaller print, right after a span ending in a digit, is such a
mark. It is kept, written in superscript digits (`24.91²`), which the column types read
without it (`transforms.column_types.normalize`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pymupdf

SMALLER = 0.8
"""A mark's print size at most this share of the figure's."""
SUPERSCRIPT = str.maketrans("0123456789", "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079")

Mark = tuple[tuple[float, float, float, float], str]
"""A note mark's box and its digits."""


def _text(span: dict[str, Any]) -> str:
    return span["text"] if "text" in span else "".join(c["c"] for c in span["chars"])


def raised_after_figure(before: dict[str, Any] | None, span: dict[str, Any]) -> bool:
    """Whether `span` is a note mark after a figure: digits in smaller print, raised (MuPDF's
    superscript flag), right after a span (`before`, on the same line) that ends in a digit."""
    text = _text(span).strip()
    if before is None or not text.isdigit() or not span["flags"] & pymupdf.TEXT_FONT_SUPERSCRIPT:
        return False
    last = _text(before).rstrip()
    return bool(last) and last[-1].isdigit() and span["size"] <= SMALLER * before["size"]


def note_marks(page_dict: dict[str, Any]) -> list[Mark]:
    """Every note mark after a figure on a page (`page_dict`: PyMuPDF's dict or rawdict)."""
    out: list[Mark] = []
    for block in page_dict["blocks"]:
        for line in block.get("lines", ()):
            spans = sorted(line["spans"], key=lambda s: s["bbox"][0])
            out += [(tuple(s["bbox"]), _text(s).strip()) for b, s in zip([None, *spans], spans, strict=False)
                    if raised_after_figure(b, s)]
    return out


def marked_words(words: Sequence[Any], marks: Sequence[Mark], tol: float = 0.5) -> list[Any]:
    """`words` (PyMuPDF word tuples) with a note mark at a word's end written in superscript
    digits: the mark's box ends where the word does, inside its height, and the word ends in
    the mark's digits after a digit."""
    if not marks:
        return list(words)
    out = []
    for w in words:
        text = str(w[4])
        for (_, y0, x1, y1), digits in marks:
            if abs(x1 - w[2]) <= tol and w[1] - tol <= (y0 + y1) / 2 <= w[3] + tol \
                    and text.endswith(digits) and text[: -len(digits)][-1:].isdigit():
                w = (*w[:4], text[: -len(digits)] + digits.translate(SUPERSCRIPT), *w[5:])
                break
        out.append(w)
    return out


def note_mark(glyphs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A mark's glyphs (rawdict chars) with their digits written in superscript."""
    return [{**c, "c": c["c"].translate(SUPERSCRIPT)} for c in glyphs]
