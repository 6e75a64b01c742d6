"""Rows a ruled table's column rules mark where no row rule is drawn: the joints of the rules.

Some generators (bank statements, ledgers) draw each column rule as one segment per record
and no rule between the records: every column rule breaks at the same heights. Those heights
are the records' edges; without them a ruled frame around borderless records reads as one
tall row (or as one row per text line, a record's two or three lines torn apart).

Geometry over the page's ruling segments (page_features.rules_of_page) and PyMuPDF words;
the segments returned go to `find_tables(add_lines=...)` (pymupdf_extractor.py).
"""

from __future__ import annotations

from collections.abc import Sequence

import pymupdf

from rowkeeper.extractors.finder.row_rules import text_lines
from rowkeeper.extractors.page_features import rules_of_page
from rowkeeper.extractors.pymupdf_tables import hidden_spans
from rowkeeper.extractors.text_layer import shown_words
from rowkeeper.models import BBox

Segment = tuple[tuple[float, float], tuple[float, float]]

_TOL = 1.5
"""Points within which two rule ends count as one joint and two rules as one column rule."""


def joint_row_rules(page: pymupdf.Page, bbox: Sequence[float],
                    rules: tuple[Sequence[BBox], Sequence[BBox]] | None = None) -> list[Segment]:
    """Rules across the table at each height where every inner column rule (two or more)
    ends and the next segment starts, no row rule is drawn and no text line is cut: [] when
    there are fewer than two such joints (a rule broken once is a spanning cell's edge), or
    the bands between them are no records of several lines (`_records_of_lines`). `rules`:
    the page's (horizontal, vertical) ruling segments, read here when not given."""
    hs, vs = rules if rules is not None else rules_of_page(page)
    columns = _column_rules(vs, bbox)
    if len(columns) < 2:
        return []
    per_rule = [_joints(segs) for segs in columns.values()]
    shared = [y for y in per_rule[0] if all(any(abs(y - z) <= _TOL for z in js) for js in per_rule[1:])]
    ys = [y for y in shared if bbox[1] + _TOL < y < bbox[3] - _TOL and not _ruled_at(hs, bbox, y)]
    if len(ys) < 2:
        return []
    words = shown_words(page.get_text("words", clip=pymupdf.Rect(bbox)), hidden_spans(page))
    ys = sorted(y for y in ys if not any(w[1] + 1.0 < y < w[3] - 1.0 for w in words))
    if len(ys) < 2 or _records_of_lines(words, ys, sorted(columns_x(columns))) < 2:
        return []
    return [((bbox[0], y), (bbox[2], y)) for y in ys]


def columns_x(columns: dict[int, list[BBox]]) -> list[float]:
    """x of each column rule."""
    return [sum((v[0] + v[2]) / 2 for v in segs) / len(segs) for segs in columns.values()]


def _records_of_lines(words: Sequence[Sequence], ys: Sequence[float], xs: Sequence[float]) -> int:
    """How many bands between joints hold one record of several text lines; 0 when a band
    holds two lines with values in all columns or all but one (records run together: the
    joints part groups of records, and the text's lines are the rows). Where every band holds
    one line, the lines are the rows already (a grid whose column rules are drawn row by row),
    and its finer columns are found from the text of its lines, which a rule per row hides."""
    full = max(2, len(xs))  # of len(xs) + 1 columns
    n = 0
    for top, bottom in zip(ys, ys[1:], strict=False):
        lines = text_lines([w for w in words if top <= (w[1] + w[3]) / 2 <= bottom])
        complete = sum(len({sum(x <= (w[0] + w[2]) / 2 for x in xs) for w in ln}) >= full for ln in lines)
        if complete >= 2:
            return 0
        n += len(lines) >= 2
    return n


def _ruled_at(hs: Sequence[BBox], bbox: Sequence[float], y: float) -> bool:
    """Whether row rules at height y (one across, or one per cell) cover most of the width."""
    at = [h for h in hs if abs((h[1] + h[3]) / 2 - y) <= _TOL and h[2] > bbox[0] and h[0] < bbox[2]]
    covered = sum(min(h[2], bbox[2]) - max(h[0], bbox[0]) for h in at)
    return covered >= 0.9 * (bbox[2] - bbox[0])


def _column_rules(vs: Sequence[BBox], bbox: Sequence[float]) -> dict[int, list[BBox]]:
    """Vertical segments inside the table, by column rule (x in steps of `_TOL`), the frame's
    left and right rules left out."""
    out: dict[int, list[BBox]] = {}
    for v in vs:
        x = (v[0] + v[2]) / 2
        if bbox[0] + 2 * _TOL < x < bbox[2] - 2 * _TOL and v[1] >= bbox[1] - _TOL and v[3] <= bbox[3] + _TOL:
            key = round(x / _TOL)
            near = next((k for k in out if abs(k - key) <= 1), key)
            out.setdefault(near, []).append(v)
    return out


def _joints(segments: Sequence[BBox]) -> list[float]:
    """Heights where one segment of a column rule ends and the next one starts: the rule is
    continuous across them but drawn in pieces."""
    tops = [s[1] for s in segments]
    return [s[3] for s in segments if any(abs(s[3] - t) <= _TOL for t in tops)]
