"""Group labels over sub-columns ("BLEU" over "EN-DE" / "EN-FR") given the columns they head.

An extractor with no column rules to go by puts a spanner label in the one column its text
falls in: centred over three sub-columns it lands in the middle one, and spreading it to the
right (`label_text.fill_group_labels`) would give it the wrong columns. Which sub-columns a label
heads is read from where it stands: either it starts its group (left-aligned, the label's
left edge at the group's) or it is centred over it (each sub-column goes to the nearest label
centre). Centred it is when read left-aligned some sub-columns would have no label over them,
or when its labels sit better over their groups that way.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from rowkeeper.label_text import (
    clean_text,
    continues_label,
    first_lines_row,
    linking_line,
    own_line,
)
from rowkeeper.models import BBox, Cell, RawTable, TextLine
from rowkeeper.transforms.figures import DIGITS, figure_columns, in_digits
from rowkeeper.transforms.headers import reads_as_data, titled_label_row
from rowkeeper.transforms.heads import heads_over_figures
from rowkeeper.transforms.merge import piece_grid

HEADER_SCAN = 3
"""Top rows looked at for a row of group labels."""


def _extent(cell: Cell, b: BBox, lines: Sequence[TextLine], page: int) -> tuple[float, float]:
    """The x range of the cell's text as printed (its line, centred in the box, else reaching
    into it: a wide label placed in the column its words mostly stand over), else of the cell
    box `b`."""
    text = clean_text(cell.text)
    level = [ln for ln in lines if ln.page == page and b[1] - 2 <= (ln.bbox[1] + ln.bbox[3]) / 2 <= b[3] + 2
             and ln.bbox[0] < b[2] and ln.bbox[2] > b[0] and clean_text(ln.text) in text]
    xs = [(ln.bbox[0], ln.bbox[2]) for ln in level if b[0] - 2 <= (ln.bbox[0] + ln.bbox[2]) / 2 <= b[2] + 2] \
        or [(ln.bbox[0], ln.bbox[2]) for ln in level]
    return (min(x for x, _ in xs), max(x for _, x in xs)) if xs else (b[0], b[2])


def _groups(labels: list[int], eligible: set[int], centre: dict[int, float],
            under: dict[int, tuple[float, float]], centred: bool,
            parent: dict[int, tuple[int, int]] | None = None) -> dict[int, list[int]]:
    """Label column -> the columns it heads, read left-aligned or centred (`under`: the x
    range of each column's sub-label; `parent`: the group of the level above each column is
    in, which a group of this level stays inside)."""
    out = {a: [a] for a in labels}
    up = parent or {}
    for j in sorted(eligible - set(labels)):
        if centred:
            mid = sum(under[j]) / 2
            kin = [a for a in labels if up.get(a) == up.get(j)]
            if not kin:
                continue  # no label of this level stands in the column's group above
            owner = min(kin, key=lambda a: (abs(centre[a] - mid), a))
        else:
            left = [a for a in labels if a < j]
            if not left:
                continue
            owner = left[-1]
        out[owner].append(j)
    groups = {a: sorted(g) for a, g in out.items()}
    if centred:  # the stub joins a group only if the label stands centred over it too
        for a, g in groups.items():
            if len(g) > 1 and g[0] == 0 and a != 0 and \
                    _off_centre(centre[a], g[1:], under) < _off_centre(centre[a], g, under):
                groups[a] = g[1:]
        mids = sorted(sum(under[j]) / 2 for j in eligible)
        pitch = statistics.median([b - a for a, b in zip(mids, mids[1:], strict=False)] or [0.0])
        groups = {a: _centred_on(a, g, centre[a], under, pitch) for a, g in groups.items()}
        groups = _shared_out(groups, eligible, centre, under, pitch, up)
    return groups


PARTITION_OFF = 0.25
"""How far (in column pitches) a label may stand from its run's middle when the columns
around the labels are shared out again (`_shared_out`)."""


def _shared_out(groups: dict[int, list[int]], eligible: set[int], centre: dict[int, float],
                under: dict[int, tuple[float, float]], pitch: float,
                parent: dict[int, tuple[int, int]]) -> dict[int, list[int]]:
    """The groups shared out again when they leave columns bare, if that covers more: each
    label of a group of two columns or more given the run around its own column that covers the
    most columns in all, every such label standing within `PARTITION_OFF` pitches of its run's
    middle (the least miss in all among such readings). A wide label beside narrow ones
    (`Grade` over `7 .. 12` beside `Elementary` / `ungraded`, `Actual` over six years beside
    `Projected` over four) has its outer columns nearer the neighbours' centres, which the
    nearest-centre reading gives them and the trim (`_centred_on`) then takes off both. A
    label left over its own column only heads it alone (a stacked label's first line), and the
    stub joins no group here (the nearest-centre reading decides it); a lone label has no
    neighbour to share with."""
    covered = {j for g in groups.values() for j in g}
    bare = eligible - covered - {0}
    if not bare or len(groups) < 2:
        return groups
    cols = sorted(covered | bare)
    options = []
    for a, g in sorted(groups.items()):
        k = cols.index(a)
        runs = [cols[s:e + 1] for s in range(k + 1) for e in range(k, len(cols))]
        fits = [run for run in runs if run == list(range(run[0], run[-1] + 1))
                and all(parent.get(j) == parent.get(a) for j in run)
                and _off_centre(centre[a], run, under) <= PARTITION_OFF * pitch] if len(g) > 1 else [g]
        if not fits:
            return groups
        options.append((a, fits))
    best: dict[tuple[int, int], tuple[int, float, tuple[list[int], ...]]] = {}

    def walk(i: int, end: int) -> tuple[int, float, tuple[list[int], ...]]:
        """The best runs for labels i.. with every run right of column `end`."""
        if i == len(options):
            return 0, 0.0, ()
        if (i, end) not in best:
            a, fits = options[i]
            found = [(n + len(g), off - _off_centre(centre[a], g, under), (g, *rest))
                     for g in fits if g[0] > end for n, off, rest in [walk(i + 1, g[-1])] if n >= 0]
            best[(i, end)] = max(found, key=lambda f: (f[0], f[1]), default=(-1, 0.0, ()))
        return best[(i, end)]

    n, _, shared = walk(0, -1)
    if n <= len(covered):
        return groups
    return {a: g for (a, _), g in zip(options, shared, strict=True)}


OFF_CENTRE = 0.4
"""How far (in column pitches) a label may stand from its group's middle before the group is
read as too wide for it."""


def _centred_on(a: int, group: list[int], centre: float, under: dict[int, tuple[float, float]],
                pitch: float) -> list[int]:
    """`group`, or the run of its columns around the label's own (`a`) that the label stands
    most nearly centred over (the miss measured against the run's width), when the whole group
    leaves it well off its middle (`OFF_CENTRE` pitches) and that run halves the miss: a column named on its own beside a centred label (`Total`
    beside `Grade` over `PK | K | 1 ...`), or a label heading its own column only (`Percent`
    over `who`, `Pacific` over `Islander`, the second line of `Asian/`), which the nearest
    label's columns were given."""
    off = _off_centre(centre, group, under)
    if len(group) < 2 or off <= OFF_CENTRE * pitch:
        return group
    k = group.index(a)
    runs = [group[i:j] for i in range(k + 1) for j in range(k + 1, len(group) + 1)]
    best = min(runs, key=lambda g: (_off_centre(centre, g, under) / _width(g, under), -len(g)))
    return best if _off_centre(centre, best, under) <= off / 2 else group


def _width(group: list[int], under: dict[int, tuple[float, float]]) -> float:
    """The x extent of the group's sub-labels, from the first's left to the last's right."""
    return max(under[group[-1]][1] - under[group[0]][0], 1.0)


def _off_centre(centre: float, group: list[int], under: dict[int, tuple[float, float]]) -> float:
    """How far a label's centre stands from the middle of the group's sub-labels."""
    return abs(centre - (under[group[0]][0] + under[group[-1]][1]) / 2)


def _misfit(groups: dict[int, list[int]], extent: dict[int, tuple[float, float]],
            under: dict[int, tuple[float, float]], centred: bool) -> float:
    """How far the labels stand from where that reading puts them (0: exactly there)."""
    err = 0.0
    for a, g in groups.items():
        x0, x1 = under[g[0]][0], under[g[-1]][1]
        err += abs(sum(extent[a]) / 2 - (x0 + x1) / 2) if centred else abs(extent[a][0] - x0)
    return err


def _join_split_labels(piece: RawTable, r: int, lines: Sequence[TextLine],
                       numeric: Sequence[bool]) -> RawTable:
    """Row r with a label over figure columns that its words' gap cut into two cells ("Đơn" |
    "giá") put back in the first: the text layer printed it as one line. Two labels of their
    own ("Photo" | "Site"), a name beside its figure ("... hub 9826" | "499,554") are printed
    as one line too when set close: only words over two figure columns (maybe with empty ones
    between), neither a figure, in a row of group labels (some figure column without one) are joined; a header row naming
    every column is no such row (`_names_every_column`, checked by the caller)."""
    # filled cells side by side: a label centred over many columns may leave one empty between
    row = sorted((c for c in piece.cells if c.row == r and c.text.strip()), key=lambda c: c.col)
    texts = {clean_text(ln.text) for ln in lines if ln.page == piece.page}
    cells = list(piece.cells)
    for a, b in zip(row, row[1:], strict=False):
        joined = clean_text(f"{a.text} {b.text}")
        if not (b.col < len(numeric) and all(numeric[a.col:b.col + 1])) or in_digits(a.text) or in_digits(b.text):
            continue
        if " " in joined and joined in texts \
                and clean_text(a.text) not in texts and clean_text(b.text) not in texts:
            box = (a.bbox[0], a.bbox[1], b.bbox[2], b.bbox[3]) if a.bbox and b.bbox else a.bbox
            cells[cells.index(a)] = a.model_copy(update={"text": joined, "bbox": box})  # where it is printed
            cells[cells.index(b)] = b.model_copy(update={"text": ""})
    return piece.model_copy(update={"cells": tuple(cells)})


def _names_every_column(grid: list[list[str]], r: int, numeric: Sequence[bool]) -> bool:
    """Whether row r is a header row with one label per column ("Lead time" | "Cost [USD]"),
    even where the text layer printed two labels as one line: the header's last row (labels
    over figures), or a row with a label over every figure column. Only other rows (group
    labels, data) have split labels joined."""
    figures = [j for j in range(len(grid[r])) if j < len(numeric) and numeric[j]]
    if all(grid[r][j].strip() for j in figures):
        return True
    heads = heads_over_figures(grid[r + 1], grid[r + 2:], grid[r], numeric)  # the header's row under it
    return reads_as_data([grid[r + 1][j] for j in figures]) and not heads and not reads_as_data(grid[r])


def _span_row(piece: RawTable, r: int, grid: list[list[str]], numeric: list[bool],
              lines: Sequence[TextLine], sub: int = 0) -> RawTable:
    """Row r's group labels given the columns they head, read against the sub-labels of row
    `sub` (the row under it, else a lower one: `_label_row`)."""
    sub = sub or r + 1
    row = {c.col: c for c in piece.cells if c.row == r}
    if any(c.col_span > 1 for c in row.values()) or any(c.bbox is None for c in row.values()) \
            or len(row) < piece.n_cols:
        return piece
    split = piece if _names_every_column(grid, r, numeric) else _join_split_labels(piece, r, lines, numeric)
    if split.cells != piece.cells:
        piece, row = split, {c.col: c for c in split.cells if c.row == r}
    # a label spanning the header's rows names its own column, it heads no sub-columns
    labels = [j for j in range(1, piece.n_cols) if row[j].text.strip() and numeric[j] and row[j].row_span == 1]
    if sub > r + 1:  # a label stacked a word a line in its own column ("total" / "occupied") heads it only
        printed = {clean_text(ln.text) for ln in lines if ln.page == piece.page}
        labels = [a for a in labels if not continues_label(grid[r][a], grid[r + 1][a])
                  or _cut_line(grid[r + 1], a, printed)]
    eligible = {j for j in range(piece.n_cols) if numeric[j] and grid[sub][j].strip()
                and (not row[j].text.strip() or j in labels)}
    if not labels or not set(labels) <= eligible:
        return piece
    if any(linking_line(grid[r + 1][a]) for a in labels):
        return piece  # a label set a word a line ("Relative" / "to"), no group label
    boxes = {j: c.bbox for j, c in row.items() if c.bbox}
    subs = {c.col: c for c in piece.cells if c.row == sub and c.col_span == 1 and c.bbox}
    if not eligible <= set(subs):
        return piece
    under = {j: _extent(subs[j], subs[j].bbox or boxes[j], lines, piece.page) for j in eligible}
    extent = {a: _extent(row[a], boxes[a], lines, piece.page) for a in labels}
    centre = {a: sum(extent[a]) / 2 for a in labels}
    if _first_starts_group(row, subs, labels, eligible, numeric, extent, under, lines, piece.page):
        return piece  # left-aligned from the first column on: spreading rightwards reads it already
    parent = _parents(piece, r)
    left, mid = (_groups(labels, eligible, centre, under, c, parent) for c in (False, True))
    orphans = any(j < labels[0] for j in eligible)  # read left-aligned, sub-columns under no label
    if left == mid or not (orphans or _misfit(mid, extent, under, True) < _misfit(left, extent, under, False)):
        return piece  # left-aligned: spreading rightwards reads it already
    if any(g != list(range(g[0], g[-1] + 1)) for g in mid.values()) or _first_lines(mid, grid, r, parent, sub > r + 1):
        return piece
    covered = {j for a, g in mid.items() for j in g if j != a}
    cells = [c for c in piece.cells if not (c.row == r and c.col in covered)]
    for a, g in mid.items():
        b0, b1 = boxes[g[0]], boxes[g[-1]]
        i = next(k for k, c in enumerate(cells) if c.row == r and c.col == a)
        cells[i] = cells[i].model_copy(update={"col": g[0], "col_span": len(g),
                                               "bbox": (b0[0], b0[1], b1[2], b1[3])})
    return piece.model_copy(update={"cells": tuple(cells)})


def _first_lines(groups: dict[int, list[int]], grid: list[list[str]], r: int,
                 parent: dict[int, tuple[int, int]], deep: bool = False) -> bool:
    """Whether each label of row r is the first line of a label in its own column, not a
    level of its own: its next line carries it on (`Unadjusted` / `odds ratio`; read against a
    lower row, any line under it: `Weight` / `Relative` / `to` / `Controls`) and the group it
    would head is just the one the label above heads (`Peeling paint` over the same columns), or
    its own column only (`Total` / `units` beside `Unadjusted` / `odds ratio`); or every label
    of the row carries on in its own column (`Female` / `sterilization`, `Male` /
    `sterilization`, `Condom/` / `Nirodh`: `label_text.first_lines_row`)."""
    if first_lines_row([grid[r][a] for a in groups], [grid[r + 1][a] for a in groups]):
        return True
    return all((continues_label(grid[r][a], grid[r + 1][a]) or deep and bool(grid[r + 1][a].strip()))
               and (g == [a] or g[0] in parent
                    and {j for j, p in parent.items() if p == parent[g[0]]} == set(g)) for a, g in groups.items())


def _parents(piece: RawTable, r: int) -> dict[int, tuple[int, int]]:
    """Column -> the group label spanning it in the nearest row above row r (its row and
    column): a lower level's groups stay inside the upper level's (`2007` over `Inadequate
    housing units` over `no.` | `(%)` | ...)."""
    out: dict[int, tuple[int, int]] = {}
    for c in sorted((c for c in piece.cells if c.row < r and c.col_span > 1), key=lambda c: c.row):
        out |= {j: (c.row, c.col) for j in range(c.col, c.col + c.col_span)}
    return out


def _label_row(grid: list[list[str]], r: int, numeric: list[bool]) -> int:
    """The header row under row r with a label over every figure column (the row that names
    them one by one), looked for below the row right under it: row r + 1 holds only some labels
    when a level of group labels or a label's first line stands between (`2007` / `Inadequate
    housing units` / `no.` | `(%)`); 0 when there is none before the body."""
    figures = [j for j in range(len(grid[r])) if j < len(numeric) and numeric[j]]
    for k in range(r + 2, min(len(grid), r + 2 + HEADER_SCAN)):
        if reads_as_data(grid[k]) and not heads_over_figures(grid[k], grid[k + 1:], grid[k - 1], numeric):
            break
        if figures and all(grid[k][j].strip() for j in figures):
            return k
    return 0


def _cut_line(row: list[str], c: int, printed: set[str]) -> bool:
    """Whether slot c of the row holds the end of a line a column edge cut, its start in the
    slot left of it (`Constant 2010–11` | `dollars`): no line of the label over it."""
    return bool(row[c - 1].strip()) and clean_text(f"{row[c - 1]} {row[c]}") in printed


def _covered(piece: RawTable, r: int) -> set[int]:
    """The columns the spanning labels of row r head."""
    return {j for c in piece.cells if c.row == r and c.col_span > 1 for j in range(c.col, c.col + c.col_span)}


def _spans(piece: RawTable, r: int, least: int = 2) -> bool:
    """Whether a cell of row r spans `least` columns or more."""
    return any(c.row == r and c.col_span >= least for c in piece.cells)


LEFT_TOL = 3.0
"""How far (pt) a left-aligned group label may stand from its group's first sub-label."""


def _first_starts_group(row: dict[int, Cell], subs: dict[int, Cell], labels: list[int], eligible: set[int],
                        numeric: Sequence[bool], extent: dict[int, tuple[float, float]],
                        under: dict[int, tuple[float, float]], lines: Sequence[TextLine], page: int) -> bool:
    """Whether a table of figures with no column of row labels has its group labels set at the
    left of their groups from the first column on ("Fruits" over "Apple" | "Banana" | "Cherry",
    "Dairy" over "Cheese" | ...): the first column's label starts a group as the others do, so
    the columns between it and the next label are its sub-columns, not orphans calling for a
    centred reading. Each label must start where its group's first sub-label starts."""
    first, sub = row.get(0), subs.get(0)
    if not (numeric and numeric[0] and first and sub and first.text.strip() and sub.text.strip()
            and first.row_span == 1 and first.bbox and sub.bbox):
        return False
    ext = {0: _extent(first, first.bbox, lines, page), **extent}
    und = {0: _extent(sub, sub.bbox, lines, page), **under}
    groups = _groups([0, *labels], eligible | {0}, {}, und, False)
    return all(abs(ext[a][0] - und[g[0]][0]) <= LEFT_TOL for a, g in groups.items())


def span_group_labels(piece: RawTable, lines: Sequence[TextLine]) -> RawTable:
    """The piece with each row of centred group labels given spans over its sub-columns."""
    grid = piece_grid(piece)
    if piece.n_rows < 3:
        return piece
    numeric = figure_columns(grid[1:], DIGITS)
    for r in range(min(HEADER_SCAN, piece.n_rows - 2)):
        if reads_as_data(grid[r]) and not titled_label_row(grid[r], numeric):
            break  # group labels stand over the body, never in it: its figures span nothing
        if reads_as_data(grid[r + 1]) and not heads_over_figures(grid[r + 1], grid[r + 2:], grid[r], numeric):
            break  # the body's first row under it: the header's last row, its labels head one column each
        spanned = _span_row(piece, r, grid, numeric, lines)
        if k := _label_row(grid, r, numeric):
            # read against the row naming every column: it sees the columns the row under r
            # leaves bare (`Current dollars` centred over two columns, printed in one)
            deeper = _span_row(piece, r, grid, numeric, lines, k)
            # a label over every column, the stub's too, is a note on the whole table (`[In thousands]`)
            if not _spans(deeper, r, piece.n_cols) and _covered(spanned, r) < _covered(deeper, r):
                spanned = deeper
        piece = spanned
    return piece


ALIGN_TOL = 1.0
"""How near (pt) two lines' left edges stand when they are set left-aligned."""
OWN_CENTRE = 0.25
"""How far (in its column label's widths) a label centred over that label stands from its
middle."""


def hold_own_labels(piece: RawTable, lines: Sequence[TextLine], header_rows: int) -> RawTable:
    """The piece with each header label that stands over its own column's label only carried
    down into it (one cell over both rows): a stacked label's first line (`Unadjusted` over
    `odds ratio`, `Graduate` over `only`) beside a column whose label starts on a lower line,
    which the text fallback (`label_text.fill_group_labels`) would spread into that column
    (`Unadjusted (95% CI)`). Over its own column only: centred over that column's label
    (`OWN_CENTRE`, and nearer its middle than the middle of it and the next together) and its
    ink reaching past the middle of neither gap beside it: a group label centred on the cell
    boxes of right-aligned sub-labels (`chrF` over `EN-DE` | `JA-EN`) may end short of the gap's
    middle, yet stands nearer the pair's middle than its first label's. A label set at its
    column label's left edge may be a left-aligned group label (`Men` over `Hispanic` |
    `non-Hispanic`): left as it is."""
    at = {(c.row, c.col): c for c in piece.cells}
    grid = piece_grid(piece)
    held: list[tuple[Cell, Cell]] = []
    for r in range(header_rows - 1):
        for a in range(1, piece.n_cols - 1):
            top, low, beside = at.get((r, a)), at.get((r + 1, a)), at.get((r + 1, a + 1))
            if not (top and low and beside and top.bbox and low.bbox and beside.bbox
                    and top.text.strip() and low.text.strip() and beside.text.strip()
                    and top.row_span == top.col_span == low.col_span == beside.col_span == 1) \
                    or grid[r][a + 1].strip() or own_line(grid[r][a], grid[r + 1][a], grid[r + 1][a + 1]) \
                    or any(up[a + 1].strip() and up[a + 1] != up[a] for up in grid[:r]):
                continue  # the text fallback spreads it into no other column already
            ink = _extent(top, top.bbox, lines, piece.page)
            own = _extent(low, low.bbox, lines, piece.page)
            right = _extent(beside, beside.bbox, lines, piece.page)
            left = at.get((r + 1, a - 1))
            start = (_extent(left, left.bbox, lines, piece.page)[1] + own[0]) / 2 \
                if left and left.bbox and left.text.strip() and left.col_span == 1 else own[0] - (right[0] - own[1])
            mid, own_mid = sum(ink) / 2, sum(own) / 2
            centred = abs(mid - own_mid) <= OWN_CENTRE * (own[1] - own[0]) \
                and abs(mid - own_mid) < abs(mid - (own[0] + right[1]) / 2)
            if centred and abs(ink[0] - own[0]) > ALIGN_TOL and ink[1] <= (own[1] + right[0]) / 2 and ink[0] >= start:
                held.append((top, low))
    if not held:
        return piece
    gone = {id(low) for _, low in held}
    joined = {id(top): top.model_copy(update={
        "text": f"{top.text}\n{low.text}", "row_span": 1 + low.row_span,
        "bbox": (min(top.bbox[0], low.bbox[0]), top.bbox[1], max(top.bbox[2], low.bbox[2]), low.bbox[3])
        if top.bbox and low.bbox else top.bbox}) for top, low in held}
    cells = tuple(joined.get(id(c), c) for c in piece.cells if id(c) not in gone)
    return piece.model_copy(update={"cells": cells})
