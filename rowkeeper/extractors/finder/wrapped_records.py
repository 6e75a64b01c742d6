"""Records whose text cells wrap over several lines in a borderless table: a price list's
description over three lines beside its key, the amounts on the record's first line, its last,
or level with its middle.

A text-strategy grid gives every printed line a row. A record is the band from the line that
starts a new key (its first cell filled) down to the next one: each line in between, its key
cell empty, is the wrapped lines of the cells over it. The band shows in the white: a record's
lines stand at the type's leading, records apart by more (a table that sets every line at one
pitch, its first column filled only now and then, is a grouped table whose rows stand alone).
A line whose figure would land on a figure the record already holds is a row of its own, and
so is one under a line holding a label alone: a label wrapped around its figures (`Between-state
income inequality (Gini` / figures / `index)`) is `text_cells.merge_wrapped_rows`' to join.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any

from rowkeeper.boxes import union
from rowkeeper.extractors.finder.running_text import is_numeric
from rowkeeper.glyphs import run_on
from rowkeeper.models import BBox

TIGHT = 0.5
"""Share of the white between records up to which the white over a line keeps it in its record."""


def join_wrapped_records(rows: Sequence[Sequence[BBox | None]], texts: Sequence[Sequence[str | None]],
                         words: Sequence[Sequence[Sequence[Any]]]
                         ) -> tuple[list[list[BBox | None]], list[list[str | None]], list[list[list[Any]]]]:
    """The grid (cell boxes, texts, each cell's words as `borderless.word_cells` reads them) with
    each record's wrapped lines joined into the row that starts it; as it was where the lines
    do not stand in bands (grids with spans, None slots, are left alone)."""
    rs, ts, ws = [list(r) for r in rows], [list(t) for t in texts], [[list(c) for c in r] for r in words]
    if len(ts) < 3 or not ts[0] or len(ts[0]) < 3 or any(b is None for r in rs for b in r) \
            or len(ws) != len(ts):
        return rs, ts, ws
    ink = [_ink(r) for r in ws]
    lines = [i for i, t in enumerate(ts) if any(t) and ink[i] is not None]
    if len(lines) < 3:
        return rs, ts, ws
    white = {b: ink[b][0] - ink[a][1] for a, b in zip(lines, lines[1:], strict=False)}  # type: ignore[index]
    keyed = [i for i in lines[1:] if ts[i][0]]
    wrapped = [i for i in lines[1:] if not ts[i][0]]
    if len(keyed) < 2 or not wrapped:
        return rs, ts, ws
    apart = statistics.median(white[i] for i in keyed)
    height = statistics.median(ink[i][1] - ink[i][0] for i in lines)  # type: ignore[index]
    if apart < 0.25 * height:
        return rs, ts, ws  # records set at the lines' own leading: no band to tell them by
    drop: set[int] = set()
    owner = lines[0] if _record_first(ts, lines, white, TIGHT * apart) else None
    for i in lines[1:]:
        if ts[i][0]:
            owner = i
            continue
        if owner is None or white[i] > TIGHT * apart or _figure_on_figure(ts[owner], ts[i]) \
                or not any(ts[owner][1:]):
            owner = None  # a row of its own: no line under it joins a record over it
            continue
        ts[owner] = [run_on(a or "", b or "") for a, b in zip(ts[owner], ts[i], strict=False)]
        rs[owner] = [union(a, b) for a, b in zip(rs[owner], rs[i], strict=False)]  # type: ignore[arg-type]
        ws[owner] = [[*a, *b] for a, b in zip(ws[owner], ws[i], strict=False)]
        drop.add(i)
    keep = [k for k in range(len(ts)) if k not in drop]
    return [rs[k] for k in keep], [ts[k] for k in keep], [ws[k] for k in keep]


def _record_first(ts: Sequence[Sequence[str | None]], lines: Sequence[int], white: dict[int, float],
                  tight: float) -> bool:
    """Whether the grid's first line starts a record, not a header: it holds a key, and the
    lines under it up to the next key, each within `tight` white of the one over it, hold a
    figure beside no key (the record's amounts on its last line). A piece of a table cut at a
    page break or a rule opens with a record, its header left with the piece before."""
    if not ts[lines[0]][0]:
        return False
    for i in lines[1:]:
        if ts[i][0] or white[i] > tight:
            return False
        if any(t and is_numeric(t) for t in ts[i][1:]):
            return True
    return False


def _ink(cells: Sequence[Sequence[Any]]) -> tuple[float, float] | None:
    """Top and bottom of a grid row's words, None for a row without any."""
    ws = [w for c in cells for w in c]
    return (min(w[1] for w in ws), max(w[3] for w in ws)) if ws else None


def _figure_on_figure(record: Sequence[str | None], line: Sequence[str | None]) -> bool:
    """Whether the line fills a cell the record fills too, one of the two a figure: a record
    holds one figure a column."""
    return any(a and b and (is_numeric(a) or is_numeric(b)) for a, b in zip(record, line, strict=False))
