"""Chunks that stand on their own: a parent `table` chunk, `row_group` chunks cut by a size
budget, one `row` chunk per body row, and `text` chunks for the prose around tables.

Every row and row-group chunk repeats the section path, the caption and the column names, so a
retriever that returns only that chunk still knows which column each value belongs to.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rowkeeper.config import ChunkConfig
from rowkeeper.models import Chunk, ImageRef, OutlineEntry, PageInfo, Table, TextLine
from rowkeeper.transforms.evidence import Evidence, assign_evidence, estimate_row_boxes
from rowkeeper.transforms.row_notes import row_notes, split_notes
from rowkeeper.transforms.table_text import (
    clean,
    column_labels,
    count_tokens,
    has_spans,
    key_column,
    to_html,
    to_markdown,
)
from rowkeeper.transforms.text_chunks import chunk_text


@dataclass(frozen=True)
class TableView:
    """What every chunk of one table repeats: labels, key column, context lines, metadata."""

    table: Table
    labels: tuple[str, ...]
    key: int
    context: tuple[str, ...]
    meta: dict[str, Any]
    row_pages: tuple[int, ...]
    evidence: tuple[Evidence, ...] = ()
    repeated: tuple[str, ...] = ()
    """`context` as row and row-group chunks repeat it: each line cut to chunk.max_context_chars,
    so a long caption or footnote is not copied whole into every row (the table chunk has it)."""
    caption: str = ""
    """The caption, cut the same way, that row chunks start with."""
    cut: int = 0
    """chunk.max_context_chars, which the notes a row chunk repeats are cut to."""
    notes: tuple[tuple[str, str], ...] = ()
    """The table's notes as (mark, text): a row chunk repeats those its row carries the mark of."""


def size_of(text: str, config: ChunkConfig) -> int:
    """A chunk's size in the configured unit (characters or approximate tokens)."""
    return count_tokens(text) if config.size_unit == "tokens" else len(text)


def view_of(table: Table, config: ChunkConfig, images: Sequence[ImageRef] = ()) -> TableView:
    """The per-table context every chunk of `table` repeats."""
    context = []
    if table.section_path:
        context.append(" > ".join(clean(s) for s in table.section_path))
    if table.caption:
        context.append(f"Table: {clean(table.caption)}")
    if table.footnotes:
        context.append("Notes: " + " ".join(clean(f) for f in table.footnotes))
    meta = {"table_id": table.table_id, "pages": list(table.pages),
            "regions": [r.model_dump(mode="json") for r in table.regions],
            "columns": list(table.columns), "caption": table.caption,
            "section_path": list(table.section_path), "n_body_rows": len(table.rows)}
    boxes = estimate_row_boxes(table)
    row_pages = tuple(b.page for b in boxes) if len(boxes) == len(table.rows) else ()
    width = max([1, len(table.columns), *(len(r) for r in table.rows)])
    labels = column_labels(tuple(table.columns) + ("",) * (width - len(table.columns)))
    cut = config.max_context_chars
    return TableView(table, labels, key_column(table, config.key_column),
                     tuple(context), meta, row_pages, assign_evidence(table, images),
                     tuple(_shorten(c, cut) for c in context), _shorten(clean(table.caption or ""), cut),
                     cut, tuple(split_notes([clean(f) for f in table.footnotes])))


def _shorten(text: str, limit: int) -> str:
    """`text` cut to `limit` characters at a word boundary, with an ellipsis (0: no limit)."""
    if limit <= 0 or len(text) <= limit:
        return text
    head = text[: limit - 1]
    return (head.rsplit(" ", 1)[0] if " " in head[limit // 2:] else head) + "…"


def _meta(view: TableView, start: int, end: int, **extra: Any) -> dict[str, Any]:
    """Metadata of a chunk covering body rows start..end (0-based, inclusive)."""
    pages = sorted({view.row_pages[i] for i in range(start, end + 1)}) if view.row_pages else None
    ev = [e for e in view.evidence if start <= e.row <= end]
    meta = {**view.meta, "row_start": start, "row_end": end}
    if pages:
        meta["pages"] = pages
    if ev:
        meta["visual_evidence"] = [_evidence_meta(view, e) for e in ev]
    return {**meta, **extra}


def _evidence_meta(view: TableView, e: Evidence) -> dict[str, Any]:
    return {"image_id": e.image.image_id, "page": e.image.page, "bbox": list(e.image.bbox),
            "crop_path": e.image.crop_path, "row": e.row,
            "column": view.labels[e.col] if e.col is not None and e.col < len(view.labels) else None}


def _evidence_lines(view: TableView, start: int, end: int) -> list[str]:
    """A sentence per image in rows start..end, so the text says the evidence exists."""
    out = []
    for e in view.evidence:
        if start <= e.row <= end:
            where = f"row {e.row + 1}" + (f", column {view.labels[e.col]}" if e.col is not None
                                          and e.col < len(view.labels) else "")
            out.append(f"Image {e.image.image_id} (page {e.image.page}) in {where}.")
    return out


def _cols_with_key(view: TableView, cols: Sequence[int]) -> list[int]:
    """Column indices with the key column first (once)."""
    return [view.key] + [j for j in cols if j != view.key]


def pairs(view: TableView, i: int, cols: Sequence[int]) -> list[tuple[str, str]]:
    """(label, value) of row i over `cols`, key first, empty values skipped."""
    row = view.table.rows[i]
    out = []
    for j in _cols_with_key(view, cols):
        value = clean(row[j]) if j < len(row) else ""
        if value:
            out.append((view.labels[j], value))
    return out


def _group_line(view: TableView, i: int, cols: Sequence[int]) -> str:
    return f"Row {i + 1}: " + " / ".join(f"{k}={v}" for k, v in pairs(view, i, cols))


def _group_text(view: TableView, lines: Sequence[str], cols: Sequence[int]) -> str:
    header = "Columns: " + " / ".join(view.labels[j] for j in _cols_with_key(view, cols))
    return "\n".join([*view.repeated, header, *lines])


def column_parts(view: TableView, i: int, render: Any, config: ChunkConfig) -> list[list[int]]:
    """Non-key columns of row i split into parts whose rendering (key included) fits the budget."""
    others = [j for j in range(len(view.labels)) if j != view.key]
    parts: list[list[int]] = []
    cur: list[int] = []
    for j in others:
        if cur and size_of(render(view, i, cur + [j]), config) > config.max_chars:
            parts.append(cur)
            cur = []
        cur.append(j)
    if cur or not parts:
        parts.append(cur)
    return parts


def _render_group(view: TableView, i: int, cols: Sequence[int]) -> str:
    return _group_text(view, [_group_line(view, i, cols), *_evidence_lines(view, i, i)], cols)


def _row_cost(view: TableView, i: int, cols: Sequence[int], config: ChunkConfig) -> int:
    """What row i adds to a row group: its line and evidence lines, each with its newline."""
    lines = [_group_line(view, i, cols), *_evidence_lines(view, i, i)]
    return sum(size_of(line, config) + 1 for line in lines)


def row_group_chunks(view: TableView, config: ChunkConfig) -> list[Chunk]:
    """Consecutive rows under one repeated header, cut by the size budget, never inside a row."""
    t, every = view.table, list(range(len(view.labels)))
    head = size_of(_group_text(view, [], every), config)  # sizes add up: lines join with "\n"
    groups: list[tuple[int, int, list[int] | None]] = []  # start, end, column part or None
    start, used = 0, head
    for i in range(len(t.rows)):
        cost = _row_cost(view, i, every, config)
        if head + cost > config.max_chars:  # this row alone is too wide: split it by columns
            if start < i:
                groups.append((start, i - 1, None))
            groups += [(i, i, part) for part in column_parts(view, i, _render_group, config)]
            start, used = i + 1, head
            continue
        if start < i and used + cost > config.max_chars:
            groups.append((start, i - 1, None))
            start, used = i, head
        used += cost
    if start < len(t.rows):
        groups.append((start, len(t.rows) - 1, None))
    return [_group_chunk(view, n + 1, s, e, cols) for n, (s, e, cols) in enumerate(groups)]


def _group_body(view: TableView, start: int, end: int, cols: Sequence[int]) -> str:
    lines = [_group_line(view, i, cols) for i in range(start, end + 1)]
    return _group_text(view, lines + _evidence_lines(view, start, end), cols)


def _group_chunk(view: TableView, n: int, start: int, end: int, part: list[int] | None) -> Chunk:
    cols = part if part is not None else list(range(len(view.labels)))
    extra = {"column_part": [view.labels[j] for j in _cols_with_key(view, cols)]} if part else {}
    t = view.table
    return Chunk(chunk_id=f"{t.table_id}:rg{n}", doc_id=t.doc_id, source=t.source,
                 table_id=t.table_id, kind="row_group", text=_group_body(view, start, end, cols),
                 metadata=_meta(view, start, end, **extra))


def _render_row(view: TableView, i: int, cols: Sequence[int]) -> str:
    """`caption. Column: value | ...` under the section path, and the notes the row's marks
    point to (`row_notes`: a note on the whole table is left to the table and row-group chunks)."""
    body = " | ".join(f"{k}: {v}" for k, v in pairs(view, i, cols))
    caption = view.caption
    lines = [s for s in view.repeated if not s.startswith(("Table: ", "Notes: "))]
    notes = row_notes(view.notes, view.table.rows[i])
    if notes:
        lines.append(_shorten("Notes: " + " ".join(notes), view.cut))
    return "\n".join([*lines, f"{caption}. {body}" if caption else body,
                      *_evidence_lines(view, i, i)])


def row_chunks(view: TableView, config: ChunkConfig) -> list[Chunk]:
    """One chunk per body row (`caption. Column: value | ...`), split by columns when too wide."""
    t, every, out = view.table, list(range(len(view.labels))), []
    for i in range(len(t.rows)):
        key = clean(t.rows[i][view.key]) if view.key < len(t.rows[i]) else ""
        base = {"row_key": key, "key_column": view.labels[view.key] if view.labels else ""}
        if size_of(_render_row(view, i, every), config) <= config.max_chars:
            parts: list[list[int] | None] = [None]
        else:
            parts = list(column_parts(view, i, _render_row, config))
        for p, part in enumerate(parts):
            cols = every if part is None else part
            extra = {**base, "column_part": [view.labels[j] for j in _cols_with_key(view, cols)]}
            out.append(Chunk(
                chunk_id=f"{t.table_id}:r{i}" + (f".{p + 1}" if part is not None else ""),
                doc_id=t.doc_id, source=t.source, table_id=t.table_id, kind="row",
                text=_render_row(view, i, cols),
                metadata=_meta(view, i, i, **(extra if part is not None else base))))
    return out


def table_chunk(view: TableView) -> Chunk:
    """The parent chunk: context plus the whole table (Markdown; HTML when cells span)."""
    t = view.table
    body = to_html(t) if has_spans(t) else to_markdown(t)
    text = "\n".join([*view.context, body, *_evidence_lines(view, 0, len(t.rows) - 1)])
    return Chunk(chunk_id=f"{t.table_id}:table", doc_id=t.doc_id, source=t.source,
                 table_id=t.table_id, kind="table", text=text,
                 metadata=_meta(view, 0, max(0, len(t.rows) - 1),
                                format="html" if has_spans(t) else "markdown"))


def chunk_table(table: Table, config: ChunkConfig,
                images: Sequence[ImageRef] = ()) -> tuple[Chunk, ...]:
    """All chunks of one table, parent first, in the kinds the config enables."""
    view = view_of(table, config, images)
    out: list[Chunk] = []
    if config.table_chunks:
        out.append(table_chunk(view))
    if table.rows and config.row_group_chunks:
        out += row_group_chunks(view, config)
    if table.rows and config.row_chunks:
        out += row_chunks(view, config)
    return tuple(out)


def chunk_document(
    doc_id: str,
    source: str,
    tables: Sequence[Table],
    lines: Sequence[TextLine],
    config: ChunkConfig,
    images: Sequence[ImageRef] = (),
    outline: Sequence[OutlineEntry] = (),
    pages: Sequence[PageInfo] = (),
) -> tuple[Chunk, ...]:
    """Every chunk of a document: each table's chunks, then the text chunks around them."""
    out = [c for t in tables for c in chunk_table(t, config, images)]
    if config.text_chunks:
        out += chunk_text(doc_id, source, lines, tables, config, outline, pages)
    return tuple(out)
