"""Table bodies whose cells are not one line in one slot: merged (spanning) cells, cells whose
text wraps over several lines with the short cells of the row set at its top, middle or bottom,
and category label rows. Used by the families added after generator v10 (merged_cells,
wrapped_body, group_rows) through `TableSpec.cell_layout`; the other families' bodies are drawn
by bench/zoo/table.py as before, so their documents keep their bytes.

A spec's `body` holds the truth's expansion: a merged cell's text sits in every slot it covers
(the CONTRACT's reading); only the anchor (its top-left slot) is drawn, across the whole span,
and no rule crosses it.
"""

from __future__ import annotations

from bench.zoo.layout import Flow
from bench.zoo.table import TableSpec, _draw_cell

Cell = tuple[int, int]


def owner(t: TableSpec, r: int, c: int) -> Cell:
    """The anchor of the merged cell covering slot (r, c); (r, c) itself when none does."""
    for (ar, ac), (nr, nc) in t.spans.items():
        if ar <= r < ar + nr and ac <= c < ac + nc:
            return ar, ac
    return r, c


def _lines(text: str) -> int:
    return len(text.split("\n"))


def row_heights(t: TableSpec) -> list[float]:
    """Each body row's height: its tallest unmerged cell (a cell merged over columns counts in
    its row); a merged cell taller than its rows together stretches its last row."""
    lead = t.size * t.leading
    heights = []
    for r, row in enumerate(t.body):
        n = 1
        for c, text in enumerate(row):
            a = owner(t, r, c)
            if a == (r, c) and t.spans.get(a, (1, 1))[0] == 1:
                n = max(n, _lines(text))
        heights.append(n * lead + 2 * t.pad_y)
    for (ar, ac), (nr, _nc) in t.spans.items():
        need = _lines(t.body[ar][ac]) * lead + 2 * t.pad_y
        have = sum(heights[ar:ar + nr])
        if need > have:
            heights[ar + nr - 1] += need - have
    return heights


def block_end(t: TableSpec, r: int) -> int:
    """The first row after the rows that merged cells bind to row r (a page never cuts them)."""
    end = r + 1
    k = r
    while k < end:
        for (ar, _ac), (nr, _nc) in t.spans.items():
            if ar == k:
                end = max(end, ar + nr)
        k += 1
    return end


def draw_body(flow: Flow, t: TableSpec, xs: list[float], r: int) -> int:
    """Body rows from r on until the column is full (whole merged blocks only); the next row."""
    heights = row_heights(t)
    tops: dict[int, float] = {}
    start = r
    while r < len(t.body):
        end = block_end(t, r)
        if flow.top + sum(heights[r:end]) > flow.bottom_limit and r > start:
            break
        for k in range(r, end):
            tops[k] = flow.top
            _draw_row(flow, t, xs, k, heights)
            flow.top += heights[k]
        r = end
    if tops and t.style == "grid":
        _grid_verticals(flow, t, xs, tops, heights)
    return r


def _draw_row(flow: Flow, t: TableSpec, xs: list[float], r: int, heights: list[float]) -> None:
    h = heights[r]
    top = flow.top
    if (t.style == "zebra" and r % 2 == 0) or (r in t.label_rows and t.label_tint):
        grey = t.label_tint if r in t.label_rows and t.label_tint else 0.9
        flow.fill(xs[0], top, xs[-1], top + h, grey)
    font = t.bold if r in t.bold_rows else t.font
    lead = t.size * t.leading
    for c, text in enumerate(t.body[r]):
        if owner(t, r, c) != (r, c) or not text:
            continue
        nr, nc = t.spans.get((r, c), (1, 1))
        room = sum(heights[r:r + nr])
        y = top
        free = room - _lines(text) * lead - 2 * t.pad_y
        if nr > 1 or nc > 1:
            y += free / 2 if t.span_middle else 0.0
        elif c in t.valign_cols and t.valign != "top":
            y += free if t.valign == "bottom" else free / 2
        align = "c" if nc > 1 else t.aligns[c]
        f = t.bold if (c == 0 and t.first_col_bold) else font
        _draw_cell(flow, t, text, xs[c], xs[c + nc], y, align, f,
                   t.indents.get(r, 0.0) if c == 0 else 0.0)
    if r > 0 and (t.style in ("grid", "rows") or (r in t.label_rows and t.style == "booktabs")):
        _hrule_open(flow, t, xs, r, top)


def _hrule_open(flow: Flow, t: TableSpec, xs: list[float], r: int, y: float) -> None:
    """The rule over row r, left out over the cells merged down into it from above."""
    open_cols = [c for c in range(t.n_cols) if owner(t, r, c)[0] == r]
    lw = t.rule_width * 0.8
    half = t.rule_gap / 2
    runs: list[list[int]] = []
    for c in open_cols:
        if runs and runs[-1][-1] == c - 1 and not t.rule_gap:
            runs[-1].append(c)
        else:
            runs.append([c])
    for run in runs:
        a, b = run[0], run[-1]
        left = xs[a] + (half if a else 0.0)
        right = xs[b + 1] - (half if b + 1 < t.n_cols else 0.0)
        flow.rule(left, y, right, y, lw)


def _grid_verticals(flow: Flow, t: TableSpec, xs: list[float], tops: dict[int, float],
                    heights: list[float]) -> None:
    """Column rules down the drawn rows, left out inside cells merged across columns."""
    rows = sorted(tops)
    for j, x in enumerate(xs):
        run_top = None
        for k in rows:
            inner = 0 < j < t.n_cols
            crossed = inner and owner(t, k, j - 1) == owner(t, k, j)
            if crossed and run_top is not None:
                flow.rule(x, run_top, x, tops[k], t.rule_width)
                run_top = None
            elif not crossed and run_top is None:
                run_top = tops[k]
        if run_top is not None:
            last = rows[-1]
            flow.rule(x, run_top, x, tops[last] + heights[last], t.rule_width)
