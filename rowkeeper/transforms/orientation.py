"""Page geometry as the reader sees it: boxes on a page with a /Rotate, turned upright and back.

Extractors give boxes in the page's unrotated coordinates (those of its text and drawings, and
of every citation). Reading order, "bottom of the page", "the line above the table" are about
the page as shown, so the transforms reason on shown boxes and hand unrotated ones back.
`width`/`height` are the shown page's (`PageInfo.width`/`height`, PyMuPDF's `page.rect`).
"""

from __future__ import annotations

from collections.abc import Sequence

from rowkeeper.models import BBox, Cell, OutlineEntry, PageInfo, RawTable, Region, Table, TextLine

Turn = tuple[int, float, float]
"""(rotation in degrees, shown width, shown height) of one page."""


def turns(pages: Sequence[PageInfo]) -> dict[int, Turn]:
    """The turned pages (rotation 90/180/270) by page number."""
    return {p.page: (p.rotation % 360, p.width, p.height) for p in pages
            if p.rotation % 360 in (90, 180, 270) and p.width > 0 and p.height > 0}


def _point(x: float, y: float, turn: Turn, back: bool) -> tuple[float, float]:
    rot, w, h = turn
    if rot == 180:
        return w - x, h - y
    if (rot == 90) != back:  # unrotated -> shown for 90, shown -> unrotated for 270
        return (w - y, x) if rot == 90 else (h - y, x)
    return (y, h - x) if rot == 270 else (y, w - x)


def turn_bbox(b: BBox, turn: Turn, back: bool = False) -> BBox:
    """`b` from unrotated to shown coordinates (`back`: from shown to unrotated)."""
    xa, ya = _point(b[0], b[1], turn, back)
    xb, yb = _point(b[2], b[3], turn, back)
    return (round(min(xa, xb), 2), round(min(ya, yb), 2), round(max(xa, xb), 2), round(max(ya, yb), 2))


def _cell(c: Cell, turn: Turn | None, back: bool) -> Cell:
    if turn is None or c.bbox is None:
        return c
    return c.model_copy(update={"bbox": turn_bbox(c.bbox, turn, back)})


def shown_pieces(pieces: Sequence[RawTable], by_page: dict[int, Turn]) -> list[RawTable]:
    """Table pieces with their boxes (and their cells') as the pages show them."""
    out = []
    for p in pieces:
        turn = by_page.get(p.page)
        if turn is None:
            out.append(p)
            continue
        out.append(p.model_copy(update={
            "bbox": turn_bbox(p.bbox, turn),
            "cells": tuple(_cell(c, by_page.get(c.page or p.page), False) for c in p.cells)}))
    return out


def shown_lines(lines: Sequence[TextLine], by_page: dict[int, Turn]) -> list[TextLine]:
    """Text lines with their boxes as the pages show them."""
    return [ln.model_copy(update={"bbox": turn_bbox(ln.bbox, by_page[ln.page])})
            if ln.page in by_page else ln for ln in lines]


def shown_outline(outline: Sequence[OutlineEntry], by_page: dict[int, Turn]) -> list[OutlineEntry]:
    """Outline entries, those pointing into a turned page taken from its top: a destination
    gives only a y, which on a turned page is no shown height."""
    return [e.model_copy(update={"top": 0.0}) if e.page in by_page else e for e in outline]


def turn_table(t: Table, by_page: dict[int, Turn], back: bool = False) -> Table:
    """A table's regions and cells from unrotated to shown boxes (`back`: shown to unrotated)."""
    if not any(r.page in by_page for r in t.regions):
        return t
    regions = tuple(Region(page=r.page, bbox=turn_bbox(r.bbox, by_page[r.page], back))
                    if r.page in by_page else r for r in t.regions)
    cells = tuple(_cell(c, by_page.get(c.page) if c.page else None, back) for c in t.cells)
    return t.model_copy(update={"regions": regions, "cells": cells})


def unrotated_table(t: Table, by_page: dict[int, Turn]) -> Table:
    """A table assembled on shown boxes, its regions and cells back in unrotated coordinates."""
    return turn_table(t, by_page, back=True)
