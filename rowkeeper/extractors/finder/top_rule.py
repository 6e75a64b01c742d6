"""Where a table drawn with rules starts: at its top rule.

A run of aligned rows takes in the single lines right above it that could be a column header
or a unit line over its first column (`run_heads.header_lines`). A table that draws a
rule over its header (booktabs, a ruled frame) says where it starts: a caption or a lead-in
set above that rule, at the table's left edge, is no row of it, and read as one it hands its
words to the header (and the line above it to a header band).
"""

from __future__ import annotations

from collections.abc import Sequence

from rowkeeper.models import BBox, TextLine
from rowkeeper.page_columns import text_rows

SPAN = 0.9
"""Share of a region's width a rule must cross to be its top rule (not a column's underline)."""
CAPTION = 0.6
"""Share of the width a line over the rule may take: a header row set tight takes more."""


def under_top_rule(region: BBox, h_rules: Sequence[BBox], lines: Sequence[TextLine],
                   tol: float = 3.0) -> BBox:
    """`region` starting under its top rule when only one or two single lines stand over
    that rule, each at the region's left edge and across less than `CAPTION` of its width
    (a caption, not a header row set tight); `region` as it is otherwise."""
    width = region[2] - region[0]
    tops = sorted(h[1] for h in h_rules if region[1] < h[1] < region[3]
                  and min(h[2], region[2]) - max(h[0], region[0]) >= SPAN * width)
    if not tops:
        return region
    rule = tops[0]
    inside = [ln for ln in lines if region[0] - tol <= ln.bbox[0] and ln.bbox[2] <= region[2] + tol
              and region[1] - 1 <= ln.bbox[1] and ln.bbox[3] <= region[3] + 1]
    over = [ln for ln in inside if ln.bbox[3] <= rule + 1]
    under = [ln for ln in inside if ln.bbox[1] >= rule - 1]
    rows = text_rows(over)
    if not over or not under or len(rows) > 2 or any(len(r) > 1 for r in rows):
        return region
    if any(abs(ln.bbox[0] - region[0]) > tol or ln.bbox[2] - ln.bbox[0] >= CAPTION * width for ln in over):
        return region
    return (min(ln.bbox[0] for ln in under), min(ln.bbox[1] for ln in under),
            max(ln.bbox[2] for ln in under), region[3])
