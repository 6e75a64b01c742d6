"""Box arithmetic shared by the finder, the transforms and the extractors (boxes as (x0, y0, x1, y1) in PDF points)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rowkeeper.models import BBox


def area(r: Sequence[float]) -> float:
    """The area of a box (0 when it is empty)."""
    return max(r[2] - r[0], 0.0) * max(r[3] - r[1], 0.0)


def overlap(a: Sequence[float], b: Sequence[float]) -> float:
    """The area two boxes share."""
    return area((max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])))


def union(a: BBox | None, b: BBox | None) -> BBox | None:
    """The smallest box holding both (a cell without a box, None, adds nothing)."""
    if a is None or b is None:
        return a or b
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def bounds(boxes: Iterable[Sequence[float]]) -> BBox:
    """The smallest box holding every one of `boxes` (one at least): a run of lines' extent."""
    bs = list(boxes)
    return (min(b[0] for b in bs), min(b[1] for b in bs), max(b[2] for b in bs), max(b[3] for b in bs))


def centre_in(b: Sequence[float], box: Sequence[float], pad: float = 0.0) -> bool:
    """Whether box `b`'s centre lies in `box` (widened by `pad` on every side)."""
    x, y = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
    return box[0] - pad <= x <= box[2] + pad and box[1] - pad <= y <= box[3] + pad


def within(inner: Sequence[float], outer: Sequence[float], pad: float = 0.0) -> bool:
    """Whether the whole `inner` box lies in `outer` (widened by `pad` on every side)."""
    return outer[0] - pad <= inner[0] and inner[2] <= outer[2] + pad \
        and outer[1] - pad <= inner[1] and inner[3] <= outer[3] + pad
