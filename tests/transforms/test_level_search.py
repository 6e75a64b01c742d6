"""Cells that look only at the lines, spans and words level with them (sorted by centre height,
bisected) find what a scan of every line, span or word finds: the output never changes."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rowkeeper.boxes import centre_in
from rowkeeper.extractors.finder.side_by_side import column_ink as words_column_ink
from rowkeeper.extractors.text_cells import cells_from_rows, typography
from rowkeeper.label_text import clean_text
from rowkeeper.models import TextLine
from rowkeeper.transforms.figures import figure_columns
from rowkeeper.transforms.header_labels import _across, _body_boxes, column_ink, right_aligned
from rowkeeper.transforms.merge import piece_grid
from tests.transforms.builders import raw_table

# line tops that put the line's centre (5 pt under its top) at a row edge (rows are 16 pt
# apart from 100) or just inside or outside it, within and past the 1 pt pad of the tests
_y = st.builds(lambda k, d: 100.0 + 16 * k + d - 5.0, st.integers(-1, 6),
               st.sampled_from([0.0, 0.4, 0.6, 1.0, 1.2, -0.4, -0.6, -1.0, -1.2, 8.0]))
_x = st.builds(lambda k, d: 50.0 + 40 * k + d, st.integers(0, 12), st.sampled_from([0.0, 2.0, -2.0, 10.0]))
_text = st.sampled_from(["12.5", "1,024", "Total", "North", "7"])


@st.composite
def _piece_and_lines(draw):
    n_rows, n_cols = draw(st.integers(2, 5)), draw(st.integers(1, 4))
    grid = [[draw(_text) for _ in range(n_cols)] for _ in range(n_rows)]
    piece = raw_table(grid)
    lines = [TextLine(page=draw(st.sampled_from([1, 1, 2])), bbox=(x, y, x + draw(st.floats(4, 80)), y + 10.0),
                      text=draw(_text)) for x, y in draw(st.lists(st.tuples(_x, _y), max_size=25))]
    return piece, lines, draw(st.integers(0, 2))


def _column_ink_by_scan(piece, lines, body_from):
    out = {}
    page = [ln for ln in lines if ln.page == piece.page and centre_in(ln.bbox, piece.bbox, 1.0)]
    for c in piece.cells:
        if c.row < body_from or c.col_span != 1 or c.bbox is None or not c.text.strip():
            continue
        for ln in page:
            if centre_in(ln.bbox, c.bbox, 1.0) and clean_text(ln.text) in clean_text(c.text) \
                    and not _across(ln, c.col, _body_boxes(piece, body_from)):
                x0, x1 = out.get(c.col, (ln.bbox[0], ln.bbox[2]))
                out[c.col] = (min(x0, ln.bbox[0]), max(x1, ln.bbox[2]))
    return out


def _right_aligned_by_scan(piece, lines, body_from):
    ends = {}
    page = [ln for ln in lines if ln.page == piece.page and centre_in(ln.bbox, piece.bbox, 1.0)]
    for c in piece.cells:
        if c.row >= body_from and c.col_span == 1 and c.bbox is not None and c.text.strip():
            ends.setdefault(c.col, []).extend((ln.bbox[0], ln.bbox[2]) for ln in page
                                              if centre_in(ln.bbox, c.bbox, 1.0) and clean_text(ln.text) == clean_text(c.text))
    figures = figure_columns(piece_grid(piece)[body_from:])
    out = set()
    for j, xs in ends.items():
        if len(xs) >= 3:
            lefts, rights = [a for a, _ in xs], [b for _, b in xs]
            if max(rights) - min(rights) <= 1.5 and (max(lefts) - min(lefts) > 1.5 or (j < len(figures) and figures[j])):
                out.add(j)
    return frozenset(out)


@settings(max_examples=150, deadline=None)
@given(_piece_and_lines())
def test_header_labels_see_the_lines_a_scan_of_every_line_sees(case) -> None:
    piece, lines, body_from = case
    assert column_ink(piece, lines, body_from) == _column_ink_by_scan(piece, lines, body_from)
    assert right_aligned(piece, lines, body_from) == _right_aligned_by_scan(piece, lines, body_from)


@settings(max_examples=150, deadline=None)
@given(_piece_and_lines())
def test_side_by_side_ink_is_that_of_every_word_centred_in_a_cell(case) -> None:
    piece, lines, _ = case
    words = [(*ln.bbox, ln.text) for ln in lines]
    expected = []
    for k in range(piece.n_cols):
        xs = [(w[0], w[2]) for c in piece.cells if c.col == k and c.col_span == 1 and c.bbox and c.text.strip()
              for w in words if centre_in(w, c.bbox)]
        expected.append((min(a for a, _ in xs), max(b for _, b in xs)) if xs else None)
    assert words_column_ink(piece.cells, piece.n_cols, words) == expected


@settings(max_examples=150, deadline=None)
@given(_piece_and_lines(), st.lists(st.booleans(), min_size=25, max_size=25))
def test_cell_typography_is_that_of_every_span_centred_in_the_cell(case, bold) -> None:
    piece, lines, _ = case
    spans = [(ln.bbox, b, 8.0 + i % 5) for i, (ln, b) in enumerate(zip(lines, bold, strict=False))]
    rows = [[None] * piece.n_cols for _ in range(piece.n_rows)]
    for c in piece.cells:
        rows[c.row][c.col] = c.bbox
    cells, _, _ = cells_from_rows(rows, piece.grid(), 1, spans)
    assert [(c.bold, c.font_size) for c in cells] == [typography(spans, c.bbox) for c in cells]
