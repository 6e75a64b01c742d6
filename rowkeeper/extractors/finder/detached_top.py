"""A line standing apart over a borderless table: a document's title and date ("INVOICE
2020-10" ... "January 8, 2020") a blank line or two above the header line up with the table's
outer columns, and a run of aligned rows takes them in as its first row (their words then
fold into the column names). A table's rows follow one another at one pitch; a first row
further above the second than twice the pitch of the rest, and with at most half as many
parts as the rows under it, is no row of the table (a header of years over figure columns,
set apart by some space, has a part over nearly every column: it stays)."""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from rowkeeper.boxes import centre_in
from rowkeeper.models import BBox, TextLine
from rowkeeper.page_columns import text_rows

GAP = 2.0
"""Times the region's row pitch a first row must stand above the next one to stand apart."""
MIN_ROWS = 4
"""Rows a region needs (the first among them) for its pitch to be known."""


def without_detached_top(region: BBox, lines: Sequence[TextLine]) -> BBox:
    """`region` starting at its second row when its first stands apart (`GAP`) with at most
    half as many lines as most rows of several under it; `region` as it is otherwise."""
    rows = text_rows([ln for ln in lines if centre_in(ln.bbox, region)])
    if len(rows) < MIN_ROWS:
        return region
    mids = [statistics.median((ln.bbox[1] + ln.bbox[3]) / 2 for ln in r) for r in rows]
    pitch = statistics.median(b - a for a, b in zip(mids[1:], mids[2:], strict=False))
    # lines of one part under the first row (an entry's remarks, a wrapped label) tell nothing
    # of how many columns the rows hold
    parts = statistics.median([len(r) for r in rows[1:] if len(r) > 1] or [1])
    if mids[1] - mids[0] <= GAP * pitch or 2 * len(rows[0]) > parts:
        return region
    rest = [ln for r in rows[1:] for ln in r]
    return (region[0], min(ln.bbox[1] for ln in rest), region[2], region[3])
