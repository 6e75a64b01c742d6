"""Columns set a word space apart: a short table whose rows each print as one text line.

A small table set close under a paragraph (`品目 | 納期[日] 日付` over `高松支店 5084 28,603.80
2026年8月21日`) leaves gaps between its columns no wider than the space a line's reader bridges:
a body row is one line, and so is a header of several labels. `close_figures` parts a body
row at its figures, but places the parts by character offsets, which a proportional face
(half-width digits, full-width kana) misses by points; and the header's labels stay one line,
so no column edge is shared by every row and the run of rows is no table. Here a part is
placed on the page's words, and a line of labels is cut where its words start at the starts
of the segments of the two rows right under it, or end at their ends: a header's
label starts where its column's cells start, or ends where its right-aligned figures end. A paragraph's words meet the segment starts of two rows of a table
only by chance, and a paragraph's line is longer than a row of labels.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rowkeeper.extractors.finder.close_figures import FIGURE_HEAD, split_row_figures
from rowkeeper.extractors.finder.field_blocks import MAX_LINE
from rowkeeper.extractors.finder.field_lines import TOL, WordsOf
from rowkeeper.extractors.finder.running_text import SENTENCE_END
from rowkeeper.models import BBox, TextLine
from rowkeeper.page_columns import text_rows


class PageWords:
    """The words of a page read once, on first need, and handed out line by line."""

    def __init__(self, words_of: WordsOf | None, lines: Sequence[TextLine]) -> None:
        self._of, self._lines = words_of, lines
        self._words: list[Any] | None = None

    def on(self, box: BBox) -> list[Any] | None:
        """The words whose middle lies on the line `box`, left to right (None: no reader)."""
        if self._of is None or not self._lines:
            return None
        if self._words is None:
            b = [ln.bbox for ln in self._lines]
            self._words = self._of((min(x[0] for x in b) - 1, min(x[1] for x in b) - 1,
                                    max(x[2] for x in b) + 1, max(x[3] for x in b) + 1))
        mid = (box[1] + box[3]) / 2
        return sorted((w for w in self._words if w[1] <= mid <= w[3] and box[0] - TOL <= (w[0] + w[2]) / 2 <= box[2] + TOL
                       and str(w[4]).strip()), key=lambda w: w[0])


def figure_parts(line: TextLine, words: PageWords) -> list[TextLine]:
    """`close_figures.split_row_figures`, each part placed on the words it is made of when the
    line's words spell the parts one after another (else as estimated)."""
    parts = split_row_figures(line)
    if len(parts) < 2:
        return parts
    on = words.on(line.bbox)
    if not on:
        return parts
    out, k = [], 0
    for p in parts:
        n = len(p.text.split())
        got = on[k:k + n]
        if len(got) < n or " ".join(str(w[4]) for w in got) != " ".join(p.text.split()):
            return parts
        out.append(p.model_copy(update={"bbox": (got[0][0], p.bbox[1], got[-1][2], p.bbox[3])}))
        k += n
    return out if k == len(on) else parts


def cut_label_lines(segs: Sequence[TextLine], words: PageWords) -> list[TextLine]:
    """`segs`, each short line of labels (two words or more, no figure) after another segment
    of its row cut before each word that starts where a segment of each of the two rows right
    under it starts, and after each that ends where one ends, each part over a segment of both
    rows (a table's columns set a word space apart: its header line over its body rows)."""
    rows = text_rows(segs)
    out: list[TextLine] = []
    for i, row in enumerate(rows):
        for t in row:
            later = any(s.bbox[2] <= t.bbox[0] for s in row)  # a header's later labels
            edges = _column_edges(t, rows, i) if later and _label_line(t) else ([], [])
            out += _headed(_cut(t, edges, words), rows[i + 1:i + 3], t) if any(edges) else [t]
    return out


def _headed(parts: list[TextLine], near: Sequence[Sequence[TextLine]], t: TextLine) -> list[TextLine]:
    """The parts when each stands over a segment of each row under it (a label over its
    column's cells), else the line whole: a list item's mark ("a.") has its wrapped lines
    under its text, nothing under the mark."""
    if all(any(min(p.bbox[2], s.bbox[2]) > max(p.bbox[0], s.bbox[0]) for s in r) for p in parts for r in near):
        return parts
    return [t]


def _label_line(t: TextLine) -> bool:
    """A line that may be a header's labels set close: two words or more, no figure, short, no
    sentence's end."""
    words = t.text.split()
    return 2 <= len(words) and len(t.text) <= MAX_LINE and not any(FIGURE_HEAD.match(w) for w in words) \
        and t.text.rstrip()[-1:] not in SENTENCE_END


def _column_edges(t: TextLine, rows: Sequence[Sequence[TextLine]], i: int) -> tuple[list[float], list[float]]:
    """The segment starts and ends inside `t` shared by both rows right under it (`_rows_under`):
    where a column of left-aligned cells starts, where one of right-aligned figures ends."""
    near = rows[i + 1:i + 3]
    if len(near) < 2 or not _rows_under(t, near):
        return [], []
    starts, ends = ([_shared([[s.bbox[k] for s in r if t.bbox[0] + TOL < s.bbox[k] < t.bbox[2] - TOL] for r in near])
                     for k in (0, 2)])
    return starts, ends


def _rows_under(t: TextLine, near: Sequence[Sequence[TextLine]]) -> bool:
    """Whether two rows stand under `t` as a table's first rows under its header: the second
    at most four times its height under the first (rows padded apart), the first under `t` no
    further than half as much again as the second under it."""
    first, second = near[0][0].bbox, near[1][0].bbox
    pitch = second[1] - first[1]
    return 0 < pitch <= 4 * (second[3] - second[1]) and 0 < first[1] - t.bbox[1] <= 1.5 * pitch


def _shared(xs: Sequence[Sequence[float]]) -> list[float]:
    """The x of the first row that the second row has too."""
    return [x for x in xs[0] if any(abs(x - y) <= TOL for y in xs[1])]


def _cut(t: TextLine, edges: tuple[list[float], list[float]], words: PageWords) -> list[TextLine]:
    """`t` in parts, one starting at each of its words that starts at one of the column starts,
    or follows a word that ends at one of the column ends (itself when none does, or its words
    do not spell it)."""
    starts, ends = edges
    on = words.on(t.bbox)
    if not on or " ".join(str(w[4]) for w in on) != " ".join(t.text.split()):
        return [t]
    parts: list[list[Any]] = []
    for k, w in enumerate(on):
        if not parts or (k and (any(abs(w[0] - x) <= TOL for x in starts)
                                or any(abs(on[k - 1][2] - x) <= TOL for x in ends))):
            parts.append([])
        parts[-1].append(w)
    if len(parts) < 2:
        return [t]
    return [t.model_copy(update={"text": " ".join(str(w[4]) for w in p), "bold_lead": None,
                                 "bbox": (p[0][0], t.bbox[1], p[-1][2], t.bbox[3])}) for p in parts]
