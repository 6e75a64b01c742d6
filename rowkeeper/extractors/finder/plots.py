"""Plotted lines: the drawn data lines of a chart.

A line chart's labels stand in rows and columns as a table's cells do: the ticks of one axis
left of the plot, those of the other right of it, the years under it, the legend's lines in
it. Read alone inside one page column (`column_boxes`), they line up as rows. What no table
has is the line they label: a drawn path bent along most of its length (Bézier curves, or
segments at an angle), over an area several lines of text high and wide. A table's rules are
straight; a rounded box is straight but for its corners; a dot drawn as curves is a letter's
size.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from rowkeeper.boxes import bounds, centre_in
from rowkeeper.models import BBox

MIN_SIDE = 20.0
"""Points a plotted line's extent needs, across and down: two lines of text or so."""
MIN_BENT = 3
"""Bent pieces (curves, segments at an angle) a path needs to be a plotted line."""


def plot_box(path: dict) -> BBox | None:
    """The box of a drawing path (PyMuPDF `get_cdrawings`) that plots a line: bent pieces
    make most of its length, there are `MIN_BENT` of them at least, and its extent is
    `MIN_SIDE` or more each way; None for any other path."""
    bent, straight, points = 0, 0.0, []
    bent_length = 0.0
    for item in path["items"]:
        if item[0] not in ("l", "c"):
            continue
        ends = [item[1], item[-1]]
        length = math.dist(*ends)
        points += list(item[1:])
        if item[0] == "c" or min(abs(ends[0][0] - ends[1][0]), abs(ends[0][1] - ends[1][1])) > 0.5:
            bent, bent_length = bent + 1, bent_length + length
        else:
            straight += length
    if bent < MIN_BENT or bent_length < straight:
        return None
    box = bounds((x, y, x, y) for x, y in points)
    return box if min(box[2] - box[0], box[3] - box[1]) >= MIN_SIDE else None


def over_plot(region: Sequence[float], plots: Sequence[BBox]) -> bool:
    """Whether a plotted line's middle lies inside `region`: its labels, not a table."""
    return any(centre_in(p, region) for p in plots)
