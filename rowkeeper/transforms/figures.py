"""Which columns of a table's body hold figures: one estimator for every header and label pass.

Each body cell is read once: blank or a placeholder standing for no figure (a dash, dots,
`n/a`, `x`: `column_types.PLACEHOLDERS`), a number or a date (with either decimal mark: the
document's is not known when headers are read), set in digits (at least as many digits as
letters: `Q1`, `FY2023`, `V-2026-0412`, a number too), or words. A column is one of figures
by a `Reading`: `NUMBERS` (what a header's labels stand over: numbers or dates in three
filled cells of five) or `DIGITS` (a column set like figures, codes and periods included:
where group labels stand and which cells a label's cut words fall in).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rowkeeper.transforms.column_types import parse_cell

NUMERIC = frozenset({"integer", "decimal", "percent", "currency", "date"})
SAMPLE_ROWS = 200
"""Body rows looked at to tell a column's kind (enough to decide; long tables stay cheap)."""
_NO_FIGURE = re.compile(r"^[-–—−.…]+$")
"""A placeholder where a figure would be: a dash or dots."""
_WIDE = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff]")
"""A CJK glyph: as much of a name as two Latin letters."""


def is_number(text: str) -> bool:
    """A number or a date with either decimal mark: "1.393,4" or "(35,8)" is as much a figure
    as "1,393.4"."""
    return parse_cell(text).kind in NUMERIC or parse_cell(text, ",").kind in NUMERIC


def in_digits(text: str) -> bool:
    """At least as many digits as letters, a CJK glyph counting two: "Q1", "FY2023", not
    "2607 岡山支店" (a code before a name)."""
    digits = sum(ch.isdigit() for ch in text)
    return digits > 0 and digits >= sum(2 if _WIDE.match(ch) else 1 for ch in text if ch.isalpha())


def no_figure(text: str) -> bool:
    """Blank, or a placeholder standing where a figure would be (`-`, `..`, `n/a`, `x`)."""
    t = text.strip()
    return not t or bool(_NO_FIGURE.match(t)) or parse_cell(t).kind == "empty"


@dataclass(frozen=True)
class Reading:
    """What makes a column one of figures: which cells count and how many of the filled ones."""

    figure: Callable[[str], bool]
    share: float
    more_than: bool = False
    """More than `share` of the filled cells, not at least that share."""


NUMBERS = Reading(is_number, 0.6)
"""Numbers or dates in at least three filled cells of five: what a header's labels stand over."""
DIGITS = Reading(in_digits, 0.5, more_than=True)
"""Cells set in digits (codes and periods too) in more than half the filled ones: a column set
like figures, whose top rows hold group labels and the words of a cut label."""


def figure_columns(body: Sequence[Sequence[str]], reading: Reading = NUMBERS) -> list[bool]:
    """Per column: whether its filled body cells are figures by `reading`."""
    n_cols = max((len(r) for r in body), default=0)
    body = body[:SAMPLE_ROWS]
    out = []
    for c in range(n_cols):
        filled = [r[c] for r in body if c < len(r) and not no_figure(r[c])]
        figures = sum(map(reading.figure, filled))
        enough = figures > reading.share * len(filled) if reading.more_than else figures >= reading.share * len(filled)
        out.append(bool(filled) and enough)
    return out
