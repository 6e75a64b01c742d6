"""Tables drawn as one box per cell with gutters between the boxes (no rule touches the next).

Some generators draw every cell as its own framed or tinted box a few points apart from its
neighbours (`gutter` layouts, coloured span cells): no two rules meet, so the ruled-grid
strategy sees a heap of single boxes, each "a boxed note". Here the boxes are put back on a
grid: their left edges make the column starts, their right edges the column ends, their tops
and bottoms the rows; a box over several lanes is a spanning cell.

Pure geometry over the ruling segments of a page (page_features.rules_of_page's output):
`(x0, top, x1, bottom)` in PDF points.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from rowkeeper.extractors.finder.word_lines import reading_order
from rowkeeper.groups import grouped

Box = tuple[float, float, float, float]

_TOL = 1.5
"""Points within which two edges are one."""
_TOUCH = 3.0
"""Boxes closer than this touch: a grid drawn cell by cell, which the ruled strategy reads."""


@dataclass(frozen=True)
class BoxGrid:
    """Cell boxes on a grid: column (start, end) and row (top, bottom) lanes, the boxes."""

    columns: tuple[tuple[float, float], ...]
    rows: tuple[tuple[float, float], ...]
    boxes: tuple[Box, ...]

    @property
    def bbox(self) -> Box:
        """The grid's extent."""
        return (self.columns[0][0], self.rows[0][0], self.columns[-1][1], self.rows[-1][1])

    def slots(self, box: Box) -> tuple[int, int, int, int]:
        """(row, col, row_span, col_span) of a box on the grid."""
        col = _lane(self.columns, box[0], 0)
        row = _lane(self.rows, box[1], 0)
        return row, col, _lane(self.rows, box[3], 1) - row + 1, _lane(self.columns, box[2], 1) - col + 1


def box_grids(hs: Sequence[Box], vs: Sequence[Box], max_rules: int = 600) -> list[BoxGrid]:
    """Grids of four or more closed boxes, apart from each other by gutters narrower than a
    box's height, whose every edge lies on a column or row lane (two or more of each)."""
    if len(hs) + len(vs) > max_rules:
        return []
    boxes = _apart(_closed_boxes(hs, vs))
    out = []
    for group in joined(boxes):
        grid = on_lanes(group)
        if grid is not None:
            out.append(grid)
    return out


def _closed_boxes(hs: Sequence[Box], vs: Sequence[Box]) -> list[Box]:
    """Rectangles whose four sides are rules: a top and a bottom rule of one extent, with
    vertical rules at both ends running from one to the other."""
    def near(a: float, b: float) -> bool:
        return abs(a - b) <= _TOL

    # vertical rules by the x of their middle: only those within _TOL of x can stand there
    by_x = sorted(((v[0] + v[2]) / 2, v) for v in vs)
    xs = [m for m, _ in by_x]

    def vertical(x: float, top: float, bottom: float) -> bool:
        near_x = by_x[bisect_left(xs, x - 2 * _TOL):bisect_right(xs, x + 2 * _TOL)]
        return any(near(m, x) and v[1] <= top + _TOL and v[3] >= bottom - _TOL for m, v in near_x)

    out: list[Box] = []
    ordered = sorted(hs, key=lambda h: (h[1] + h[3]) / 2)
    for i, top in enumerate(ordered):
        for j in range(i + 1, len(ordered)):
            bottom = ordered[j]
            if not (near(top[0], bottom[0]) and near(top[2], bottom[2])):
                continue
            y0, y1 = (top[1] + top[3]) / 2, (bottom[1] + bottom[3]) / 2
            if y1 - y0 >= 6.0 and vertical(top[0], y0, y1) and vertical(top[2], y0, y1):
                out.append((top[0], y0, top[2], y1))
            break  # the nearest rule of the same extent below closes the box
    return out


def _apart(boxes: Sequence[Box]) -> list[Box]:
    """The boxes that neither touch nor hold another box (a cell of a grid drawn cell by cell
    touches its neighbours; a frame round a table holds its cells)."""
    def gap(a: Box, b: Box) -> float:
        return max(a[0] - b[2], b[0] - a[2], a[1] - b[3], b[1] - a[3])

    return [a for a in boxes if all(a is b or gap(a, b) > _TOUCH for b in boxes)]


def joined(boxes: Sequence[Box]) -> list[list[Box]]:
    """Boxes joined to a neighbour beside or under them across a gutter narrower than the
    lower of their heights (groups of four or more)."""
    pairs = ((i, j) for i, a in enumerate(boxes) for j in range(i + 1, len(boxes)) if _neighbours(a, boxes[j]))
    return [[boxes[k] for k in g] for g in grouped(len(boxes), pairs) if len(g) >= 4]


def _neighbours(a: Box, b: Box) -> bool:
    """Whether `b` stands beside or under `a` across a gutter narrower than the lower of their heights."""
    reach = min(a[3] - a[1], b[3] - b[1])
    beside = min(a[3], b[3]) > max(a[1], b[1]) and max(a[0] - b[2], b[0] - a[2]) <= reach
    under = min(a[2], b[2]) > max(a[0], b[0]) and max(a[1] - b[3], b[1] - a[3]) <= reach
    return beside or under


def on_lanes(group: Sequence[Box], gutter: float = _TOUCH) -> BoxGrid | None:
    """The lanes of a group of boxes, or None when its edges do not make a grid of two rows
    and two columns or more, or two boxes share a slot; lanes stand more than `gutter` apart
    (boxes that touched would be a grid drawn cell by cell, the ruled strategy's)."""
    columns = _lanes([b[0] for b in group], [b[2] for b in group], gutter)
    rows = _lanes([b[1] for b in group], [b[3] for b in group], gutter)
    if columns is None or rows is None or len(columns) < 2 or len(rows) < 2:
        return None
    grid = BoxGrid(tuple(columns), tuple(rows), tuple(sorted(group, key=lambda b: (b[1], b[0]))))
    taken: set[tuple[int, int]] = set()
    for b in grid.boxes:
        r, c, rs, cs = grid.slots(b)
        slots = {(r + i, c + k) for i in range(rs) for k in range(cs)}
        if taken & slots:
            return None
        taken |= slots
    return grid


def _lanes(starts: Sequence[float], ends: Sequence[float], gutter: float) -> list[tuple[float, float]] | None:
    """(start, end) lanes from the starts and ends of boxes along one axis: as many distinct
    starts as ends, each lane's end before the next lane's start (a gutter between them)."""
    s, e = _distinct(starts), _distinct(ends)
    if len(s) != len(e):
        return None
    lanes = list(zip(s, e, strict=True))
    if any(a >= b for a, b in lanes) or any(lanes[k][1] + gutter >= lanes[k + 1][0] for k in range(len(lanes) - 1)):
        return None
    return lanes


def _distinct(xs: Sequence[float]) -> list[float]:
    out: list[float] = []
    for x in sorted(xs):
        if not out or x - out[-1] > _TOL:
            out.append(x)
    return out


def _lane(lanes: Sequence[tuple[float, float]], x: float, side: int) -> int:
    """Index of the lane whose start (side 0) or end (side 1) is nearest to x."""
    return min(range(len(lanes)), key=lambda k: abs(lanes[k][side] - x))


def grid_rows(grid: BoxGrid, words: Sequence[Sequence]) -> tuple[list[list[Box | None]], list[list[str | None]]]:
    """The grid as find_tables-style rows of cell boxes (None where a spanning box covers the
    slot) and their texts (words whose middle is inside the box, line by line); a slot no box
    covers is an empty cell of its lanes."""
    n_rows, n_cols = len(grid.rows), len(grid.columns)
    rows: list[list[Box | None]] = [[(c[0], r[0], c[1], r[1]) for c in grid.columns] for r in grid.rows]
    texts: list[list[str | None]] = [[""] * n_cols for _ in range(n_rows)]
    for b in grid.boxes:
        r, c, rs, cs = grid.slots(b)
        for i in range(r, r + rs):
            for k in range(c, c + cs):
                rows[i][k] = None
        rows[r][c] = b
        inside = [w for w in words if b[0] <= (w[0] + w[2]) / 2 <= b[2] and b[1] <= (w[1] + w[3]) / 2 <= b[3]]
        texts[r][c] = " ".join(str(w[4]) for w in reading_order(inside))
    return rows, texts
