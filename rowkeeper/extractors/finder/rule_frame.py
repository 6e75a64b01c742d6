"""A table set between a top rule and a bottom rule (booktabs) is one table from rule to rule.

The aligned-text runs break a table at a line that spans its figure columns: a group label
centred over the columns ("Percentage difference between actual and projected values") ends
one run and the next starts under it, so the table came out as two tables, the second with
no header; and a run started under such a label lost the header rows above it and the rows
under its last label ("Mean absolute percentage error" / "Example ..."). A rule drawn across
the run's width above it and another below it say where the table starts and ends: the runs
between them are one region from the top rule to the bottom one. A band between two rules
(a header between the rule over it and the rule under it) belongs to the table when it holds
a row of several lines or a line set off the table's left edge; single lines at the left
edge there are a caption, and running text (a line across most of the width) is no table.
"""

from __future__ import annotations

from collections.abc import Sequence

from rowkeeper.boxes import bounds, overlap, union
from rowkeeper.models import BBox, TextLine
from rowkeeper.page_columns import text_rows

SPAN = 0.9
"""Share of a region's width a rule must cross (and of a rule's width the region must fill)."""
WIDE = 0.75
"""Share of the width a line between the rules may take: a wider one is running text."""
BAND_ROWS = 4
"""Rows of text a band between two rules may hold to be part of the table."""

MIN_ROWS = 3
"""Rows of text a run must hold for its rules to frame it."""

Rule = tuple[float, float, float]
"""(y, x0, x1) of a horizontal rule, pieces drawn end to end joined."""


def joined_rules(hs: Sequence[BBox], gap: float = 2.0) -> list[Rule]:
    """Horizontal rules with the pieces drawn end to end on one line (a rule per cell) joined."""
    out: list[Rule] = []
    for y, x0, x1 in sorted((round((h[1] + h[3]) / 4, 1) * 2, h[0], h[2]) for h in hs):
        if out and out[-1][0] == y and x0 <= out[-1][2] + gap:
            out[-1] = (y, out[-1][1], max(out[-1][2], x1))
        else:
            out.append((y, x0, x1))
    return out


def _across(rule: Rule, region: BBox) -> bool:
    width = region[2] - region[0]
    cross = min(rule[2], region[2]) - max(rule[1], region[0])
    return width > 0 and cross >= SPAN * width and width >= SPAN * (rule[2] - rule[1])


def _in(line: TextLine, box: BBox) -> bool:
    x, y = (line.bbox[0] + line.bbox[2]) / 2, (line.bbox[1] + line.bbox[3]) / 2
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def _band(lines: Sequence[TextLine], top: float, bottom: float, region: BBox,
          runs: Sequence[BBox]) -> list[list[TextLine]] | None:
    """The rows of text between `top` and `bottom` over the region outside the aligned runs,
    or None when one of its lines is running text (wider than `WIDE` of the region) or there
    are too many rows."""
    inside = [ln for ln in lines if top < (ln.bbox[1] + ln.bbox[3]) / 2 < bottom
              and ln.bbox[2] > region[0] and ln.bbox[0] < region[2] and ln.text.strip()
              and not any(_in(ln, r) for r in runs)]
    if any(ln.bbox[2] - ln.bbox[0] > WIDE * (region[2] - region[0]) for ln in inside):
        return None
    rows = text_rows(inside)
    return rows if len(rows) <= BAND_ROWS else None


def _tables_band(rows: list[list[TextLine]], region: BBox) -> bool:
    """A band of the table's (a header, a last group): a row of several lines, or a line set
    off the left edge; single lines at the left edge are a caption or a note."""
    return any(len(r) > 1 or r[0].bbox[0] > region[0] + 3.0 for r in rows)


def _edge(region: BBox, rules: Sequence[Rule], lines: Sequence[TextLine], runs: Sequence[BBox],
          up: bool) -> float | None:
    """The y of the rule closing the table above (`up`) or below the region: the nearest rule
    across it, or the one after that when the band between the two is the table's."""
    side = sorted((r for r in rules if _across(r, region) and (r[0] <= region[1] + 1 if up else r[0] >= region[3] - 1)),
                  key=lambda r: -r[0] if up else r[0])
    edge = region[1] if up else region[3]
    found: float | None = None
    for step, rule in enumerate(side[:2]):
        lo, hi = (rule[0], edge) if up else (edge, rule[0])
        rows = _band(lines, lo, hi, region, runs)
        if rows is None or (rows and not _tables_band(rows, region)) or (step and not rows):
            break
        found = edge = rule[0]
    return found


def _apart_at_closing_rules(region: BBox, rules: Sequence[Rule], lines: Sequence[TextLine],
                            tol: float = 3.0) -> list[BBox]:
    """The region cut where one table's bottom rule and the next table's top rule lie one under
    the other with no text between them: two tables set close, one under the other, each
    between its own rules (one ends, the next starts), whose aligned rows ran on into one run.
    The two rules span different widths (a double rule under a total is two rules of one
    width); each part is the box of the lines it holds, for the frames to grow from rule to rule."""
    inside = [ln for ln in lines if _in(ln, region) and ln.text.strip()]
    if not inside:
        return [region]
    height = sorted(ln.bbox[3] - ln.bbox[1] for ln in inside)[len(inside) // 2]
    near = [r for r in rules if region[1] < r[0] < region[3]
            and min(r[2], region[2]) - max(r[1], region[0]) >= 0.5 * (region[2] - region[0])]
    cuts = [(a[0], b[0]) for a, b in zip(near, near[1:], strict=False)
            if 0 < b[0] - a[0] <= 1.5 * height
            and (abs(a[1] - b[1]) > tol or abs(a[2] - b[2]) > tol)
            and not any(a[0] < (ln.bbox[1] + ln.bbox[3]) / 2 < b[0] for ln in inside)]
    if not cuts:
        return [region]
    parts, top = [], region[1]
    for above, below in [*cuts, (region[3] + 1, region[3] + 1)]:
        held = [ln.bbox for ln in inside if top <= (ln.bbox[1] + ln.bbox[3]) / 2 <= above]
        if held:
            parts.append(bounds(held))
        top = below
    return parts if len(parts) > 1 else [region]


def framed_regions(regions: Sequence[BBox], hs: Sequence[BBox], lines: Sequence[TextLine],
                   ruled: Sequence[BBox] = ()) -> list[BBox]:
    """Each region reaching from the rule over it to the rule under it when both are drawn
    across it; regions within one frame become one. The rules of a ruled region (a grid's top
    and bottom) frame no other table: the lines between two grids are no table of theirs."""
    rules = [r for r in joined_rules(hs) if not any(
        g[1] - 2 <= r[0] <= g[3] + 2 and r[1] < g[2] and r[2] > g[0] for g in ruled)]
    if len(rules) < 2:
        return list(regions)
    regions = [part for r in regions for part in _apart_at_closing_rules(r, rules, lines)]
    out: list[BBox] = []
    frames: dict[tuple[float, float], int] = {}
    for region in regions:
        if len(text_rows([ln for ln in lines if _in(ln, region) and ln.text.strip()])) < MIN_ROWS:
            out.append(region)  # a run of a line or two (a chart's labels, a statistic) is left alone
            continue
        top = _edge(region, rules, lines, regions, up=True)
        bottom = _edge(region, rules, lines, regions, up=False)
        if top is None or bottom is None:
            out.append(region)
            continue
        grown = (region[0], top, region[2], bottom)
        if any(overlap(grown, g) > 0 for g in ruled):
            out.append(region)  # a frame round a ruled grid (a chart's box) is the grid's
            continue
        if (top, bottom) in frames:
            k = frames[(top, bottom)]
            out[k] = union(out[k], grown) or grown
        else:
            frames[(top, bottom)] = len(out)
            out.append(grown)
    return out
