"""The ruled-grid strategy's rules: a page's vector paths less those that draw no rule.

PyMuPDF's `find_tables` takes every path edge for a rule; a cell's white background patch or
a tinted label box inside a ruled cell would cut the table at each of its edges. The paths
kept here go to `find_tables(paths=...)` (pymupdf_extractor.py).
"""

from __future__ import annotations

import bisect
from typing import Any

import numpy as np
import pymupdf

from rowkeeper.extractors.page_features import invisible


def drawn_paths(page: pymupdf.Page) -> list[dict[str, Any]]:
    """The page's vector paths less white patches behind one line of text: a cell's background
    on the white page draws no rule, but PyMuPDF takes its edges for rules (a column at every
    patch edge, cutting the table at each word gap). A white box round a whole table stays."""
    paths = drop_shading(drop_hidden_fills(page.get_drawings()))
    if not any(invisible(p) for p in paths):
        return paths
    mids = sorted(((w[1] + w[3]) / 2, (w[0] + w[2]) / 2, round(w[3])) for w in page.get_text("words"))
    ys = [m[0] for m in mids]

    def one_line(r: pymupdf.Rect) -> bool:
        inside = mids[bisect.bisect_left(ys, r.y0):bisect.bisect_right(ys, r.y1)]
        return len({line for _, x, line in inside if r.x0 <= x <= r.x1}) <= 1

    # a thin white bar stays: on a tinted table it is a rule
    return [p for p in paths if not (invisible(p) and min(p["rect"].width, p["rect"].height) > THIN
                                     and one_line(p["rect"]))]


def drop_shading(paths: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Paths less tinted fill-only boxes inside a cell of drawn rules: a shaded label inside a
    ruled cell is no cell of its own (its edges would cut the cell into rows and columns).
    White bars do not count as rules here: on a tinted table they part cells that are boxes."""
    hs: list[pymupdf.Rect] = []
    vs: list[pymupdf.Rect] = []
    for p in paths:
        if invisible(p):
            continue
        for it in p["items"]:
            if it[0] == "l":
                r = pymupdf.Rect(it[1], it[2]).normalize()
            elif it[0] == "re" and (p["type"] != "f" or min(it[1].width, it[1].height) <= THIN):
                r = pymupdf.Rect(it[1]).normalize()
            else:
                continue
            if r.height <= THIN < r.width:
                hs.append(r)
            elif r.width <= THIN < r.height:
                vs.append(r)
    if not hs or not vs:
        return paths

    def boxed(r: pymupdf.Rect) -> bool:
        across = [v for v in vs if v.y0 <= r.y0 + 1 and v.y1 >= r.y1 - 1]
        along = [h for h in hs if h.x0 <= r.x0 + 1 and h.x1 >= r.x1 - 1]
        return (any(v.x1 <= r.x0 + 1 for v in across) and any(v.x0 >= r.x1 - 1 for v in across)
                and any(h.y1 <= r.y0 + 1 for h in along) and any(h.y0 >= r.y1 - 1 for h in along))

    return [p for p in paths if not (p["type"] == "f" and min(p["rect"].width, p["rect"].height) > THIN
                                     and not invisible(p) and boxed(p["rect"]))]


def drop_hidden_fills(paths: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Paths less fill-only boxes painted over a larger fill-only box of the same colour with
    nothing of another colour painted between: one over the other draws no edge (a shaded
    label cell with a box of the same shade behind each of its lines), but PyMuPDF takes every
    box edge for a rule and cut the cell between its lines, a label of two lines becoming two
    rows and a sliver row under them. Thin fills are rules and stay."""
    fills = [(i, tuple(round(c, 3) for c in p["fill"]), p["rect"]) for i, p in enumerate(paths)
             if p["type"] == "f" and p.get("fill") is not None and not p["rect"].is_empty]
    if len(fills) < 2:
        return paths
    order = np.array([i for i, _, _ in fills])
    box = np.array([tuple(r) for _, _, r in fills])
    size = (box[:, 2] - box[:, 0]) * (box[:, 3] - box[:, 1])
    ids: dict[tuple[float, ...], int] = {}
    colour = np.array([ids.setdefault(c, len(ids)) for _, c, _ in fills])
    if len(ids) == len(fills):
        return paths
    hidden: set[int] = set()
    for k, (i, _, r) in enumerate(fills):
        if min(r.width, r.height) <= THIN:
            continue
        same = colour == colour[k]
        holds = (same & (order < i) & (size > size[k] * 1.01) & (box[:, 0] <= r.x0 + 0.1) & (box[:, 1] <= r.y0 + 0.1)
                 & (box[:, 2] >= r.x1 - 0.1) & (box[:, 3] >= r.y1 - 0.1))
        if not holds.any():
            continue
        under = order[holds].max()
        between = (~same & (order > under) & (order < i) & (box[:, 0] < r.x1) & (box[:, 2] > r.x0)
                   & (box[:, 1] < r.y1) & (box[:, 3] > r.y0))
        if not between.any():
            hidden.add(i)
    return [p for i, p in enumerate(paths) if i not in hidden] if hidden else paths


THIN = 3.0
"""Points: a filled box no thicker than this draws a rule (PyMuPDF's edge_min_length)."""
