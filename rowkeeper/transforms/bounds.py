"""Bounds on output: no column name, cell or chunk larger than a sane maximum, and no table
whose "header" is OCR noise. A garbage scan must not become 10,000 chunks each repeating a
1,000-character column name; what is cut or rejected is said in the document's warnings.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rowkeeper.config import ChunkConfig, TransformConfig
from rowkeeper.models import Chunk, PageInfo, Table, TextLine

if TYPE_CHECKING:
    from rowkeeper.transforms.table_chunks import TableView

_ELLIPSIS = "…"


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + _ELLIPSIS


def is_noise(name: str, limit: int) -> bool:
    """A column name that cannot be one: over 4x `limit` long, or (from 6 visible characters on)
    fewer than half of them letters or digits (OCR of a texture, a stamp or a photo). Merely long
    names are cut, not rejected: a folded multi-row header or a chart's legend can run long."""
    visible = [c for c in name if not c.isspace()]
    if len(name) > 4 * limit:
        return True
    return len(visible) >= 6 and sum(c.isalnum() for c in visible) * 2 < len(visible)


def noise_header(table: Table, limit: int) -> str | None:
    """Why the table's header is noise (most of its named columns are), else None."""
    named = [c for c in table.columns if c.strip()]
    noisy = [c for c in named if is_noise(c, limit)]
    if named and len(noisy) * 2 > len(named):
        return f"{len(noisy)} of {len(named)} column names are noise (e.g. {_cut(noisy[0], 40)!r})"
    return None


def _bounded(table: Table, config: TransformConfig) -> Table:
    name, cell = config.max_column_name_chars, config.max_cell_chars
    if all(len(c) <= name for c in table.columns) and all(
            len(v) <= cell for r in table.rows for v in r) and all(len(c.text) <= cell for c in table.cells):
        return table
    return table.model_copy(update={
        "columns": tuple(_cut(c, name) for c in table.columns),
        "rows": tuple(tuple(_cut(v, cell) for v in r) for r in table.rows),
        "cells": tuple(c if len(c.text) <= cell else c.model_copy(update={"text": _cut(c.text, cell)})
                       for c in table.cells),
        "header_grid": tuple(tuple(_cut(v, name) for v in r) for r in table.header_grid)})


def bound_tables(tables: Sequence[Table], config: TransformConfig) -> tuple[tuple[Table, ...], tuple[str, ...]]:
    """Tables with names and cells cut to the configured maxima and noise-header tables
    dropped (their lines then read as text); and a warning for each change."""
    kept: list[Table] = []
    warnings: list[str] = []
    for t in tables:
        why = noise_header(t, config.max_column_name_chars)
        if why:
            warnings.append(f"table {t.table_id} (page {t.pages[0] if t.pages else '?'}) rejected: {why}")
            continue
        bounded = _bounded(t, config)
        if bounded is not t:
            warnings.append(f"table {t.table_id}: text cut to transform.max_column_name_chars="
                            f"{config.max_column_name_chars} / max_cell_chars={config.max_cell_chars}")
        kept.append(bounded)
    return tuple(kept), tuple(warnings)


def table_text_chars(table: Table) -> int:
    """Characters a table shows on the page: its cells (header included), caption and notes."""
    cells = sum(len(c.text) for c in table.cells) if table.cells else \
        sum(map(len, table.columns)) + sum(len(v) for r in table.rows for v in r)
    return cells + len(table.caption or "") + sum(map(len, table.footnotes))


def document_text_chars(pages: Sequence[PageInfo], lines: Sequence[TextLine], tables: Sequence[Table]) -> int:
    """Characters of text the PDF shows: its text layer on text pages; on scanned pages what OCR
    read (text lines and table cells), since their text layer is empty or garbage."""
    scanned = {p.page for p in pages if p.kind == "scanned"}
    ocr = sum(len(ln.text) for ln in lines if ln.page in scanned) + sum(
        len(c.text) for t in tables for c in t.cells if (c.page or (t.pages[0] if t.pages else 0)) in scanned)
    return sum(p.chars for p in pages if p.page not in scanned) + ocr


# The sentence a chunk adds per image in its rows (table_chunks._evidence_lines): it stands for
# a picture, content the PDF's text layer does not have, so it is not measured against it.
_EVIDENCE_LINE = re.compile(r"^Image \S+ \(page \d+\) in row \d+[^\n]*\.$", re.MULTILINE)


def _row_context_chars(view: TableView) -> int:
    """Characters of context (section path, notes, caption) that CONTRACT makes each row
    chunk of this table repeat, as row_chunks renders them."""
    lines = [s for s in view.repeated if not s.startswith("Table: ")]
    return sum(len(s) + 1 for s in lines) + (len(view.caption) + 2 if view.caption else 0)


def measured_chars(chunks: Sequence[Chunk], tables: Sequence[Table], config: ChunkConfig) -> int:
    """What chunk.max_output_ratio counts of `chunks`: their text without the image-evidence
    sentences and without the context each row chunk must repeat (CONTRACT.md: a row chunk
    names its section path and caption, whatever that costs); column names and values count."""
    context = _contexts(tables, config)
    return sum(_measure(c, context) for c in chunks)


def _contexts(tables: Sequence[Table], config: ChunkConfig) -> dict[str, int]:
    from rowkeeper.transforms.table_chunks import view_of

    return {t.table_id: _row_context_chars(view_of(t, config)) for t in tables}


def _measure(c: Chunk, context: dict[str, int]) -> int:
    evidence = sum(len(m.group(0)) + 1 for m in _EVIDENCE_LINE.finditer(c.text))
    own = context.get(c.table_id or "", 0) if c.kind == "row" else 0
    return max(len(c.text) - evidence - own, 0)


def bound_output(chunks: Sequence[Chunk], tables: Sequence[Table], text_chars: int,
                 config: ChunkConfig) -> tuple[tuple[Chunk, ...], tuple[str, ...]]:
    """A document's chunks at most chunk.max_output_ratio times its PDF text (`text_chars`),
    as `measured_chars` counts them: past it, the `row` chunks of its tables are left out, the
    table whose chunks multiply its own text most first, until the rest fits (a warning each).
    Their `row_group` chunks still hold every row with its key and column names. What multiplies
    is what row chunks repeat per row: every column name, over rows of short values."""
    if config.max_output_ratio <= 0 or text_chars <= 0:
        return tuple(chunks), ()
    limit = config.max_output_ratio * text_chars
    context = _contexts(tables, config)
    total = sum(_measure(c, context) for c in chunks)
    if total <= limit:
        return tuple(chunks), ()
    size: dict[str, int] = {}
    rows: dict[str, int] = {}
    kinds: dict[str, set[str]] = {}
    for c in chunks:
        if c.table_id is not None:
            n = _measure(c, context)
            size[c.table_id] = size.get(c.table_id, 0) + n
            rows[c.table_id] = rows.get(c.table_id, 0) + (n if c.kind == "row" else 0)
            kinds.setdefault(c.table_id, set()).add(c.kind)
    droppable = [t for t in tables if {"row", "row_group"} <= kinds.get(t.table_id, set())]
    droppable.sort(key=lambda t: size[t.table_id] / max(table_text_chars(t), 1), reverse=True)
    dropped: list[str] = []
    ratio = total / text_chars
    for t in droppable:
        if total <= limit:
            break
        dropped.append(t.table_id)
        total -= rows[t.table_id]
    gone = set(dropped)
    return tuple(c for c in chunks if not (c.kind == "row" and c.table_id in gone)), tuple(
        f"table {t}: row chunks left out, the document's chunks were {ratio:.0f}x its text "
        f"(chunk.max_output_ratio={config.max_output_ratio:g}; its row_group chunks hold every row)"
        for t in dropped)


def bound_chunks(chunks: Sequence[Chunk], config: ChunkConfig, tables: Sequence[Table] = (),
                 text_chars: int = 0) -> tuple[tuple[Chunk, ...], tuple[str, ...]]:
    """Chunks no longer than chunk.hard_max_chars (cut, with a warning per chunk cut), and all
    of them within chunk.max_output_ratio of the document's `text_chars` (`bound_output`)."""
    chunks, over = bound_output(chunks, tables, text_chars, config)
    limit = config.hard_max_chars
    out = tuple(c if len(c.text) <= limit else c.model_copy(update={"text": _cut(c.text, limit)})
                for c in chunks)
    cut = [c.chunk_id for c, o in zip(chunks, out, strict=True) if c is not o]
    return out, over + tuple(f"chunk {i}: cut to chunk.hard_max_chars={limit}" for i in cut[:20]) + (
        (f"... and {len(cut) - 20} more chunks cut",) if len(cut) > 20 else ())
