"""Tick boxes drawn as small squares: the ink of a form's option column.

An order form or a checklist marks a row's option with a drawn square (empty or ticked), not a
glyph, so a column of them carries no words: the x projection of a borderless region sees no
column under its header ("Included"), and the header label is joined to its neighbour's. A
square of four ruling segments (or a stroked square's four edges) the size of a letter is a
tick box; the borderless reader sees each as a placeholder word, as it sees pictures.
"""

from __future__ import annotations

from collections.abc import Sequence

from rowkeeper.boxes import centre_in
from rowkeeper.models import BBox

SIDE = (4.0, 16.0)
"""A tick box's side in points: about a letter's height."""
Segments = tuple[list[BBox], list[BBox]]
"""Short horizontal and vertical segments (`add_short_segments`)."""


def tick_boxes(hs: Sequence[BBox], vs: Sequence[BBox], region: Sequence[float] | None = None,
               tol: float = 1.0) -> list[BBox]:
    """Squares closed by two horizontal and two vertical segments of one short length, centred
    in `region` when given."""
    short_h = [h for h in hs if SIDE[0] <= h[2] - h[0] <= SIDE[1]]
    short_v = [v for v in vs if SIDE[0] - tol <= v[3] - v[1] <= SIDE[1] + tol]
    out: list[BBox] = []
    for top in short_h:
        side = top[2] - top[0]
        bottom = next((h for h in short_h if abs(h[0] - top[0]) <= tol and abs(h[2] - top[2]) <= tol
                       and abs(h[1] - top[1] - side) <= max(tol, 0.2 * side)), None)
        if bottom is None:
            continue
        box = (top[0], top[1], top[2], bottom[1])
        sides = [v for v in short_v if abs(v[1] - box[1]) <= tol and abs(v[3] - box[3]) <= tol
                 and min(abs(v[0] - box[0]), abs(v[0] - box[2])) <= tol]
        if len(sides) >= 2 and (region is None or centre_in(box, region)) and box not in out:
            out.append(box)
    return out


def tick_boxes_on(page, region: Sequence[float], short: Segments | None = None) -> list[BBox]:
    """The tick boxes centred in `region` of a PyMuPDF page, from its short drawn segments and
    stroked squares: `short` as the page model read them with its rules
    (`PageModel.short_segments`), else read from the page's drawings now."""
    if short is None:
        short = ([], [])
        for path in page.get_cdrawings():
            add_short_segments(path, *short)
    return tick_boxes(*short, region)


def add_short_segments(path: dict, hs: list[BBox], vs: list[BBox]) -> None:
    """A drawing path's segments of a tick box's side (lines, and stroked rectangles' edges)
    appended to `hs` and `vs`: shorter than a rule, so the page's rules leave them out."""
    for item in path["items"]:
        if item[0] == "l":
            (ax, ay), (bx, by) = item[1], item[2]
            _add((min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)), hs, vs)
        elif item[0] == "re" and path.get("type") != "f":
            x0, y0, x1, y1 = item[1]
            for e in ((x0, y0, x1, y0), (x0, y1, x1, y1), (x0, y0, x0, y1), (x1, y0, x1, y1)):
                _add((min(e[0], e[2]), min(e[1], e[3]), max(e[0], e[2]), max(e[1], e[3])), hs, vs)


def _add(seg: BBox, hs: list[BBox], vs: list[BBox]) -> None:
    w, h = seg[2] - seg[0], seg[3] - seg[1]
    if h <= 0.5 and SIDE[0] <= w <= SIDE[1]:
        hs.append(seg)
    elif w <= 0.5 and SIDE[0] - 1 <= h <= SIDE[1] + 1:
        vs.append(seg)
