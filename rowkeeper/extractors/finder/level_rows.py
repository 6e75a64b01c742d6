"""How many rows of two or more segments a page's text can make at most: a cheap bound that
lets the aligned-runs pass (`text_runs.aligned_regions`) skip a page set line under line.

The aligned-runs pass groups text segments into rows (`page_columns.text_rows`: a segment joins
the row whose first segment's centre is within half its own height of its centre) and needs
`min_rows` rows of two segments or more before it calls a run a table. It reads several subsets
of the page's lines (each page column, the sides of a gutter, the lines outside running text),
and each line may split into several segments (wide gaps, figures set a word apart). Whatever
the subset, a segment that joins a row has, in the page's own order by centre, a predecessor
within that half height: a row of two segments or more holds one such "joiner" at least, and
rows do not share segments. So when the page has fewer joiners than `min_rows`, the pass
finds no region in any subset, and its answer is known without running it (a prose page: most
of its lines stand alone; running heads and a page number beside a title make one or two).
"""

from __future__ import annotations

from collections.abc import Sequence

from rowkeeper.extractors.finder.close_figures import FIGURE_HEAD, split_figures
from rowkeeper.extractors.finder.text_runs import WIDE_GAP
from rowkeeper.models import TextLine


def _segments_at_most(line: TextLine) -> int:
    """An upper bound on the segments the aligned-runs pass cuts `line` into."""
    if WIDE_GAP.search(line.text):
        # text_runs' own split pattern (so the two cannot drift): a line holding one counts as
        # splitting into as many segments as it has characters (a bound, never too low)
        return max(1, len(line.text))
    # split_figures keeps a line whole unless every word, the first included, is a figure
    return len(split_figures(line)) if FIGURE_HEAD.match(line.text.lstrip()) else 1


def joiners(lines: Sequence[TextLine]) -> int:
    """An upper bound on the rows of >= 2 segments that any subset of `lines` groups into."""
    keyed = sorted((((ln.bbox[1] + ln.bbox[3]) / 2, ln.bbox[3] - ln.bbox[1], ln) for ln in lines),
                   key=lambda k: k[0])
    n = 0
    for i, (cy, h, ln) in enumerate(keyed):
        n += _segments_at_most(ln) - 1  # a line's own segments stand level with each other
        level_above = i > 0 and cy - keyed[i - 1][0] <= max(h, 2.0) / 2
        tie_below = i + 1 < len(keyed) and keyed[i + 1][0] == cy  # an equal centre sorts either way
        n += level_above or tie_below
    return n


def no_aligned_rows(lines: Sequence[TextLine], min_rows: int = 3) -> bool:
    """Whether `lines` cannot hold `min_rows` rows of two segments or more, in any subset: the
    aligned-runs pass then finds nothing (no region, no row, no numeric cell)."""
    return joiners(lines) < min_rows
