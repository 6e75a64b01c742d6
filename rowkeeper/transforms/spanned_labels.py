"""A header cell drawn over two columns that holds one label for each, split into its labels.

A ruled header whose column rule starts under the header row (the code column and the
description column under one box: `Partida | Descripción`) is read as one cell spanning both,
and the folded names then repeat its text over both columns (`Partida Descripción` twice).
A spanning label is one printed label over its sub-columns; here the cell holds several
printed labels, each standing over the body text (ink) of a different one of the columns it
spans, every one of them with a label of its own: the cell is those labels, one per column.
"""

from __future__ import annotations

from collections.abc import Sequence

from rowkeeper.boxes import centre_in
from rowkeeper.models import Cell, RawTable, TextLine
from rowkeeper.transforms.header_labels import column_ink

Extent = tuple[float, float]


def _owner(line: TextLine, cols: range, ink: dict[int, Extent]) -> int | None:
    """The one spanned column whose ink the line stands over (None: none, or several)."""
    over = [j for j in cols if line.bbox[0] < ink[j][1] + 1 and ink[j][0] - 1 < line.bbox[2]]
    return over[0] if len(over) == 1 else None


def _labels_per_column(cell: Cell, band: Sequence[TextLine], ink: dict[int, Extent]) -> dict[int, str] | None:
    """Column -> its label, when every line in the cell stands over one spanned column's ink
    and every spanned column has one; else None (one label over its sub-columns)."""
    cols = range(cell.col, cell.col + cell.col_span)
    if cell.bbox is None or any(j not in ink for j in cols):
        return None
    own = [ln for ln in band if centre_in(ln.bbox, cell.bbox, 1.0) and ln.text.strip()]
    parts: dict[int, list[TextLine]] = {}
    for ln in own:
        j = _owner(ln, cols, ink)
        if j is None:
            return None
        parts.setdefault(j, []).append(ln)
    if set(parts) != set(cols):
        return None
    texts = {j: " ".join(ln.text.strip() for ln in sorted(v, key=lambda ln: (ln.bbox[1], ln.bbox[0])))
             for j, v in parts.items()}
    if " ".join(texts[j] for j in cols).split() != cell.text.split():
        return None  # the lines must be the cell's own words, in order
    return texts


def _split(cell: Cell, texts: dict[int, str], ink: dict[int, Extent]) -> list[Cell]:
    """The spanning cell as one cell per column, its box cut midway between the columns' ink."""
    assert cell.bbox is not None
    x0, y0, x1, y1 = cell.bbox
    cols = list(range(cell.col, cell.col + cell.col_span))
    cuts = [x0] + [(ink[a][1] + ink[b][0]) / 2 for a, b in zip(cols, cols[1:], strict=False)] + [x1]
    return [cell.model_copy(update={"col": j, "col_span": 1, "text": texts[j],
                                    "bbox": (cuts[i], y0, cuts[i + 1], y1)}) for i, j in enumerate(cols)]


def split_spanned_labels(piece: RawTable, lines: Sequence[TextLine], header_rows: int) -> RawTable:
    """The piece with each spanning cell of its last header row that holds one label per
    spanned column cut into those labels."""
    r = header_rows - 1
    wide = [c for c in piece.cells if c.row == r and c.col_span > 1 and c.row_span == 1 and c.text.strip()]
    if r < 0 or not wide or not lines:
        return piece
    ink = column_ink(piece, lines, header_rows)
    band = [ln for ln in lines if ln.page == piece.page]
    cells = list(piece.cells)
    for cell in wide:
        texts = _labels_per_column(cell, band, ink)
        if texts is not None:
            i = cells.index(cell)
            cells[i:i + 1] = _split(cell, texts, ink)
    if len(cells) == len(piece.cells):
        return piece
    return piece.model_copy(update={"cells": tuple(cells)})
