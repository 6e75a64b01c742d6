"""Captions and headings that an extractor read into a table's rows, taken back out.

An aligned-text finder sees the caption or the section heading right above a table line up
with its columns and reads it as a first row; between two tables of one aligned run it reads
the second one's heading as a body row and joins both. Such a row is a lone label set larger
than the row under it (a header row never is), a caption ("Tabelle 4 ..."), or, on top, a
bold numbered label ("2. Ausgaben"). Taken out, its line lies outside the tables, where
captions and section headings are looked for.
"""

from __future__ import annotations

from collections.abc import Sequence

from rowkeeper.models import Cell, RawTable, TextLine
from rowkeeper.transforms.context import FOOTNOTE, NUMBERED_HEADING, is_caption
from rowkeeper.transforms.headers import clean_text, piece_header_rows
from rowkeeper.transforms.merge import piece_grid

MIN_ROWS = 2
"""Rows each part keeps at least (a header and a body row) for an inner title to split it."""


def _row(piece: RawTable, r: int) -> list[Cell]:
    return sorted((c for c in piece.cells if c.row == r and c.text.strip()), key=lambda c: c.col)


def is_title_row(piece: RawTable, r: int, texts: frozenset[str] = frozenset()) -> bool:
    """Whether row `r` of the piece is a caption or a heading line rather than table rows;
    a caption row holds one of the page's lines (`texts`) and nothing else (a caption line
    and a header line read as one row keep the header), a lone label must start the row (one
    over the columns to its right is their spanner)."""
    cells = _row(piece, r)
    if not cells or r + 1 >= piece.n_rows:
        return False
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
    texts = frozenset(clean_text(ln.text) for ln in lines if ln.page == piece.page)
    start = 0
    while start + MIN_ROWS < piece.n_rows and is_title_row(piece, start, texts):
        start += 1
    out: list[RawTable] = []
    r = start + MIN_ROWS
    while r <= piece.n_rows - 1 - MIN_ROWS:
        if is_title_row(piece, r, texts) and _opens_table(_rows(piece, r + 1, piece.n_rows, 0)):
            out.append(_rows(piece, start, r, len(out)))
            start = r + 1
            r = start + MIN_ROWS
        else:
            r += 1
    if start == 0 and not out:
        return [piece]
    return out + [_rows(piece, start, piece.n_rows, len(out))]
