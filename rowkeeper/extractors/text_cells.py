"""Table cells from the PDF's text layer, shared by the find_tables-style extractors (PyMuPDF,
pdfplumber, Camelot, the finder): cell typography (bold, size) from the spans under a cell, a
grid's cells from rows of text and boxes, a bold first row flagged as header, empty rows dropped
and a record's wrapped lines joined back into its row."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from typing import Any

from rowkeeper.boxes import union
from rowkeeper.extractors.finder.bullet_items import lines_text
from rowkeeper.extractors.text_layer import span_bold
from rowkeeper.models import BBox, Cell


def spans_of_dict(d: dict[str, Any]) -> list[tuple[BBox, bool, float]]:
    """(bbox, bold, size) of every non-blank span: the typography source for table cells."""
    out = []
    for block in d["blocks"]:
        for line in block.get("lines", ()):
            for s in line["spans"]:
                if s["text"].strip():
                    out.append((tuple(s["bbox"]), span_bold(s), float(s["size"])))
    return out


def typography(spans: Sequence[tuple[BBox, bool, float]], bbox: BBox) -> tuple[bool | None, float | None]:
    """(bold, font size) of the spans whose centre lies in `bbox`; (None, None) when none do."""
    x0, y0, x1, y1 = bbox
    inside = [
        (b, size) for (sx0, sy0, sx1, sy1), b, size in spans
        if x0 <= (sx0 + sx1) / 2 <= x1 and y0 <= (sy0 + sy1) / 2 <= y1
    ]
    if not inside:
        return None, None
    return all(b for b, _ in inside), round(max(s for _, s in inside), 2)


def cells_from_rows(
    rows: Sequence[Sequence[BBox | None]],
    texts: Sequence[Sequence[str | None]],
    page: int,
    spans: Sequence[tuple[BBox, bool, float]] = (),
) -> tuple[tuple[Cell, ...], int, int]:
    """Cells with spans from a pdfplumber/PyMuPDF-style grid (None = slot covered by a span).

    Returns (cells, n_rows, n_cols). Spans are measured against the column starts and row tops
    of the grid, which is how both libraries lay a spanning cell over several slots.
    """
    n_rows = len(rows)
    n_cols = max((len(r) for r in rows), default=0)
    col_x = _starts([[b[0] if b else None for b in r] for r in rows], n_cols)
    row_y = [min((b[1] for b in r if b), default=None) for r in rows]
    # the spans by the height of their centre: a cell's typography reads only those level with it
    by_y = sorted(((s[0][1] + s[0][3]) / 2, k) for k, s in enumerate(spans))
    ys = [y for y, _ in by_y]
    cells = []
    for i, row in enumerate(rows):
        for j, b in enumerate(row):
            if b is None:
                continue
            text = (texts[i][j] if i < len(texts) and j < len(texts[i]) else None) or ""
            cs = max(1, sum(1 for x in col_x[j:] if x is not None and x < b[2] - 1.0))
            rs = max(1, sum(1 for y in row_y[i:] if y is not None and y < b[3] - 1.0))
            level = sorted(k for _, k in by_y[bisect_left(ys, b[1]):bisect_right(ys, b[3])])
            bold, size = typography([spans[k] for k in level], b) if spans else (None, None)
            cells.append(Cell(row=i, col=j, row_span=rs, col_span=cs, text=clean_cell(text),
                              page=page, bbox=tuple(b), bold=bold, font_size=size))
    return tuple(cells), n_rows, n_cols


def _starts(xs: list[list[float | None]], n: int) -> list[float | None]:
    out: list[float | None] = []
    for j in range(n):
        vals = [r[j] for r in xs if j < len(r) and r[j] is not None]
        out.append(min(vals) if vals else None)
    return out


def clean_cell(text: str) -> str:
    """Cell text with line breaks inside the cell joined by a space (a list item after CJK text
    by none, `bullet_items.lines_text`) and runs of spaces collapsed."""
    return lines_text([" ".join(line.split()) for line in text.split("\n")])


def flag_bold_header(cells: Sequence[Cell]) -> tuple[Cell, ...]:
    """Cells with is_header set on the top rows printed in bold above a body that is not.

    Typography is the one header signal every text-layer extractor can share; a table in bold
    throughout says nothing, so its cells are left unflagged. A bold group label under the
    header (`_group_label`) ends it: the label row is body.
    """
    by_row: dict[int, list[Cell]] = {}
    for c in cells:
        if c.text:
            by_row.setdefault(c.row, []).append(c)
    bold_rows = {r for r, cs in by_row.items() if all(c.bold for c in cs)}
    if not by_row or bold_rows >= set(by_row):
        return tuple(cells)
    n = 0
    while (n in bold_rows and not _group_label(by_row, n)) or (n not in by_row and n < max(by_row)):
        n += 1
    n = min(n, 3)  # a header taller than three rows is more likely a bold body
    return tuple(c.model_copy(update={"is_header": True}) if c.row < n and not c.is_header else c
                 for c in cells)


def _group_label(by_row: dict[int, list[Cell]], n: int) -> bool:
    """Row n holds text in its first column only, under a row that names that column: a bold
    label opening a group of body rows (`Dental` under `Item`), not one more header row."""
    row, above = by_row.get(n, []), by_row.get(n - 1, [])
    return n > 0 and len(row) == 1 and row[0].col == 0 and row[0].col_span == 1 \
        and any(c.col == 0 for c in above) and len(above) > 1


def drop_empty_rows(cells: Sequence[Cell], n_rows: int) -> tuple[tuple[Cell, ...], int]:
    """Cells without the rows that hold nothing (text strategies put one between text rows).

    A row is dropped only when every cell starting in it is empty and no span crosses it, so
    spans keep pointing at the right rows.
    """
    has_text = {c.row for c in cells if c.text}
    crossed = {r for c in cells for r in range(c.row, c.row + c.row_span) if c.row_span > 1}
    keep = [r for r in range(n_rows) if r in has_text or r in crossed]
    new_index = {r: i for i, r in enumerate(keep)}
    out = tuple(c.model_copy(update={"row": new_index[c.row]}) for c in cells if c.row in new_index)
    return out, len(keep)


def merge_wrapped_rows(
    rows: Sequence[Sequence[BBox | None]], texts: Sequence[Sequence[str | None]]
) -> tuple[list[list[BBox | None]], list[list[str | None]]]:
    """Borderless rows joined where a first-column label wrapped around its values.

    A text-strategy grid puts "Investigative Matters" / "426 365 ..." / "Received by AUSAs"
    on three rows: a label-only row above and/or below a values-only row (first cell empty)
    belongs to it. Grids with spans (None slots) are left alone.
    """
    if any(b is None for r in rows for b in r):
        return [list(r) for r in rows], [list(t) for t in texts]
    keep = [i for i, t in enumerate(texts) if any(t)]
    rs = [list(rows[i]) for i in keep]
    ts = [[x or "" for x in texts[i]] for i in keep]
    i = 0
    while i < len(ts):
        if _values_only(ts[i]):
            if i > 0 and _label_only(ts[i - 1]):
                _absorb(rs, ts, i, i - 1)
                i -= 1
            if i + 1 < len(ts) and _label_only(ts[i + 1]):
                _absorb(rs, ts, i, i + 1)
        i += 1
    return rs, [list(t) for t in ts]


def _absorb(rs: list[list[BBox | None]], ts: list[list[str]], i: int, j: int) -> None:
    """Row j's label joins row i (in reading order), and row j goes."""
    first, second = (ts[j][0], ts[i][0]) if j < i else (ts[i][0], ts[j][0])
    ts[i][0] = " ".join(x for x in (first, second) if x)
    rs[i] = [union(a, b) for a, b in zip(rs[i], rs[j], strict=False)]
    del ts[j], rs[j]


def _label_only(t: Sequence[str]) -> bool:
    return bool(t[0]) and not any(t[1:])


def _values_only(t: Sequence[str]) -> bool:
    return len(t) > 1 and not t[0] and sum(1 for x in t[1:] if x) >= max(1, (len(t) - 1) // 2)
