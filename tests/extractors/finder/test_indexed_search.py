"""Searches narrowed for speed (sorted edges found by bisection, a page's box grids read once)
find what the plain scans over every rule or edge find: the output of a page never changes."""

from __future__ import annotations

from pathlib import Path

import pymupdf
from hypothesis import given, settings
from hypothesis import strategies as st

from rowkeeper.extractors.finder.boxed_cells import _TOL, _closed_boxes, box_grids
from rowkeeper.extractors.finder.text_runs import _anchors, _edges
from rowkeeper.extractors.page_model import PageModel
from rowkeeper.models import TextLine

# coordinates on a coarse grid plus small offsets: many edges fall within the tolerances
_coord = st.builds(lambda k, d: 20.0 * k + d, st.integers(0, 12), st.sampled_from([0.0, 0.4, 1.5, 1.6, 2.9, 3.0]))


def _closed_boxes_by_scan(hs, vs):
    """`_closed_boxes` as first written: every vertical rule tried for each side."""
    def near(a, b):
        return abs(a - b) <= _TOL

    def vertical(x, top, bottom):
        return any(near((v[0] + v[2]) / 2, x) and v[1] <= top + _TOL and v[3] >= bottom - _TOL for v in vs)

    out = []
    ordered = sorted(hs, key=lambda h: (h[1] + h[3]) / 2)
    for i, top in enumerate(ordered):
        for bottom in ordered[i + 1:]:
            if not (near(top[0], bottom[0]) and near(top[2], bottom[2])):
                continue
            y0, y1 = (top[1] + top[3]) / 2, (bottom[1] + bottom[3]) / 2
            if y1 - y0 >= 6.0 and vertical(top[0], y0, y1) and vertical(top[2], y0, y1):
                out.append((top[0], y0, top[2], y1))
            break
    return out


_jitter = st.sampled_from([0.0, 0.4, 0.8, 1.2, 1.5, 1.6, 2.9, -0.8, -1.5, -1.6])


@st.composite
def _rules(draw):
    """The edges of a few boxes, each edge moved a little (within the tolerance or just past
    it), and some loose rules."""
    hs, vs = [], []
    for x0, y0, w, h in draw(st.lists(st.tuples(_coord, _coord, _coord, _coord), max_size=6)):
        x1, y1 = x0 + w + 4, y0 + h + 4
        j = [draw(_jitter) for _ in range(8)]
        hs += [(x0 + j[0], y0, x1 + j[1], y0), (x0 + j[2], y1, x1 + j[3], y1)]
        vs += [(x0 + j[4], y0 + j[5], x0 + j[4], y1 - j[5]), (x1 + j[6], y0 - j[7], x1 + j[6], y1 + j[7])]
    hs += [(x0, y, x0 + w, y) for x0, y, w in draw(st.lists(st.tuples(_coord, _coord, _coord), max_size=4))]
    vs += [(x, y0, x, y0 + h) for x, y0, h in draw(st.lists(st.tuples(_coord, _coord, _coord), max_size=4))]
    return hs, vs


@settings(max_examples=300, deadline=None)
@given(_rules())
def test_closed_boxes_are_those_a_scan_of_every_vertical_rule_finds(rules) -> None:
    hs, vs = rules
    assert _closed_boxes(hs, vs) == _closed_boxes_by_scan(hs, vs)


def _anchors_by_scan(run, tol=3.0):
    """`_anchors` as first written: every segment's edges tried for each position."""
    edges = sorted({round(e) for row in run for t in row for e in _edges(t)})
    need = max(min(3, len(run)), int(0.6 * len(run) + 0.999))  # a run of two rows: both
    n, last = 0, -1e9
    for x in edges:
        if x - last <= tol * 2:
            continue
        if sum(any(abs(e - x) <= tol for t in row for e in _edges(t)) for row in run) >= need:
            n, last = n + 1, x
    return n


@st.composite
def _run(draw):
    rows = []
    for i in range(draw(st.integers(1, 8))):
        xs = draw(st.lists(st.tuples(_coord, st.floats(5, 60)), min_size=1, max_size=4))
        text = draw(st.sampled_from(["12.5", "(106,870)", "Total", "a"]))
        rows.append([TextLine(page=1, bbox=(x, 100.0 + 12 * i, x + w, 110.0 + 12 * i), text=text) for x, w in xs])
    return rows


@settings(max_examples=300, deadline=None)
@given(_run())
def test_anchors_are_those_a_scan_of_every_edge_counts(run) -> None:
    assert _anchors(run) == _anchors_by_scan(run)


def test_a_page_reads_its_box_grids_once_and_its_features_see_them(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    for i in range(3):
        for j in range(3):
            x, y = 60 + 130 * j, 80 + 32 * i
            page.draw_rect(pymupdf.Rect(x, y, x + 120, y + 24), color=(0, 0, 0))
            page.insert_text((x + 4, y + 16), f"r{i}c{j}", fontsize=10)
    path = tmp_path / "boxes.pdf"
    doc.save(path)
    with pymupdf.open(path) as pdf:
        model = PageModel(pdf[0], 1)
        assert model.grids == tuple(box_grids(*model.rules))
        assert len(model.grids) == 1 and len(model.grids[0].rows) == 3
        assert model.grids[0].bbox in model.features.ruled_regions
