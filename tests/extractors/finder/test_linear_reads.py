"""The finder's linear reads give what the quadratic ones they replaced gave (issue 13,
throughput): `anchors` taking a group of marks as a run of the sorted marks, `_values_left`
counting with a sliding window, `running` kept per text. The old rules are written out here
as they were and compared on generated lines, ties and edges within tolerance included."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from rowkeeper.extractors.finder.aligned_columns import _edges, anchors, phrase_ends
from rowkeeper.extractors.finder.key_value import EDGE, _values_left
from rowkeeper.models import TextLine
from rowkeeper.page_columns import running


def _anchors_before(lines, min_gap, tol=1.5, share=0.5):
    need = max(3, math.ceil(share * len(lines)))
    out = []
    for kind in ("left", "right", "decimal"):
        marks = sorted((x, r, i) for r, ln in enumerate(lines) for x, i in _edges(ln, kind))
        k = 0
        while k < len(marks):
            group = [m for m in marks[k:] if m[0] - marks[k][0] <= tol]
            held = {}
            for _, r, i in group:
                held.setdefault(r, i)
            n = sum(i in phrase_ends(lines[r], min_gap)[0 if kind == "left" else 1] for r, i in held.items())
            if len(held) >= need and n >= 2 / 3 * len(held):
                out.append(((kind, sum(m[0] for m in group) / len(group)), held))
                k += len(group)
            else:
                k += 1
    return out


def _values_left_before(lines, gap):
    starts = sorted(ln[i][0] for ln in lines for i in phrase_ends(ln, gap)[0] if i)
    return max(starts, key=lambda x: (sum(abs(y - x) <= EDGE for y in starts), -x))


# x in steps of a quarter point on a short range: many edges within tolerance of each other
_xs = st.integers(0, 400).map(lambda n: 40 + n / 4)
_texts = st.sampled_from(["Total", "1.234,50", "12.5", "Müller GmbH", "7", "—", "3,141", "ab"])


@st.composite
def _lines(draw):
    out = []
    for r in range(draw(st.integers(1, 9))):
        xs = sorted(set(draw(st.lists(_xs, min_size=1, max_size=6))))
        words = [(x, 10.0 * r, x + draw(st.integers(1, 60)) / 4, 10.0 * r + 8, draw(_texts), 0, r, j)
                 for j, x in enumerate(xs)]
        out.append(words)
    return out


@settings(max_examples=300, deadline=None)
@given(_lines(), st.sampled_from([0.5, 2.0, 6.0]))
def test_anchors_as_before(lines, min_gap):
    assert anchors(lines, min_gap) == _anchors_before(lines, min_gap)


@settings(max_examples=300, deadline=None)
@given(_lines(), st.sampled_from([0.5, 2.0, 6.0]))
def test_values_left_as_before(lines, gap):
    if not any(len(phrase_ends(ln, gap)[0]) >= 2 for ln in lines):
        return  # no value start: the callers ask only blocks with one
    assert _values_left(lines, gap) == _values_left_before(lines, gap)


def test_running_as_before_and_per_text():
    def line(text):
        return TextLine(page=1, bbox=(0.0, 0.0, 100.0, 10.0), text=text)

    prose = "The committee reviewed the budget for the coming year in detail"
    assert running(line(prose)) and running(line(prose))  # asked twice, the same answer
    assert not running(line("1.234 5.678 9.012 3.456 7.890 1.234 5.678"))
    assert not running(line("Total"))
    assert running(line("東京都の売上高は前年より増加しました。"))


def test_char_cells_as_before():
    from rowkeeper.glyphs import WIDE, WIDE_CELLS, char_cells

    for text in ["", "Total", "Müller GmbH", "1.234,50", "高松 10", "売上高", "ｱｲｳ", "Ａ1", "—", "東京 Tokyo 2024"]:
        before = sum(WIDE_CELLS if WIDE.match(ch) else 1 for ch in text)
        assert char_cells(text) == before and type(char_cells(text)) is type(before)
