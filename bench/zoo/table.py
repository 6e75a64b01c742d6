"""Drawing one table into a flow: header levels, rules by style, pictures, page breaks.

A table is drawn in pieces, one per column/page it runs over; a long table may repeat its
header on each piece. The function returns the regions it covered, so the ground truth knows
the pages of every table.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bench.zoo.fonts import width
from bench.zoo.layout import Flow

STYLES = ("grid", "booktabs", "rows", "none", "box", "zebra")


@dataclass
class HeaderCell:
    """One header cell: its text (may hold line breaks) and how many columns it spans."""

    text: str
    span: int = 1


@dataclass
class TableSpec:
    """What to draw; `body` rows hold the cell texts (line breaks allowed)."""

    header: list[list[HeaderCell]]
    body: list[list[str]]
    aligns: list[str]
    style: str = "grid"
    size: float = 9.0
    font: str = "DejaVuSans"
    bold: str = "DejaVuSans-Bold"
    pad_x: float = 4.0
    pad_y: float = 2.5
    leading: float = 1.25
    full_width: bool = False
    x0: float | None = None
    max_width: float | None = None
    repeat_header: bool = True
    pictures: dict[int, list[bytes]] = field(default_factory=dict)  # column -> one PNG per row
    picture_size: float = 22.0
    bold_rows: frozenset[int] = frozenset()
    indents: dict[int, float] = field(default_factory=dict)
    header_char_space: float = 0.0
    rule_width: float = 0.6
    first_col_bold: bool = False
    keep_together: bool = False  # start in the next column unless the whole table fits
    # generator v8: the ways real tables of one style still differ
    header_regular: bool = False  # header set in the body face (LaTeX booktabs' default)
    heavy: float = 2.0  # booktabs' top and bottom rule, times rule_width
    cmidrule: bool = True  # booktabs: partial rules under upper header labels
    rule_above_header: bool = False  # rows: the header between two rules
    rule_gap: float = 0.0  # horizontal rules broken this wide at each inner column edge
    checks: dict[int, list[bool]] = field(default_factory=dict)  # column -> a tick box per row
    double_total: bool = False  # the last bold row gets a double rule under it
    left_marks: dict[tuple[int, int], str] = field(default_factory=dict)  # (row, col) -> "$"
    # the families added after generator v10 (bench/zoo/cells.py draws their bodies): merged
    # body cells, multi-line cells aligned in their row, category label rows
    spans: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)  # (row, col) -> (rows, cols)
    span_middle: bool = False  # a merged cell's text vertically centred (else at its top)
    valign: str = "top"  # "top", "middle" or "bottom": where a short cell sits in a tall row
    valign_cols: frozenset[int] = frozenset()  # the columns `valign` applies to
    label_rows: frozenset[int] = frozenset()  # category label rows (first cell only)
    label_tint: float = 0.0  # grey behind a label row (0: none)

    @property
    def cell_layout(self) -> bool:
        """Drawn by bench/zoo/cells.py (the merged-cell / wrapped-body / group-row families)."""
        return bool(self.spans or self.label_rows or self.valign != "top")

    @property
    def n_cols(self) -> int:
        return len(self.aligns)


def _natural_widths(flow: Flow, t: TableSpec) -> list[float]:
    w = [0.0] * t.n_cols
    for r, row in enumerate(t.body):
        for c, text in enumerate(row):
            # measured in the face it is drawn in (a bold key measured regular ran into its value)
            font = t.bold if (r in t.bold_rows or (c == 0 and t.first_col_bold)) else t.font
            lines = text.split("\n")
            need = max(width(ln, font, t.size) for ln in lines) + t.indents.get(r, 0) * (c == 0)
            w[c] = max(w[c], need)
    for hrow in t.header:
        c = 0
        for cell in hrow:
            need = max(width(ln, t.bold, t.size, t.header_char_space)
                       for ln in cell.text.split("\n"))
            if cell.span == 1:
                w[c] = max(w[c], need)
            c += cell.span
    for c in t.pictures:
        w[c] = max(w[c], t.picture_size)
    for c in t.checks:
        w[c] = max(w[c], t.size)
    for (r, c), mark in t.left_marks.items():
        w[c] = max(w[c], width(mark + "  " + t.body[r][c], t.font, t.size) + t.size)
    return [x + 2 * t.pad_x for x in w]


def layout_columns(flow: Flow, t: TableSpec) -> list[float]:
    """Column left edges plus the right edge; the font shrinks until the table fits."""
    a, b = flow.span()
    x0 = a if t.x0 is None else t.x0
    avail = (b - x0) if t.max_width is None else t.max_width
    widths = _natural_widths(flow, t)
    while sum(widths) > avail and t.size > 5.5:
        t.size -= 0.5
        t.pad_x = max(t.pad_x - 0.5, 2.0)
        widths = _natural_widths(flow, t)
    if t.full_width and sum(widths) < avail:
        extra = (avail - sum(widths)) / t.n_cols
        widths = [w + extra for w in widths]
    xs = [x0]
    for w in widths:
        xs.append(xs[-1] + w)
    return xs


def _row_height(t: TableSpec, cells: list[str], r: int | None) -> float:
    lines = max(len(c.split("\n")) for c in cells) if cells else 1
    h = lines * t.size * t.leading + 2 * t.pad_y
    if r is not None and t.pictures:
        h = max(h, t.picture_size + 2 * t.pad_y)
    return h


def _draw_cell(flow: Flow, t: TableSpec, text: str, x0: float, x1: float, top: float,
               align: str, font: str, indent: float = 0.0, char_space: float = 0.0) -> None:
    for i, line in enumerate(text.split("\n")):
        w = width(line, font, t.size, char_space)
        if align == "r":
            x = x1 - t.pad_x - w
        elif align == "c":
            x = (x0 + x1 - w) / 2
        else:
            x = x0 + t.pad_x + indent
        flow.text(x, top + t.pad_y + i * t.size * t.leading, line, font, t.size, char_space)


def hrule(flow: Flow, t: TableSpec, xs: list[float], y: float, lw: float) -> None:
    """A rule across the table at y, whole or broken at the inner column edges."""
    if not t.rule_gap:
        flow.rule(xs[0], y, xs[-1], y, lw)
        return
    half = t.rule_gap / 2
    for j in range(len(xs) - 1):
        flow.rule(xs[j] + (half if j else 0), y, xs[j + 1] - (half if j + 2 < len(xs) else 0), y, lw)


def _draw_header(flow: Flow, t: TableSpec, xs: list[float]) -> list[tuple[float, list[tuple[int, int]]]]:
    """Draw the header rows at flow.top; (row top, [(first col, last col) of spans]) per row."""
    out = []
    font = t.font if t.header_regular else t.bold
    for hrow in t.header:
        h = _row_height(t, [c.text for c in hrow], None)
        c, spans = 0, []
        for cell in hrow:
            a, b = xs[c], xs[c + cell.span]
            align = "c" if cell.span > 1 else t.aligns[c]
            _draw_cell(flow, t, cell.text, a, b, flow.top, align, font,
                       char_space=t.header_char_space)
            spans.append((c, c + cell.span - 1) if cell.text else (c, -1))
            c += cell.span
        out.append((flow.top, spans))
        flow.top += h
    return out


def _rules_header(flow: Flow, t: TableSpec, xs: list[float], rows, top: float) -> None:
    """Rules of the header part of a piece, by style: a top rule, partial rules under the
    labels of upper header rows (booktabs' cmidrule), a full rule under the last header row."""
    s, lw = t.style, t.rule_width
    if s in ("none", "zebra"):
        return
    if s in ("grid", "box", "booktabs") or t.rule_above_header:
        hrule(flow, t, xs, top, lw * (t.heavy if s == "booktabs" else 1))
    for i, (_row_top, spans) in enumerate(rows):
        below = rows[i + 1][0] if i + 1 < len(rows) else flow.top
        if i == len(rows) - 1:
            hrule(flow, t, xs, below, lw)
            continue
        if s == "box" or (s == "booktabs" and not t.cmidrule):
            continue
        trim = 3 if s == "booktabs" else 0
        for a, b in spans:
            if b >= 0 and (b > a or s == "grid"):
                flow.rule(xs[a] + trim, below, xs[b + 1] - trim, below, lw * 0.8)


def _verticals(flow: Flow, t: TableSpec, xs: list[float], top: float, header_rows, bottom: float) -> None:
    if t.style == "box":
        flow.rule(xs[0], top, xs[0], bottom, t.rule_width)
        flow.rule(xs[-1], top, xs[-1], bottom, t.rule_width)
        return
    if t.style != "grid":
        return
    body_top = header_rows[-1][0] if header_rows else top
    for j, x in enumerate(xs):
        flow.rule(x, body_top if header_rows else top, x, bottom, t.rule_width)
        for row_top, spans in header_rows[:-1]:
            inside = any(a < j <= b for a, b in spans if b >= 0)
            if not inside:
                nxt = [rt for rt, _ in header_rows if rt > row_top]
                flow.rule(x, row_top, x, nxt[0] if nxt else body_top, t.rule_width)


def draw_table(flow: Flow, t: TableSpec) -> list[tuple[int, tuple[float, float, float, float]]]:
    """Draw the table from flow.top on; (page, display bbox) of each piece."""
    xs = layout_columns(flow, t)
    regions = []
    r = 0
    first = True
    while r < len(t.body) or first:
        head_h = sum(_row_height(t, [c.text for c in h], None) for h in t.header)
        rest = t.body[r:] if t.keep_together else t.body[r:r + 2]
        need = head_h + sum(_row_height(t, row, r + i) for i, row in enumerate(rest))
        flow.ensure(need)
        if t.x0 is None and flow.span()[0] != xs[0]:
            # a break moved to another text column: the table is drawn there, not at the
            # columns of the one it was laid out in (over that column's prose)
            xs = [x + flow.span()[0] - xs[0] for x in xs]
        piece_top = flow.top
        header_rows = _draw_header(flow, t, xs) if (first or t.repeat_header) else []
        if header_rows:
            _rules_header(flow, t, xs, header_rows, piece_top)
        elif t.style in ("grid", "box", "booktabs"):
            hrule(flow, t, xs, piece_top, t.rule_width * (t.heavy if t.style == "booktabs" else 1))
        first = False
        body_top = flow.top
        if t.cell_layout:
            from bench.zoo.cells import draw_body  # draws its own verticals, row by row

            r = draw_body(flow, t, xs, r)
        else:
            r = _draw_body(flow, t, xs, r)
        bottom = flow.top
        if t.style in ("grid", "box", "booktabs", "rows"):
            hrule(flow, t, xs, bottom, t.rule_width * (t.heavy if t.style == "booktabs" else 1))
        if not t.cell_layout:
            _verticals(flow, t, xs, piece_top, header_rows, bottom)
        elif header_rows or t.style == "box":
            _verticals(flow, t, xs, piece_top, header_rows, body_top if t.style == "grid" else bottom)
        regions.append((flow.page, (xs[0], piece_top, xs[-1], bottom)))
        if r < len(t.body):
            flow.next_column()
    flow.top += t.size * 0.8
    return regions


def _draw_body(flow: Flow, t: TableSpec, xs: list[float], r: int) -> int:
    """Body rows from r on until the column is full; the next row to draw."""
    while r < len(t.body):
        row = t.body[r]
        h = _row_height(t, row, r)
        if flow.top + h > flow.bottom_limit:
            return r
        if t.style == "zebra" and r % 2 == 0:
            flow.fill(xs[0], flow.top, xs[-1], flow.top + h, 0.9)
        font = t.bold if (r in t.bold_rows) else t.font
        for c, text in enumerate(row):
            if c in t.pictures:
                s = t.picture_size
                flow.image(t.pictures[c][r], (xs[c] + xs[c + 1] - s) / 2, flow.top + t.pad_y, s, s)
                continue
            if c in t.checks:
                _tick_box(flow, t, (xs[c] + xs[c + 1]) / 2, flow.top + t.pad_y, t.checks[c][r])
                continue
            f = t.bold if (c == 0 and t.first_col_bold) else font
            if (r, c) in t.left_marks:  # drawn first: the sign reads before its amount
                _draw_cell(flow, t, t.left_marks[(r, c)], xs[c], xs[c + 1], flow.top, "l", f)
            _draw_cell(flow, t, text, xs[c], xs[c + 1], flow.top, t.aligns[c], f,
                       t.indents.get(r, 0.0) if c == 0 else 0.0)
        if r > 0 and t.style in ("grid", "rows"):
            hrule(flow, t, xs, flow.top, t.rule_width * 0.8)
        if r in t.bold_rows and t.style not in ("grid", "rows"):
            hrule(flow, t, xs, flow.top, t.rule_width)
        flow.top += h
        if t.double_total and r == len(t.body) - 1 and r in t.bold_rows:
            for dy in (0.5, 2.0):  # an accountant's double rule under the total
                flow.rule(xs[1], flow.top + dy, xs[-1], flow.top + dy, t.rule_width * 0.6)
        r += 1
    return r


def _tick_box(flow: Flow, t: TableSpec, mid: float, top: float, ticked: bool) -> None:
    """An empty square of a form's tick box, filled dark when ticked (drawn, no glyph)."""
    s = t.size * 0.8
    x0, y0 = mid - s / 2, top + t.size * 0.1
    for a, b, c, d in ((x0, y0, x0 + s, y0), (x0, y0 + s, x0 + s, y0 + s),
                       (x0, y0, x0, y0 + s), (x0 + s, y0, x0 + s, y0 + s)):
        flow.rule(a, b, c, d, 0.5)
    if ticked:
        flow.fill(x0 + 1.5, y0 + 1.5, x0 + s - 1.5, y0 + s - 1.5, 0.15)
