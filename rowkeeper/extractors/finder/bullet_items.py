"""Bullet lists inside cells: a cell holding a list prints one item a line, and a grid read from
the text gives each later item a row of its own.

A row whose only text is one cell starting with a list marker, under a row whose cell in the
same column starts with one too, is that cell's next item (a slide's "Results" cell listing
three points beside one owner and one date): it joins the cell above. A row that holds other
cells too (an item beside its own figures) stays a row.
"""

from __future__ import annotations

from collections.abc import Sequence

from rowkeeper.boxes import union
from rowkeeper.models import BBox

MARKERS = frozenset("•▪◦‣∙・●■□▫►▸➢✓-–—*")
"""Characters a list item starts with."""


def is_item(text: str | None) -> bool:
    """Whether a cell's text is a list item: a marker, then the item's words (a dash alone, or
    one before a figure, is a nil or a negative value)."""
    t = (text or "").strip()
    if len(t) < 2 or t[0] not in MARKERS:
        return False
    rest = t[1:].lstrip()
    return bool(rest) and not rest[0].isdigit() and (t[0] not in "-–—*" or t[1].isspace())


def _joined(upper: str, lower: str) -> str:
    """Two lines of a cell as one text: a space between them, none after a CJK character
    (CJK text runs on over a line break without one)."""
    return f"{upper}{lower}" if upper and ord(upper[-1]) >= 0x2E80 else f"{upper} {lower}"




def join_bullet_items(rows: Sequence[Sequence[BBox | None]], texts: Sequence[Sequence[str | None]]
                      ) -> tuple[list[list[BBox | None]], list[list[str | None]]]:
    """The grid with each row that only continues a cell's list of items joined to that cell."""
    out_r: list[list[BBox | None]] = []
    out_t: list[list[str | None]] = []
    last = -1  # the last row with text (a text-strategy grid puts empty rows between lines)
    for r, t in zip(rows, texts, strict=True):
        filled = [c for c, x in enumerate(t) if (x or "").strip()]
        if last >= 0 and len(filled) == 1 and len(t) == len(out_t[last]) \
                and is_item(t[filled[0]]) and is_item(out_t[last][filled[0]]):
            c = filled[0]
            out_t[last][c] = _joined(out_t[last][c] or "", t[c] or "")
            out_r[last][c] = union(out_r[last][c], r[c])
            continue
        out_r.append(list(r))
        out_t.append(list(t))
        if filled:
            last = len(out_t) - 1
    return out_r, out_t
