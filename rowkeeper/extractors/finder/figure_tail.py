"""A total printed as a bare figure under a borderless table: the invoice's sum under the
amounts, no label beside it. A run of aligned rows needs two parts a row, so that last row
is left out and the total lost. A row right under a region (within one and a half of its row
pitch) whose lines are all figures, each ending where a column of the region's figures ends,
is one more row of it."""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from rowkeeper.boxes import centre_in
from rowkeeper.extractors.finder.running_text import is_numeric
from rowkeeper.models import BBox, TextLine
from rowkeeper.page_columns import text_rows

MAX_TAIL = 3
"""Figure rows (subtotal, tax, total) a region may reach down over."""
TOL = 2.0
"""Points two right edges may differ by and still be one column's."""


def with_figure_tail(region: BBox, lines: Sequence[TextLine]) -> BBox:
    """`region` reaching down over up to `MAX_TAIL` rows of bare figures under it that end at
    its figure columns' right edges; `region` as it is otherwise."""
    rows = text_rows([ln for ln in lines if centre_in(ln.bbox, region)])
    if len(rows) < 3:
        return region
    mids = [(r[0].bbox[1] + r[0].bbox[3]) / 2 for r in rows]
    pitch = statistics.median(b - a for a, b in zip(mids, mids[1:], strict=False))
    ends = [ln.bbox[2] for r in rows for ln in r if is_numeric(ln.text.strip().split(" ")[-1])]
    below = text_rows([ln for ln in lines if ln.bbox[1] >= region[3] - 1 and ln.bbox[0] >= region[0] - TOL
                       and ln.bbox[2] <= region[2] + TOL and ln.bbox[1] < region[3] + (MAX_TAIL + 1) * pitch])
    bottom, last = region[3], mids[-1]
    for row in below[:MAX_TAIL]:
        mid = (row[0].bbox[1] + row[0].bbox[3]) / 2
        if mid - last > 1.5 * pitch or not all(_figure_at(ln, ends) for ln in row):
            break
        bottom, last = max(ln.bbox[3] for ln in row), mid
    return (region[0], region[1], region[2], bottom)


def _figure_at(ln: TextLine, ends: Sequence[float]) -> bool:
    """A bare figure ending where at least two of the region's figures end."""
    return is_numeric(ln.text) and sum(abs(ln.bbox[2] - e) <= TOL for e in ends) >= 2
