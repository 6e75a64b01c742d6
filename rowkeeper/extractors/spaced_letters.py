"""Letter-spaced words read back as words: a label set with character spacing half an em wide
(`c h r F` over `J A - E N` in a Japanese table, where the CJK labels beside them are spaced
alike) comes out of MuPDF as one word per glyph, and a column edge between two of those glyphs
then parts the label (`施設 H` | `c h r F U - E N J`). A run of single glyphs on one line that
stand one even gap apart, wider than a word space and narrower than a column gap, is one
word; the run parts where the gap grows (the next label, set a little further off). Two
letters in it at least, and the words beside it further off than its spacing: dot leaders,
spaced figures (`2 0 2 3`, read by the label rules) and `1 - 2 years` stay as they are."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

Parted = Callable[[Any, Any], bool]
"""Whether a column edge parts a word from the next on its line (`column_edges.ColumnEdges.parted`)."""


def _never(a: Any, b: Any) -> bool:
    return False

LEAST_GAP = 0.36
"""The least gap, as a share of the glyphs' height, that is letter spacing: wider than any
font's word space (a quarter to a third of an em), so single letters a space apart (`A B C`)
stay words."""
MOST_GAP = 0.8
"""The widest gap (share of the height) that is letter spacing, not a gap between columns."""
EVEN = 0.25
"""How far (share of the run's first gap, plus a fifth of a point) a gap may differ from it
and still be the same letter spacing."""
MIN_RUN = 3
"""Glyphs a run needs: two glyphs show no spacing to compare."""


def _spaced(a: Any, b: Any) -> float | None:
    """The gap from word `a` to word `b` when both are single glyphs on one line, level and of
    one height, a letter spacing apart; None otherwise."""
    if len(a[4]) != 1 or len(b[4]) != 1 or a[5:7] != b[5:7]:
        return None
    height = a[3] - a[1]
    if height <= 0 or abs(b[1] - a[1]) > 0.2 * height or abs(b[3] - b[1] - height) > 0.2 * height:
        return None
    gap = b[0] - a[2]
    return gap if LEAST_GAP * height <= gap <= MOST_GAP * height else None


def _runs(words: Sequence[Any], parted: Parted) -> list[list[int]]:
    """Indices of the words, in runs of evenly letter-spaced glyphs (others alone), no run
    across a column edge (`parted`)."""
    runs: list[list[int]] = []
    step: float | None = None
    for i, w in enumerate(words):
        prev = words[runs[-1][-1]] if runs else None
        gap = _spaced(prev, w) if prev is not None and not parted(prev, w) else None
        if gap is not None and (step is None or abs(gap - step) <= EVEN * step + 0.2):
            runs[-1].append(i)
            step = step if step is not None else gap
        else:
            runs.append([i])
            step = None
    return runs


def _apart(run: list[int], words: Sequence[Any], step: float, parted: Parted) -> bool:
    """Whether the words beside a run on its line stand further off than its letter spacing
    (a run a word space from the next word is words a space apart: `1 - 2 years`), or past a
    column edge (the next label, touching)."""
    first, last = words[run[0]], words[run[-1]]
    before = words[run[0] - 1] if run[0] > 0 else None
    after = words[run[-1] + 1] if run[-1] + 1 < len(words) else None
    least = (1 + EVEN) * step + 0.2
    return (before is None or before[5:7] != first[5:7] or first[0] - before[2] > least
            or parted(before, first)) and \
        (after is None or after[5:7] != last[5:7] or after[0] - last[2] > least or parted(last, after))


def join_spaced_letters(words: Sequence[Any], parted: Parted = _never) -> list[Any]:
    """`words` (MuPDF's tuples: x0, y0, x1, y1, text, block, line, word) with each run of
    `MIN_RUN` glyphs or more one letter spacing apart, two of them letters and the words
    beside it further off, joined into one word (dot leaders and spaced figures are left to
    the rules that read them)."""
    if sum(len(w[4]) == 1 for w in words) < MIN_RUN:
        return list(words)
    ordered = sorted(words, key=lambda w: (w[5], w[6], w[0]))
    out = []
    for run in _runs(ordered, parted):
        first, last = ordered[run[0]], ordered[run[-1]]
        text = "".join(ordered[i][4] for i in run)
        if len(run) < MIN_RUN or sum(ch.isalpha() for ch in text) < 2 or \
                not _apart(run, ordered, ordered[run[1]][0] - first[2], parted):
            out += [ordered[i] for i in run]
        else:
            out.append((first[0], min(ordered[i][1] for i in run), last[2],
                        max(ordered[i][3] for i in run), text, *first[5:]))
    return out
