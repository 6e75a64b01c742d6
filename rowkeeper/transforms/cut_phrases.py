"""A column cut through a printed phrase is no column.

A reader that places column edges by the gaps of a few rows (a header word centred over row
labels, a monospaced page) can cut one label at a word space: `Interviewed, not` | `examined`,
with the second half alone in a column that is empty in every other row and has no header.
Such a column is recognised by what the page prints, not by where it stands: each text it
holds is the end of one printed line that the cell on its left begins (the page's line reader
saw no column gap there), and it holds text in at most a third of the rows. Its texts join the
cells on their left and the column goes. The cell on the left may hold several printed lines
(a slide's list items in one cell, `• Quarterly figures by` | `site`): the cut line is one of
them, and the tail goes back after that line's words.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from rowkeeper.boxes import union
from rowkeeper.models import Cell, RawTable, TextLine
from rowkeeper.transforms.figures import DIGITS, figure_columns
from rowkeeper.transforms.merge import piece_grid


def _words(text: str) -> str:
    return " ".join(text.split())


def _printed_across(left: Cell, right: Cell, lines: Sequence[TextLine], reads: Callable[[str], bool]) -> bool:
    """Whether a printed line level with both cells runs across the edge between them and
    `reads` its words (the page's line reader saw no column gap there)."""
    assert left.bbox is not None and right.bbox is not None
    top, bottom = max(left.bbox[1], right.bbox[1]), min(left.bbox[3], right.bbox[3])
    return any(top <= (ln.bbox[1] + ln.bbox[3]) / 2 <= bottom and ln.bbox[0] < right.bbox[0] < ln.bbox[2]
               and reads(_words(ln.text)) for ln in lines)


def _tail_at(left: Cell | None, right: Cell, lines: Sequence[TextLine]) -> int | None:
    """How many of `left`'s words come before `right`'s text, where a printed line reads one
    run of `left`'s words (all of them, or one of its printed lines: a run found once) then
    `right`'s text (one phrase); None where no line does."""
    if left is None or not left.text.strip() or left.bbox is None or right.bbox is None:
        return None
    words, tail = left.text.split(), right.text.split()
    found: list[int] = []

    def reads(printed: str) -> bool:
        line = printed.split()
        head = line[:len(line) - len(tail)]
        ends = [i + len(head) for i in range(len(words) - len(head) + 1) if words[i:i + len(head)] == head]
        if head and line[len(head):] == tail and len(ends) == 1:
            found[:] = ends
            return True
        return False

    return found[0] if _printed_across(left, right, lines, reads) else None


def _cut_column(piece: RawTable, lines: Sequence[TextLine]) -> int | None:
    """The first column holding only the ends of phrases its left neighbour begins."""
    at = {(c.row, c.col): c for c in piece.cells}
    for col in range(1, piece.n_cols):
        filled = [at[(r, col)] for r in range(piece.n_rows) if (r, col) in at and at[(r, col)].text.strip()]
        if filled and 3 * len(filled) <= piece.n_rows \
                and all(_tail_at(at.get((c.row, col - 1)), c, lines) is not None for c in filled):
            return col
    return None


def join_cut_phrases(piece: RawTable, lines: Sequence[TextLine]) -> RawTable:
    """The piece with each column cut through printed phrases joined to the column on its left
    (see the module); other tables as they are."""
    if piece.n_cols < 3 or any(c.row_span > 1 or c.col_span > 1 for c in piece.cells):
        return piece
    page_lines = [ln for ln in lines if ln.page == piece.page]
    col = _cut_column(piece, page_lines)
    if col is None:
        return piece
    tails = {c.row: c for c in piece.cells if c.col == col}
    cells: list[Cell] = []
    for c in piece.cells:
        if c.col == col:
            continue
        update: dict = {"col": c.col - 1} if c.col > col else {}
        tail = tails.get(c.row)
        if c.col == col - 1 and tail is not None:
            update["bbox"] = union(c.bbox, tail.bbox)
            if tail.text.strip():
                words, at_word = c.text.split(), _tail_at(c, tail, page_lines)
                k = len(words) if at_word is None else at_word
                update["text"] = " ".join([*words[:k], *tail.text.split(), *words[k:]])
        cells.append(c.model_copy(update=update) if update else c)
    return join_cut_phrases(piece.model_copy(update={"cells": tuple(cells), "n_cols": piece.n_cols - 1}), lines)


_ORDINAL = re.compile(r"\d{1,2}")
"""A label's number (`Day 1`, `Week 12`, `Phase 2`): one or two digits, nothing else."""
LABEL_ROWS = 2
"""Top rows where a header label stands."""


def _label_and_number(left: Cell, right: Cell, lines: Sequence[TextLine]) -> bool:
    """Whether `right` holds only the number ending the label `left` begins, printed as one
    line that runs across the edge between them (`Postnatal Day` | `1`)."""
    words = left.text.split()
    if not words or left.bbox is None or right.bbox is None or not _ORDINAL.fullmatch(right.text.strip()) \
            or any(ch.isdigit() for ch in left.text) or sum(ch.isalpha() for ch in words[-1]) < 2:
        return False
    phrase = re.compile(rf"(?:^| ){re.escape(_words(f'{left.text} {right.text}'))}(?: |$)")
    return _printed_across(left, right, lines, lambda words: phrase.search(words) is not None)


def join_cut_labels(piece: RawTable, lines: Sequence[TextLine]) -> RawTable:
    """The piece with each header label whose number a column edge cut off (`Postnatal Day` |
    `1`, the label centred over two sub-columns) made one cell spanning both columns: a lone
    number in a header row reads as data and stops the header from being found."""
    page_lines = [ln for ln in lines if ln.page == piece.page]
    at = {(c.row, c.col): c for c in piece.cells if c.row < LABEL_ROWS and c.row_span == 1}
    if not at:
        return piece
    grid = piece_grid(piece)
    figures = {row: figure_columns(grid[row + 1:], DIGITS) for row in range(LABEL_ROWS)}
    joined: dict[tuple[int, int], Cell] = {}
    for (row, col), left in sorted(at.items()):
        right = at.get((row, col + left.col_span))
        # a label heads figure columns; a name and its number in a form (`Oak Hill` | `60`) stay
        if right is not None and (row, col) not in joined and left.text.strip() \
                and all(figures[row][j] for j in range(col, right.col + 1) if j < len(figures[row])) \
                and _label_and_number(left, right, page_lines):
            joined[(row, right.col)] = left.model_copy(update={
                "col_span": left.col_span + right.col_span, "bbox": union(left.bbox, right.bbox),
                "text": _words(f"{left.text} {right.text}")})
    if not joined:
        return piece
    spans = {(j.row, j.col): j for j in joined.values()}
    cells = [spans.get((c.row, c.col), c) if c.row_span == 1 else c
             for c in piece.cells if (c.row, c.col) not in joined]  # each number inside its label
    return piece.model_copy(update={"cells": tuple(cells)})
