"""A header box drawn over several figure columns that holds several labels, each centred over
a run of those columns, cut into one spanning cell per label.

A ruled header whose top row is one box over six figure columns, with three dates set in it,
each centred over a `$000's` / `%` pair, is read as one cell whose text is the three dates;
folded, every column is named after all three, and the dates (a code to `reads_as_data`) stop
the header from being found at all. The printed lines say which columns each label heads: the
text layer keeps the blanks between labels set apart on one line (`12/31/2010      6/30/2011`),
so a line is cut at a run of blanks into labels, their extents shared out by their characters.
Each spanned column goes to the label whose centre is nearest its ink (its body text); the cell
is cut when every label gets a run of columns of one width, and stands within it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rowkeeper.boxes import centre_in
from rowkeeper.glyphs import span_x
from rowkeeper.label_text import clean_text
from rowkeeper.models import Cell, RawTable, TextLine
from rowkeeper.transforms.figures import figure_columns
from rowkeeper.transforms.header_labels import column_ink
from rowkeeper.transforms.merge import piece_grid

Extent = tuple[float, float]
Label = tuple[str, float, float]

HEADER_SCAN = 2
"""Top rows looked at for such a box."""
_GAP = re.compile(r"\s{3,}")
"""Blanks kept between two labels set apart on one printed line (a word space is one)."""


def _labels(line: TextLine) -> list[Label]:
    """The line's labels (its text cut at runs of blanks), each with its x extent estimated
    from its share of the line's characters (`glyphs.span_x`)."""
    text = line.text.strip()
    out, at = [], 0
    for part in _GAP.split(text):
        start = text.index(part, at)
        at = start + len(part)
        out.append((part, *span_x(text, line.bbox[0], line.bbox[2], start, at)))
    return out


def _runs(cell: Cell, labels: list[Label], ink: dict[int, Extent]) -> list[list[int]] | None:
    """The run of spanned columns each label heads (each column to the nearest label centre),
    when every label heads a run of the same width and stands within it; else None."""
    cols = range(cell.col, cell.col + cell.col_span)
    centres = [(a + b) / 2 for _, a, b in labels]
    runs: list[list[int]] = [[] for _ in labels]
    for j in cols:
        mid = sum(ink[j]) / 2
        runs[min(range(len(labels)), key=lambda k: abs(centres[k] - mid))].append(j)
    if any(not r or len(r) != len(runs[0]) for r in runs):
        return None
    if any(not ink[r[0]][0] - 2 <= m <= ink[r[-1]][1] + 2 for r, m in zip(runs, centres, strict=True)):
        return None
    return runs


def _cut(cell: Cell, labels: list[Label], runs: list[list[int]], ink: dict[int, Extent]) -> list[Cell]:
    """The box as one cell per label over its run, cut midway between the runs' ink."""
    assert cell.bbox is not None
    x0, y0, x1, y1 = cell.bbox
    cuts = [x0] + [(ink[a[-1]][1] + ink[b[0]][0]) / 2 for a, b in zip(runs, runs[1:], strict=False)] + [x1]
    return [cell.model_copy(update={"col": r[0], "col_span": len(r), "text": text,
                                    "bbox": (cuts[i], y0, cuts[i + 1], y1)})
            for i, (r, (text, _, _)) in enumerate(zip(runs, labels, strict=True))]


def _labels_in(cell: Cell, band: Sequence[TextLine]) -> list[Label]:
    """The labels of the lines whose centre lies in the cell, left to right; none unless they
    are the cell's own words, in order."""
    assert cell.bbox is not None
    own = sorted((ln for ln in band if ln.text.strip() and centre_in(ln.bbox, cell.bbox, 1.0)),
                 key=lambda ln: ln.bbox[0])
    if own and max(ln.bbox[1] for ln in own) - min(ln.bbox[1] for ln in own) > 2.0:
        return []  # labels over several lines: not labels side by side
    labels = [lab for ln in own for lab in _labels(ln)]
    if " ".join(t for t, _, _ in labels).split() != clean_text(cell.text).split():
        return []
    return labels


def cut_label_runs(piece: RawTable, lines: Sequence[TextLine]) -> RawTable:
    """The piece with each box over figure columns in its top rows that holds one label per
    run of those columns cut into those labels."""
    wide = [c for c in piece.cells if c.row < HEADER_SCAN and c.col > 0 and c.col_span > 2
            and c.row_span == 1 and c.bbox is not None and c.text.strip()]
    if not wide or not lines:
        return piece
    figures = figure_columns(piece_grid(piece)[HEADER_SCAN:])
    band = [ln for ln in lines if ln.page == piece.page]
    cells = list(piece.cells)
    for cell in wide:
        cols = range(cell.col, cell.col + cell.col_span)
        if not all(j < len(figures) and figures[j] for j in cols):
            continue
        ink = column_ink(piece, lines, cell.row + 1)
        labels = _labels_in(cell, band)
        if len(labels) < 2 or len(labels) >= cell.col_span or any(j not in ink for j in cols):
            continue
        runs = _runs(cell, labels, ink)
        if runs is not None:
            i = cells.index(cell)
            cells[i:i + 1] = _cut(cell, labels, runs, ink)
    if len(cells) == len(piece.cells):
        return piece
    return piece.model_copy(update={"cells": tuple(cells)})
