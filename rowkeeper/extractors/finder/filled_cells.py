"""Tables drawn as tinted cells: one filled rectangle per cell, no rule at all.

Reports and slides often print a table as a mosaic of coloured cells (a dark column of row
labels, lighter value columns) parted by hairline gutters of the page's white, or touching.
No ruling segment is drawn, so the ruled-grid strategy has nothing to read and the text-run
strategy sees wrapped labels and values that the cells' edges would have kept together. The
fills themselves are the grid: their left and right edges make the column lanes, their tops
and bottoms the row lanes (`boxed_cells.on_lanes`, as for framed cell boxes).

A tinted header band, zebra stripes or a highlighted row is no such grid: the fills must tile
the grid's whole rectangle, stand in two columns or more, and be cells, not stripes (few fills
over several columns).

Pure geometry over the page's filled rectangles (`page_features.drawings_of_page`) and the
boxes of its text lines: `(x0, top, x1, bottom)` in PDF points.
"""

from __future__ import annotations

from collections.abc import Sequence

from rowkeeper.extractors.finder.boxed_cells import Box, BoxGrid, joined, on_lanes

MIN_SIDE = 6.0
"""Points a fill measures at least each way to be a cell (thinner ones are rules)."""
MAX_FILLS = 600
"""A page of more fills than this is a chart or a drawing, not a table of cells."""
_TOL = 1.5
"""Points within which a fill is inside another, or two fills' edges meet."""
MAX_SPANNING = 0.25
"""Share of fills that may span several columns (a stripe per row is zebra, not cells)."""


def fill_grids(fills: Sequence[Box], lines: Sequence[Box]) -> list[BoxGrid]:
    """Grids of tinted cells: fills that tile a rectangle of two rows and two columns or more,
    most of them holding a text line (`lines`: the page's text line boxes)."""
    cells = [f for f in fills if f[2] - f[0] >= MIN_SIDE and f[3] - f[1] >= MIN_SIDE]
    if len(cells) > MAX_FILLS:
        return []
    out = []
    for group in joined(_outermost(cells)):
        grid = on_lanes(group, gutter=-_TOL)
        if grid is not None and _tiled(grid) and _cells_of_text(grid, lines):
            out.append(grid)
    return out


def _outermost(fills: Sequence[Box]) -> list[Box]:
    """The fills no other fill holds (a cell's tint under its text is drawn again, smaller),
    each once."""
    def inside(a: Box, b: Box) -> bool:
        return b[0] - _TOL <= a[0] and b[1] - _TOL <= a[1] and a[2] <= b[2] + _TOL and a[3] <= b[3] + _TOL

    out: list[Box] = []
    for i, a in enumerate(fills):
        if any(inside(a, b) and (not inside(b, a) or j < i) for j, b in enumerate(fills) if j != i):
            continue
        out.append(a)
    return out


def _tiled(grid: BoxGrid) -> bool:
    """Whether the fills cover every slot of the grid and few of them run over columns."""
    slots = len(grid.rows) * len(grid.columns)
    spans = [grid.slots(b) for b in grid.boxes]
    covered = sum(rs * cs for _, _, rs, cs in spans)
    wide = sum(1 for _, _, _, cs in spans if cs > 1)
    return covered == slots and wide <= MAX_SPANNING * len(grid.boxes)


def _cells_of_text(grid: BoxGrid, lines: Sequence[Box]) -> bool:
    """Whether most fills hold a text line's middle, as a table's cells do (a chart's tiles,
    a mosaic of pictures' backgrounds do not)."""
    def holds(b: Box) -> bool:
        return any(b[0] <= (ln[0] + ln[2]) / 2 <= b[2] and b[1] <= (ln[1] + ln[3]) / 2 <= b[3] for ln in lines)

    return 2 * sum(1 for b in grid.boxes if holds(b)) >= len(grid.boxes)
