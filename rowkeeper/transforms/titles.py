"""Captions and headings that an extractor read into a table's rows, taken back out.

An aligned-text finder sees the caption or the section heading right above a table line up
with its columns and reads it as a first row; between two tables of one aligned run it reads
the second one's heading as a body row and joins both. Such a row is a lone label set larger
than the row under it (a header row never is), a caption ("Tabelle 4 ..."), or, on top, a
bold numbered label ("2. Ausgaben"), or a row made of page lines that cross the table's
columns (a caption or a lead-in sentence cut into cells). Taken out, its line lies outside
the tables, where captions and section headings are looked for.
"""

from __future__ import annotations

from collections.abc import Sequence

from rowkeeper.models import BBox, Cell, RawTable, TextLine
from rowkeeper.page_columns import running
from rowkeeper.transforms.context import FOOTNOTE, NUMBERED_HEADING, is_caption
from rowkeeper.transforms.headers import clean_text, piece_header_rows
from rowkeeper.transforms.merge import piece_grid

MIN_ROWS = 2
"""Rows each part keeps at least (a header and a body row) for an inner title to split it."""


def _row(piece: RawTable, r: int) -> list[Cell]:
    return sorted((c for c in piece.cells if c.row == r and c.text.strip()), key=lambda c: c.col)


def _overlap(a: BBox, b: BBox) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > 1.0 and min(a[3], b[3]) - max(a[1], b[1]) > 1.0


def _crosses(line: TextLine, cells: Sequence[Cell], box: BBox) -> bool:
    """Whether a page line runs over the table's columns: into two cells of a row, or out past
    the table's side (the finder kept the part within its box)."""
    cut = sum(1 for c in cells if c.bbox and _overlap(line.bbox, c.bbox)) >= 2
    return cut or line.bbox[0] < box[0] - 3.0 or line.bbox[2] > box[2] + 3.0


def _cut_lines(piece: RawTable, r: int, lines: Sequence[TextLine]) -> list[list[TextLine]] | None:
    """Per cell of row `r`, the page lines in it that cross the table's columns (None when a
    cell has no box)."""
    cells = _row(piece, r)
    if any(c.bbox is None for c in cells):
        return None
    return [[ln for ln in lines if c.bbox and _overlap(ln.bbox, c.bbox) and _crosses(ln, cells, piece.bbox)]
            for c in cells]


def _text_above(piece: RawTable, r: int, lines: Sequence[TextLine]) -> bool:
    cut = _cut_lines(piece, r, lines)
    return bool(cut) and all(any(is_caption(ln.text) or running(ln) for ln in own) for own in cut or ())


def is_cut_line_row(piece: RawTable, r: int, lines: Sequence[TextLine]) -> bool:
    """Whether every cell of row `r` is part of a caption or running-text line that crosses
    the table's columns, and the first row under such rows has a cell of its own (a line no
    other cell shares): text set above the table, not a row of it. A spanner label cut by a
    column edge is neither caption nor prose; a table whose rows are each one line cut into
    cells (a report printed line by line) has no cell of its own to set the text apart."""
    if not _text_above(piece, r, lines):
        return False
    nxt = r + 1
    while nxt < piece.n_rows and _text_above(piece, nxt, lines):
        nxt += 1
    below = _cut_lines(piece, nxt, lines) if nxt < piece.n_rows else None
    return below is not None and not all(below)


def is_title_row(piece: RawTable, r: int, texts: frozenset[str] = frozenset(),
                 lines: Sequence[TextLine] = ()) -> bool:
    """Whether row `r` of the piece is a caption or a heading line rather than table rows;
    a caption row holds one of the page's lines (`texts`) and nothing else (a caption line
    and a header line read as one row keep the header), a lone label must start the row (one
    over the columns to its right is their spanner); or its cells are cut from page `lines`
    that cross the columns (`is_cut_line_row`)."""
    cells = _row(piece, r)
    if not cells or r + 1 >= piece.n_rows:
        return False
    if lines and is_cut_line_row(piece, r, lines):
        return True
    text = " ".join(c.text.strip() for c in cells)
    if is_caption(text):
        return clean_text(text) in texts
    if len(cells) != 1 or cells[0].col != 0 or FOOTNOTE.match(text):
        return False
    below = [c.font_size for c in _row(piece, r + 1) if c.font_size]
    size = cells[0].font_size
    if size and below and size >= max(below) + 1.0:
        return True
    return r == 0 and bool(cells[0].bold and NUMBERED_HEADING.match(text))


def _rows(piece: RawTable, start: int, stop: int, n: int) -> RawTable:
    """Rows start..stop-1 of the piece as a piece of its own (spans clipped), the n-th part."""
    cells = tuple(c.model_copy(update={"row": c.row - start,
                                       "row_span": min(c.row_span, stop - c.row)})
                  for c in piece.cells if start <= c.row < stop)
    boxes = [c.bbox for c in cells if c.bbox]
    top = min((b[1] for b in boxes), default=piece.bbox[1])
    bottom = max((b[3] for b in boxes), default=piece.bbox[3])
    pid = piece.piece_id if n == 0 else f"{piece.piece_id}.s{n}"
    return piece.model_copy(update={"piece_id": pid, "cells": cells, "n_rows": stop - start,
                                    "bbox": (piece.bbox[0], top, piece.bbox[2], bottom)})


def _opens_table(part: RawTable) -> bool:
    """Whether the rows below an inner title start with a header of their own, as a new table
    does (a larger row label in the body is followed by more body rows)."""
    return piece_header_rows(part, piece_grid(part)) > 0


def split_at_titles(piece: RawTable, lines: Sequence[TextLine] = ()) -> list[RawTable]:
    """The piece without its leading title rows, cut at each inner one that a header follows
    into tables of their own (each part keeps `MIN_ROWS` rows; otherwise the row stays)."""
    own = [ln for ln in lines if ln.page == piece.page]
    texts = frozenset(clean_text(ln.text) for ln in own)
    start = 0
    while start + MIN_ROWS < piece.n_rows and is_title_row(piece, start, texts, own):
        start += 1
    out: list[RawTable] = []
    r = start + MIN_ROWS
    while r <= piece.n_rows - 1 - MIN_ROWS:
        if is_title_row(piece, r, texts, own) and _opens_table(_rows(piece, r + 1, piece.n_rows, 0)):
            out.append(_rows(piece, start, r, len(out)))
            start = r + 1
            r = start + MIN_ROWS
        else:
            r += 1
    if start == 0 and not out:
        return [piece]
    return out + [_rows(piece, start, piece.n_rows, len(out))]
