"""Reads cut short give what the full reads they replaced gave (issue 13, throughput): a
stacked run's column edges found by bisection in each row's sorted edges, `under_blocks`
skipping the blocks' reading where the lines under the top ones cannot cross their river, a
word's glyphs left whole without the gap statistics where no gap reaches the least cut. The
old rules are written out here as they were and compared on generated input, with edges and
gaps on a quarter-point grid so that distances tie with the tolerances."""

from __future__ import annotations

import math
import statistics

from hypothesis import given, settings
from hypothesis import strategies as st

from rowkeeper.extractors.finder.aligned_columns import text_lines
from rowkeeper.extractors.finder.key_value import EDGE, blocks_apart, under_blocks
from rowkeeper.extractors.finder.stacked_runs import SHARE, column_edges
from rowkeeper.extractors.page_model import GAP_EM, SPACED_GAP_EM, _split_at_gaps
from rowkeeper.glyphs import WIDE
from rowkeeper.models import TextLine


def _column_edges_before(rows, tol=3.0):
    need = max(2, math.ceil(SHARE * len(rows)))
    marks = sorted({round(x, 1) for row in rows for t in row for x in (t.bbox[0], t.bbox[2])})
    out = []
    for x in marks:
        if out and x - out[-1] <= 2 * tol:
            continue
        if sum(any(abs(t.bbox[k] - x) <= tol for t in row for k in (0, 2)) for row in rows) >= need:
            out.append(x)
    return out


def _under_blocks_before(words):
    lines = text_lines(words)
    for k in range(len(lines) - 2, 1, -1):
        top = [w for ln in lines[:k] for w in ln]
        blocks = blocks_apart(top)
        if blocks and abs(lines[k][0][0] - blocks[0][1] - 0.5) > EDGE and \
                all(any(blocks[0][2] < w[2] and w[0] < blocks[1][0] for w in ln) for ln in lines[k:]):
            return (max(w[3] for w in top) + min(w[1] for ln in lines[k:] for w in ln)) / 2
    return None


_q = st.integers(0, 160).map(lambda n: 40 + n / 4)


@st.composite
def _rows(draw):
    rows = []
    for r in range(draw(st.integers(1, 8))):
        xs = sorted(set(draw(st.lists(_q, min_size=1, max_size=5))))
        rows.append([TextLine(page=1, bbox=(x, 10.0 * r, x + draw(st.integers(0, 40)) / 4, 10.0 * r + 8), text="a")
                     for x in xs])
    return rows


@settings(max_examples=200, deadline=None)
@given(_rows(), st.sampled_from([0.5, 1.0, 3.0]))
def test_column_edges_as_the_scan(rows, tol) -> None:
    assert column_edges(rows, tol) == _column_edges_before(rows, tol)


_texts = st.sampled_from(["Kunde", "Name:", "12.500", "Müller GmbH", "Tel.", "01/2024", "Angebot"])


@st.composite
def _fields(draw):
    # two blocks of fields side by side (keys at 40 and 300, their values at 95.25 and 352.5),
    # then lines that run across the white between them or stay out of it: blocks_apart finds
    # the blocks in many of these, under_blocks a cut in some
    words = []
    n_top, n_under = draw(st.integers(2, 7)), draw(st.integers(0, 4))
    for r in range(n_top + n_under):
        y = 12.0 * r
        if r < n_top:
            starts = [x for x in (40.0, 95.25, 300.0, 352.5) if x in (40.0, 300.0) or draw(st.booleans())]
            widths = [draw(st.integers(20, 200)) / 4 for _ in starts]
        else:
            starts = sorted(set(draw(st.lists(_q.map(lambda x: 2.5 * x - 60), min_size=1, max_size=4))))
            widths = [draw(st.integers(4, 400)) / 4 for _ in starts]
        for j, (x, width) in enumerate(zip(starts, widths, strict=True)):
            words.append((x, y, x + width, y + draw(st.sampled_from([8.0, 9.0])), draw(_texts), 0, r, j))
    return words


@settings(max_examples=250, deadline=None)
@given(_fields())
def test_under_blocks_as_the_full_read(words) -> None:
    assert under_blocks(words) == _under_blocks_before(words)


def _split_at_gaps_before(w, glyphs):
    gaps = [b["bbox"][0] - a["bbox"][2] for a, b in zip(glyphs, glyphs[1:], strict=False)]
    height = max(c["bbox"][3] - c["bbox"][1] for c in glyphs)
    median = statistics.median(gaps)
    wide = [c["bbox"][2] - c["bbox"][0] for c in glyphs if WIDE.match(c["c"])]
    em = statistics.median(wide) if wide else height
    least = max(GAP_EM * height, min(2 * median + 0.02 * height, median + SPACED_GAP_EM * em))
    cuts = [0, *(i + 1 for i, g in enumerate(gaps) if g >= least), len(glyphs)]
    return [(glyphs[a]["bbox"][0], w[1], glyphs[b - 1]["bbox"][2], w[3], "".join(c["c"] for c in glyphs[a:b]), *w[5:])
            for a, b in zip(cuts, cuts[1:], strict=False)]


@st.composite
def _glyph_run(draw):
    x, out = 10.0, []
    for _ in range(draw(st.integers(2, 9))):
        width = draw(st.integers(1, 40)) / 4
        out.append({"c": draw(st.sampled_from("ab1顧客")), "bbox": (x, 5.0, x + width, 5.0 + draw(st.sampled_from([4.0, 8.0, 10.25])))})
        x += width + draw(st.integers(-2, 16)) / 4
    return out


@settings(max_examples=250, deadline=None)
@given(_glyph_run())
def test_a_words_gap_cuts_as_before(glyphs) -> None:
    w = (glyphs[0]["bbox"][0], 5.0, glyphs[-1]["bbox"][2], 15.0, "".join(c["c"] for c in glyphs), 0, 0, 0)
    assert _split_at_gaps(w, glyphs) == _split_at_gaps_before(w, glyphs)
