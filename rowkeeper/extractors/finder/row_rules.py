"""Rules that make a table's rows where the text's lines alone would not: lines of figures
packed in one ruled frame, rules between the rows of a borderless table, tables side by side.

Geometry over PyMuPDF words (x0, y0, x1, y1, text, ...) and ruling segments of one page;
the options it returns go to `find_tables` (pymupdf_extractor.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pymupdf

from rowkeeper.extractors.finder.rule_breaks import broken_rules
from rowkeeper.extractors.page_features import rules_of_page
from rowkeeper.extractors.pymupdf_tables import hidden_spans
from rowkeeper.extractors.text_layer import shown_words
from rowkeeper.models import BBox

Segment = tuple[tuple[float, float], tuple[float, float]]


def pad(r: Sequence[float], by: float = 2.0) -> pymupdf.Rect:
    """`r` grown by `by` points on every side."""
    return pymupdf.Rect(r[0] - by, r[1] - by, r[2] + by, r[3] + by)


Rules = tuple[list[BBox], list[BBox]]
"""A page's horizontal and vertical ruling segments (`page_features.rules_of_page`)."""


def side_by_side(page: pymupdf.Page, region: Sequence[float],
                 rules: Rules | None = None) -> list[tuple[float, float, float, float]]:
    """The parts of an aligned region that hold tables side by side (one run of aligned rows
    to the page features), each ruled between its rows by rules of its own width: [] unless
    every rule of a part spans it, at three heights or more, each part is a quarter of the
    region wide or more, and every word of the region lies inside one part (underlines
    under columns of figures, beside unruled labels, are no tables side by side). `rules`: the
    page's, when the caller has them (else read here)."""
    hs = [r for r in (rules or rules_of_page(page))[0] if region[1] - 30 <= r[1] <= region[3] + 30
          and r[2] > region[0] and r[0] < region[2]]
    groups: list[list[BBox]] = []
    for r in sorted(hs):
        if groups and r[0] < max(g[2] for g in groups[-1]) + 6.0:  # abutting pieces of one rule too
            groups[-1].append(r)
        else:
            groups.append([r])
    parts = []
    for g in groups:
        a, b = min(r[0] for r in g), max(r[2] for r in g)
        full = [r for r in g if r[2] - r[0] >= 0.9 * (b - a)]
        if len(full) < len(g) or len({round(r[1]) for r in g}) < 3 or b - a < 0.25 * (region[2] - region[0]):
            return []
        parts.append((max(a, region[0] - 2), region[1], min(b, region[2] + 2), region[3]))
    if len(parts) < 2:
        return []
    words = shown_words(page.get_text("words", clip=pad(region)), hidden_spans(page))
    if any(not any(p[0] - 1 <= w[0] and w[2] <= p[2] + 1 for p in parts) for w in words):
        return []
    if any(_one_column([w for w in words if p[0] - 1 <= w[0] and w[2] <= p[2] + 1]) for p in parts):
        # a table has two columns: a part whose words stand in one column is a column of one
        # table whose rules break at its column gaps (issue 13, zoo dev16 row_rules-272-ja)
        return []
    return parts


def _one_column(words: Sequence[Any]) -> bool:
    """Whether `words` stand in one column: their x extents overlap in one run across, no
    white stretch between them from top to bottom."""
    reach = None
    for w in sorted(words, key=lambda w: w[0]):
        if reach is not None and w[0] > reach:
            return False
        reach = w[2] if reach is None else max(reach, w[2])
    return True


def row_rules(page: pymupdf.Page, words: Sequence[Any], edges: Sequence[float],
              region: Sequence[float], rules: Rules | None = None) -> dict[str, Any]:
    """Options that take a borderless table's rows from its rules, when rules across its
    width run between every pair of records (a table ruled between rows only): a cell's
    wrapped lines then stay in its row, and the lines wrapped below the aligned region down
    to the closing rule come with it. {} when the rules leave some band holding several lines
    of values (a rule under the header and one at the foot: the text rows are the rows)."""
    left, right = edges[0], edges[-1]
    height = sorted(w[3] - w[1] for w in words)[len(words) // 2]
    hs = (rules or rules_of_page(page))[0]
    # a rule broken at the column gaps parts the records as a whole one does
    joined = [(a, y, b, y) for a, b, ys in broken_rules(hs) for y in ys]
    across = [r for r in [*hs, *joined]
              if r[0] <= left + 0.05 * (right - left) and r[2] >= right - 0.05 * (right - left)
              and region[1] - 2 * height <= (r[1] + r[3]) / 2 <= region[3] + 8 * height]
    ys = sorted({round((r[1] + r[3]) / 2, 1) for r in across})
    inside = [y for y in ys if region[1] + 0.5 * height < y < region[3] - 0.5 * height]
    if len(inside) < 2:
        return {}
    below = [y for y in ys if y >= region[3] - 0.5 * height]
    bottom = below[0] if below else region[3]
    if max((w[1] + w[3]) / 2 for w in words) < inside[-1]:
        # a rule under every record, the last one's too: nothing runs on below it (the next
        # rule down is another table's, under a heading between)
        inside, bottom = inside[:-1], inside[-1]
    # wrapped lines below the region may reach past its words, not past the rules
    reach = min(r[2] for r in across)
    everything = [w for w in shown_words(page.get_text("words", clip=pymupdf.Rect(left - 1, region[1] - 1, reach, bottom)),
                                          hidden_spans(page)) if w[0] >= left - 1]
    right = max([right, *(w[2] for w in everything)])
    edges = [*edges[:-1], right]
    top, head = min(w[1] for w in words), region[1]
    over = text_lines([w for w in everything if (w[1] + w[3]) / 2 <= inside[0]])
    while len(over) > 1 and (_cut_by(over[0], edges[1:-1]) or _set_over(over, [*inside, bottom])):
        # a caption or heading over the first record, with no rule over that record: the
        # columns cut through its words, as through no line of a record, or it stands a
        # record's distance over the first one
        over = over[1:]
        top = head = min(w[1] for w in over[0])
        everything = [w for w in everything if w[1] >= top - 0.5]
    bounds = [head, *inside, bottom]
    for a, b in zip(bounds, bounds[1:], strict=False):
        band = [w for w in everything if a <= (w[1] + w[3]) / 2 <= b]
        filled = [len({_column_of((w[0] + w[2]) / 2, edges[1:-1]) for w in ln}) for ln in text_lines(band)]
        # records: three lines with values in two columns or more, or two complete ones (a
        # cell wrapped beside another wrapped cell fills two columns of the second line)
        if sum(n >= 2 for n in filled) >= 3 or sum(n >= len(edges) - 1 for n in filled) >= 2:
            return {}
    # the rules' heights too: a rule broken at the column gaps makes no edge of the cells it skips
    return {"horizontal_strategy": "lines", "horizontal_lines": [top - 1.0, *inside, bottom],
            "vertical_lines": list(edges), "clip": pad((left, head, right, bottom))}


def _cut_by(line: Sequence[Any], inner: Sequence[float]) -> bool:
    """Whether a line is one phrase that an inner column edge runs through: a header's labels
    stand a column gap apart, each in its column."""
    return _one_phrase(line) and any(w[0] + 1.0 < x < w[2] - 1.0 for w in line for x in inner)


def _set_over(over: Sequence[Sequence[Any]], rules: Sequence[float]) -> bool:
    """Whether the first of the lines over a table's first rule (`over`; `rules`: the heights
    of the rules under the records) is no line of the first record: one phrase, half a line
    height or more over the next line (a cell's wrapped lines stand closer), and the lines
    under it as far from that rule as the rules are apart, the first record whole without it
    (a caption set a row pitch over a block of fields ruled under each row, its column gap
    wider than the caption: issue 13, zoo dev16 headerless_kv-281-vi)."""
    first, below = over[0], over[1]
    height = max(w[3] - w[1] for w in first)
    if not _one_phrase(first) or min(w[1] for w in below) - max(w[3] for w in first) < 0.5 * height:
        return False
    pitch = min(b - a for a, b in zip(rules, rules[1:], strict=False))
    return rules[0] - min(w[1] for w in below) <= pitch


def _one_phrase(line: Sequence[Any]) -> bool:
    """Whether a line's words stand a word space apart (less than half its height)."""
    words = sorted(line, key=lambda w: w[0])
    height = max(w[3] - w[1] for w in words)
    return all(b[0] - a[2] < 0.5 * height for a, b in zip(words, words[1:], strict=False))


def packed_row_rules(page: pymupdf.Page, tab: Any) -> list[Segment]:
    """Rules to add to a ruled table whose body is a frame around borderless rows (column
    rules in the header only): the header's column edges and a rule between text lines, inside
    each row that is one cell over several columns holding lines of figures.

    A cell counts when its text runs over at least three lines and at least two of them hold
    a number and fall in two or more of the columns it spans: records run together, not a
    wrapped paragraph (a row whose columns are ruled keeps its multi-line cells)."""
    edges = column_edges(tab)
    if len(edges) < 3:
        return []
    words = [w for w in shown_words(page.get_text("words", clip=pymupdf.Rect(tab.bbox)), hidden_spans(page)) if w[4].strip()]
    add: list[Segment] = []
    for row in tab.rows:
        packed = False
        for c in row.cells:
            inner = [x for x in edges if c is not None and c[0] + 1.0 < x < c[2] - 1.0]
            if not inner:
                continue
            lines = text_lines([w for w in words if c[0] <= (w[0] + w[2]) / 2 <= c[2]
                                 and c[1] <= (w[1] + w[3]) / 2 <= c[3]])
            spread = sum(1 for ln in lines if any(ch.isdigit() for w in ln for ch in w[4])
                         and len({_column_of((w[0] + w[2]) / 2, inner) for w in ln}) >= 2)
            if len(lines) < 3 or spread < 2:
                continue
            add += [((x, c[1]), (x, c[3])) for x in inner]
            packed = True
        if packed:  # between the lines of the whole row: a label line of its own (a group
            # heading beside no figures) keeps its row too
            top, bottom = row.bbox[1], row.bbox[3]
            lines = text_lines([w for w in words if top <= (w[1] + w[3]) / 2 <= bottom])
            for a, b in zip(lines, lines[1:], strict=False):
                y = (max(w[3] for w in a) + min(w[1] for w in b)) / 2
                add.append(((tab.bbox[0], y), (tab.bbox[2], y)))
    return add


def column_edges(tab: Any, tol: float = 2.0) -> list[float]:
    """x of every cell edge of a table (spanning header cells bring the finer columns)."""
    xs = sorted(x for r in tab.rows for c in r.cells if c for x in (c[0], c[2]))
    out: list[float] = []
    for x in xs:
        if not out or x - out[-1] > tol:
            out.append(x)
    return out


def _column_of(x: float, inner: Sequence[float]) -> int:
    return sum(1 for e in inner if e <= x)


def text_lines(words: Sequence[Any]) -> list[list[Any]]:
    """Words grouped into lines: vertical centres within half a word height of the line's."""
    lines: list[list[Any]] = []
    for w in sorted(words, key=lambda w: (w[1] + w[3]) / 2):
        cy = (w[1] + w[3]) / 2
        if lines:
            ref = lines[-1][0]
            if abs((ref[1] + ref[3]) / 2 - cy) <= 0.5 * (ref[3] - ref[1]):
                lines[-1].append(w)
                continue
        lines.append([w])
    return lines
