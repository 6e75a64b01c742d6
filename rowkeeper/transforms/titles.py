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

from rowkeeper.caption_text import is_caption
from rowkeeper.label_text import clean_text
from rowkeeper.models import BBox, Cell, RawTable, TextLine
from rowkeeper.page_columns import running
from rowkeeper.transforms.captions import caption_block
from rowkeeper.transforms.column_types import parse_cell
from rowkeeper.transforms.context import FOOTNOTE, NUMBERED_HEADING, PageText
from rowkeeper.transforms.headers import piece_header_rows
from rowkeeper.transforms.merge import piece_grid

MIN_ROWS = 2
"""Rows each part keeps at least (a header and a body row) for an inner title to split it."""


def _row(piece: RawTable, r: int) -> list[Cell]:
    return sorted((c for c in piece.cells if c.row == r and c.text.strip()), key=lambda c: c.col)


def _holds(line: TextLine, cell: Cell) -> bool:
    """Whether the page line holds the cell's text: over its box, the cell's words in it."""
    b = cell.bbox
    if b is None or min(line.bbox[2], b[2]) - max(line.bbox[0], b[0]) <= 1.0:
        return False
    return min(line.bbox[3], b[3]) - max(line.bbox[1], b[1]) > 1.0 and clean_text(cell.text) in clean_text(line.text)


def _past_side(line: TextLine, box: BBox) -> bool:
    return line.bbox[0] < box[0] - 3.0 or line.bbox[2] > box[2] + 3.0


def _cut_lines(piece: RawTable, r: int, lines: Sequence[TextLine]) -> list[list[TextLine]] | None:
    """Per cell of row `r`, the page lines holding it that cross the table's columns: that
    hold another cell of the row too, or run out past the table's side (the finder kept the
    part within its box). None when a cell has no box."""
    cells = _row(piece, r)
    if any(c.bbox is None for c in cells):
        return None
    boxes = [c.bbox for c in cells if c.bbox is not None]
    if boxes:  # a line holding a cell overlaps the row's height by more than _holds' 1 pt too
        top, bottom = min(b[1] for b in boxes), max(b[3] for b in boxes)
        lines = [ln for ln in lines if min(ln.bbox[3], bottom) - max(ln.bbox[1], top) > 1.0]
    return [[ln for ln in lines if _holds(ln, c)
             and (_past_side(ln, piece.bbox) or sum(_holds(ln, o) for o in cells) >= 2)] for c in cells]


_ENDS_SENTENCE = (".", "。", "!", "?", ":", "：", ";")


def _set_above(line: TextLine, box: BBox) -> bool:
    """A caption, or a sentence of running text (it ends like one, or runs past the table's
    side): header labels printed as one line are neither, nor is a form's key printed as one
    line with a date that ends in a period (`Kapcsolattartó 2022. 06. 25.`)."""
    if is_caption(line.text):
        return True
    text = line.text.rstrip()
    return running(line) and ((text.endswith(_ENDS_SENTENCE) and not _ends_in_date(text)) or _past_side(line, box))


def _ends_in_date(text: str) -> bool:
    """Whether the last one to three words of `text` read as a date."""
    words = text.split()
    return any(parse_cell(" ".join(words[-n:])).kind == "date" for n in range(1, min(3, len(words) - 1) + 1))


def _text_above(piece: RawTable, r: int, lines: Sequence[TextLine]) -> bool:
    """Whether row `r` is cut from captions and sentences set above the table: each cell from
    one that crosses the columns, or from a whole caption line beside such a cell."""
    cut = _cut_lines(piece, r, lines)
    if not cut or not any(cut):
        return False
    whole = {clean_text(ln.text) for ln in lines if is_caption(ln.text)}
    return all(any(_set_above(ln, piece.bbox) for ln in own) or clean_text(c.text) in whole
               for c, own in zip(_row(piece, r), cut, strict=True))


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


def is_caption_row(piece: RawTable, r: int, texts: frozenset[str]) -> bool:
    """Whether row `r` is one of the page's lines (`texts`), whole and alone, that reads as a
    caption (a caption line and a header line read as one row are no caption row)."""
    text = " ".join(c.text.strip() for c in _row(piece, r))
    return is_caption(text) and clean_text(text) in texts


def is_title_row(piece: RawTable, r: int, texts: frozenset[str] = frozenset(),
                 lines: Sequence[TextLine] = ()) -> bool:
    """Whether row `r` of the piece is a caption or a heading line rather than table rows;
    a caption row holds one of the page's lines (`texts`) and nothing else (a caption line
    and a header line read as one row keep the header); a lone label (a caption wrapped over
    lines, read as one cell, too) must start the row (one over the columns to its right is
    their spanner) and be set larger than the row under it; or its cells are cut from page
    `lines` that cross the columns (`is_cut_line_row`)."""
    cells = _row(piece, r)
    if not cells or r + 1 >= piece.n_rows:
        return False
    if lines and is_cut_line_row(piece, r, lines):
        return True
    text = " ".join(c.text.strip() for c in cells)
    if is_caption(text) and is_caption_row(piece, r, texts):
        return True
    if len(cells) != 1 or cells[0].col != 0 or FOOTNOTE.match(text):
        return False
    below = [c.font_size for c in _row(piece, r + 1) if c.font_size]
    size = cells[0].font_size
    if size and below and size >= max(below) + 1.0:
        return True
    return r == 0 and bool(cells[0].bold and NUMBERED_HEADING.match(text))


def caption_tails(lines: Sequence[TextLine]) -> list[TextLine]:
    """The lines of one page that continue a caption wrapped over several lines."""
    page = PageText(tuple(sorted(lines, key=lambda ln: (ln.bbox[1], ln.bbox[0]))))
    return [ln for first in page.lines if is_caption(first.text) for ln in caption_block(page, first)[1:]]


def is_caption_tail_row(piece: RawTable, r: int, tails: Sequence[TextLine]) -> bool:
    """Whether row `r` is a line of a caption wrapped over the table, read as a row of it: its
    cells make one page line, whole (cut anywhere, inside a word too), that continues the
    caption line above it."""
    cells = _row(piece, r)
    text = _bare(" ".join(c.text for c in cells))
    return bool(cells) and any(_bare(ln.text) == text and all(_holds(ln, c) for c in cells) for ln in tails)


def _bare(text: str) -> str:
    """A line's text without its spaces: the line cut into cells at column edges may be cut
    inside a word (`Percentage of Schools Ide` | `ntified for …`)."""
    return "".join(clean_text(text).split())


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
    """The piece without its leading title rows and its trailing caption rows, cut at each
    inner title that a header follows into tables of their own (each part keeps `MIN_ROWS`
    rows; otherwise the row stays)."""
    own = [ln for ln in lines if ln.page == piece.page]
    texts = frozenset(clean_text(ln.text) for ln in own)
    stop = piece.n_rows
    while stop > MIN_ROWS and is_caption_row(piece, stop - 1, texts):
        stop -= 1  # a caption set under the table, read as its last row
    if stop < piece.n_rows:
        piece = _rows(piece, 0, stop, 0)
    start = 0
    tails = caption_tails(own)  # a caption's second line under its first, cut into the table's top
    while start + MIN_ROWS < piece.n_rows and (is_title_row(piece, start, texts, own)
                                               or is_caption_tail_row(piece, start, tails)):
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
