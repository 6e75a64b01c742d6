"""Rows under drawn frames are no rows of them when they stand on other columns: a form's
blocks of fields, each in its own frame side by side, then a row of fields set across the page
under them (keys over one row of values).

The aligned-text runs see rows, not drawings: the blocks' rows and the fields-across rows
line up well enough to be one run, and read as one table the fields-across row is glued to a
block (a table emitted twice, words in two tables). A frame (a box drawn around a block,
`field_blocks.frames`, or a ruled grid's region) says where its table ends. Rows under the
frames whose segments reach outside every frame's width (into the white between two blocks,
or past the last one) belong to another table: the region is cut at the frames' bottom. A
header band framed over its body is no such case: the body's cells stand under the band.
"""

from __future__ import annotations

from collections.abc import Sequence

from rowkeeper.boxes import bounds, centre_in, within
from rowkeeper.models import BBox, TextLine
from rowkeeper.page_columns import text_rows

MIN_ROWS = 2
"""Rows of text each part holds: a frame's block of fields, a header over one row of values."""


def cut_under_frames(region: BBox, lines: Sequence[TextLine], boxes: Sequence[BBox],
                     tol: float = 2.0) -> list[BBox]:
    """`region` as two regions, the frames' rows and the rest, when frames (`boxes`) hold two
    rows or more each and the rest, two rows or more, stands wholly under them with a segment
    outside every frame's width, wholly over them a line height apart or more (blocks of
    fields over a framed row of fields across: a header sits on its frame), or wholly beside
    them on rows of its own; `[region]` otherwise."""
    inside = [ln for ln in lines if centre_in(ln.bbox, region, tol)]
    # the frame around a grid, not the boxes of its rows
    held = [f for f in boxes if any(centre_in(ln.bbox, f) for ln in inside)
            and not any(o != f and within(f, o, tol) for o in boxes)]
    if not held:
        return [region]
    bands = _bands(held)
    if len(bands) >= 2 and all(any(centre_in(ln.bbox, f) for f in held) for ln in inside):
        held = bands[0]  # frames under frames: the top ones' rows and the rest
    framed = [ln for ln in inside if any(centre_in(ln.bbox, f) for f in held)]
    rest = [ln for ln in inside if not any(centre_in(ln.bbox, f) for f in held)]
    if not rest or len(text_rows(rest)) < MIN_ROWS \
            or any(len(text_rows([ln for ln in framed if centre_in(ln.bbox, f)])) < MIN_ROWS for f in held):
        return [region]
    if not (_under(rest, held, tol) or _over(rest, held) or _beside(rest, framed, held, tol)):
        return [region]
    # what stands apart is a region of its own where it reads as rows of cells (an address's
    # lines, one to a row, are no table: a region of them would wait for one)
    rows = text_rows(rest)
    return [bounds(ln.bbox for ln in framed), bounds(ln.bbox for ln in rest)] if sum(len(r) >= 2 for r in rows) * 2 >= len(rows) else [bounds(ln.bbox for ln in framed)]


def _bands(boxes: Sequence[BBox]) -> list[list[BBox]]:
    """The boxes in bands top to bottom, boxes whose heights overlap in one band."""
    bands: list[list[BBox]] = []
    for b in sorted(boxes, key=lambda b: b[1]):
        if bands and b[1] < max(o[3] for o in bands[-1]):
            bands[-1].append(b)
        else:
            bands.append([b])
    return bands


def _height(lines: Sequence[TextLine]) -> float:
    return sorted(ln.bbox[3] - ln.bbox[1] for ln in lines)[len(lines) // 2]


def _under(rest: Sequence[TextLine], held: Sequence[BBox], tol: float) -> bool:
    """Rows wholly under the frames, the first a line height or more below them (a table's
    total row sits right under its grid), that do not stand in the frames' columns alone (a
    body under its framed header band does)."""
    return min(ln.bbox[1] for ln in rest) >= max(f[3] for f in held) + _height(rest) and \
        not all(any(f[0] - tol <= ln.bbox[0] and ln.bbox[2] <= f[2] + tol for f in held) for ln in rest)


def _over(rest: Sequence[TextLine], held: Sequence[BBox]) -> bool:
    """Rows wholly over the frames, the last a line height or more above them."""
    return max(ln.bbox[3] for ln in rest) <= min(f[1] for f in held) - _height(rest)


def _beside(rest: Sequence[TextLine], framed: Sequence[TextLine], held: Sequence[BBox], tol: float) -> bool:
    """Rows wholly left or wholly right of the frames, most of them not level with a framed
    row (an address beside an invoice's framed fields; a label column left open beside its
    grid has a label level with every row)."""
    left, right = min(f[0] for f in held), max(f[2] for f in held)
    if not (all(ln.bbox[2] <= left + tol for ln in rest) or all(ln.bbox[0] >= right - tol for ln in rest)):
        return False
    mids = [(ln.bbox[1] + ln.bbox[3]) / 2 for ln in framed]
    rows = text_rows(rest)
    level = sum(any(abs((r[0].bbox[1] + r[0].bbox[3]) / 2 - m) <= _height(rest) / 4 for m in mids) for r in rows)
    return level * 2 < len(rows)


def closed(box: BBox, hs: Sequence[BBox], vs: Sequence[BBox], tol: float = 2.0) -> bool:
    """Whether rules run along all four edges of `box`, whole or in pieces end to end (a grid
    drawn cell by cell): a frame, not the extent of a grid's rules (a label column left open,
    row rules run past the column rules)."""
    def along(rules: Sequence[BBox], at: float, k: int, lo: float, hi: float) -> bool:
        spans = sorted((r[1 - k], r[3 - k]) for r in rules if abs(r[k] - at) <= tol and r[3 - k] >= lo and r[1 - k] <= hi)
        reach = lo
        for a, b in spans:
            if a > reach + tol:
                return False
            reach = max(reach, b)
        return reach >= hi - tol

    return along(hs, box[1], 1, box[0], box[2]) and along(hs, box[3], 1, box[0], box[2]) \
        and along(vs, box[0], 0, box[1], box[3]) and along(vs, box[2], 0, box[1], box[3])
