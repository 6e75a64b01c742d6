"""Row rules broken at a table's column gaps: rules between rows only, each drawn as one
segment per column with a short break between columns, the breaks at the same places at every
height. Such rules say where the table's records are even where its text lines up too
loosely for an aligned run to take them (figures with spaces as thousands separators, set
close to the next column): the aligned region that runs over part of them reaches over all
of them."""

from __future__ import annotations

from collections.abc import Sequence

from rowkeeper.boxes import bounds, within
from rowkeeper.models import BBox, TextLine

MIN_RULES = 3
"""Heights a broken rule is drawn at, at least, for its breaks to be a table's."""
TOL = 1.0
"""Points two breaks (or two rules' ends) may differ by and be the same."""


def broken_rules(hs: Sequence[BBox]) -> list[tuple[float, float, list[float]]]:
    """(left, right, heights) of each set of horizontal rules drawn at `MIN_RULES` heights or
    more, each height as segments of the same extent parted at the same breaks (one break
    at least)."""
    by_y: dict[float, list[BBox]] = {}
    for r in hs:
        by_y.setdefault(round((r[1] + r[3]) / 2, 1), []).append(r)
    sets: list[tuple[float, float, list[tuple[float, float]], list[float]]] = []
    for y, segs in sorted(by_y.items()):
        segs = sorted(segs)
        breaks = [(a[2], b[0]) for a, b in zip(segs, segs[1:], strict=False) if b[0] - a[2] > TOL]
        if not breaks or any(b[0] < a[2] - TOL for a, b in zip(segs, segs[1:], strict=False)):
            continue  # one rule, or segments over one another
        left, right = segs[0][0], max(s[2] for s in segs)
        for s in sets:
            if _same(s[0], left) and _same(s[1], right) and len(s[2]) == len(breaks) \
                    and all(_same(a[0], b[0]) and _same(a[1], b[1]) for a, b in zip(s[2], breaks, strict=True)):
                s[3].append(y)
                break
        else:
            sets.append((left, right, breaks, [y]))
    return [(left, right, ys) for left, right, _, ys in sets if len(ys) >= MIN_RULES]


def over_broken_rules(aligned: Sequence[BBox], hs: Sequence[BBox], lines: Sequence[TextLine]) -> list[BBox]:
    """Each aligned region reaching over every line the broken rules it overlaps part (the
    lines between their top and bottom rule, inside their extent); the others as they are."""
    rules = broken_rules(hs) if aligned else []
    out = []
    for region in aligned:
        for left, right, ys in rules:
            if region[0] >= right or region[2] <= left or region[3] < ys[0] or region[1] > ys[-1]:
                continue
            ruled = [ln.bbox for ln in lines if left - TOL <= ln.bbox[0] and ln.bbox[2] <= right + TOL
                     and ys[0] < (ln.bbox[1] + ln.bbox[3]) / 2 < ys[-1]]
            if ruled:
                region = bounds([region, *ruled])
        if not any(within(region, o) for o in out):
            out.append(region)  # two runs of one table grow into one region
    return out


def _same(a: float, b: float) -> bool:
    return abs(a - b) <= TOL
