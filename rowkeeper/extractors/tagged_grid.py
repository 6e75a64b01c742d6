"""A tagged table's grid from its declaration, and the checks it must pass to be the table.

Pure geometry over `tagged_tables.Declaration` (no PDF library): cells are laid out as HTML
lays a table (each row's cells, left to right as printed, in the first free slots, RowSpan / ColSpan
occupying the slots below and beside them); a row left
short of the table's columns (an empty cell with no glyphs, a total set under the last column
alone) is laid on the columns by x instead. `refusal` says why a declaration cannot stand as a
table (None when it can).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from rowkeeper.extractors.tagged_tables import Declaration, DeclaredCell, cell_text, median_height
from rowkeeper.extractors.tagged_words import glued
from rowkeeper.models import BBox

PARAGRAPH_LINES = 4
"""A cell of this many lines or more, with `PARAGRAPH_WORDS` words, holds a paragraph."""
PARAGRAPH_WORDS = 20
MAX_PARAGRAPH_SHARE = 1 / 3
"""More of a table's filled cells than this holding paragraphs: prose laid out in a table."""


@dataclass(frozen=True)
class Placed:
    """A declared cell at its slot in the grid."""

    row: int
    col: int
    cell: DeclaredCell


@dataclass(frozen=True)
class Grid:
    """A declaration laid out: its cells at their slots, its size, and its header rows."""

    placed: tuple[Placed, ...]
    n_rows: int
    n_cols: int
    header_rows: int


def lay_out(decl: Declaration) -> Grid:
    """The grid of a declaration: the HTML layout, short rows laid on the columns by x, the
    title rows above it left out (`title_rows`), words the layout broke in narrow columns
    read whole (`words_joined`)."""
    return words_joined(_lay_out(decl), decl.spaced_wraps, decl.edges)


def words_joined(grid: Grid, spaced: bool, edges: Sequence[tuple[float, float]] = ()) -> Grid:
    """The grid with each word a narrow column broke over two lines of a cell read as one word
    (`tagged_words.glued`: no room left in the column for the next line's first character,
    the column's room the right edge of its other cells' text). Where the page's layout keeps
    the space at its wraps (`spaced`) one such break is enough; elsewhere (CJK text has no
    spaces to show, a browser drops them) only a figure broken, where the column shows its
    edge: two cells or more with a figure broken at one edge, on this page or (`edges`) on the
    table's other pages (a browser wraps one-word lines at its columns' edges, at spaces)."""
    ends: dict[int, list[tuple[float, int]]] = {}
    for k, p in enumerate(grid.placed):
        if p.cell.col_span == 1 and p.cell.text:
            ends.setdefault(p.col, []).append((p.cell.bbox[2], k))
    joins: dict[int, frozenset[int]] = {}
    for k, p in enumerate(grid.placed):
        if p.cell.breaks and p.cell.col_span == 1:
            reach = max((x for x, j in ends.get(p.col, ()) if j != k), default=float("-inf"))
            joins[k] = glued(p.cell.breaks, reach)
    placed = list(grid.placed)
    for k, at in joins.items():
        p = placed[k]
        if at and (spaced or _edge_shown(p, at, [(placed[j], joins[j]) for j in joins if j != k], edges)):
            placed[k] = Placed(p.row, p.col, replace(p.cell, text=cell_text(p.cell.line_texts, at)))
    return replace(grid, placed=tuple(placed))


def _edge_shown(p: Placed, at: frozenset[int], others: list[tuple[Placed, frozenset[int]]],
                edges: Sequence[tuple[float, float]] = ()) -> bool:
    """Whether another cell of p's column (or one of the table's `edges` on other pages) breaks
    a figure at the same edge as p's figure breaks `at`: each broken line ends short of the edge
    by less than its next character, so the stretches from a line's end to its next
    character's end must meet."""
    mine = [(b.x1, b.advance) for b in p.cell.breaks if b.after in at and b.figure]
    theirs = [(b.x1, b.advance) for q, got in others if q.col == p.col
              for b in q.cell.breaks if b.after in got and b.figure]
    return any(a < x + w and x < a + v for a, v in mine for x, w in [*theirs, *edges])


def _lay_out(decl: Declaration) -> Grid:
    rows = [r for r in decl.rows if r.cells]
    grid = _laid(rows)
    titles, notes = title_rows(grid), note_rows(grid)
    if titles or notes:
        rows = rows[titles:len(rows) - notes]
        grid = _laid(rows)
    if _columns_out_of_order(grid, 0.5 * median_height(decl)):
        # cells left out of the tags in every row: the HTML count of columns falls short and
        # the rows stand misplaced; laid again by x on the bands their cells make, if they can
        by_x = _laid(rows, clustered=True)
        return grid if _columns_out_of_order(by_x, 0.5 * median_height(decl)) else by_x
    return grid


def title_rows(grid: Grid) -> int:
    """How many leading rows are the table's title, not its grid: the rows of one cell above
    the first row of several, when one of them spans two columns or more or lies across two
    columns' cells (an auto-tagged export, Word's or Excel's, puts a table's title and notes
    in TRs of their own above the header). Their text stands above the table's box, where the
    caption is read; lone cells each inside one column (rows whose other cells are empty)
    are rows of the table."""
    rows = _cells_by_row(grid)
    n = 0
    while n < grid.n_rows - 1 and len(rows.get(n, ())) == 1:
        n += 1
    if not any(_spans_columns(rows[i][0], grid) for i in range(n)):
        return 0
    return n if any(len(rows.get(i, ())) > 1 for i in range(n, grid.n_rows)) else 0


def note_rows(grid: Grid) -> int:
    """How many trailing rows are notes under the table, not its grid: the rows of one cell
    below the last row of several, when one of them spans two columns or more or lies across
    two columns' cells (an export's footnote, `** Lay-offs ...`, set in a TR of its own at the
    end of the Table). Their text stands under the table's box, where footnotes are read."""
    rows = _cells_by_row(grid)
    n = 0
    while n < grid.n_rows - 1 and len(rows.get(grid.n_rows - 1 - n, ())) == 1:
        n += 1
    last = range(grid.n_rows - n, grid.n_rows)
    if not n or not any(_spans_columns(rows[i][0], grid) for i in last):
        return 0
    return n if sum(len(rows.get(i, ())) > 1 for i in range(grid.n_rows - n)) >= 2 else 0


def _cells_by_row(grid: Grid) -> dict[int, list[Placed]]:
    """The grid's placed cells by row (a row with no cell placed is absent)."""
    rows: dict[int, list[Placed]] = {}
    for p in grid.placed:
        rows.setdefault(p.row, []).append(p)
    return rows


def _spans_columns(p: Placed, grid: Grid) -> bool:
    """Whether a lone cell spans two columns or more, or its box runs over a cell of another
    column than its own (the other rows' single-column cells)."""
    if p.cell.col_span > 1:
        return True
    x0, x1 = p.cell.bbox[0], p.cell.bbox[2]
    return any(q.col != p.col and q.cell.col_span == 1 and q.cell.text
               and _overlap(x0, x1, q.cell.bbox[0], q.cell.bbox[2]) > 0 for q in grid.placed if q.row != p.row)


def _laid(rows: list, clustered: bool = False) -> Grid:
    """The HTML layout of the rows, short rows laid on the columns by x (`clustered`: every
    row laid by x on the bands all single-column cells make, `_clustered_bands`)."""
    taken: set[tuple[int, int]] = set()
    by_row: list[list[Placed]] = []
    for i, row in enumerate(rows):
        placed, col = [], 0
        for c in sorted(row.cells, key=lambda c: c.bbox[0]):  # as printed, left to right
            while (i, col) in taken:
                col += 1
            placed.append(Placed(i, col, c))
            taken |= {(i + a, col + b) for a in range(c.row_span) for b in range(c.col_span)}
            col += c.col_span
        by_row.append(placed)
    n_rows = len(rows)
    n_cols = max((col for (r, col) in taken if r < n_rows), default=-1) + 1
    bands = _clustered_bands(by_row, n_cols) if clustered else _column_bands(by_row, n_cols, taken)
    n_cols = max(n_cols, len(bands))
    out: list[Placed] = []
    for i, placed in enumerate(by_row):
        full = all((i, k) in taken for k in range(n_cols)) and not clustered
        out += placed if full or not bands else _by_x(i, placed, bands, taken)
    return Grid(tuple(out), n_rows, n_cols, _header_rows(rows))


def _column_bands(by_row: list[list[Placed]], n_cols: int, taken: set[tuple[int, int]]) -> list[tuple[float, float]]:
    """Each column's x extent from the single-column cells of the rows that fill every column;
    [] when a column has none (the short rows then keep their HTML slots)."""
    lo = [float("inf")] * n_cols
    hi = [float("-inf")] * n_cols
    for i, placed in enumerate(by_row):
        if not all((i, k) in taken for k in range(n_cols)):
            continue
        for p in placed:
            if p.cell.col_span == 1 and p.cell.text:
                lo[p.col], hi[p.col] = min(lo[p.col], p.cell.bbox[0]), max(hi[p.col], p.cell.bbox[2])
    if any(v == float("inf") for v in lo):
        return []
    return list(zip(lo, hi, strict=True))


def _clustered_bands(by_row: list[list[Placed]], n_cols: int) -> list[tuple[float, float]]:
    """Each column's x extent from the single-column cells' boxes, those that overlap in x
    joined, left to right; [] when they make fewer than `n_cols` bands, or when two cells of
    one row fall in one band (the bands are then no columns)."""
    cells = [p for placed in by_row for p in placed if p.cell.col_span == 1 and p.cell.text]
    bands: list[list[float]] = []
    for p in sorted(cells, key=lambda p: p.cell.bbox[0]):
        x0, x1 = p.cell.bbox[0], p.cell.bbox[2]
        if bands and x0 < bands[-1][1]:
            bands[-1][1] = max(bands[-1][1], x1)
        else:
            bands.append([x0, x1])
    if len(bands) < n_cols:
        return []
    for placed in by_row:
        at = [next(k for k, b in enumerate(bands) if b[0] <= p.cell.bbox[0] < b[1] or b[0] == p.cell.bbox[0])
              for p in placed if p.cell.col_span == 1 and p.cell.text]
        if len(at) != len(set(at)):
            return []
    return [(b[0], b[1]) for b in bands]


def _by_x(i: int, placed: list[Placed], bands: list[tuple[float, float]], taken: set[tuple[int, int]]) -> list[Placed]:
    """The cells of short row `i` at the columns their boxes stand under, left to right."""
    for p in placed:  # free the HTML slots first
        taken -= {(i, p.col + b) for b in range(p.cell.col_span)}
    out, start = [], 0
    for p in sorted(placed, key=lambda p: p.cell.bbox[0]):
        free = [k for k in range(start, len(bands) - p.cell.col_span + 1)
                if all((i, k + b) not in taken for b in range(p.cell.col_span))]
        if not free:
            return placed  # no slot left by x: the HTML layout stands (the checks judge it)
        x0, x1, cs = p.cell.bbox[0], p.cell.bbox[2], p.cell.col_span
        # a spanning cell stands over the columns it spans, its text mostly centred over them
        k = max(free, key=lambda k: (_overlap(x0, x1, bands[k][0], bands[k + cs - 1][1]),
                                     -abs((x0 + x1) / 2 - (bands[k][0] + bands[k + cs - 1][1]) / 2)))
        out.append(Placed(i, k, p.cell))
        taken |= {(i, k + b) for b in range(p.cell.col_span)}
        start = k + p.cell.col_span
    return out


def _overlap(a0: float, a1: float, b0: float, b1: float) -> float:
    return max(0.0, min(a1, b1) - max(a0, b0))


def _header_rows(rows: list) -> int:
    """Leading rows in THead or whose every cell is a column's TH or a cell that other cells
    name as their header (its /ID in their /Headers, PDF/UA's other way to tie cells to their
    headers): the declared header. A TH scoped to its row is the row's head, not a header; a
    TH alone in a row spanning the table names no column (a group label under the header).
    None when every row would be one: a table tagged TH throughout declares nothing."""
    width = max((sum(c.col_span for c in r.cells) for r in rows), default=0)
    named = {h for r in rows for c in r.cells for h in c.headers}
    n = 0
    while n < len(rows) and (rows[n].in_head or (
            all((c.header and c.scope != "Row") or (c.ident and c.ident in named) for c in rows[n].cells)
            and not (len(rows[n].cells) == 1 and width > 1 and rows[n].cells[0].col_span >= width))):
        n += 1
    return n if n < len(rows) else 0


def refusal(decl: Declaration, grid: Grid) -> str | None:
    """Why the declaration is no table (None when it may be the table): its size (one row is
    enough for a piece of a table the page before began), a table nested in it, prose in its
    cells, rows or columns out of order."""
    if grid.n_rows < (1 if decl.continued else 2) or grid.n_cols < 2:
        return f"{grid.n_rows} row(s) x {grid.n_cols} column(s) after spans"
    cells = [p.cell for p in grid.placed]
    if any(c.nested for c in cells):
        return "a layout table: a table is nested in its cells"
    filled = [c for c in cells if c.text]
    prose = [c for c in filled if c.lines >= PARAGRAPH_LINES and len(c.text.split()) >= PARAGRAPH_WORDS]
    if prose and len(prose) > MAX_PARAGRAPH_SHARE * len(filled):
        return f"prose in its cells ({len(prose)} of {len(filled)} cells hold a paragraph)"
    return _rows_out_of_order(grid) or _columns_out_of_order(grid, 0.5 * median_height(decl))


def _rows_out_of_order(grid: Grid) -> str | None:
    """Each row's single-row cells must stand below the row above's (centres strictly lower)."""
    mids: dict[int, list[float]] = {}
    for p in grid.placed:
        if p.cell.row_span == 1 and p.cell.text:
            mids.setdefault(p.row, []).append((p.cell.bbox[1] + p.cell.bbox[3]) / 2)
    order = sorted(mids)
    for a, b in zip(order, order[1:], strict=False):
        if max(mids[a]) >= min(mids[b]):
            return f"rows not top to bottom (row {b + 1} not below row {a + 1})"
    return None


def _columns_out_of_order(grid: Grid, tol: float) -> str | None:
    """Each column's single-column cells must stand left of the next column's (their glyphs
    inside their column band: a cell reaching into its neighbour's band is misplaced)."""
    lo: dict[int, float] = {}
    hi: dict[int, float] = {}
    for p in grid.placed:
        if p.cell.col_span == 1 and p.cell.text:
            lo[p.col] = min(lo.get(p.col, p.cell.bbox[0]), p.cell.bbox[0])
            hi[p.col] = max(hi.get(p.col, p.cell.bbox[2]), p.cell.bbox[2])
    order = sorted(lo)
    for a, b in zip(order, order[1:], strict=False):
        if hi[a] > lo[b] + tol:
            return f"columns overlap (column {a + 1} runs into column {b + 1})"
    return None


def cell_box(cells: list[DeclaredCell]) -> BBox:
    """The union of the cells' boxes."""
    return (min(c.bbox[0] for c in cells), min(c.bbox[1] for c in cells),
            max(c.bbox[2] for c in cells), max(c.bbox[3] for c in cells))
