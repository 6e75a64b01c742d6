"""Bullet lists read from aligned text: a column of list markers beside a column of items lines
up like a table's columns, and two lists side by side like a table of four. A grid whose every
other column holds list markers only, one in every row, is a list (or lists), no table."""

from __future__ import annotations

import re
from collections.abc import Sequence

from rowkeeper.boxes import centre_in
from rowkeeper.models import BBox, TextLine
from rowkeeper.page_columns import text_rows

MARKER = re.compile(r"^(?:[^\w\s]|\d{1,2}[.)]|[A-Za-z][.)]|[ivxIVX]{1,4}[.)])$")
"""A list item's marker: a bullet glyph, or an ordinal with its stop ("1.", "a)", "iv.");
a bare figure ("1", "12") is a row number of a table, and stays one."""


def is_bullet_list(texts: Sequence[Sequence[str | None]]) -> bool:
    """Whether a grid read from text is list items: its first column and every second one after
    it hold a marker in every row, each followed by a column of items' text."""
    rows = [[(t or "").strip() for t in r] for r in texts]
    n_cols = max((len(r) for r in rows), default=0)
    if len(rows) < 2 or n_cols < 2 or n_cols % 2 or any(len(r) != n_cols for r in rows):
        return False
    for c in range(0, n_cols, 2):
        if not all(MARKER.match(r[c]) for r in rows) or not all(r[c + 1] for r in rows):
            return False
    return True


def _items(texts: Sequence[str]) -> int | None:
    """How many list items a row's text lines (left to right) print, each a marker and its
    text (`• Faster approval`, or `•` and `Faster approval` apart); None when the row is no
    run of items."""
    tokens = []
    for t in texts:
        head, _, rest = t.strip().partition(" ")
        if MARKER.match(head):
            tokens.append("M")
        if rest.strip() or not MARKER.match(head):
            tokens.append("T")
    pairs = "".join(tokens)
    return len(pairs) // 2 if pairs and pairs == "MT" * (len(pairs) // 2) else None


def without_bullet_lists(regions: Sequence[BBox], lines: Sequence[TextLine]) -> list[BBox]:
    """Aligned regions less those whose every row prints the same number of list items (lists
    side by side line up like a table's columns; a lone list's markers like a column)."""
    out = []
    for box in regions:
        rows = text_rows([ln for ln in lines if centre_in(ln.bbox, box)])
        counts = {_items([ln.text for ln in sorted(r, key=lambda ln: ln.bbox[0])]) for r in rows}
        if len(rows) < 2 or len(counts) != 1 or None in counts:
            out.append(box)
    return out


