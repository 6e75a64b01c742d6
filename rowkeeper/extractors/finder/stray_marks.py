"""The marks an OCR text layer reads from specks and rule ends on a scanned page (an old
catalogue, a yearbook, a ledger under its OCR layer): beside a figure ("38 200—", "500^") or
alone ("„", ","). They hang into the white between two columns; the projection of a borderless
table's words (`projection.projection_gaps`) reads its columns' ink without them."""

from __future__ import annotations

from typing import Any

from rowkeeper.glyphs import STRAY_MARKS, span_x

SPECKS = "'\"„“”‚‘’«»^,"
"""Marks that stand alone as no word of a table (a dash may: "2006 – 2010")."""


def ink_core(w: Any) -> Any | None:
    """Word `w` of digits and `STRAY_MARKS` around them with its box cut to the digits
    (`glyphs.span_x`); None for a word of `SPECKS` alone. A figure is its column's ink, the
    specks' marks beside it are not; a word's own marks ("training,", "»Zeitung«", "days 4,
    7") stand in its word spaces and stay."""
    text = str(w[4])
    if not text.strip(SPECKS):
        return None
    core = text.strip(STRAY_MARKS)
    if not core or core == text or not core.isdigit():  # a word's own marks stand in its word spaces
        return w
    a = text.index(core)
    x0, x1 = span_x(text, w[0], w[2], a, a + len(core))
    return (x0, w[1], x1, w[3], core, *w[5:])
