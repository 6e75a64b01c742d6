"""body_font_size is the character-weighted median of the prose lines' sizes (computed without
expanding one entry per character, which cost a prose page more than its whole text read)."""

from __future__ import annotations

import statistics

from hypothesis import given
from hypothesis import strategies as st

from rowkeeper.models import TextLine
from rowkeeper.transforms.headings import PROSE_LINE, body_font_size

_LINES = st.lists(st.tuples(st.sampled_from([8.0, 9.5, 10.0, 10.5, 12.0, 14.0]), st.integers(1, 260)),
                  min_size=1, max_size=12)


def _line(i: int, size: float, n: int) -> TextLine:
    return TextLine(page=1, bbox=(72.0, 72.0 + 12 * i, 500.0, 82.0 + 12 * i), text="x" * n, font_size=size)


@given(_LINES)
def test_body_font_size_is_the_char_weighted_median_of_prose_lines(rows: list[tuple[float, int]]) -> None:
    lines = [_line(i, size, n) for i, (size, n) in enumerate(rows)]
    prose = [ln for ln in lines if len(ln.text) >= PROSE_LINE] or lines
    expected = statistics.median([ln.font_size for ln in prose for _ in range(min(len(ln.text), 200))])
    assert body_font_size(lines) == expected


def test_body_font_size_of_no_sized_line_is_ten_points() -> None:
    assert body_font_size([TextLine(page=1, bbox=(0, 0, 1, 1), text="Title", font_size=0.0)]) == 10.0
