"""A form's field printed as one line: a bold key a word space from its regular value.

A block of fields whose longest key stands one word space from its value (`Angebotsnr.
Talweg` under `Datum  898.445 €`) gets that row as one text line, so the row is one segment
and no aligned row, and the block falls short of the rows a run needs, or loses that row.
The change from bold to regular print inside the line is where the key ends: the line is two
segments there, as the other rows are, where another line of the page starts where the value
does (the block's value column). A note's bold lead under a table (`Abbreviation: CI = ...`)
starts its text where no other line starts, and stays one line.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence

from rowkeeper.models import TextLine

MAX_KEY = 30
"""Characters a key holds at most (a longer bold lead-in is a run-in heading)."""
NUMBERED = re.compile(r"\d[.:)]?$")
"""A key ending in a number is a numbered label's (`Figure 16`, `Table 2:`, `3.1`): a
caption's or a heading's, no field's."""
MAX_VALUE = 40
"""Characters a value holds at most (`field_blocks.MAX_CELL`: a longer one is running text)."""


def split_bold_key(line: TextLine, starts: Sequence[float], tol: float = 1.5) -> list[TextLine]:
    """`line` as its bold key and its regular value when it starts in bold and goes on in
    regular print (`TextLine.bold_lead`), both short, and one of the other lines' left edges
    (`starts`, sorted) stands where the value starts; else `line` alone."""
    if line.bold_lead is None:
        return [line]
    n, key_end, value_x = line.bold_lead
    key, value = line.text[:n].strip(), line.text[n:].strip()
    if not key or not value or len(key) > MAX_KEY or len(value) > MAX_VALUE or value_x <= key_end \
            or NUMBERED.search(key):
        return [line]
    if bisect_left(starts, value_x - tol) == bisect_right(starts, value_x + tol):
        return [line]
    x0, y0, x1, y1 = line.bbox
    return [line.model_copy(update={"text": key, "bbox": (x0, y0, key_end, y1), "bold": True, "bold_lead": None}),
            line.model_copy(update={"text": value, "bbox": (value_x, y0, x1, y1), "bold": False, "bold_lead": None})]
