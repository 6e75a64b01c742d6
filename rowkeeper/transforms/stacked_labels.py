"""A header cell read over two header rows that holds a group label and a sub-label, split.

In a two-row header (years over `N` / `% Pos` pairs) the first pair's column may be read as
one cell from the header's top to its bottom, holding the year and its first sub-label
("2007 N"): the year then heads no pair, and the sub-label is lost from the second row. Such a
cell is told from a label that fills both rows ("Sample" / "size", centred in the band) by
where its lines stand: the top one level with the group labels of the other columns, the
bottom one level with their sub-labels. It is cut there into one cell per row.
"""

from __future__ import annotations

from collections.abc import Sequence

from rowkeeper.boxes import centre_in
from rowkeeper.models import BBox, Cell, RawTable, TextLine


def _mid(box: BBox) -> float:
    return (box[1] + box[3]) / 2


def _levels(piece: RawTable, row: int, lines: Sequence[TextLine]) -> list[float]:
    """Heights of the text lines inside the one-row cells of `row` that hold text."""
    return [_mid(ln.bbox) for c in piece.cells if c.row == row and c.row_span == 1 and c.bbox and c.text.strip()
            for ln in lines if centre_in(ln.bbox, c.bbox, 1.0)]


def _level(line: TextLine, levels: Sequence[float]) -> bool:
    tol = 0.3 * (line.bbox[3] - line.bbox[1])
    return any(abs(_mid(line.bbox) - y) <= tol for y in levels)


def _reaches(line: TextLine, box: BBox) -> bool:
    """Whether a line standing over the header's first row reaches into the column of `box`
    (a group label centred over this column and the next, read into the next one's cell)."""
    return line.bbox[0] < box[2] - 1 and line.bbox[2] > box[0] + 1 and not centre_in(line.bbox, box, 1.0)


def _cut(cell: Cell, top: list[TextLine], bottom: list[TextLine], at: float) -> list[Cell] | None:
    """The cell as two, its top lines in its first row, its bottom lines in the next."""
    assert cell.bbox is not None
    upper = " ".join(ln.text.strip() for ln in top)
    lower = " ".join(ln.text.strip() for ln in bottom)
    if f"{upper} {lower}".split() != cell.text.split():
        return None  # the lines must be the cell's own words, in order
    x0, y0, x1, y1 = cell.bbox
    return [cell.model_copy(update={"row_span": 1, "text": upper, "bbox": (x0, y0, x1, at)}),
            cell.model_copy(update={"row": cell.row + 1, "row_span": cell.row_span - 1, "text": lower,
                                    "bbox": (x0, at, x1, y1)})]


def split_stacked_labels(piece: RawTable, lines: Sequence[TextLine], header_rows: int) -> RawTable:
    """The piece with each cell spanning its first two header rows, whose lines stand level
    with the first row's labels and the second's, cut into a cell per row; a cell holding only a sub-label so placed, under a group label read
into the next column's cell, moves to the second row."""
    if header_rows < 2 or not lines:
        return piece
    tall = [c for c in piece.cells if c.row == 0 and c.row_span >= 2 and c.col_span == 1 and c.bbox]
    page = [ln for ln in lines if ln.page == piece.page and ln.text.strip()]
    if not tall or not page:
        return piece
    first, second = _levels(piece, 0, page), _levels(piece, 1, page)
    if not first or not second:
        return piece
    cells = list(piece.cells)
    for cell in tall:
        assert cell.bbox is not None
        own = sorted((ln for ln in page if centre_in(ln.bbox, cell.bbox, 1.0)), key=lambda ln: (_mid(ln.bbox), ln.bbox[0]))
        top = [ln for ln in own if _level(ln, first)]
        bottom = [ln for ln in own if _level(ln, second) and ln not in top]
        if not bottom or len(top) + len(bottom) != len(own):
            continue
        if not top and not any(_reaches(ln, cell.bbox) for ln in page if _level(ln, first)):
            continue  # a label set low in its own column, with no group label over it
        low = min(ln.bbox[1] for ln in bottom)
        parts = _cut(cell, top, bottom, (max(ln.bbox[3] for ln in top) + low) / 2 if top else low - 1)
        if parts is not None:
            i = cells.index(cell)
            cells[i:i + 1] = parts
    if len(cells) == len(piece.cells):
        return piece
    return piece.model_copy(update={"cells": tuple(cells)})
