"""How a scanned line is printed, read from its ink: its size and whether it is bold.

A scan carries no font flags, and the box a detector draws around a line says little about
its size: the box grows with descenders and with the box's length (a short heading's box and
a long prose line's come out alike, a title without descenders smaller than a heading with
them). The ink says more:

* size: the band of rows holding at least half the line's densest row of ink is the x-height
  of a line with lowercase letters (about half the font size) and the cap height of one
  without (digits, capitals, CJK: about 0.7 of it), whatever ascenders and descenders it has;
* bold: the horizontal runs of ink across a bold letter's stems are about half as wide again
  as the body text's. A line is bold when its typical run is that much wider than the page's
  text; the page's text is weighed by its runs, so prose sets the reference.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from rowkeeper.extractors.grid_lines import PxBox

X_HEIGHT = 0.5
"""x-height over font size (Latin, Cyrillic, Greek: lines with lowercase letters)."""
CAP_HEIGHT = 0.7
"""Height of the dense band over font size of a line without lowercase letters."""

BOLD_RATIO = 1.4
"""A line's stroke width over the page's from which it is bold (measured: body text 3-4.5 px,
bold headings 6-10 px at 200 dpi, on scans degraded as bench/scanned_hard_gen.py does)."""
MIN_RUNS = 12
"""Runs a line needs for its stroke width to count (a dot or a dash tells nothing)."""


def stroke_runs(ink: np.ndarray, box: PxBox) -> np.ndarray:
    """Lengths of the horizontal runs of ink (pixels > 0) inside `box`, the ones shorter than
    half the box's height: stems and curves, not a rule or a letter's bar."""
    crop = _crop(ink, box)
    if crop.size == 0:
        return np.zeros(0)
    y0, y1 = box[1], box[3]
    edges = np.diff(np.pad(crop.astype(np.int8), ((0, 0), (1, 1))), axis=1)
    runs = np.nonzero(edges == -1)[1] - np.nonzero(edges == 1)[1]
    return runs[runs < max((y1 - y0) / 2, 2)]


def stroke_width(ink: np.ndarray, box: PxBox) -> float | None:
    """The line's typical stroke width in pixels (mean run), None when it has too few runs."""
    runs = stroke_runs(ink, box)
    return float(runs.mean()) if len(runs) >= MIN_RUNS else None


def bold_lines(ink: np.ndarray, boxes: Sequence[PxBox]) -> list[bool]:
    """For each line box of a page's binarized image, whether its print is bold."""
    runs = [stroke_runs(ink, b) for b in boxes]
    widths = [float(r.mean()) if len(r) >= MIN_RUNS else None for r in runs]
    counted = [r for r, w in zip(runs, widths, strict=True) if w is not None]
    if not counted:
        return [False] * len(boxes)
    page = float(np.concatenate(counted).mean())
    return [w is not None and w >= BOLD_RATIO * max(page, 1.0) for w in widths]


def _crop(ink: np.ndarray, box: PxBox) -> np.ndarray:
    x0, y0, x1, y1 = (max(int(round(v)), 0) for v in box)
    return ink[y0:y1, x0:x1] > 0


def band_height(ink: np.ndarray, box: PxBox) -> int:
    """Rows of the box holding at least half as much ink as its densest row, first to last."""
    rows = _crop(ink, box).sum(axis=1)
    if rows.size == 0 or not rows.max():
        return 0
    dense = np.nonzero(rows * 2 >= rows.max())[0]
    return int(dense[-1] - dense[0] + 1)


def print_size(ink: np.ndarray, box: PxBox, text: str, px_per_point: float) -> float | None:
    """The line's font size in points from its ink band, None where the box holds no ink."""
    band = band_height(ink, box)
    if not band:
        return None
    share = X_HEIGHT if any(ch.islower() for ch in text) else CAP_HEIGHT
    return round(band / share / px_per_point, 1)
