"""OCR text runs to tables and text lines: cells of ruled grids, borderless tables by alignment.

Pure geometry in image pixels: no engine, no image. `OcrBox`es go in; pixel tables, the boxes
they used and the cells that need a second look come out.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from rowkeeper.boxes import area, centre_in, overlap
from rowkeeper.extractors.finder.key_value import blocks_apart
from rowkeeper.extractors.fused_figures import with_fused_gaps
from rowkeeper.extractors.grid_lines import Grid, GridCell, PxBox
from rowkeeper.extractors.ocr_engines import OcrBox
from rowkeeper.extractors.ocr_runs import STRAY, row_bands, table_runs, with_pictures
from rowkeeper.extractors.ocr_text import join_text
from rowkeeper.extractors.run_cuts import cut_at_columns
from rowkeeper.extractors.scan_field_cuts import field_cuts
from rowkeeper.extractors.scan_group_labels import centre_column, over_sub_labels
from rowkeeper.extractors.scan_paragraphs import side_paragraphs
from rowkeeper.extractors.scan_word_spaces import closed_word_spaces
from rowkeeper.models import TextLine
from rowkeeper.page_columns import text_columns


@dataclass(frozen=True)
class PxCell:
    """A table cell in image pixels."""

    row: int
    col: int
    row_span: int
    col_span: int
    text: str
    box: PxBox


@dataclass(frozen=True)
class PxTable:
    """A table in image pixels; `kind` says how its structure was found."""

    box: PxBox
    n_rows: int
    n_cols: int
    cells: tuple[PxCell, ...]
    kind: str

    def aligned_rows(self) -> list[list[PxCell]] | None:
        """The cells row by row when the table was found by alignment and holds every cell
        once, without spans (what a later pass over its rows may reshape); None otherwise."""
        if self.kind != "aligned" or any(c.row_span > 1 or c.col_span > 1 for c in self.cells):
            return None
        at = {(c.row, c.col): c for c in self.cells}
        if len(at) != self.n_rows * self.n_cols:
            return None
        return [[at[(r, k)] for k in range(self.n_cols)] for r in range(self.n_rows)]


def reading_text(boxes: Sequence[OcrBox]) -> str:
    """Boxes of one cell joined in reading order (row bands top to bottom, then left to right)."""
    return " ".join(join_text([b.text for b in band]) for band in row_bands(boxes)).strip()


def ruled_table(grid: Grid, boxes: Sequence[OcrBox]) -> tuple[PxTable, set[int], list[int]]:
    """Cells of `grid` filled with the boxes they hold; (table, used box ids, cells to re-read).

    A box belongs to the cell holding most of it. A box spread over several cells (the
    detector ran across a rule) is dropped and those cells are re-read from the image.
    """
    held: dict[int, list[OcrBox]] = {i: [] for i in range(len(grid.cells))}
    used: set[int] = set()
    reread: set[int] = set()
    spans = list(zip(grid.xs, grid.xs[1:], strict=False))
    for j, run in enumerate(boxes):
        if not centre_in(run.box, grid.box) and overlap(run.box, grid.box) < 0.5 * area(run.box):
            continue
        used.add(j)
        for b in cut_at_columns(run, spans):
            shares = [(overlap(b.box, c.box), i) for i, c in enumerate(grid.cells)]
            best, i = max(shares)
            if best >= 0.7 * area(b.box):
                held[i].append(b)
            else:
                reread.update(k for s, k in shares if s > 0.15 * area(b.box))
    cells = tuple(
        PxCell(c.row, c.col, c.row_span, c.col_span, "" if i in reread else reading_text(held[i]), c.box)
        for i, c in enumerate(grid.cells)
    )
    n_rows, n_cols = len(grid.ys) - 1, len(grid.xs) - 1
    return PxTable(grid.box, n_rows, n_cols, cells, "ruled"), used, sorted(reread)


def columns_from_text(grid: Grid, boxes: Sequence[OcrBox]) -> Grid:
    """A frame ruled between rows only (one column to the rules) gets its columns from its text.

    Business tables often rule rows and leave columns open; the rules then say nothing about
    columns, the text does: column edges go in the gaps between the x footprints of the words
    inside, as on text pages. The first row is left out when the body alone shows two
    or more columns: a short header label ("数量") left-aligned over right-aligned figures
    stands in the gap between footprints and would open a column of its own.
    """
    if len(grid.xs) != 2 or len(grid.ys) < 4:
        return grid
    inside = [b for b in boxes if centre_in(b.box, grid.box)]
    body = [b for b in inside if (b.box[1] + b.box[3]) / 2 > grid.ys[1]]
    tol = WORD_GAP * _line_height(inside)
    cols = footprints(body, tol)
    if len(cols) < 2:
        cols = footprints(inside, tol)
    if len(cols) < 2:
        return grid
    head = [b for b in inside if b not in body]
    xs = (grid.xs[0], *(_edge_in_gap(a[1], b[0], head) for a, b in zip(cols, cols[1:], strict=False)), grid.xs[1])
    cells = tuple(GridCell(r, c, 1, 1, (xs[c], grid.ys[r], xs[c + 1], grid.ys[r + 1]))
                  for r in range(len(grid.ys) - 1) for c in range(len(xs) - 1))
    return Grid(grid.ys, xs, cells)


def _edge_in_gap(left: float, right: float, head: Sequence[OcrBox]) -> int:
    """A column edge in the gap (left, right) between two body footprints: just before a header
    label that starts in the gap (labels start at their column's left, often left of the
    right-aligned figures under them), else nearer the left footprint for the same reason.

    A label may start a few pixels before the gap (left-aligned in a cell whose left neighbour's
    right-aligned figures reach the rule): starting that close to the end of the left footprint,
    it cannot head the left column, so the edge goes before it rather than through it."""
    tol = 0.25 * _line_height(head) if head else 0.0
    starts = [b.box[0] for b in head if left - tol < b.box[0] < right]
    if starts:
        return int(min(starts) - 2) if min(starts) <= left else int(max(left, min(starts) - 2))
    return int(left + 0.3 * (right - left))


def _line_height(boxes: Sequence[OcrBox]) -> float:
    """The median height of the boxes that hold text (a picture's box is no line)."""
    heights = [b.height for b in boxes if b.text]
    return statistics.median(heights) if heights else 1.0


def aligned_tables(boxes: Sequence[OcrBox], min_rows: int = 3) -> list[tuple[PxTable, set[int]]]:
    """Borderless tables: runs of row bands with two or more runs of text, split at column gaps.

    The lines no table took are read again cut where a key meets its value (`field_cuts`): a
    block of fields whose keys and values the detector read as one run. Only there: inside a
    table found, a key's word space ("6559 鹿児島工場") is no column."""
    lh = _line_height(boxes)
    prose = side_paragraphs(boxes, lh)  # its lines are no table's rows
    texts = [(j, b) for j, b in enumerate(boxes) if b.text and j not in prose]
    pictures = [(j, b) for j, b in enumerate(boxes) if not b.text]
    out = _aligned(texts + pictures, lh, min_rows)
    taken = {j for _, took in out for j in took}
    rest = [(j, b) for j, b in texts if j not in taken]
    cut = [(rest[k][0], p) for k, p in field_cuts([b for _, b in rest], lh)]
    if len(cut) > len(rest):
        out += _aligned(cut + [(j, b) for j, b in pictures if j not in taken], lh, min_rows)
    return out


def _aligned(boxes: list[tuple[int, OcrBox]], lh: float, min_rows: int) -> list[tuple[PxTable, set[int]]]:
    """`aligned_tables` over (index, box) pairs: the tables and the indices each took."""
    index = {id(b): j for j, b in boxes}
    bands = with_pictures(row_bands([b for _, b in boxes if b.text]), [b for _, b in boxes if not b.text], lh)
    out = []
    for run in table_runs(bands, lh, min_rows):
        table = _table_of_run(run)
        if table is not None:
            out.append((table, {index[id(b)] for band in run for b in band}))
    return out


def borderless_tables(boxes: Sequence[OcrBox], scale: float, min_rows: int = 3) -> list[tuple[PxTable, set[int]]]:
    """Borderless tables of a page's runs outside ruled grids (`scale` pixels a point), with
    the ids of the boxes each took: looked for in one page column at a time
    (`by_page_column`), and a table that is two blocks of fields side by side read as two."""
    out = []
    for ids in by_page_column(boxes, scale):
        part = [boxes[j] for j in ids]
        for table, took in aligned_tables(part, min_rows=min_rows):
            mine = sorted(took)
            sides = blocks_side_by_side([part[k] for k in mine], scale)
            if sides is None:
                out.append((table, {ids[k] for k in took}))
                continue
            for side, keys in sides:
                # each field cut at its block's values edge (a key read in one run with its value)
                pieces = [(i, p) for i in side for p in cut_at_columns(part[mine[i]], keys)]
                out += [(t, {ids[mine[pieces[k][0]]] for k in got})
                        for t, got in aligned_tables([p for _, p in pieces], min_rows=2)]
    return out


Side = tuple[list[int], list[tuple[float, float]]]


def blocks_side_by_side(boxes: Sequence[OcrBox], scale: float) -> list[Side] | None:
    """Two blocks of fields set side by side (an estimate's customer block beside its offer
    block, no rules), by the text layer's own test (`key_value.blocks_apart` over the runs'
    words in points): for each, the ids of its boxes and its key and value extents in
    pixels; None for one table."""
    words = [(w.box[0] / scale, w.box[1] / scale, w.box[2] / scale, w.box[3] / scale, w.text)
             for b in boxes for w in b.word_boxes()]
    found = blocks_apart(words)
    if len(found) != 2:
        return None
    sides = [([j for j, b in enumerate(boxes) if left <= (b.box[0] + b.box[2]) / 2 / scale <= right],
              [(left * scale, values * scale), (values * scale, right * scale)]) for left, values, right in found]
    return sides if all(ids for ids, _ in sides) else None


def by_page_column(boxes: Sequence[OcrBox], scale: float) -> list[list[int]]:
    """Indices of `boxes` grouped by the page's text column each stands in (the text layer's
    one column detector, `page_columns.text_columns`, over the boxes in points: `scale` pixels
    a point). Borderless tables are looked for in one column at a time: two columns of a
    paper's prose side by side are two runs on every band, and read together they made one
    two-column "table" of prose that swallowed the tables inside the columns."""
    lines = [TextLine(page=1, bbox=tuple(v / scale for v in b.box), text=b.text) for b in boxes]
    cols = text_columns(lines)
    if not cols.multi:
        return [list(range(len(boxes)))]
    groups: dict[int, list[int]] = {}
    for j, ln in enumerate(lines):
        groups.setdefault(cols.box_of(ln), []).append(j)
    return [groups[k] for k in sorted(groups)]


WORD_GAP = 0.35
"""Blank, in line heights (a detector's box is ~1.5 font sizes tall), that two words' ink may
leave between them and still stand in one column's footprint: wider than a word space, as
narrow as the column gaps of a table set tight (0.8 font sizes on the zoo's scans)."""


CROSSING_ROWS = 6
"""One word in this many body rows may run across a column gap (see `footprints`)."""


def footprints(boxes: Sequence[OcrBox], tol: float, crossing: int = 0) -> list[tuple[float, float]]:
    """The column footprints of `boxes`: their words' ink extents merged where they overlap or
    stand less than `tol` apart. Words, not runs: the detector runs one box across a column
    gap a little wider than a word space ("5.642.367 €  2.116.330 €"), and a run's box is
    padded into its neighbour's gap; a column gap is a band that every row's words leave
    white, whatever box they were read in. Up to `crossing` words may run across a gap (the
    recogniser sometimes reads two figures as one word, "8.819.62822.485"), or close it (a box
    read a little wide, "Iroda" starting 6 px after the stub's longest key where the other rows
    leave 20 px and more): the widest word whose removal parts the footprints it stands on
    (one of the five widest, or a run's first or last word) is set aside, and again."""
    runs = [b.word_boxes() for b in boxes]
    spans = sorted((w.box[0], w.box[2] + tol) for ws in runs for w in ws)
    ends = {(w.box[0], w.box[2] + tol) for ws in runs for w in ws[:1] + ws[-1:]}
    for _ in range(crossing):
        cols = _clusters(spans)
        # the widest words, and a run's first or last word where it alone joins two footprints
        # (a word inside a run joins its own neighbours: "Northfield plant 6813" is one key)
        widest = sorted(spans, key=lambda s: s[0] - s[1])
        tried = sorted(set(widest[:5]) | (_alone(spans) & ends), key=lambda s: s[0] - s[1])
        over = next((w for w in tried if _parts(w, spans, len(cols))), None)
        if over is None:
            break
        spans.remove(over)
    return [(a, b - tol) for a, b in _clusters(spans)]


def _alone(spans: list[tuple[float, float]]) -> set[tuple[float, float]]:
    """The spans that alone cover a stretch with other spans on both sides (those whose removal
    may part their footprint), from one sweep over the spans' ends."""
    points = sorted({x for s in spans for x in s})
    depth = [0] * len(points)
    at = {x: i for i, x in enumerate(points)}
    for a, b in spans:
        depth[at[a]] += 1
        depth[at[b]] -= 1
    out, cover = set(), 0
    for i in range(len(points) - 1):
        cover += depth[i]
        if cover == 1 and 0 < i:
            mid = (points[i] + points[i + 1]) / 2
            out.update(s for s in spans if s[0] < mid < s[1])
    return out


def _parts(word: tuple[float, float], spans: list[tuple[float, float]], n: int) -> bool:
    """Whether the footprints without `word` are more than `n` and `word` stands on two of them."""
    others = list(spans)
    others.remove(word)
    cols = _clusters(others)
    return len(cols) > n and sum(1 for a, b in cols if a < word[1] and word[0] < b) >= 2


def _clusters(intervals: list[tuple[float, float]], tol: float = 0.0) -> list[tuple[float, float]]:
    """Overlapping x-intervals (or ones less than `tol` apart) merged: the column footprints."""
    out: list[tuple[float, float]] = []
    for a, b in sorted(intervals):
        if out and a <= out[-1][1] + tol:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def _dist(b: OcrBox, col: tuple[float, float]) -> float:
    return max(col[0] - b.box[2], b.box[0] - col[1], 0.0)


def _table_of_run(run: list[list[OcrBox]]) -> PxTable | None:
    """Columns from the body bands' footprints; every band's runs placed into those columns."""
    body = run[1:] if len(run) >= 3 else run
    # a stray reading (a shaded row read as noise) may run across a gap: it says no column
    tol = WORD_GAP * _line_height([b for band in run for b in band])
    crossing = len(body) // CROSSING_ROWS
    cols = footprints([b for band in body for b in band if b.score >= STRAY], tol, crossing=crossing)
    if len(cols) < 2:
        cols = footprints([b for band in body for b in band], tol, crossing=crossing)
    cols = with_fused_gaps(cols, [w for band in run for b in band for w in b.word_boxes()], tol)
    cols = closed_word_spaces(cols, body, run[0] if body is not run else ())
    if len(cols) < 2:
        return None
    cells: list[PxCell] = []
    for r, band in enumerate(run):
        if r + 2 < len(run) and over_sub_labels(band, run[r + 1], cols):  # group labels: placed whole
            placed = [PxCell(r, centre_column(b, cols), 1, 1, b.text, b.box) for b in band]
        else:
            placed = _place_band(r, [p for b in band for p in cut_at_columns(b, cols)], cols)
        # a column the band leaves blank is an empty cell (a note column's blank, the stub's
        # header): every row as wide as the table, as a ruled grid's are
        held = {c.col + k for c in placed for k in range(c.col_span)}
        top, bottom = min(b.box[1] for b in band), max(b.box[3] for b in band)
        placed += [PxCell(r, k, 1, 1, "", (cols[k][0], top, cols[k][1], bottom)) for k in range(len(cols)) if k not in held]
        cells.extend(sorted(placed, key=lambda c: c.col))
    if sum(1 for r in range(len(run)) if len({c.col for c in cells if c.row == r and c.text}) >= 2) < 2:
        return None
    x0 = min(b.box[0] for band in run for b in band)
    y0 = min(b.box[1] for b in run[0])
    x1 = max(b.box[2] for band in run for b in band)
    y1 = max(b.box[3] for b in run[-1])
    return PxTable((x0, y0, x1, y1), len(run), len(cols), tuple(cells), "aligned")


def _place_band(r: int, band: list[OcrBox], cols: list[tuple[float, float]]) -> list[PxCell]:
    """Runs of one band into columns; a run over several footprints becomes a spanning cell."""
    taken: dict[int, list[OcrBox]] = {}
    spans: dict[int, int] = {}
    for b in band:
        hit = [i for i, c in enumerate(cols) if min(c[1], b.box[2]) - max(c[0], b.box[0]) > 0]
        if len(hit) >= 2:
            spans[hit[0]] = hit[-1] - hit[0] + 1
            taken.setdefault(hit[0], []).append(b)
            continue
        order = sorted(range(len(cols)), key=lambda i: _dist(b, cols[i]))
        # a header left-aligned over right-aligned numbers is nearer the column it heads, but
        # when two runs of a band land in one column the later one moves to a free neighbour
        i = order[0]
        if i in taken and i + 1 < len(cols) and i + 1 not in taken:
            i += 1
        taken.setdefault(i, []).append(b)
    out = []
    for c, bs in sorted(taken.items()):
        cs = spans.get(c, 1)
        box = (min(b.box[0] for b in bs), min(b.box[1] for b in bs),
               max(b.box[2] for b in bs), max(b.box[3] for b in bs))
        out.append(PxCell(r, c, 1, cs, join_text([b.text for b in bs]), box))
    return out

