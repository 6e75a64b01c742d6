"""Bullet lists inside cells: a cell holding a list prints one item a line, and a grid read from
the text gives each later item a row of its own.

A row whose only text is one cell starting with a list marker, under a row whose cell in the
same column starts with one too, is that cell's next item (a slide's "Results" cell listing
three points beside one owner and one date): it joins the cell above. A row that holds other
cells too (an item beside its own figures) stays a row.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from rowkeeper.boxes import union
from rowkeeper.glyphs import is_cjk
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
    return f"{upper}{lower}" if is_cjk(upper[-1:]) else f"{upper} {lower}"


def lines_text(lines: Sequence[str]) -> str:
    """A cell's printed lines as one text: a space between two lines, but a list item after a
    CJK character joins as `join_bullet_items` joins items a grid gave rows of their own (`・
    人員と予算・ 保守計画`): one cell's items read alike however the grid cut its rows. A
    label wrapped over a line break keeps its space (no marker starts the next line)."""
    out = ""
    for line in (ln for ln in lines if ln):
        out = _joined(out, line) if out and is_item(line) else f"{out} {line}" if out else line
    return out


def without_marker_columns(words: Sequence[Any], seps: Sequence[float]) -> list[float]:
    """`seps` less the right edge of a column that holds nothing but list markers, each a word
    space or so from its item (a monospaced slide's `▪ Energieverbrauch`: the marker's space is
    as wide as a column gap, so the markers line up as a column of their own): the markers go
    with their items, whose later lines `join_bullet_items` then joins. A header label starting
    over the markers runs across the edge and is no word of the column."""
    bounds = [-math.inf, *seps, math.inf]
    out = []
    for k, x in enumerate(seps):
        inside = [w for w in words if bounds[k] <= w[0] and w[2] <= x]
        if len(inside) >= 2 and all(_marks_item(w, words, x) for w in inside):
            continue
        out.append(x)
    return out


def _marks_item(w: Sequence[Any], words: Sequence[Any], x: float) -> bool:
    """Whether word `w` is a lone list marker whose item starts right of `x`, in its line, no
    further off than the marker's height."""
    if len(str(w[4])) != 1 or str(w[4]) not in MARKERS:
        return False
    mid = (w[1] + w[3]) / 2
    nxt = [v for v in words if v[0] >= x and v[1] < mid < v[3]]
    return bool(nxt) and min(v[0] for v in nxt) - w[2] <= w[3] - w[1]


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
