"""Ruled tables re-read where their rules tell only part of the structure: rules between rows
only (columns from the text), rules framing groups of rows and columns (the text's rows and
columns inside), records parted at the column rules' joints, packed rows, an open stub column."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pymupdf

from rowkeeper.extractors.finder.figure_words import is_figure, mostly_numbers
from rowkeeper.extractors.finder.projection import projection_gaps
from rowkeeper.extractors.finder.reads import TEXT, TEXT_COLUMNS, find_on, words_at
from rowkeeper.extractors.finder.row_rules import packed_row_rules
from rowkeeper.extractors.finder.row_rules import pad as _pad
from rowkeeper.extractors.finder.rule_joints import joint_row_rules
from rowkeeper.extractors.page_features import rules_of_page
from rowkeeper.models import DocumentInput

_STUB_GAP = 60.0
"""Points between row labels and a grid's first rule beyond which the words are not its labels."""


def repair(doc: DocumentInput, page: pymupdf.Page, pno: int, kwargs: dict[str, Any],
           tab: Any) -> Any:
    """A table ruled between rows only, re-read with columns from text alignment."""
    if not _degenerate(tab):
        return tab
    for strategy in (TEXT_COLUMNS, TEXT):
        again = find_on(doc, page, pno, {**kwargs, **strategy, "clip": _pad(tab.bbox)})
        if len(again) == 1 and not _degenerate(again[0]):
            break
    else:
        return tab
    # Text columns start at the left edge of right-aligned numbers, cutting wider header
    # labels; rules placed in the middle of each gap between columns keep both whole.
    xs = _gap_midlines(page, again[0])
    if not xs:
        return again[0]
    ruled = {**kwargs, "vertical_strategy": "explicit", "horizontal_strategy": strategy["horizontal_strategy"],
             "vertical_lines": [tab.bbox[0], *xs, tab.bbox[2]], "clip": _pad(tab.bbox)}
    final = find_on(doc, page, pno, ruled)
    return final[0] if len(final) == 1 and not _degenerate(final[0]) else again[0]


def unpack(doc: DocumentInput, page: pymupdf.Page, pno: int, kwargs: dict[str, Any],
           tab: Any) -> Any:
    """A ruled table whose rules frame groups of rows and columns only (a header box, rules
    between column groups, an open body): its body cells stack several rows of figures.
    Re-read with the rules kept and the columns and rows the text shows inside them."""
    if not _stacked_figures(page, tab):
        return tab
    words = words_at(page, _pad(tab.bbox))
    ruled_xs = sorted({round(c[i], 2) for r in tab.rows for c in r.cells if c for i in (0, 2)})
    inner = ruled_xs[1:-1]
    seps = []  # the columns of figures each ruled column's own words show
    for lo, hi in zip(ruled_xs, ruled_xs[1:], strict=False):
        inside = [w for w in words if lo <= (w[0] + w[2]) / 2 < hi]
        cuts = [lo, *(x for x in (projection_gaps(inside) if inside else []) if lo < x < hi), hi]
        figures = [_figures([w for w in inside if a <= (w[0] + w[2]) / 2 < b])
                   for a, b in zip(cuts, cuts[1:], strict=False)]
        # "40 | years" a space apart in a label column is one label: only figures beside figures split
        seps += [x for i, x in enumerate(cuts[1:-1]) if figures[i] and figures[i + 1]]
    if not seps:
        return tab  # rows alone: the cell texts' lines are split downstream
    # outer rules on the words' extent, as in `_borderless`: text-strategy row edges reach
    # no further, and a frame rule beyond them would drop the first and last columns
    left, right = min(w[0] for w in words), max(w[2] for w in words)
    lines = sorted(x for x in [*inner, *seps] if left < x < right)
    again = find_on(doc, page, pno, {**kwargs, "vertical_strategy": "explicit",
                                   "horizontal_strategy": "text",
                                   "vertical_lines": [left, *lines, right], "clip": _pad(tab.bbox)})
    return again[0] if len(again) == 1 and again[0].row_count > tab.row_count else tab


def ruled_fixups(doc: DocumentInput, page: pymupdf.Page, pno: int, kwargs: dict[str, Any], tab: Any,
                  rules: tuple[list[Any], list[Any]] | None = None) -> Any:
    """A ruled table with its records parted at its column rules' joints and its packed rows
    split, then its open stub column added (each re-read keeps the rules the last one added)."""
    tab, kwargs = _split_joint_rows(doc, page, pno, kwargs, tab, rules)
    tab, kwargs = _split_packed_rows(doc, page, pno, kwargs, tab)
    tab, kwargs = _open_sides(doc, page, pno, kwargs, tab, rules)
    return _stub_column(doc, page, pno, kwargs, tab)


def _row_edge(y: float, left: float, right: float, boxes: Sequence[Any]) -> list[tuple[tuple[float, float], ...]]:
    """The row edge at `y` from `left` to `right`, less where a cell of the table spans over
    it (a header box down two rows: `Difference` beside the years' row keeps its span)."""
    cuts = sorted((b[0], b[2]) for b in boxes if b[1] < y - 1 and b[3] > y + 1)
    out, x = [], left
    for a, b in cuts:
        if a > x:
            out.append(((x, y), (a, y)))
        x = max(x, b)
    if right > x:
        out.append(((x, y), (right, y)))
    return out


def _rules_at(rules: Sequence[Any], y: float, lo: float, hi: float) -> bool:
    """Whether a rule runs at height `y` between `lo` and `hi` (a row edge drawn out into an
    open side, not one a box down two rows there leaves open)."""
    return any(abs((h[1] + h[3]) / 2 - y) <= 1.5 and h[0] < hi - 1 and h[2] > lo + 1 for h in rules)


def _open_sides(doc: DocumentInput, page: pymupdf.Page, pno: int, kwargs: dict[str, Any], tab: Any,
                rules: tuple[list[Any], list[Any]] | None = None) -> tuple[Any, dict[str, Any]]:
    """A ruled table whose frame is open at a side: its row rules run on past the outer column
    rule to the table's edge, and the text there (a label column, a last column of figures)
    stands between them. Re-read with a column rule where those row rules end."""
    x0, top, x1, bottom = tab.bbox
    hs = (rules or rules_of_page(page))[0]
    across = [h for h in hs if top - 1.5 <= (h[1] + h[3]) / 2 <= bottom + 1.5 and h[0] < x1 + 3 and h[2] > x0 - 3]
    if len(across) < 2:
        return tab, kwargs
    add = []
    for edge, inner in ((min(h[0] for h in across), x0), (max(h[2] for h in across), x1)):
        lo, hi = min(edge, inner), max(edge, inner)
        # two rules or more reach out there, and words stand between them
        if hi - lo < 10 or _rules_across(across, lo, hi) < 2:
            continue
        words = [w for w in words_at(page, pymupdf.Rect(lo + 0.5, top, hi - 0.5, bottom)) if w[4].strip()]
        if words:
            add.append(((edge, top), (edge, bottom)))
    if not add:
        return tab, kwargs
    # the table's row edges run out to the new sides too: a rule that stops short of an open
    # side (a header's top rule over the figure columns only) leaves no cell half-closed there
    left, right = min(x0, *(a[0][0] for a in add)), max(x1, *(a[0][0] for a in add))
    ys = sorted({round(r.bbox[1], 2) for r in tab.rows} | {round(bottom, 2)})
    boxes = [c for r in tab.rows for c in r.cells if c]
    # out in a new side band, an inner row edge only where a rule runs there (a box down two
    # rows at the open side stays one cell)
    edges = [((a, y), (b, y)) for y in ys for (p, _), (q, _) in _row_edge(y, left, right, boxes)
             for a, b in ((p, min(q, x0)), (max(p, x0), min(q, x1)), (max(p, x1), q))
             if b - a > 0.5 and (y in (ys[0], ys[-1]) or (a >= x0 - 0.5 and b <= x1 + 0.5) or _rules_at(across, y, a, b))]
    more = {**kwargs, "add_lines": [*kwargs.get("add_lines", []), *add, *edges]}
    again = find_on(doc, page, pno, {**more, "clip": _pad((left, top, right, bottom))})
    if len(again) == 1 and again[0].col_count == tab.col_count + len(add) and again[0].row_count == tab.row_count \
            and _complete(again[0]) >= _complete(tab):
        return again[0], more
    return tab, kwargs


def _complete(tab: Any) -> float:
    """Share of a table's rows whose every slot is a cell of its own (no span)."""
    return sum(all(c is not None for c in r.cells) for r in tab.rows) / max(tab.row_count, 1)


def _stub_column(doc: DocumentInput, page: pymupdf.Page, pno: int, kwargs: dict[str, Any], tab: Any) -> Any:
    """A ruled table whose row labels stand left of its first rule (an open stub column): the
    table re-read with one more rule left of the labels, so they keep their rows.

    Labels count when words (mostly letters) left of the grid, ending within `_STUB_GAP` of it, sit in at least
    half of the rows, and the text they stand in does not go on above or below the table (that
    is a paragraph in the next column of the page, whose lines fall into rows by chance)."""
    x0, top, _, bottom = tab.bbox
    rows = [r.bbox for r in tab.rows]
    words = [w for w in words_at(page, pymupdf.Rect(0, top, x0, bottom))
             if w[2] <= x0 + 0.5 and w[4].strip()]
    if not words or x0 - max(w[2] for w in words) > _STUB_GAP:
        return tab
    if sum(any(ch.isalpha() for ch in w[4]) for w in words) < 0.5 * len(words):
        return tab  # labels are words: a column of codes or numbers out there is not the stub
    if any(not any(r[1] <= (w[1] + w[3]) / 2 <= r[3] for r in rows) for w in words):
        return tab
    labelled = {i for i, r in enumerate(rows) for w in words if r[1] <= (w[1] + w[3]) / 2 <= r[3]}
    if len(labelled) < max(2, 0.5 * len(rows)):
        return tab
    left = min(w[0] for w in words) - 1.0
    pitch = 1.5 * sorted(w[3] - w[1] for w in words)[len(words) // 2]
    beside = pymupdf.Rect(left, top - pitch, max(w[2] for w in words), bottom + pitch)
    if any(not top <= (w[1] + w[3]) / 2 <= bottom for w in words_at(page, beside)):
        return tab
    edges = sorted({round(r[1], 2) for r in rows} | {round(bottom, 2)})
    again = find_on(doc, page, pno, {**kwargs, "vertical_lines": [left], "horizontal_lines": edges,
                                   "clip": _pad((left, top, tab.bbox[2], bottom))})
    return again[0] if len(again) == 1 and again[0].col_count == tab.col_count + 1 else tab


def _split_joint_rows(doc: DocumentInput, page: pymupdf.Page, pno: int, kwargs: dict[str, Any],
                      tab: Any, rules: tuple[list[Any], list[Any]] | None = None) -> tuple[Any, dict[str, Any]]:
    """A ruled table re-read with a row rule at each joint of its column rules
    (`joint_row_rules`: rules drawn one segment per record), and the kwargs that did it;
    `rules`: the page's ruling segments, when the caller has read them."""
    return _reread_with_rows(doc, page, pno, kwargs, tab, joint_row_rules(page, tab.bbox, rules))


def _split_packed_rows(doc: DocumentInput, page: pymupdf.Page, pno: int, kwargs: dict[str, Any],
                       tab: Any) -> tuple[Any, dict[str, Any]]:
    """A ruled table re-read with `packed_row_rules` added (and the kwargs that did it), so
    the lines of figures in its frame become rows of cells; as it was when none apply."""
    return _reread_with_rows(doc, page, pno, kwargs, tab, packed_row_rules(page, tab))


def _reread_with_rows(doc: DocumentInput, page: pymupdf.Page, pno: int, kwargs: dict[str, Any],
                      tab: Any, add: Sequence[Any]) -> tuple[Any, dict[str, Any]]:
    """`tab` re-read inside its frame with the row rules `add` (and the kwargs that did it),
    kept only when it is still one table with more rows; as it was otherwise."""
    if not add:
        return tab, kwargs
    more = {**kwargs, "add_lines": [*kwargs.get("add_lines", []), *add]}
    again = find_on(doc, page, pno, {**more, "clip": _pad(tab.bbox)})
    if len(again) == 1 and again[0].row_count > tab.row_count:
        return again[0], more
    return tab, kwargs


def _rules_across(hs: Sequence[Any], lo: float, hi: float, tol: float = 1.5) -> int:
    """How many heights have rules (one, or segments end to end) running from `lo` to `hi`."""
    by_y: dict[int, list[Any]] = {}
    for h in hs:
        by_y.setdefault(round((h[1] + h[3]) / 2), []).append(h)
    n = 0
    for segs in by_y.values():
        reach = lo
        for h in sorted(segs, key=lambda h: h[0]):
            if h[0] <= reach + tol:
                reach = max(reach, h[2])
        n += reach >= hi - tol and min(h[0] for h in segs) <= lo + tol
    return n


def _stacked_figures(page: pymupdf.Page, tab: Any) -> bool:
    """Whether a body cell of a ruled table holds at least three lines of figures (rows the
    rules did not split; a cell of wrapped prose does not count)."""
    for row in tab.rows[1:]:
        for c in row.cells:
            if not c or c[3] - c[1] < 20:
                continue
            per_line: dict[int, list[Any]] = {}
            for w in words_at(page, pymupdf.Rect(c)):
                per_line.setdefault(round(w[3] / 3), []).append(w)
            if sum(mostly_numbers(line) for line in per_line.values()) >= 3:
                return True
    return False


def _figures(words: Sequence[Any]) -> bool:
    """Whether most of the words are figures (at least as many digits as letters)."""
    n = sum(is_figure(w[4]) for w in words)
    return n > 0.5 * len(words)


def _degenerate(tab: Any) -> bool:
    """Most rows are one cell across the table: rules between rows only, no column rules."""
    if tab.col_count < 2:
        return True
    single = sum(1 for r in tab.rows if sum(c is not None for c in r.cells) <= 1)
    return single > 0.5 * max(tab.row_count, 1)


def _gap_midlines(page: pymupdf.Page, tab: Any) -> list[float]:
    """x of the middle of the empty gap between each pair of neighbouring columns."""
    starts = [min((row.cells[j][0] for row in tab.rows if row.cells[j]), default=None)
              for j in range(tab.col_count)]
    if any(x is None for x in starts):
        return []
    lo = [float("inf")] * tab.col_count
    hi = [float("-inf")] * tab.col_count
    for w in words_at(page, pymupdf.Rect(tab.bbox)):
        cx = (w[0] + w[2]) / 2
        j = max(i for i, x in enumerate(starts) if x <= cx + 0.5) if cx + 0.5 >= starts[0] else 0
        lo[j], hi[j] = min(lo[j], w[0]), max(hi[j], w[2])
    out = []
    for j in range(1, tab.col_count):
        if hi[j - 1] < lo[j]:
            out.append((hi[j - 1] + lo[j]) / 2)
        else:
            out.append(starts[j])
    return out
