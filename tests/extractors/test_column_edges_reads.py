"""`column_edges` reads by bisection what its scans read (issue 13, throughput): the edges
of the line that holds a word's middle (`ColumnEdges._of`) and the x two lists share within
`TOL` (`_shared`). The old scans are written out here and compared on generated words on a
quarter-point grid (edges within tolerance and ties, tall words whose lines overlap)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rowkeeper.extractors.column_edges import TOL, ColumnEdges, _shared


def _shared_before(xs, ys):
    ys = sorted(ys)
    return [x for x in xs if any(abs(x - y) <= TOL for y in ys)]


def _of_before(lines, w):
    mid = (w[1] + w[3]) / 2
    for y0, y1, rights, lefts in lines:
        if y0 <= mid <= y1:
            return rights, lefts
    return [], []


_q = st.integers(0, 240).map(lambda n: n / 4)


@st.composite
def _words(draw):
    """Rows of words in a few columns, ends and starts a quarter point apart or level, some
    rows close enough to share a line, a tall word now and then (its line overlaps others)."""
    out, top = [], 100.0
    for r in range(draw(st.integers(0, 10))):
        top += draw(st.sampled_from([12.0, 12.0, 1.0, 24.25]))
        for c in range(draw(st.integers(1, 4))):
            x1 = 100.0 + 80 * c + draw(st.sampled_from([0.0, 0.0, 0.25, 0.5, 0.75]))
            height = draw(st.sampled_from([10.0, 10.0, 10.25, 30.0]))
            width = draw(st.sampled_from([10.0, 20.0, 20.25]))
            out.append((x1 - width, top, x1, top + height, draw(st.sampled_from(["12", "3,5", "Total"])), 0, r, c))
    return out


@settings(max_examples=400, deadline=None)
@given(st.lists(_q), st.lists(_q))
def test_shared_as_the_scan(xs, ys) -> None:
    assert _shared(xs, ys) == _shared_before(xs, ys)


@settings(max_examples=400, deadline=None)
@given(_words(), st.lists(_q, max_size=10))
def test_the_line_of_a_word_as_the_scan(words, mids) -> None:
    edges = ColumnEdges(words)
    probes = [*words, *((0.0, m, 1.0, m, "x", 0, 0, 0) for m in mids)]
    for w in probes:
        assert edges._of(w) == _of_before(edges._lines, w)


def test_columns_under_a_header_are_found() -> None:
    # a header over two columns of right-aligned figures: the two lines under it share the ends
    header = [(40.0, 100.0, 90.0, 110.0, "Menge", 0, 0, 0), (120.0, 100.0, 180.0, 110.0, "Preis", 0, 0, 1)]
    rows = [(70.0, 114.0 + 12 * r, 90.0, 124.0 + 12 * r, "12", 0, r + 1, 0) for r in range(2)]
    rows += [(160.0, 114.0 + 12 * r, 180.0, 124.0 + 12 * r, "3,50", 0, r + 1, 1) for r in range(2)]
    edges = ColumnEdges(header + rows)
    assert edges._of(header[0]) == ([90.0, 180.0], [])  # right-aligned: their starts are no edge
    assert edges._of(rows[-1]) == ([], [])
