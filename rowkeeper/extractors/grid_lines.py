"""Page images to table grids: deskew, ruling lines by OpenCV morphology, cell grid with spans.

Works on a grayscale page image (uint8, white paper). Everything is in pixels of that image;
the OCR layer maps results back to PDF points.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from rowkeeper.groups import grouped

PxBox = tuple[float, float, float, float]
"""`(x0, y0, x1, y1)` in image pixels, origin top-left."""


@dataclass(frozen=True)
class GridCell:
    """One cell of a ruled grid: its slot, spans and pixel box."""

    row: int
    col: int
    row_span: int
    col_span: int
    box: PxBox


@dataclass(frozen=True)
class Grid:
    """A ruled table: the row and column rule positions and its cells."""

    ys: tuple[int, ...]
    xs: tuple[int, ...]
    cells: tuple[GridCell, ...]

    @property
    def box(self) -> PxBox:
        """The outer rectangle of the grid."""
        return (self.xs[0], self.ys[0], self.xs[-1], self.ys[-1])


def binarize(gray: np.ndarray, despeckle: bool = True) -> np.ndarray:
    """Ink as 255 on 0 (Otsu); `despeckle` median-blurs scanner noise away first.

    Rules must be found without the blur: a 1-px rule that steps by a pixel (residual skew)
    is erased by a median filter.
    """
    clean = cv2.medianBlur(gray, 3) if despeckle else gray
    _, ink = cv2.threshold(clean, 0, 255, cv2.THRESH_BINARY_INV | cv2.THRESH_OTSU)
    return ink


def despeckle(gray: np.ndarray, max_area: int) -> np.ndarray:
    """`gray` with isolated dark specks of at most `max_area` pixels whitened.

    A median filter would also do it, but it erases what business text hinges on: the tail of
    a decimal comma and Vietnamese dots below are specks of a few pixels too, yet attached or
    close to a glyph; scanner noise is isolated.
    """
    _, ink = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY_INV | cv2.THRESH_OTSU)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    speck = stats[:, cv2.CC_STAT_AREA] <= max_area
    speck[0] = False  # the background
    mask = speck[labels]
    if not mask.any():
        return gray
    out = gray.copy()
    out[mask] = 255
    return out


def skew_angle(ink: np.ndarray, max_deg: float = 2.0, step: float = 0.1) -> float:
    """The rotation (degrees, counter-clockwise positive) that best levels text rows.

    Projection-profile search on a downscaled image: the angle whose row sums are the most
    peaked is the one where text lines and rules lie flat.
    """
    small = cv2.resize(ink, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    h, w = small.shape
    center = (w / 2, h / 2)

    def score(deg: float) -> float:
        m = cv2.getRotationMatrix2D(center, deg, 1.0)
        rot = cv2.warpAffine(small, m, (w, h), flags=cv2.INTER_NEAREST)
        rows = rot.sum(axis=1, dtype=np.float64)
        return float(np.square(np.diff(rows)).sum())

    coarse = np.arange(-max_deg, max_deg + 1e-9, step * 5)
    best = max(coarse, key=score)
    fine = np.arange(best - step * 5, best + step * 5 + 1e-9, step)
    return round(float(max(fine, key=score)), 2)


def rotation_matrix(shape: tuple[int, ...], deg: float) -> np.ndarray:
    """The 2x3 affine matrix rotating an image of `shape` by `deg` about its center."""
    h, w = shape[:2]
    return cv2.getRotationMatrix2D((w / 2, h / 2), deg, 1.0)


def rotate(gray: np.ndarray, deg: float) -> np.ndarray:
    """`gray` rotated by `deg` about its center, corners filled white."""
    if abs(deg) < 1e-3:
        return gray
    h, w = gray.shape[:2]
    return cv2.warpAffine(gray, rotation_matrix(gray.shape, deg), (w, h),
                          flags=cv2.INTER_LINEAR, borderValue=255)


def rulings(ink: np.ndarray, min_len_px: int, stems: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Horizontal and vertical rule masks: ink runs at least `min_len_px` long; with `stems`,
    also the strokes too thick for their length (`_thin`), as the page features read them."""
    hk = cv2.getStructuringElement(cv2.MORPH_RECT, (min_len_px, 1))
    vk = cv2.getStructuringElement(cv2.MORPH_RECT, (1, min_len_px))
    # a 3-px-thick stroke survives the opening even where a skewed rule steps by a pixel
    thick = cv2.dilate(ink, np.ones((3, 3), np.uint8))
    horiz = cv2.morphologyEx(thick, cv2.MORPH_OPEN, hk)
    vert = cv2.morphologyEx(thick, cv2.MORPH_OPEN, vk)
    if stems:
        return horiz, vert
    horiz = _off_text(_thin(horiz, ink, min_len_px, horizontal=True), ink, min_len_px)
    return horiz, _thin(vert, ink, min_len_px, horizontal=False)


RULE_RATIO = 8.0
"""A rule is at least this many times as long as its ink is thick. A large letter's stem (a slide
title's `l`, `h`, `t` at 40 pt: 70-85 px long, 12-16 px of ink across at 200 dpi) passes the
length test of a short rule, but not this one; a rule 1-2 pt thick and 25 pt long does."""


def _thin(mask: np.ndarray, ink: np.ndarray, min_len: int, horizontal: bool) -> np.ndarray:
    """`mask` without the strokes shorter than two rule lengths whose ink is too thick across
    for their length (`RULE_RATIO`). The opening keeps any straight stretch of a glyph's stem
    as long as a short rule; erased, it takes the stem from a large heading's letters."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    stems = [i for i in range(1, n)
             if stats[i, cv2.CC_STAT_WIDTH if horizontal else cv2.CC_STAT_HEIGHT] < 2 * min_len
             and stats[i, cv2.CC_STAT_WIDTH if horizontal else cv2.CC_STAT_HEIGHT]
             < RULE_RATIO * _ink_across(ink, stats[i], min_len, horizontal)]
    if not stems:
        return mask
    out = mask.copy()
    out[np.isin(labels, stems)] = 0
    return out


TEXT_SIDE = 0.3
"""Share of a short horizontal stroke's length along which ink stands right above or right below
it, from which it is a line of text's letters (see `_off_text`): .45 to .9 on the zoo's serif
scans; a short rule has white beside it (0 to .15, where a letter touches it), or its ink is
`SOLID` (a rule in a table set tight: the next row's letters within a few pixels under it)."""
SOLID = 0.95
"""Share of its length a rule's own ink covers (.98 to 1.0); letters joined into a stroke leave
gaps between them (.45 to .92)."""


def _off_text(mask: np.ndarray, ink: np.ndarray, min_len: int) -> np.ndarray:
    """`mask` without the horizontal strokes shorter than two rule lengths that lie along a line of
    text: the tops of serif letters at the x-height, or their feet on the baseline, join over a
    word or two ("Weidenhof", "Lieferzeit") into a thin stroke as long as a short rule. Taken for
    a rule, it cut a framed table's rows through its words and was erased from under the letters.
    Letters stand on one side of such a stroke along much of its length (their stems, ascenders)
    and leave gaps in it; a rule is solid, with a blank on both sides but in a table set tight."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    strokes = [i for i in range(1, n)
               if stats[i, cv2.CC_STAT_WIDTH] < 2 * min_len and _text_beside(ink, stats[i]) >= TEXT_SIDE
               and _solid(ink, stats[i]) < SOLID]
    if not strokes:
        return mask
    out = mask.copy()
    out[np.isin(labels, strokes)] = 0
    return out


def _solid(ink: np.ndarray, stat: np.ndarray) -> float:
    """The share of a horizontal stroke's columns (`stat`: x, y, w, h) that hold ink of its own."""
    x, y, w, h = (int(v) for v in stat[:4])
    return float((ink[y:y + h, x:x + w].max(axis=0) > 0).mean())


def _text_beside(ink: np.ndarray, stat: np.ndarray, reach: int = 4) -> float:
    """The larger share of a horizontal stroke's columns (`stat`: x, y, w, h) with ink in the
    `reach` pixel rows just above it, or just below it (past a pixel's margin)."""
    x, y, w, h = (int(v) for v in stat[:4])
    above = ink[max(y - 1 - reach, 0):max(y - 1, 0), x:x + w]
    below = ink[y + h + 1:y + h + 1 + reach, x:x + w]
    return max((float((side.max(axis=0) > 0).mean()) for side in (above, below) if side.size), default=0.0)


def _ink_across(ink: np.ndarray, stat: np.ndarray, reach: int, horizontal: bool) -> float:
    """The median run of ink across a stroke (`stat`: its component's x, y, w, h), measured at
    each step along it through the stroke's middle, up to `reach` px to each side: a rule's own
    thickness where text touches it at a few steps, a stem's full width."""
    x, y, w, h = (int(v) for v in stat[:4])
    view = ink if not horizontal else ink.T
    if horizontal:
        x, y, w, h = y, x, h, w
    mid = x + w // 2
    lo, hi = max(mid - reach, 0), min(mid + reach + 1, view.shape[1])
    runs = []
    for row in view[y:y + h, lo:hi] > 0:
        c = mid - lo
        if not row[c]:
            continue
        left = row[:c][::-1].argmin() if not row[:c].all() else c
        right = row[c:].argmin() if not row[c:].all() else len(row) - c
        runs.append(left + right)
    return float(np.median(runs)) if runs else 0.0


def _positions(profile: np.ndarray, min_cover: int) -> list[int]:
    """Centers of the runs where a projection profile reaches `min_cover`."""
    on = profile >= min_cover
    out, start = [], None
    for i, v in enumerate(np.append(on, False)):
        if v and start is None:
            start = i
        elif not v and start is not None:
            out.append((start + i - 1) // 2)
            start = None
    return out


def _has_rule(mask: np.ndarray, fixed: int, a: int, b: int, horizontal: bool) -> bool:
    """Whether `mask` holds a rule at `fixed` along most of [a, b] (tolerating a little skew)."""
    pad = 3
    lo, hi = a + (b - a) // 5, b - (b - a) // 5
    if horizontal:
        band = mask[max(fixed - pad, 0):fixed + pad + 1, lo:hi]
        cover = band.max(axis=0) if band.size else np.zeros(0)
    else:
        band = mask[lo:hi, max(fixed - pad, 0):fixed + pad + 1]
        cover = band.max(axis=1) if band.size else np.zeros(0)
    return bool(cover.size) and float((cover > 0).mean()) >= 0.7


def grid_of_region(horiz: np.ndarray, vert: np.ndarray, box: tuple[int, int, int, int]) -> Grid | None:
    """The cell grid (with spans) of one ruled region, or None when it is not a grid."""
    x, y, w, h = box
    hz, vt = horiz[y:y + h, x:x + w], vert[y:y + h, x:x + w]
    ys = _positions((hz > 0).sum(axis=1), max(w // 8, 10))
    xs = _positions((vt > 0).sum(axis=0), max(h // 8, 10))
    xs, ys = _open_sides(hz, ys, xs, w, horizontal=True), _open_sides(vt, xs, ys, h, horizontal=False)
    if len(ys) < 2 or len(xs) < 2 or (len(ys) < 3 and len(xs) < 3):
        return None
    n_rows, n_cols = len(ys) - 1, len(xs) - 1
    # slots join their neighbour when no rule separates them (a spanning cell)
    joins = []
    for r in range(n_rows):
        for c in range(n_cols):
            if c + 1 < n_cols and not _has_rule(vt, xs[c + 1], ys[r], ys[r + 1], False):
                joins.append((r * n_cols + c + 1, r * n_cols + c))
            if r + 1 < n_rows and not _has_rule(hz, ys[r + 1], xs[c], xs[c + 1], True):
                joins.append(((r + 1) * n_cols + c, r * n_cols + c))
    return _grid_from_groups(grouped(n_rows * n_cols, joins), n_cols, [v + y for v in ys], [v + x for v in xs])


def _open_sides(mask: np.ndarray, rules: list[int], edges: list[int], size: int,
                horizontal: bool) -> list[int]:
    """`edges` (rule positions across) with the open ends of a table ruled only between its
    columns: where most `rules` (along) run on past the outermost cross rule, their ends bound
    the first or last column, as a frame would (else that column's cells are lost)."""
    if len(rules) < 2 or not edges:  # rules between rows only: no columns to bound
        return edges
    margin = 10
    first, last = edges[0], edges[-1]
    out = list(edges)
    if first > margin and _most_run(mask, rules, 0, first, horizontal):
        out.insert(0, 0)
    if size - 1 - last > margin and _most_run(mask, rules, last, size - 1, horizontal):
        out.append(size - 1)
    return out


def _most_run(mask: np.ndarray, rules: list[int], a: int, b: int, horizontal: bool) -> bool:
    return sum(_has_rule(mask, r, a, b, horizontal) for r in rules) >= max(2, 0.5 * len(rules))


def _grid_from_groups(groups: list[list[int]], n_cols: int, ys: list[int], xs: list[int]) -> Grid:
    """Cells from the slot groups: each group's bounding slots become one (spanning) cell."""
    cells = []
    for group in groups:
        slots = [divmod(i, n_cols) for i in group]
        r0, r1 = min(s[0] for s in slots), max(s[0] for s in slots)
        c0, c1 = min(s[1] for s in slots), max(s[1] for s in slots)
        cells.append(GridCell(r0, c0, r1 - r0 + 1, c1 - c0 + 1,
                              (xs[c0], ys[r0], xs[c1 + 1], ys[r1 + 1])))
    cells.sort(key=lambda c: (c.row, c.col))
    return Grid(tuple(ys), tuple(xs), tuple(cells))


def find_grids(ink: np.ndarray, px_per_pt: float, stems: bool = False) -> tuple[list[Grid], np.ndarray]:
    """Ruled grids on the page and the mask of all rules (to erase before OCR); `stems` keeps a
    large letter's strokes in the mask (`scan_features` reads its aligned rows with them gone)."""
    min_len = max(int(25 * px_per_pt), 15)  # a rule is at least ~25 pt long; text strokes are not
    horiz, vert = rulings(ink, min_len, stems)
    both = cv2.bitwise_or(horiz, vert)
    n, _, stats, _ = cv2.connectedComponentsWithStats(both, connectivity=8)
    grids = []
    for i in range(1, n):
        x, y, w, h, _ = stats[i]
        if w < 3 * min_len or h < min_len:
            continue
        g = grid_of_region(horiz, vert, (int(x), int(y), int(w), int(h)))
        if g is not None:
            grids.append(g)
    grids.sort(key=lambda g: (g.ys[0], g.xs[0]))
    return grids, both
