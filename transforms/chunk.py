"""Chunks that stand on their own: a parent table chunk and one chunk per row."""

from __future__ import annotations

from collections.abc import Sequence

from rowkeeper.config import ChunkConfig
from rowkeeper.models import Chunk, Table, TextLine


def _context(table: Table) -> list[str]:
    out = []
    if table.section_path:
        out.append(" > ".join(table.section_path))
    if table.caption:
        out.append(f"Table: {table.caption}")
    return out


def chunk_table(table: Table, config: ChunkConfig) -> tuple[Chunk, ...]:
    """A `table` chunk plus one `row` chunk per body row, each naming its columns."""
    meta = {"pages": list(table.pages), "columns": list(table.columns), "caption": table.caption,
            "section_path": list(table.section_path), "n_body_rows": len(table.rows)}
    md = [" | ".join(table.columns)] + [" | ".join(r) for r in table.rows]
    chunks = [Chunk(chunk_id=f"{table.table_id}:table", doc_id=table.doc_id, source=table.source,
                    table_id=table.table_id, kind="table", text="\n".join(_context(table) + md),
                    metadata=meta)]
    for i, row in enumerate(table.rows):
        pairs = " | ".join(f"{c}: {v}" for c, v in zip(table.columns, row, strict=False) if v)
        chunks.append(Chunk(chunk_id=f"{table.table_id}:r{i}", doc_id=table.doc_id,
                            source=table.source, table_id=table.table_id, kind="row",
                            text="\n".join(_context(table) + [pairs]),
                            metadata={**meta, "row_start": i, "row_end": i}))
    return tuple(chunks)


def chunk_document(
    doc_id: str,
    source: str,
    tables: Sequence[Table],
    lines: Sequence[TextLine],
    config: ChunkConfig,
) -> tuple[Chunk, ...]:
    """Every chunk of a document: table chunks (and, later, text chunks) in reading order."""
    return tuple(c for t in tables for c in chunk_table(t, config))
