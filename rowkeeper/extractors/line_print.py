"""How a scanned line is printed, read from its ink: its size and whether it is bold.

A scan carries no font flags, and the box a detector draws around a line says little about
its size: the box grows with descenders and with the box's length (a short heading's box and
a long prose line's come out alike, a title without descenders smaller than a heading with
them). The ink says more:

* size: in a line with lowercase letters, the band of rows holding at least 0.6 of its densest
  row of ink is the x-height (about half the font size), whatever ascenders and descenders it
  has. A CJK line has no x-height: its ideographs and kana fill one square body each, and the
  rows holding at least CJK_DENSE of the densest row's ink span CJK_EM of the font size
  (measured 0.84-0.89 across Gothic, Mincho and Droid Sans Fallback faces at 150 and 200 dpi).
  A line of digits or capitals alone has neither band, so its size stays the detector's;
* levels: a measured band is whole pixels, so a heading reads a pixel taller or shorter than
  another of its level (0.7 pt at 200 dpi, and heading levels are told apart at 0.5 pt);
  the document's measured sizes within two pixels of the smallest of a group are one size;
* place: the detector pads its box by about a quarter of the font size all round, so a caption
  set close under a table starts above the table's last rule; the rows of ink joined to that
  band (up to the first blank row each way) are where the line is;
* bold: the horizontal runs of ink across a bold letter's stems are about half as wide again
  as the body text's. A line is bold when its typical run is that much wider than the page's
  text; the page's text is weighed by its runs, so prose sets the reference.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import numpy as np

from rowkeeper.extractors.grid_lines import PxBox
from rowkeeper.glyphs import is_cjk
from rowkeeper.models import TextLine

X_HEIGHT = 0.5
"""x-height over font size (Latin, Cyrillic, Greek: lines with lowercase letters)."""
DENSE = 0.6
"""Share of the densest row's ink from which a row is in the x-height band (the rows above it
cross only ascenders and capitals)."""

CJK_EM = 0.86
"""Height of a CJK glyph row's ink (rows from CJK_DENSE of the densest) over the font size."""
CJK_DENSE = 0.15
"""Share of the densest row's ink from which a row of a CJK line counts as printed (a scan's
stray specks and a neighbour line's tails below it do not)."""

BOLD_RATIO = 1.4
"""A line's stroke width over the page's from which it is bold (measured: body text 3-4.5 px,
bold headings 6-10 px at 200 dpi, on scans degraded as bench/scanned_hard_gen.py does)."""
RULE_SPAN = 0.85
"""Share of a box's width a pixel row must be inked over to be a rule, not print."""
MIN_RUNS = 12
"""Runs a line needs for its stroke width to count (a dot or a dash tells nothing)."""
MIN_PLAIN = 3
"""Lines around a page's tables that tell its plain print (`bold_lines`); with fewer (a slide's
title over its table), the tables' words tell it too."""


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


def bold_lines(ink: np.ndarray, boxes: Sequence[PxBox], aside: Collection[int] = ()) -> list[bool]:
    """For each line box of a page's binarized image, whether its print is bold: its stroke
    width against the page's, measured on the boxes not `aside` (a table's words: the text
    around the tables sets what plain print is, where it has `MIN_PLAIN` lines)."""
    runs = [stroke_runs(ink, b) for b in boxes]
    # a line's typical stroke width (mean run), None when it has too few runs to tell
    widths = [float(r.mean()) if len(r) >= MIN_RUNS else None for r in runs]
    counted = [r for i, (r, w) in enumerate(zip(runs, widths, strict=True)) if w is not None and i not in aside]
    if len(counted) < MIN_PLAIN:  # a slide's title alone over its table: the cells are the print
        counted = [r for r, w in zip(runs, widths, strict=True) if w is not None]
    if not counted:
        return [False] * len(boxes)
    page = plain_width(counted)
    return [w is not None and w >= BOLD_RATIO * max(page, 1.0) for w in widths]


def plain_width(runs: Sequence[np.ndarray]) -> float:
    """The stroke width of plain print: the mean run of the lines that read plain against it.
    The mean over every line is pulled up by the headings' heavy stems: on a page of a title,
    headings and a bold caption over little prose (or a wrapped caption's first line, long,
    beside its short second line) a bold line read plain against that mean. So the lines that
    read bold against it are left out and the mean taken again, until no line changes side."""
    page = float(np.concatenate(runs).mean())
    for _ in range(8):
        plain = [r for r in runs if r.mean() < BOLD_RATIO * max(page, 1.0)]
        again = float(np.concatenate(plain).mean())
        if again == page:
            break
        page = again
    return page


def _crop(ink: np.ndarray, box: PxBox) -> np.ndarray:
    x0, y0, x1, y1 = (max(int(round(v)), 0) for v in box)
    return ink[y0:y1, x0:x1] > 0


def text_rows(ink: np.ndarray, box: PxBox) -> np.ndarray:
    """Ink per pixel row of the box, rows of a rule (inked over RULE_SPAN of the width: a
    table's rule reaching into the padding) counted blank."""
    crop = _crop(ink, box)
    rows = crop.sum(axis=1)
    return np.where(rows >= RULE_SPAN * crop.shape[1], 0, rows) if crop.size else rows


def band_height(ink: np.ndarray, box: PxBox) -> int:
    """Rows of the line's own run of ink (`own_run`) holding at least DENSE of the ink of its
    densest row, first to last (a neighbour line reaching into a tall box is another run: its
    band measured with this one read a 9 pt prose line as 29 pt, a heading)."""
    rows = own_run(text_rows(ink, box))
    if rows.size == 0 or not rows.max():
        return 0
    dense = np.nonzero(rows >= DENSE * rows.max())[0]
    return int(dense[-1] - dense[0] + 1)


def ink_box(ink: np.ndarray, box: PxBox) -> PxBox:
    """The box cut down to the rows of ink joined to the line's dense band: no blank row
    between them (a neighbour's descenders inside the padding are cut off by the leading)."""
    rows = text_rows(ink, box)
    if rows.size == 0 or not rows.max():
        return box
    dense = np.nonzero(rows * 2 >= rows.max())[0]
    top, bottom = int(dense[0]), int(dense[-1])
    while top > 0 and rows[top - 1] > 0:
        top -= 1
    while bottom + 1 < rows.size and rows[bottom + 1] > 0:
        bottom += 1
    y0 = max(int(round(box[1])), 0)
    return (box[0], float(y0 + top), box[2], float(y0 + bottom + 1))


def is_cjk_line(text: str) -> bool:
    """Whether a line is set mostly in CJK characters (its size is read from the glyph row)."""
    chars = [ch for ch in text if not ch.isspace()]
    return bool(chars) and 2 * sum(is_cjk(ch) for ch in chars) >= len(chars)


def has_x_height(text: str) -> bool:
    """Whether a line's size is read from its x-height band: it has lowercase letters and is
    no CJK line."""
    return any(ch.islower() for ch in text) and not is_cjk_line(text)


def size_quantum(text: str, px_per_point: float) -> float | None:
    """A pixel of the band `print_size` measures the line by, in points; None where the size
    is not measured (the detector's)."""
    if is_cjk_line(text):
        return 1.0 / CJK_EM / px_per_point
    return 1.0 / X_HEIGHT / px_per_point if has_x_height(text) else None


def own_run(rows: np.ndarray) -> np.ndarray:
    """The ink per row of the line's own run of rows: between blank rows, with a real share of
    the box's ink (not a speck or a mark set apart over a letter), the one nearest the box's
    middle (a neighbour line reaching into the box is another run)."""
    if rows.size == 0 or not rows.max():
        return rows
    inked = np.concatenate(([0], (rows > 0).astype(np.int8), [0]))
    starts, ends = np.nonzero(np.diff(inked) == 1)[0], np.nonzero(np.diff(inked) == -1)[0]
    weight = [int(rows[a:b].sum()) for a, b in zip(starts, ends, strict=True)]
    mid = rows.size / 2
    runs = [(a, b) for (a, b), w in zip(zip(starts, ends, strict=True), weight, strict=True) if w >= 0.3 * max(weight)]
    a, b = min(runs, key=lambda r: 0 if r[0] <= mid < r[1] else min(abs(r[0] - mid), abs(r[1] - mid)))
    return rows[a:b]


def glyph_row_height(ink: np.ndarray, box: PxBox) -> int:
    """Rows of a CJK line's own run of ink (`own_run`) holding CJK_DENSE of its densest row,
    first to last."""
    run = own_run(text_rows(ink, box))
    if run.size == 0 or not run.max():
        return 0
    dense = np.nonzero(run >= CJK_DENSE * run.max())[0]
    return int(dense[-1] - dense[0] + 1)


def print_size(ink: np.ndarray, box: PxBox, text: str, px_per_point: float) -> float | None:
    """The font size in points of a line with lowercase letters, from its x-height band, or of
    a CJK line, from its glyph row; None for other lines and where the box holds no ink."""
    if is_cjk_line(text):
        row = glyph_row_height(ink, box)
        return round(row / CJK_EM / px_per_point, 1) if row else None
    band = band_height(ink, box) if has_x_height(text) else 0
    return round(band / X_HEIGHT / px_per_point, 1) if band else None


def snap_sizes(sizes: Sequence[float], quantum: float) -> list[float]:
    """Each size replaced by the median of its group: sizes sorted, a group holding those within
    two `quantum`s (a pixel of band, in points) of its smallest."""
    groups: list[list[float]] = []
    for v in sorted(sizes):
        if groups and v - groups[-1][0] <= 2 * quantum + 1e-6:
            groups[-1].append(v)
        else:
            groups.append([v])
    median = {v: g[len(g) // 2] for g in groups for v in g}
    return [median[v] for v in sizes]


def snapped_lines(lines: list[TextLine], dpi: float, aside: Collection[int] = ()) -> list[TextLine]:
    """Lines whose size was measured from their ink (`line_print.print_size`) with sizes a
    pixel apart made one, each kind of measure (x-height band, CJK glyph row) apart: a heading
    level reads one size. The lines `aside` (a table's words) are snapped among themselves:
    a table's many cells do not move the sizes of the text around it."""
    if aside:
        rest = [i for i in range(len(lines)) if i not in aside]
        out = list(lines)
        for group in (rest, sorted(aside)):
            for i, ln in zip(group, snapped_lines([lines[i] for i in group], dpi), strict=True):
                out[i] = ln
        return out
    out = list(lines)
    kinds: dict[float, list[int]] = {}
    for i, ln in enumerate(lines):
        quantum = size_quantum(ln.text, dpi / 72.0)
        if quantum is not None:
            kinds.setdefault(quantum, []).append(i)
    for quantum, measured in kinds.items():
        sizes = snap_sizes([lines[i].font_size for i in measured], quantum)
        for i, size in zip(measured, sizes, strict=True):
            out[i] = lines[i].model_copy(update={"font_size": size})
    return out


def without_twice_read(lines: list[TextLine]) -> list[TextLine]:
    """The lines less each one whose ink lies within a longer line's: printed lines do not
    overlap, so it is the engine's second reading of that line's ink (Tesseract reads a large
    bold heading's tone marks as a word of their own over it: 'Bề' over '1. Tổng quan')."""
    def within(ln: TextLine, other: TextLine) -> bool:
        (x0, y0, x1, y1), (a0, b0, a1, b1) = ln.bbox, other.bbox
        pad = 0.25 * (b1 - b0)
        return len(other.text) > len(ln.text) and a0 - pad <= x0 and x1 <= a1 + pad and b0 - pad <= y0 and y1 <= b1 + pad

    return [ln for ln in lines if not any(within(ln, o) for o in lines if o is not ln)]
