"""A group label with a rule drawn under it spans the columns that rule reaches over.

Report tables draw a short rule under each group label, from the first of its sub-columns to
the last (LaTeX's `\\cmidrule`, a statistics office's spanner line): `Current dollars` over
`Total` | `Per pupil`, `Leaks during preceding 12 months` over `No.` | `(%)` | ... A table read
from its text puts such a label in the one column its words fall in (or cuts it at a column
edge), and reading its span from where it stands (centred, left-set) misses a column when
the label stands off its group's middle. The rule says it outright: the label heads the
columns whose text stands inside the rule's extent.

The rule must lie between the label's row and the next (nothing printed between), be shorter
than the table is wide (a rule across the whole table is the header's or the body's), reach
over two columns or more, and every word of the label's row within its extent must stand
wholly inside it (a rule a word crosses is no label's underline), set no further apart than
their height; a rule drawn at the same extent under other rows too rules rows (a form's line
under each field), it underlines no label; and a row is read by its rules only when every rule
under it is a label's (else `transforms/spanners` reads the whole row).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rowkeeper.models import BBox, Cell

HEADER_SCAN = 4
"""Top rows of a table looked at for underlined group labels."""
WIDE = 0.9
"""Share of the table's width a rule may cross and still be a group label's underline."""
TOL = 2.0
"""Slack (pt) between a rule's ends and the ink it reaches over."""

SPACE = 1.0
"""The widest gap (in line heights) between the words of one label: a word space is a
quarter to a half of the height; two labels over one rule stand further apart."""
BODY_SCAN = 12
"""Rows under a label's row whose words place its columns."""

Rule = tuple[float, float, float]  # y, x0, x1


def joined_rules(h_rules: Sequence[BBox]) -> list[Rule]:
    """Horizontal segments joined where they meet end to end at one height (a rule drawn as
    one segment per column is one rule)."""
    segs = sorted((round((h[1] + h[3]) / 2, 1), h[0], h[2]) for h in h_rules)
    out: list[Rule] = []
    for y, x0, x1 in segs:
        if out and abs(out[-1][0] - y) <= 0.5 and x0 <= out[-1][2] + 1.0:
            out[-1] = (out[-1][0], out[-1][1], max(out[-1][2], x1))
        else:
            out.append((y, x0, x1))
    return out


def _row_band(cells: Sequence[Cell], r: int) -> tuple[float, float] | None:
    """The top and bottom of row r's cell boxes."""
    boxes = [c.bbox for c in cells if c.row == r and c.bbox]
    return (min(b[1] for b in boxes), max(b[3] for b in boxes)) if boxes else None


def _column_mids(cells: Sequence[Cell], r: int, words: Sequence[Any]) -> dict[int, float]:
    """Column -> the middle of the ink of its words under row r (cells one column wide)."""
    ink: dict[int, list[float]] = {}
    for c in cells:
        if not r < c.row <= r + BODY_SCAN or c.col_span != 1 or not c.bbox or not c.text.strip():
            continue
        b = c.bbox
        for w in words:
            if b[0] <= (w[0] + w[2]) / 2 < b[2] and b[1] <= (w[1] + w[3]) / 2 < b[3]:
                ext = ink.setdefault(c.col, [w[0], w[2]])
                ext[0], ext[1] = min(ext[0], w[0]), max(ext[1], w[2])
    return {j: (a + b) / 2 for j, (a, b) in ink.items()}


def _underlined(cells: Sequence[Cell], r: int, rule: Rule, words: Sequence[Any],
                mids: dict[int, float]) -> list[int] | None:
    """The columns a label of row r heads by the rule under it, None when the rule is no
    label's underline there: no label over it, a word across its end, words over it set
    apart like two labels (`SPACE`), its columns not a run of two or
    more, or their cells in row r holding other text than the label's words."""
    _, x0, x1 = rule
    band = _row_band(cells, r)
    if band is None:
        return None
    level = sorted((w for w in words if band[0] <= (w[1] + w[3]) / 2 <= band[1] and w[0] < x1 and w[2] > x0),
                   key=lambda w: w[0])
    if not level or any(w[0] < x0 - TOL or w[2] > x1 + TOL for w in level):
        return None
    if any(b[0] - a[2] > SPACE * (b[3] - b[1]) for a, b in zip(level, level[1:], strict=False)):
        return None  # two labels over one rule (`2005` | `2010`; a key and its value)
    cols = sorted(j for j, m in mids.items() if x0 - TOL <= m <= x1 + TOL)
    if len(cols) < 2 or cols != list(range(cols[0], cols[-1] + 1)):
        return None
    inside = sorted((c for c in cells if c.row == r and cols[0] <= c.col <= cols[-1]), key=lambda c: c.col)
    if any(c.col_span != 1 for c in inside):
        return None
    # the cells of the run hold the label's words and nothing else (the finder may have cut it
    # at a column edge, or put it whole in the column its words mostly stand over)
    text = " ".join(c.text.strip() for c in inside if c.text.strip())
    return cols if text.split() == " ".join(w[4] for w in level).split() else None


def _spanned(cells: list[Cell], r: int, cols: list[int]) -> list[Cell]:
    """Row r's cells over `cols` as one cell: their texts in column order, one box."""
    part = sorted((c for c in cells if c.row == r and cols[0] <= c.col <= cols[-1]), key=lambda c: c.col)
    boxes = [c.bbox for c in part if c.bbox]
    text = " ".join(c.text.strip() for c in part if c.text.strip())
    box = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
    first = part[0].model_copy(update={"text": text, "col_span": len(cols), "bbox": box,
                                       "bold": next((c.bold for c in part if c.text.strip()), part[0].bold),
                                       "font_size": next((c.font_size for c in part if c.text.strip()),
                                                         part[0].font_size)})
    gone = {id(c) for c in part[1:]}
    return [first if c is part[0] else c for c in cells if id(c) not in gone]


def underlined_spans(cells: Sequence[Cell], n_rows: int, h_rules: Sequence[BBox],
                     words: Callable[[], Sequence[Any]]) -> tuple[Cell, ...]:
    """`cells` with each group label in the table's top rows that has a rule drawn under it
    given the columns that rule reaches over (`words`: the table's words, read only when a
    rule could be such an underline)."""
    boxes = [c.bbox for c in cells if c.bbox]
    if not boxes or n_rows < 3:
        return tuple(cells)
    left, right = min(b[0] for b in boxes), max(b[2] for b in boxes)
    # a table read from its text ends at its ink: its rules may run on past it (clipped to it)
    clipped = [(y, max(x0, left - TOL), min(x1, right + TOL)) for y, x0, x1 in joined_rules(h_rules)]
    rules = [g for g in clipped if g[2] - g[1] > 0 and g[2] - g[1] < WIDE * (right - left)]
    bands = [_row_band(cells, r) for r in range(min(HEADER_SCAN, n_rows - 1) + 1)]
    # a rule drawn again at the same extent under other rows rules rows (a form's lines under
    # each field), no group label
    rules = [g for g in rules if not any(h is not g and abs(h[1] - g[1]) <= TOL and abs(h[2] - g[2]) <= TOL
                                         for h in rules)]
    found = [(r, g) for r in range(len(bands) - 1) for g in rules
             if bands[r] and bands[r + 1] and bands[r][1] - 1 <= g[0] <= bands[r + 1][0] + 1]
    if not found:
        return tuple(cells)
    ws = words()
    out = list(cells)
    for r in sorted({r for r, _ in found}):
        mids = _column_mids(out, r, ws)
        runs = [_underlined(out, r, g, ws, mids) for rr, g in found if rr == r]
        if not all(runs):
            continue  # a row read in part by its rules reads worse than one left to `spanners` whole
        for cols in runs:
            out = _spanned(out, r, cols)
    return tuple(out)
