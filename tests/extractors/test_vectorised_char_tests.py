"""PyMuPDF's per-char box tests, vectorised inside `reading()` (issue 13, throughput), answer
as its loops did: `chars_in_rect` (a char inside a joined rectangle of rulings) and
`Table.extract`'s row and cell filters (a char whose middle lies in the box). The old loops
are written out here as PyMuPDF has them and compared on generated chars whose edges and
middles fall on a quarter-point grid, so that boxes tie with chars on every edge; and the
cells of generated ruled tables read inside `reading()` are those PyMuPDF reads outside."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pymupdf
from hypothesis import given, settings
from hypothesis import strategies as st
from pymupdf import table as _table

from rowkeeper.extractors.pymupdf_tables import (
    _READING,
    _cell_texts,
    _char_boxes,
    _char_mids,
    find,
    in_boxes,
    reading,
)
from tests.extractors.helpers import doc_for, draw_grid


def _chars_in_rect_before(chars, rect):
    return any(rect[0] <= c["x0"] and c["x1"] <= rect[2] and rect[1] <= c["y0"] and rect[3] >= c["y1"] for c in chars)


def _extract_before(rows, chars, kwargs):
    def char_in_bbox(char, bbox):
        v_mid = (char["top"] + char["bottom"]) / 2
        h_mid = (char["x0"] + char["x1"]) / 2
        x0, top, x1, bottom = bbox
        return bool((h_mid >= x0) and (h_mid < x1) and (v_mid >= top) and (v_mid < bottom))

    table_arr = []
    for row in rows:
        arr = []
        row_chars = [char for char in chars if char_in_bbox(char, row.bbox)]
        for cell in row.cells:
            if cell is None:
                cell_text = None
            else:
                cell_chars = [char for char in row_chars if char_in_bbox(char, cell)]
                if len(cell_chars):
                    kwargs["x_shift"] = cell[0]
                    kwargs["y_shift"] = cell[1]
                    cell_text = _table.extract_text(cell_chars, **kwargs)
                else:
                    cell_text = ""
            arr.append(cell_text)
        table_arr.append(arr)
    return table_arr


_q = st.integers(0, 80).map(lambda n: n / 4)  # a quarter-point grid: edges and middles tie


@st.composite
def _char(draw):
    x0, y0 = draw(_q), draw(_q)
    x1, y1 = x0 + draw(_q), y0 + draw(st.integers(1, 20).map(lambda n: n / 4))
    return {"x0": x0, "x1": x1, "top": y0, "bottom": y1, "y0": 100 - y1, "y1": 100 - y0, "doctop": y0,
            "text": draw(st.sampled_from("a1.Z")), "upright": True, "matrix": (1, 0, 0, 1, x0, y1)}


@st.composite
def _box(draw):
    x0, y0 = draw(_q), draw(_q)
    return (x0, y0, x0 + draw(_q), y0 + draw(_q))


@settings(max_examples=300, deadline=None)
@given(st.lists(_char(), max_size=40), _box())
def test_chars_in_rect_as_pymupdfs_loop(chars, rect) -> None:
    assert in_boxes(_char_boxes(chars), pymupdf.Rect(rect)) == _chars_in_rect_before(chars, pymupdf.Rect(rect))


@settings(max_examples=300, deadline=None)
@given(st.lists(_char(), max_size=40), st.lists(st.lists(st.one_of(st.none(), _box()), min_size=1, max_size=4),
                                               min_size=1, max_size=4), st.lists(_box(), min_size=4, max_size=4))
def test_cell_texts_as_pymupdfs_extract(chars, cells, row_boxes) -> None:
    rows = [SimpleNamespace(bbox=b, cells=c) for b, c in zip(row_boxes, cells, strict=False)]
    kwargs_new, kwargs_old = {}, {}
    assert _cell_texts(rows, chars, _char_mids(chars), kwargs_new) == _extract_before(rows, chars, kwargs_old)
    assert kwargs_new == kwargs_old


def test_a_value_not_a_float_is_left_to_pymupdf() -> None:
    chars = [{"x0": 1.0, "x1": 2, "top": 1.0, "bottom": 2.0, "y0": 1.0, "y1": 2.0}]
    assert _char_boxes(chars) is not None and _char_mids(chars) is None  # an int sums exactly only in Python


ROWS = [("Item", "Price", "Stock"), ("Desk lamp", "24.90", "12"), ("Chair", "", "3"), ("Shelf", "120.50", "7")]


def test_ruled_cells_read_inside_reading_are_pymupdfs(tmp_path: Path) -> None:
    path = tmp_path / "ruled.pdf"
    doc = pymupdf.open()
    page = doc.new_page()
    draw_grid(page, [72, 200, 300, 400], [150 + 22 * i for i in range(len(ROWS) + 1)], ROWS, baseline=15)
    draw_grid(page, [72, 160, 260], [400, 420, 440], [("Region", "Units"), ("North", "1 204")], baseline=14)
    doc.save(path)
    with pymupdf.open(path) as pdf:
        page = pdf[0]
        plain = [t.extract() for t in page.find_tables().tables]
        with reading():
            ours = find(doc_for(path), page, 1, {})
            texts = [t.extract() for t in ours]
            cache = _READING.get()
            assert any(k[0] == "mids" for k in cache) and any(k[0] == "boxes" for k in cache)  # the arrays served
    assert texts == plain
    assert texts[0][2] == ["Chair", "", "3"] and texts[1][1] == ["North", "1 204"]
