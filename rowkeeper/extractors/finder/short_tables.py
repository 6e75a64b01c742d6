"""Short ruled tables: a header and one row of values (an invoice's "Invoice no. / Date /
Customer no." band) set inside a frame, between rules, or under a tinted header band.

The aligned-columns detector wants three rows before it calls a run of aligned text a table
(two lines side by side are as often a letterhead), and the ruling-grid detector calls a lone
frame a boxed note. Two rows whose segments stand column over column, with rules drawn over
the rows' width above and below them (a frame's edges, or rules between rows), are a table
by both signs together. A header row printed on a tinted band (one fill across the row, or
one per label) with the row of values under it, off the band, is a table by the same token:
the band marks the labels as a header as a rule pair would.
"""

from __future__ import annotations

from collections.abc import Sequence

from rowkeeper.boxes import bounds, overlap
from rowkeeper.models import BBox, TextLine
from rowkeeper.page_columns import text_rows

MIN_COLS = 2
"""Columns the two rows hold each."""
RULE_REACH = 0.9
"""Share of the rows' width a rule spans to frame them."""
MAX_PITCH = (2.5, 4.0)
"""Line heights from one row's top to the next's, at most: two rows' (a header's and its
values'), and a padded pair's ruled at all three places (framed, a rule between: a small
face set with wide cell padding, `Phone` / `683-2212` three lines apart)."""
MAX_CELL = 40
"""Characters a cell holds at most (a longer segment is a sentence, not a value)."""


def _over(a: TextLine, b: TextLine) -> bool:
    """Whether segment `a` stands over segment `b`: their x extents overlap."""
    return min(a.bbox[2], b.bbox[2]) - max(a.bbox[0], b.bbox[0]) > 0


def column_over_column(top: Sequence[TextLine], below: Sequence[TextLine]) -> bool:
    """Two rows of `MIN_COLS` short segments or more, as many in each, each over its own."""
    if len(top) != len(below) or len(top) < MIN_COLS:
        return False
    if any(len(t.text.strip()) > MAX_CELL for t in [*top, *below]):
        return False
    return all(_over(a, b) and sum(_over(a, c) for c in below) == 1 for a, b in zip(top, below, strict=True))


def _spans(rule: BBox, left: float, right: float) -> bool:
    return min(rule[2], right) - max(rule[0], left) >= RULE_REACH * (right - left)


def ruled_pair(box: BBox, hs: Sequence[BBox], pitch: float, split: float | None = None,
               places: int = 2) -> bool:
    """Rules over the rows' width at `places` (two, or all three) of the three places a ruled
    pair has them, each within a row's pitch: above and below the rows (a frame, a top and a
    bottom rule), or between them (at `split`, the height between the two rows' text) and
    above or below (rules drawn between rows only, a table's last rule under it)."""
    left, right = box[0], box[2]
    above = any(_spans(r, left, right) and 0 <= box[1] - r[3] <= pitch for r in hs)
    under = any(_spans(r, left, right) and 0 <= r[1] - box[3] <= pitch for r in hs)
    between = split is not None and any(_spans(r, left, right) and abs((r[1] + r[3]) / 2 - split) <= 0.5 * pitch
                                        and box[1] < r[1] and r[3] < box[3] for r in hs)
    return above + under + between >= places


def _middle_in(seg: TextLine, f: BBox) -> bool:
    x, y = (seg.bbox[0] + seg.bbox[2]) / 2, (seg.bbox[1] + seg.bbox[3]) / 2
    return f[0] <= x <= f[2] and f[1] <= y <= f[3]


def banded_pair(top: Sequence[TextLine], below: Sequence[TextLine], fills: Sequence[BBox],
                pitch: float) -> bool:
    """Whether the `top` row stands on a tinted band (fills a line or two high holding every
    segment's middle, together as wide as the rows) that the row `below` is off."""
    height = max(t.bbox[3] - t.bbox[1] for t in top)
    band = [f for f in fills if f[3] - f[1] <= 2.5 * height and any(_middle_in(t, f) for t in top)]
    if not band or not all(any(_middle_in(t, f) for f in band) for t in top):
        return False
    if any(_middle_in(b, f) for b in below for f in band) or \
            min(b.bbox[1] for b in below) - max(f[3] for f in band) > pitch:
        return False
    left = min(t.bbox[0] for t in [*top, *below])
    right = max(t.bbox[2] for t in [*top, *below])
    if min(max(f[2] for f in band), right) - max(min(f[0] for f in band), left) < RULE_REACH * (right - left):
        return False
    # a band again within two pitches under the values or over the band is zebra striping:
    # rows of a longer table
    end, start = max(b.bbox[3] for b in below), min(f[1] for f in band)
    return not any(f not in band and _spans(f, left, right) and (0 <= f[1] - end <= 2 * pitch
                                                                 or 0 <= start - f[3] <= 2 * pitch) for f in fills)


def short_ruled_tables(lines: Sequence[TextLine], hs: Sequence[BBox],
                       taken: Sequence[BBox] = (), fills: Sequence[BBox] = ()) -> list[BBox]:
    """Boxes of two-row tables between rules (frames included) or under a tinted header band
    (`fills`: the page's tinted rectangles), outside the `taken` regions."""
    rows = [sorted(r, key=lambda t: t.bbox[0]) for r in text_rows([ln for ln in lines if ln.text.strip()])]
    out: list[BBox] = []
    for top, below in zip(rows, rows[1:], strict=False):
        if not column_over_column(top, below):
            continue
        box = bounds(t.bbox for t in [*top, *below])
        pitch = below[0].bbox[1] - top[0].bbox[1]
        apart = pitch / (top[0].bbox[3] - top[0].bbox[1])  # in line heights
        close = apart <= MAX_PITCH[0]  # further apart, the pair must be ruled at all three places
        if 0 < apart <= MAX_PITCH[1] \
                and (ruled_pair(box, hs, pitch, _split(top, below), 2 if close else 3)
                     or close and banded_pair(top, below, fills, pitch)) \
                and not any(overlap(box, t) > 0 for t in taken):
            out.append(box)
    # pairs sharing a row are rows of a longer table ruled row by row, no short table each
    return [b for b in out if not any(o is not b and overlap(b, o) > 0 for o in out)]


def _split(top: Sequence[TextLine], below: Sequence[TextLine]) -> float:
    """The height halfway between the bottom of the top row's text and the top of the next."""
    return (max(t.bbox[3] for t in top) + min(b.bbox[1] for b in below)) / 2
