"""The marks an OCR text layer reads from specks and rule ends on a scanned page (an old
catalogue, a yearbook, a ledger under its OCR layer): beside a figure ("38 200—", "500^") or
alone ("„", ","). They hang into the white between two columns; the projection of a borderless
table's words (`projection.projection_gaps`) reads its columns' ink without them."""

from __future__ import annotations

from typing import Any

STRAY_MARKS = "'\"„“”‚‘’«»^—–-*"
"""Marks an OCR text layer reads from specks and rule ends beside a figure ("200—", "500^") or
alone ("„", ","): they hang into the gutter between two columns and close it in the projection."""


SPECKS = "'\"„“”‚‘’«»^,"
"""Marks that stand alone as no word of a table (a dash may: "2006 – 2010")."""


def ink_core(w: Any) -> Any | None:
    """Word `w` of digits and `STRAY_MARKS` around them with its box cut to the digits
    (estimated by their share of its characters); None for a word of `SPECKS` alone. A figure
    is its column's ink, the specks' marks beside it are not; a word's own marks ("training,",
    "»Zeitung«", "days 4, 7") stand in its word spaces and stay."""
    text = str(w[4])
    if not text.strip(SPECKS):
        return None
    core = text.strip(STRAY_MARKS)
    if not core or core == text or not core.isdigit():  # a word's own marks stand in its word spaces
        return w
    per = (w[2] - w[0]) / len(text)
    a = text.index(core)
    return (w[0] + a * per, w[1], w[0] + (a + len(core)) * per, w[3], core, *w[5:])
