"""A row of group labels standing just over a table's header, outside its rules, taken in.

Year labels over each `TM` / `M.U$S` pair, "BLEU" and "TER" over `EN-DE` / `EN-FR`: the
table's rules or its text grid often start at the sub-column labels, and the row of group
labels above them is left out of the table, so seven columns come out named `TM` and seven
`M.U$S`. Such a row is recognised by what it heads, not by its text: two labels or more on one
line right over the table, each standing over a run of two columns or more, the runs of equal
width, and under every label the same sequence of sub-column labels. The row becomes the
table's first header row, each label spanning its columns, and folds into the names
(`2001 TM`). One label alone on that line is a group label when it stands centred over all the
value columns (every column but the first, each labelled under it) and clear of the first
column: `Involvement of pupils in` over `Preparation and planning` / `Production of materials`
/ ... (a title centred over the whole table reaches over the row labels, or is off centre).
"""

from __future__ import annotations

from collections.abc import Sequence

from rowkeeper.label_text import clean_text
from rowkeeper.models import DECLARED_HEADER_ROWS, BBox, Cell, RawTable, TextLine
from rowkeeper.transforms.headers import reads_as_data
from rowkeeper.transforms.merge import column_extents, piece_grid

MAX_WORDS = 4
"""A group label is short: a year, a period, a measure's name."""


def _labels_above(piece: RawTable, lines: Sequence[TextLine]) -> list[TextLine]:
    """The lines of the one row standing right over the table (within about a line), left to
    right; none when that row reaches past the table's sides."""
    x0, top, x1, _ = piece.bbox
    above = [ln for ln in lines if ln.page == piece.page and ln.text.strip()
             and (ln.bbox[1] + ln.bbox[3]) / 2 < top and ln.bbox[2] > x0 and ln.bbox[0] < x1]
    near = [ln for ln in above if ln.bbox[3] > top - 1.5 * _height(ln) - 2]
    if not near:
        return []
    low = max(ln.bbox[3] for ln in near)
    height = max(_height(ln) for ln in near)
    # the row is every line level with the nearest: a scanned page's slight skew sets one
    # label of a row a point higher than the others
    row = sorted((ln for ln in above if ln.bbox[3] > low - 0.5 * height), key=lambda ln: ln.bbox[0])
    if any(ln.bbox[0] < x0 - 2 or ln.bbox[2] > x1 + 2 for ln in row):
        return []  # a title or a line of prose running over the table's width
    return row


def _height(line: TextLine) -> float:
    """A line's height: its box's, or its print size where that is more (a scanned line's box
    is its ink, "TER" or "BLEU" only as tall as a capital)."""
    return max(line.bbox[3] - line.bbox[1], line.font_size or 0.0)


def _groups(labels: Sequence[TextLine], spans: Sequence[tuple[float, float] | None]) -> list[list[int]] | None:
    """The columns under each label (each column to the label nearest its centre, when it
    stands within three quarters of the labels' pitch: a column's box may run from the gutter
    before it, its centre then off its text's); None when a column lacks its box."""
    if any(s is None for s in spans):
        return None
    centres = [(ln.bbox[0] + ln.bbox[2]) / 2 for ln in labels]
    pitch = min(b - a for a, b in zip(centres, centres[1:], strict=False))
    groups: list[list[int]] = [[] for _ in labels]
    for j, s in enumerate(spans):
        mid = (s[0] + s[1]) / 2  # type: ignore[index]
        k = min(range(len(labels)), key=lambda i: abs(centres[i] - mid))
        if abs(centres[k] - mid) < 0.75 * pitch:
            groups[k].append(j)
    return groups


def _heads_repeated_runs(groups: list[list[int]], labels: Sequence[TextLine],
                         spans: Sequence[tuple[float, float] | None], sub: Sequence[str]) -> bool:
    """Each label over a run of two columns or more inside its runs' extent, all runs equally
    wide and each under the same sub-labels."""
    if any(len(g) < 2 or g != list(range(g[0], g[-1] + 1)) for g in groups):
        return False
    if len({len(g) for g in groups}) != 1 or len({tuple(sub[j] for j in g) for g in groups}) != 1:
        return False
    if not all(sub[j] for j in groups[0]):
        return False
    for g, ln in zip(groups, labels, strict=True):
        left, right = spans[g[0]][0], spans[g[-1]][1]  # type: ignore[index]
        slack = 0.5 * (right - left) / len(g)
        if ln.bbox[0] < left - slack or ln.bbox[2] > right + slack:
            return False
    return True


def _over_value_columns(label: TextLine, spans: Sequence[tuple[float, float] | None],
                        sub: Sequence[str]) -> list[int] | None:
    """The value columns (all but the first) when one label stands centred over them, clear of
    the first column, each of them labelled under it (`Design effect` over `1.0` ... `1.6`);
    else None."""
    if len(spans) < 3 or any(s is None for s in spans) or not all(t.strip() for t in sub[1:]):
        return None
    left, right = spans[1][0], spans[-1][1]  # type: ignore[index]
    x0, _, x1, _ = label.bbox
    pitch = (right - left) / (len(spans) - 1)
    if x0 <= spans[0][1] or x1 > right + 0.5 * pitch:  # type: ignore[index]
        return None  # over the row labels too: a title, not a group label
    if abs((x0 + x1) / 2 - (left + right) / 2) > 0.25 * pitch:
        return None
    return list(range(1, len(spans)))


def take_spanners_above(piece: RawTable, lines: Sequence[TextLine]) -> RawTable:
    """The piece with the row of group labels right over it (if any) as its first header row."""
    if piece.n_cols < 4 or piece.n_rows < 2 or DECLARED_HEADER_ROWS in piece.metrics:
        # a tagged table's header rows are those its Table element holds: a line above it is
        # outside the author's table (a centred caption written as a paragraph, not a group label)
        return piece
    grid = piece_grid(piece)
    if reads_as_data(grid[0]) or not reads_as_data(grid[1]) and not reads_as_data(grid[-1]):
        return piece
    labels = _labels_above(piece, lines)
    if not labels or any(len(ln.text.split()) > MAX_WORDS for ln in labels):
        return piece
    texts = [clean_text(ln.text) for ln in labels]
    if any(t in grid[0] for t in texts):
        return piece
    spans = column_extents(piece, filled=False)
    if len(labels) == 1:
        run = _over_value_columns(labels[0], spans, grid[0])
        return _with_row(piece, labels, texts, [run]) if run else piece
    groups = _groups(labels, spans)
    if groups is None or not _heads_repeated_runs(groups, labels, spans, grid[0]):
        return piece
    return _with_row(piece, labels, texts, groups)


def _with_row(piece: RawTable, labels: Sequence[TextLine], texts: Sequence[str],
              groups: list[list[int]]) -> RawTable:
    """The piece one row down, the labels in a new row 0 spanning their groups."""
    cells = [c.model_copy(update={"row": c.row + 1}) for c in piece.cells]
    heads: list[Cell] = []
    covered = {j for g in groups for j in g}
    for ln, text, g in zip(labels, texts, groups, strict=True):
        heads.append(Cell(row=0, col=g[0], col_span=len(g), text=text, is_header=True,
                          page=piece.page, bbox=ln.bbox))
    heads += [Cell(row=0, col=j, text="", is_header=True, page=piece.page) for j in range(piece.n_cols) if j not in covered]
    top = min(ln.bbox[1] for ln in labels)
    x0, y0, x1, y1 = piece.bbox
    bbox: BBox = (x0, min(y0, top), x1, y1)
    return piece.model_copy(update={"cells": tuple(sorted(heads, key=lambda c: c.col)) + tuple(cells),
                                    "n_rows": piece.n_rows + 1, "bbox": bbox})
