"""Line breaks inside a ruled cell that the column's width made: a column whose cells wrap
CJK text at one width (`WIDTH_CELLS` cells or more with a line ending within a character or so
of the column's furthest wrapped line) breaks its lines where the next character would not fit, and
the text runs on over those breaks without a space (`冷却設備の校正（高所作` / `業車は別途）`).
A line that stops short of that width, or a column with fewer wrapped cells (a statement's
labels `持分法の適用範囲` / `の変動` and `株主資本以外の項目` / `の当期変動額`, as its writer broke
them, two lines that end level by chance), keeps the space that a cell's line breaks
read as (`text_cells.clean_cell`)."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any

import pymupdf

from rowkeeper.extractors.finder.bullet_items import lines_text
from rowkeeper.extractors.finder.row_rules import text_lines
from rowkeeper.extractors.finder.word_lines import word_lines
from rowkeeper.extractors.pymupdf_tables import hidden_spans
from rowkeeper.extractors.text_layer import shown_words
from rowkeeper.glyphs import is_cjk
from rowkeeper.models import BBox

ROOM = 1.5
"""Characters' widths at most between a wrapped line's end and its column's furthest one."""
WIDTH_CELLS = 3
"""Cells of a column wrapped at one width, at least, for that width to be the column's."""
HANGING = ("Pe", "Pf", "Po")
"""Unicode categories of the punctuation a CJK line may end past its width with (`、）`)."""


def run_on_breaks(page: pymupdf.Page, bbox: Sequence[float], rows: Sequence[Sequence[BBox | None]],
                  texts: Sequence[Sequence[str | None]]) -> list[list[str | None]]:
    """The cell texts of a ruled table with each line break that touches a CJK character and
    follows a line filled to its column's wrapping width taken out (the cell's lines as
    `find_tables` joined them, one a line)."""
    out = [list(t) for t in texts]
    todo = [(i, j) for i, t in enumerate(out) for j, x in enumerate(t)
            if x and "\n" in x and _cjk_break(x.split("\n")) and j < len(rows[i]) and rows[i][j] is not None]
    if len(todo) < WIDTH_CELLS:
        return out
    words = [w for w in shown_words(page.get_text("words", clip=pymupdf.Rect(bbox)), hidden_spans(page))
             if w[4].strip()]
    cells: dict[tuple[int, int], tuple[list[str], list[list[Any]]]] = {}
    for i, j in todo:
        c = rows[i][j]
        assert c is not None
        lines = text_lines([w for w in words if c[0] <= (w[0] + w[2]) / 2 <= c[2] and c[1] <= (w[1] + w[3]) / 2 <= c[3]])
        parts = out[i][j].split("\n")  # type: ignore[union-attr]
        if len(lines) == len(parts):
            cells[(i, j)] = (parts, lines)
    for (i, j), text in _run_on(cells).items():
        out[i][j] = text
    return out


def run_on_cells(words: Sequence[Sequence[Sequence[Any]]], texts: Sequence[Sequence[str | None]]
                 ) -> list[list[str | None]]:
    """The cell texts of a table read from the text (`words`: each cell's words, its text their
    lines joined by `bullet_items.lines_text`) with the CJK line breaks its columns' widths
    made joined without a space, as `run_on_breaks` joins a ruled table's."""
    out = [list(t) for t in texts]
    cells: dict[tuple[int, int], tuple[list[str], list[list[Any]]]] = {}
    for i, row in enumerate(words):
        for j, ws in enumerate(row):
            if len(ws) < 2 or i >= len(out) or j >= len(out[i]):
                continue
            lines = word_lines(ws)
            parts = [" ".join(w[4] for w in ln) for ln in lines]
            if len(lines) >= 2 and _cjk_break(parts) and out[i][j] == lines_text(parts):
                cells[(i, j)] = (parts, lines)
    for (i, j), text in _run_on(cells).items():
        out[i][j] = text
    return out


def _run_on(cells: dict[tuple[int, int], tuple[list[str], list[list[Any]]]]) -> dict[tuple[int, int], str]:
    """The texts of the cells (keyed by row and column: their lines' texts and words) whose
    column wraps at one width, each break after a line filled to it that touches a CJK character
    joined without a space, the others as `bullet_items.lines_text` joins a cell's lines."""
    out: dict[tuple[int, int], str] = {}
    for col in sorted({j for _, j in cells}):
        mine = {k: v for k, v in cells.items() if k[1] == col}
        ends = {k: [(max(w[2] for w in ln), _char(ln)) for ln in lines[:-1]] for k, (_, lines) in mine.items()}
        if not any(ends.values()):
            continue
        # a line ending in closing punctuation may hang past the width (kinsoku): not the width
        set_in = [e for k, (_, lines) in mine.items() for (e, _), ln in zip(ends[k], lines, strict=False)
                  if not _hangs(ln)]
        edge = max(set_in or [e for ls in ends.values() for e, _ in ls])
        filled = {k: [edge - e < ROOM * ch for e, ch in ls] for k, ls in ends.items()}
        if sum(any(f) for f in filled.values()) < WIDTH_CELLS:
            continue  # no width to tell a wrapped line from one its writer broke
        for k, flags in filled.items():
            parts = mine[k][0]
            text = parts[0]
            for f, upper, lower in zip(flags, parts, parts[1:], strict=False):
                # the other breaks as a cell's breaks read (a list item after CJK text: none)
                text = text + lower if f and (is_cjk(upper[-1:]) or is_cjk(lower[:1])) else lines_text([text, lower])
            out[k] = text
    return out


def _cjk_break(parts: Sequence[str]) -> bool:
    """Whether a break between the printed lines `parts` touches a CJK character."""
    return any(is_cjk(a[-1:]) or is_cjk(b[:1]) for a, b in zip(parts, parts[1:], strict=False))


def _hangs(line: Sequence[Any]) -> bool:
    """Whether a printed line ends in CJK closing punctuation (`、` `。` `）`), which may not
    start a line and so is set at the end of the one before, past the column's width."""
    last = str(max(line, key=lambda w: w[2])[4])[-1:]
    return is_cjk(last) and unicodedata.category(last) in HANGING


def _char(line: Sequence[Any]) -> float:
    """A character's width on a printed line: its last word's width a character."""
    last = max(line, key=lambda w: w[2])
    return (last[2] - last[0]) / max(len(last[4]), 1)
