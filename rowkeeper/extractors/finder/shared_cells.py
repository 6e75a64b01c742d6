"""A candidate that reads a stronger one's table again among more of the page (a table and the
prose beside it, a ruled table and the chart above it, read as one region of aligned text)
keeps only its own part: the cells centred in stronger candidates' boxes leave it, and what
is left stays a table only while it still reads as one.

`candidates.owned_once` drops a candidate whose lines are nearly all owned already; one that
holds more of the page stays, and with it every shared line would be in two tables (bench
invariants: "a word in two tables", "emitted twice"). Only a candidate around a stronger one
gives its cells up; one nested inside a stronger box keeps them. A stronger one that reads
nothing but a run of its rows (rows boxed apart: highlighted rows, a ruled totals block; a
ruled grid that ends before the table's last rows) is part of it, unless both start on a row
naming columns (two tables stacked): the whole table stays whole and the part goes.

A cell that holds a whole stronger table (an invoice's outer frame, one ruled cell around the
block of fields, another around the totals) is a layout cell, not a value: it is given up
too, and the frame keeps the rows of its own (the items between them). A cell that holds a whole
table beside a label or paragraph of its own row is a ruled layout's cell (a form of labels
and paragraphs with a rates table set inside one paragraph): the layout is no table and goes,
and the table set in it answers for the layout's ruled area (`LAYOUT_FRAME`), one owner per word.
"""

from __future__ import annotations

from collections.abc import Sequence

from rowkeeper.boxes import area, centre_in, overlap, within
from rowkeeper.extractors.finder.side_by_side import header_like
from rowkeeper.extractors.text_cells import drop_empty_rows
from rowkeeper.models import LAYOUT_FRAME, BBox, Cell, RawTable

MIN_FILL = 0.5
"""Share of its rows that a column of what is left fills, for two such columns to make a table."""


BESIDE = 0.8
"""Share of a table's rows holding cells it gave up, for what is left to be more columns of
the same rows (a stronger reading of some of its columns)."""


def _still_a_table(cells: Sequence[Cell], n_rows: int, n_cols: int) -> bool:
    """Two rows at least and two columns, each filled in half the rows (prose beside a table,
    left alone, fills one column and a caption's cells)."""
    if n_rows < 2:
        return False
    filled = [len({c.row for c in cells if c.col == k and c.text.strip()}) for k in range(n_cols)]
    return sum(f >= MIN_FILL * n_rows for f in filled) >= 2


def _read_again(cells: Sequence[Cell], stronger_cells: Sequence[Cell]) -> set[int]:
    """The cells (by id) whose text a stronger cell overlapping them reads too: a cell cut
    wider than its text (a text column running past a ruled table's edge, into a chart beside
    it) has its centre outside the stronger box while it holds that table's figure."""
    boxes: dict[str, list[BBox]] = {}
    for c in stronger_cells:
        if c.bbox and c.text.strip():
            boxes.setdefault(" ".join(c.text.split()), []).append(c.bbox)
    return {id(c) for c in cells if c.bbox and c.text.strip()
            and any(overlap(c.bbox, b) > 0 for b in boxes.get(" ".join(c.text.split()), ()))}


def own_part(table: RawTable, stronger: Sequence[BBox],
             stronger_cells: Sequence[Cell] = ()) -> tuple[RawTable | None, bool]:
    """`table` less its cells centred in the `stronger` boxes, or reading the text of a
    stronger cell they overlap (rows left empty go), or None when what is left is no table;
    and whether it gave up cells in nearly all its rows (what is left is more columns of the
    same rows: the stronger reading held part of the table)."""
    again = _read_again(table.cells, stronger_cells)
    shared = [c for c in table.cells if c.bbox and c.text.strip()
              and (id(c) in again or any(centre_in(c.bbox, b) or within(b, c.bbox, 1.0) for b in stronger))]
    if not shared:
        return table, False
    ids = {id(c) for c in shared}
    left = [c.model_copy(update={"text": ""}) if id(c) in ids else c for c in table.cells]
    kept, n_rows = drop_empty_rows(left, table.n_rows)
    if not _still_a_table(kept, n_rows, table.n_cols):
        return None, False
    given = {c.row for c in shared}
    beside = len(given) >= BESIDE * len({c.row for c in table.cells if c.text.strip()})
    boxes = [c.bbox for c in kept if c.bbox and c.text.strip()]
    bbox = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
    return table.model_copy(update={"cells": kept, "n_rows": n_rows, "bbox": tuple(round(v, 2) for v in bbox)}), beside


def _inside(inner: BBox, outer: BBox, share: float = 0.9) -> bool:
    """Whether `share` of the `inner` box lies in the `outer` one."""
    w = min(inner[2], outer[2]) - max(inner[0], outer[0])
    h = min(inner[3], outer[3]) - max(inner[1], outer[1])
    area = (inner[2] - inner[0]) * (inner[3] - inner[1])
    return area > 0 and max(w, 0.0) * max(h, 0.0) >= share * area


def _row_texts(table: RawTable) -> list[str]:
    """Each row's text, its cells left to right, spaces normalised (a reading that splits a
    row's columns elsewhere still reads the same row)."""
    rows: list[list[tuple[int, str]]] = [[] for _ in range(table.n_rows)]
    for c in table.cells:
        text = " ".join(c.text.split())
        if text and 0 <= c.row < table.n_rows:
            rows[c.row].append((c.col, text))
    return [" ".join(t for _, t in sorted(r)) for r in rows]


def band_of_rows(part: RawTable, table: RawTable) -> bool:
    """Whether `part` reads only a run of `table`'s rows, row for row, `table` holds more rows,
    and they are one table: `part` starts on a row of values (a ruled or boxed band inside the
    table), or what is left of `table` does (its rows run on above or below the ruled part).
    Two parts that each start on a row naming columns are two tables stacked."""
    mine = [r for r in _row_texts(part) if r]
    theirs = [r for r in _row_texts(table) if r]
    if not mine or len(theirs) <= len(mine):
        return False
    if not any(theirs[i:i + len(mine)] == mine for i in range(len(theirs) - len(mine) + 1)):
        return False
    if not header_like(part.cells):
        return True
    left, _ = own_part(table, [part.bbox])
    return left is not None and not header_like(left.cells)


def _without_empty_columns(table: RawTable) -> RawTable:
    """`table` less the columns no cell with text starts in (a span keeps the columns it still covers)."""
    used = sorted({c.col for c in table.cells if c.text.strip()})
    if len(used) == table.n_cols:
        return table
    new = {k: i for i, k in enumerate(used)}
    cells = []
    for c in table.cells:
        cover = [k for k in range(c.col, c.col + c.col_span) if k in new]
        if cover:
            cells.append(c.model_copy(update={"col": new[cover[0]], "col_span": len(cover)}))
    return table.model_copy(update={"cells": tuple(cells), "n_cols": len(used)})


def own_parts(tables: Sequence[RawTable]) -> list[RawTable]:
    """Each table (strongest first) less what the stronger ones lying inside it hold: with
    what is left no table, it was a table read with its surroundings and goes; with more
    columns of the same rows left, it is the whole table the stronger ones read part of, and
    it stays whole in their place. A table nested in a stronger, larger box (a table inside
    a ruled layout cell) is a table of its own and keeps its cells; a stronger one that reads a
    band of its rows (`band_of_rows`) goes, and the whole table keeps those rows. A table that
    crosses a stronger one's box, neither inside the other (a paper column read down through a
    table set across both, a table read across into the next column's), gives up its cells
    there, and the columns left empty."""
    out: list[RawTable] = []
    for found in tables:
        crossed = [k for k in out if overlap(k.bbox, found.bbox) > 0 and not _inside(k.bbox, found.bbox)
                   and not _inside(found.bbox, k.bbox)]
        t = found
        if crossed:  # a read across a stronger table's box: its cells there are that table's
            part, _ = own_part(found, [k.bbox for k in crossed], [c for k in crossed for c in k.cells])
            if part is None:
                continue
            t = part if part is found else _without_empty_columns(part)
        bands = [k for k in out if _inside(k.bbox, t.bbox) and band_of_rows(k, t)]
        out = [k for k in out if not any(k is b for b in bands)]
        inner = [k for k in out if _inside(k.bbox, t.bbox)]
        part, beside = own_part(t, [k.bbox for k in inner], [c for k in inner for c in k.cells])
        if beside:
            out = [k for k in out if not any(k is i for i in inner)] + [t]
        elif part is not None:
            out.append(part)
    out = layouts_apart(out)
    return sorted(out, key=lambda t: next(i for i, x in enumerate(tables) if x.piece_id == t.piece_id))


def _holds_beside(table: RawTable, box: BBox) -> bool:
    """Whether a cell of `table` holds the whole `box` while another cell of its row has text
    (a label or paragraph beside the cell the table is set in)."""
    for c in table.cells:
        if not (c.bbox and within(box, c.bbox, 1.0)):
            continue
        rows = range(c.row, c.row + c.row_span)
        if any(o is not c and o.text.strip() and any(o.row <= r < o.row + o.row_span for r in rows)
               for o in table.cells):
            return True
    return False


def layouts_apart(tables: Sequence[RawTable]) -> list[RawTable]:
    """The tables less each ruled layout that holds another of them in one cell beside text of
    its row (`_holds_beside`); a table set in a layout carries the layout's box (`LAYOUT_FRAME`)."""
    layouts = {id(t): t for t in tables for k in tables if k is not t and _holds_beside(t, k.bbox)}
    out = []
    for k in tables:
        if id(k) in layouts:
            continue
        frame = next((t.bbox for t in layouts.values() if _holds_beside(t, k.bbox)), None)
        out.append(k if frame is None else k.model_copy(
            update={"metrics": {**k.metrics, **dict(zip(LAYOUT_FRAME, frame, strict=True))}}))
    return out


def nested_first(tables: Sequence[RawTable]) -> list[RawTable]:
    """`own_parts` of one layer's tables read from their own frames (no strength order: the
    smaller ones first), in found order: a frame drawn around a page's tables (an invoice's
    outer frame, a figure's frame around its panels) keeps only the rows of its own, and goes
    when those are no table."""
    order = {t.piece_id: i for i, t in enumerate(tables)}
    kept = own_parts(sorted(tables, key=lambda t: area(t.bbox)))
    return sorted(kept, key=lambda t: order[t.piece_id])
