"""Line breaks inside a ruled cell that the column's width made: a column whose cells wrap
CJK text at one width (`WIDTH_CELLS` cells or more with a line ending within a character or so
of the column's furthest wrapped line) breaks its lines where the next character would not fit, and
the text runs on over those breaks without a space (`冷却設備の校正（高所作` / `業車は別途）`).
A line that stops short of that width, or a column with fewer wrapped cells (a statement's
labels `持分法の適用範囲` / `の変動` and `株主資本以外の項目` / `の当期変動額`, as its writer broke
them, two lines that end level by chance), keeps the space that a cell's line breaks
read as (`text_cells.clean_cell`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pymupdf

from rowkeeper.extractors.finder.row_rules import text_lines
from rowkeeper.extractors.pymupdf_tables import hidden_spans
from rowkeeper.extractors.text_layer import shown_words
from rowkeeper.models import BBox

ROOM = 1.5
"""Characters' widths at most between a wrapped line's end and its column's furthest one."""
WIDTH_CELLS = 3
"""Cells of a column wrapped at one width, at least, for that width to be the column's."""


def run_on_breaks(page: pymupdf.Page, bbox: Sequence[float], rows: Sequence[Sequence[BBox | None]],
                  texts: Sequence[Sequence[str | None]]) -> list[list[str | None]]:
    """The cell texts with each line break that touches a CJK character and follows a line
    filled to its column's wrapping width taken out (the cell's lines as `find_tables` joined
    them, one a line)."""
    out = [list(t) for t in texts]
    todo = [(i, j) for i, t in enumerate(out) for j, x in enumerate(t)
            if x and "\n" in x and _cjk_break(x) and j < len(rows[i]) and rows[i][j] is not None]
    if len(todo) < WIDTH_CELLS:
        return out
    words = [w for w in shown_words(page.get_text("words", clip=pymupdf.Rect(bbox)), hidden_spans(page))
             if w[4].strip()]
    for col in sorted({j for _, j in todo}):
        cells = []
        for i, j in todo:
            c = rows[i][j]
            if j != col or c is None:
                continue
            lines = text_lines([w for w in words if c[0] <= (w[0] + w[2]) / 2 <= c[2] and c[1] <= (w[1] + w[3]) / 2 <= c[3]])
            if len(lines) == len(out[i][j].split("\n")):  # type: ignore[union-attr]
                cells.append((i, j, [(max(w[2] for w in ln), _char(ln)) for ln in lines[:-1]]))
        ends = [e for _, _, ls in cells for e, _ in ls]
        if not ends:
            continue
        edge = max(ends)
        filled = [(i, j, [edge - e < ROOM * ch for e, ch in ls]) for i, j, ls in cells]
        if sum(any(f) for _, _, f in filled) < WIDTH_CELLS:
            continue  # no width to tell a wrapped line from one its writer broke
        for i, j, flags in filled:
            parts = out[i][j].split("\n")  # type: ignore[union-attr]
            text = parts[0]
            for f, upper, lower in zip(flags, parts, parts[1:], strict=False):
                text += ("" if f and (_wide(upper[-1:]) or _wide(lower[:1])) else "\n") + lower
            out[i][j] = text
    return out


def _cjk_break(text: str) -> bool:
    """Whether a line break in `text` touches a CJK character."""
    parts = text.split("\n")
    return any(_wide(a[-1:]) or _wide(b[:1]) for a, b in zip(parts, parts[1:], strict=False))


def _char(line: Sequence[Any]) -> float:
    """A character's width on a printed line: its last word's width a character."""
    last = max(line, key=lambda w: w[2])
    return (last[2] - last[0]) / max(len(last[4]), 1)


def _wide(ch: str) -> bool:
    return bool(ch) and ord(ch[0]) >= 0x2E80
