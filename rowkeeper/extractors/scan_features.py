"""Page features of a scanned page, read from its image: ruled grids and aligned rows of ink.

A scan has no text layer and no vector drawings, so `page_features` sees nothing on it and
"no table found" would be accepted. Here the page is rendered small, rules are found by the
same morphology the OCR layer uses, and text runs are ink blobs smeared along the line (a
word gap closes, a column gap does not): rows of two or more runs whose edges line up over
three or more rows are aligned columns. No OCR runs; a page costs a render at `dpi`.
"""

from __future__ import annotations

import statistics

import cv2
import numpy as np
import pymupdf

from rowkeeper.extractors import grid_lines
from rowkeeper.extractors.page_features import PageFeatures
from rowkeeper.models import BBox

FEATURE_DPI = 100
Run = tuple[int, int, int, int]
"""An ink run (x0, y0, x1, y1) in pixels of the feature image."""


def _gray(page: pymupdf.Page, dpi: int) -> np.ndarray:
    pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY, alpha=False)
    return np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.stride)[:, :pix.width].copy()


def ink_runs(ink: np.ndarray, px_per_pt: float) -> list[Run]:
    """Text runs: ink closed along the line over gaps up to ~4 pt (word spaces), text-sized."""
    close = max(3, round(4 * px_per_pt))
    smear = cv2.dilate(ink, cv2.getStructuringElement(cv2.MORPH_RECT, (close, 1)))
    n, _, stats, _ = cv2.connectedComponentsWithStats(smear, connectivity=8)
    lo, hi = 4 * px_per_pt, 20 * px_per_pt  # type from ~5 pt to ~20 pt tall
    out = []
    for x, y, w, h, area in stats[1:n]:
        if lo <= h <= hi and w >= 2 * px_per_pt and area >= 0.2 * w * h:
            out.append((int(x), int(y), int(x + w), int(y + h)))
    return out


def _rows(runs: list[Run]) -> list[list[Run]]:
    """Runs grouped into visual rows (vertical centres within half a run height)."""
    rows: list[list[Run]] = []
    for r in sorted(runs, key=lambda r: ((r[1] + r[3]) / 2, r[0])):
        if rows:
            last = rows[-1][0]
            if abs((last[1] + last[3]) / 2 - (r[1] + r[3]) / 2) <= (r[3] - r[1]) / 2:
                rows[-1].append(r)
                continue
        rows.append([r])
    return [sorted(row) for row in rows]


def _anchors(run: list[list[Run]], tol: int) -> int:
    """How many x edges (left or right) are shared by at least 60% of the rows."""
    need = max(3, int(0.6 * len(run) + 0.999))
    edges = sorted({r[k] for row in run for r in row for k in (0, 2)})
    n, last = 0, -10**9
    for x in edges:
        if x - last <= 2 * tol:
            continue
        if sum(any(abs(r[k] - x) <= tol for r in row for k in (0, 2)) for row in run) >= need:
            n, last = n + 1, x
    return n


def _table_like(row: list[Run], short: float) -> bool:
    # a line of prose broken at one wide space also has two runs; a table row's cells are short
    return len(row) >= 3 or (len(row) == 2 and min(r[2] - r[0] for r in row) <= short)


def aligned_runs(runs: list[Run], px_per_pt: float, min_rows: int = 3, tol: int = 3) -> list[Run]:
    """Boxes of consecutive table-like rows (>= 2 runs) whose edges line up in >= 2 columns."""
    rows = [row if _table_like(row, 150 * px_per_pt) else row[:1] for row in _rows(runs)]
    heights = [r[3] - r[1] for row in rows for r in row] or [10]
    gap_max = 2.5 * statistics.median(heights)
    out: list[Run] = []
    cur: list[list[Run]] = []
    for row in rows + [[]]:
        if len(row) >= 2 and (not cur or row[0][1] - max(r[3] for r in cur[-1]) <= gap_max):
            cur.append(row)
            continue
        if len(cur) >= min_rows and _anchors(cur, tol) >= 2:
            flat = [r for rw in cur for r in rw]
            out.append((min(r[0] for r in flat), min(r[1] for r in flat), max(r[2] for r in flat), max(r[3] for r in flat)))
        cur = [row] if len(row) >= 2 else []
    return out


def scan_features(page: pymupdf.Page, pno: int, dpi: int = FEATURE_DPI) -> PageFeatures:
    """Ruled grids and aligned columns of a scanned page, boxes in PDF points (top-left origin)."""
    gray = _gray(page, dpi)
    scale = dpi / 72.0
    gray = grid_lines.rotate(gray, grid_lines.skew_angle(grid_lines.binarize(gray), 2.0))
    grids, rules = grid_lines.find_grids(grid_lines.binarize(gray, despeckle=False), scale, stems=True)
    ink = grid_lines.binarize(gray)
    ink[cv2.dilate(rules, np.ones((5, 5), np.uint8)) > 0] = 0
    aligned = aligned_runs(ink_runs(ink, scale), scale)

    def points(b: tuple[float, float, float, float]) -> BBox:
        # the image shows the page as displayed; boxes go back to the unrotated page, as OCR's do
        r = pymupdf.Rect(b[0] / scale, b[1] / scale, b[2] / scale, b[3] / scale)
        if page.rotation:
            r = r * page.derotation_matrix
        return (round(r.x0, 1), round(r.y0, 1), round(r.x1, 1), round(r.y1, 1))

    return PageFeatures(page=pno, h_rules=sum(len(g.ys) for g in grids), v_rules=sum(len(g.xs) for g in grids),
                        aligned_rows=len(aligned), ruled_regions=tuple(points(g.box) for g in grids),
                        aligned_regions=tuple(points(b) for b in aligned))
