"""Merged cells: expand row/column spans so every covered slot repeats the cell's text."""

from __future__ import annotations

from collections.abc import Sequence

from rowkeeper.models import Cell, RawTable, TextLine
from rowkeeper.transforms.column_types import parse_cell

Grid = list[list[str]]


def expand_spans(cells: Sequence[Cell], n_rows: int, n_cols: int) -> Grid:
    """An n_rows x n_cols grid where a spanning cell's text fills every slot it covers."""
    grid = [[""] * n_cols for _ in range(n_rows)]
    # Smaller cells are written last so an explicit cell inside a sloppy span keeps its text.
    for c in sorted(cells, key=lambda c: -(c.row_span * c.col_span)):
        for r in range(c.row, min(c.row + max(c.row_span, 1), n_rows)):
            for k in range(c.col, min(c.col + max(c.col_span, 1), n_cols)):
                if r >= 0 and k >= 0:
                    grid[r][k] = c.text
    return grid


def across_slots(cells: Sequence[Cell], header_rows: int) -> frozenset[tuple[int, int]]:
    """The (body row, column) slots that body cells merged across two columns or more cover."""
    return frozenset((r - header_rows, k) for c in cells if c.col_span > 1 and not c.is_header
                     for r in range(max(c.row, header_rows), c.row + max(c.row_span, 1))
                     for k in range(c.col, c.col + c.col_span))


def top_left_grid(cells: Sequence[Cell], n_rows: int, n_cols: int) -> Grid:
    """The grid as printed: a spanning cell's text only in its top-left slot."""
    grid = [[""] * n_cols for _ in range(n_rows)]
    for c in cells:
        if 0 <= c.row < n_rows and 0 <= c.col < n_cols:
            grid[c.row][c.col] = c.text
    return grid


def span_owner(cells: Sequence[Cell], n_rows: int, n_cols: int) -> list[list[Cell | None]]:
    """For each slot, the cell that covers it (None for holes)."""
    owner: list[list[Cell | None]] = [[None] * n_cols for _ in range(n_rows)]
    for c in sorted(cells, key=lambda c: -(c.row_span * c.col_span)):
        for r in range(max(c.row, 0), min(c.row + max(c.row_span, 1), n_rows)):
            for k in range(max(c.col, 0), min(c.col + max(c.col_span, 1), n_cols)):
                owner[r][k] = c
    return owner


def spans_of_row(owner: Sequence[Sequence[Cell | None]], r: int) -> list[bool]:
    """Per column: whether row r's slot belongs to a cell spanning several columns."""
    return [o is not None and o.col_span > 1 for o in owner[r]]


def hollow_columns(header: Sequence[Sequence[str]], body: Sequence[Sequence[str]]) -> list[int]:
    """Columns with no content of their own: empty in every body row, and in the header either
    empty or only repeating a neighbour's label (a span, or a label the extractor split).

    Ruling artifacts make extractors emit such slivers; keeping them shifts every value one
    column right of where a reader (or a scorer) expects it. At least one column is kept.
    """
    n_cols = max((len(r) for r in (*header, *body)), default=0)

    def at(row: Sequence[str], c: int) -> str:
        return row[c].strip() if c < len(row) else ""

    out = []
    for c in range(n_cols):
        if any(at(r, c) for r in body):
            continue
        if all(not at(r, c) or at(r, c) in (at(r, c - 1) if c else "", at(r, c + 1)) for r in header):
            out.append(c)
    return out if len(out) < n_cols else out[1:]


def drop_columns(rows: Sequence[Sequence[str]], drop: Sequence[int]) -> list[list[str]]:
    """Rows without the columns in `drop`."""
    gone = set(drop)
    return [[t for c, t in enumerate(r) if c not in gone] for r in rows]


def drop_cell_columns(cells: Sequence[Cell], drop: Sequence[int]) -> list[Cell]:
    """Cells renumbered for a grid without the columns in `drop` (spans shrink accordingly)."""
    gone = set(drop)
    out = []
    for c in cells:
        kept = [k for k in range(c.col, c.col + max(c.col_span, 1)) if k not in gone]
        if not kept:
            continue
        new_col = sum(1 for k in range(kept[0]) if k not in gone)
        out.append(c.model_copy(update={"col": new_col, "col_span": len(kept)}))
    return out


def _holds_center(bbox: tuple[float, float, float, float], line: TextLine) -> bool:
    x, y = (line.bbox[0] + line.bbox[2]) / 2, (line.bbox[1] + line.bbox[3]) / 2
    return bbox[0] <= x <= bbox[2] and bbox[1] <= y <= bbox[3]


def _bands(lines: Sequence[TextLine]) -> list[tuple[float, float]]:
    """Vertical bands (top, bottom) of text lines that share a baseline, top to bottom."""
    out: list[list[float]] = []
    for ln in sorted(lines, key=lambda ln: (ln.bbox[1] + ln.bbox[3]) / 2):
        cy, h = (ln.bbox[1] + ln.bbox[3]) / 2, ln.bbox[3] - ln.bbox[1]
        if out and cy - (out[-1][0] + out[-1][1]) / 2 <= max(h, 2.0) * 0.5:
            out[-1] = [min(out[-1][0], ln.bbox[1]), max(out[-1][1], ln.bbox[3])]
        else:
            out.append([ln.bbox[1], ln.bbox[3]])
    return [(a, b) for a, b in out]


def column_bounds(cells: Sequence[Cell], n_cols: int) -> list[tuple[float, float]] | None:
    """Each column's x-range from its single-column cells; None when a column has none."""
    xs: list[list[tuple[float, float]]] = [[] for _ in range(n_cols)]
    for c in cells:
        if c.col_span == 1 and c.bbox and 0 <= c.col < n_cols:
            xs[c.col].append((c.bbox[0], c.bbox[2]))
    if not all(xs):
        return None
    return [(sorted(a for a, _ in v)[len(v) // 2], sorted(b for _, b in v)[len(v) // 2]) for v in xs]


def _unspan(row_cells: Sequence[Cell], bounds: list[tuple[float, float]] | None) -> list[Cell]:
    """Cells spanning columns cut into one cell per column (x-ranges from `bounds`)."""
    out = []
    for c in row_cells:
        if c.col_span == 1 or bounds is None or c.bbox is None:
            out.append(c)
            continue
        for k in range(c.col, min(c.col + c.col_span, len(bounds))):
            x0 = c.bbox[0] if k == c.col else (bounds[k - 1][1] + bounds[k][0]) / 2
            x1 = c.bbox[2] if k == c.col + c.col_span - 1 else (bounds[k][1] + bounds[k + 1][0]) / 2
            out.append(c.model_copy(update={"col": k, "col_span": 1, "text": "",
                                            "bbox": (x0, c.bbox[1], x1, c.bbox[3])}))
    return out


def _split_row(row_cells: Sequence[Cell], lines: Sequence[TextLine], first: int,
               bounds: list[tuple[float, float]] | None = None) -> list[Cell] | None:
    """The row's cells re-split into one row per text baseline and one cell per column, or None
    when the text lines cannot be cut cleanly at the cell edges."""
    if not row_cells or not all(c.bbox for c in row_cells):
        return None
    unspanned = _unspan(row_cells, bounds)
    inside = {id(c): [ln for ln in lines if c.bbox and _holds_center(c.bbox, ln)] for c in unspanned}
    for c in unspanned:
        for ln in inside[id(c)]:
            assert c.bbox is not None
            if ln.bbox[0] < c.bbox[0] - 2 or ln.bbox[2] > c.bbox[2] + 2:
                return None  # a line runs across cells: no clean way to cut it
    bands = _bands([ln for v in inside.values() for ln in v])
    if not bands or (len(bands) < 2 and len(unspanned) == len(row_cells)):
        return None
    out = []
    for i, (top, bottom) in enumerate(bands):
        for c in unspanned:
            assert c.bbox is not None
            mine = sorted((ln for ln in inside[id(c)] if top <= (ln.bbox[1] + ln.bbox[3]) / 2 <= bottom),
                          key=lambda ln: ln.bbox[0])
            out.append(c.model_copy(update={
                "row": first + i, "row_span": 1, "text": " ".join(ln.text.strip() for ln in mine),
                "bbox": (c.bbox[0], top, c.bbox[2], bottom)}))
    return out


def _one_record(row_cells: Sequence[Cell], lines: Sequence[TextLine]) -> bool:
    """Whether a row is one record whose value cells hold lists: its key (first-column) cell is
    a label on one line while another cell runs over several (`Total: 39%` / `Effi (10.5%)` /
    `Plantafin (20.1%)` beside `Astra Calvé`). Records run together bring a key line each."""
    key = next((c for c in row_cells if c.col == 0), None)
    if key is None or key.col_span > 1 or key.bbox is None or not key.text.strip():
        return False
    if parse_cell(key.text).kind != "text" or len(_bands([ln for ln in lines if _holds_center(key.bbox, ln)])) != 1:
        return False
    return any(len(_bands([ln for ln in lines if _holds_center(c.bbox, ln)])) > 1
               for c in row_cells if c is not key and c.bbox is not None)


def split_packed_rows(piece: RawTable, lines: Sequence[TextLine], packed: set[int]) -> RawTable:
    """The piece with each row in `packed` re-split into one row per text line it holds.

    Extractors that find only a table's outer rulings put every body line of a column into one
    cell ("2.3 0.21 8.8 ..."), or a whole row into one cell spanning every column; the page's
    text lines still say where each row's baseline and each value's column is.
    """
    page_lines = [ln for ln in lines if ln.page == piece.page and _holds_center(piece.bbox, ln)]
    bounds = column_bounds(piece.cells, piece.n_cols)
    by_row: dict[int, list[Cell]] = {}
    spanned = {r for c in piece.cells if c.row_span > 1 for r in range(c.row, c.row + c.row_span)}
    for c in piece.cells:
        by_row.setdefault(c.row, []).append(c)
    cells: list[Cell] = []
    n = 0
    for r in range(piece.n_rows):
        row = by_row.get(r, [])
        split = r in packed and r not in spanned and not _one_record(row, page_lines)
        new = _split_row(row, page_lines, n, bounds) if split else None
        if new is None:
            cells += [c.model_copy(update={"row": n}) for c in row]
            n += 1
        else:
            cells += new
            n += max(c.row for c in new) - n + 1
    return piece.model_copy(update={"cells": tuple(cells), "n_rows": n})


def span_tail_columns(printed: Sequence[Sequence[str]], grid: Sequence[Sequence[str]],
                      header_rows: int) -> dict[int, int]:
    """Sliver columns, each mapped to the kept column on its left that takes its text.

    An extractor that cuts columns at every word edge of centred labels makes body cells span
    several slivers, and centred labels (a header, a 'Total' row) sit one sliver right of the
    body text they belong to. A column is a sliver when some body row only shows the tail of
    a cell spanning in from the left, and in every row it is empty, a tail, or text whose slots
    to the left up to the kept column are free. `printed` has each cell's text in its top-left
    slot, `grid` the spans expanded. Columns with body text of their own and no spans over them
    (a debit/credit pair) are never slivers.
    """
    n_cols = max((len(r) for r in (*printed, *grid)), default=0)

    def at(rows: Sequence[Sequence[str]], r: int, c: int) -> str:
        return rows[r][c].strip() if r < len(rows) and c < len(rows[r]) else ""

    out: dict[int, int] = {}
    kept = 0
    for c in range(1, n_cols):
        rows = range(len(grid))
        tail = any(not at(printed, r, c) and at(grid, r, c) for r in range(header_rows, len(grid)))
        free = all(not at(printed, r, c) or not any(at(grid, r, k) for k in range(kept, c))
                   for r in rows)
        if tail and free and len(out) < n_cols - 1:
            out[c] = kept
        else:
            kept = c
    return out


def shift_labels_left(rows: Sequence[Sequence[str]], into: dict[int, int],
                      printed: Sequence[Sequence[str]] | None = None) -> list[list[str]]:
    """Rows with the own text of each sliver column moved into the column that takes it (see
    `span_tail_columns`), so that dropping the slivers afterwards loses no text. `printed`
    (default: `rows`) says which slots hold a cell's own text rather than a span's tail."""
    out = [list(r) for r in rows]
    own = printed if printed is not None else rows
    for c, k in sorted(into.items()):
        for i, r in enumerate(out):
            if c < len(r) and i < len(own) and c < len(own[i]) and own[i][c].strip():
                r[k], r[c] = r[c], ""
    return out


def shift_cells_left(cells: Sequence[Cell], into: dict[int, int]) -> list[Cell]:
    """Cells starting in a sliver column widened left to the column that takes their text, so
    `drop_cell_columns` keeps them; other cells as they are."""
    out = []
    for c in cells:
        if c.col in into and c.text.strip():
            k = into[c.col]
            c = c.model_copy(update={"col": k, "col_span": c.col_span + c.col - k})
        out.append(c)
    return out
