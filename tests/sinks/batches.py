"""Document batches with known content for the sink tests and the sink benchmark."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Sequence
from typing import Any

from rowkeeper.models import Chunk, DocumentRecord, DocumentResult, PageInfo, Region, Table

PROPERTIES = (
    ("Sun Heights Izumi", "13,000", "11,500"),
    ("Maison Kita", "9,800", "8,000"),
    ("Green Court Aoba", "15,200", "12,000"),
)
COLUMNS = ("Property", "Management fee", "Repair reserve")


def doc_id_of(name: str) -> str:
    """A sha256-shaped doc id for a test document name."""
    return hashlib.sha256(name.encode()).hexdigest()


def _num(text: str) -> float:
    return float(text.replace(",", ""))


def property_table(doc_id: str, n: int, rows: tuple[tuple[str, ...], ...], page: int = 1,
                   source: str = "handbook.pdf") -> Table:
    """A 'managed properties' table: text column, two integer columns with parsed values."""
    return Table(
        doc_id=doc_id, source=source, table_id=f"{doc_id[:12]}:t{n}",
        pages=(page,), regions=(Region(page=page, bbox=(36.0, 100.0, 559.0, 400.0)),),
        caption=f"Table {n} Managed properties", section_path=("Handbook", "3. Properties"),
        header_rows=1, columns=COLUMNS, rows=rows,
        column_types=("text", "integer", "integer"),
        values=tuple((None, _num(r[1]), _num(r[2])) for r in rows),
        extractor="pymupdf", extractor_version="1.28.2",
    )


def chunks_for(table: Table) -> tuple[Chunk, ...]:
    """One row chunk per body row, each repeating the column names (as CONTRACT.md asks)."""
    return tuple(
        Chunk(
            chunk_id=f"{table.table_id}:r{i}", doc_id=table.doc_id, source=table.source,
            table_id=table.table_id, kind="row",
            text=f"Handbook > 3. Properties\nTable: {table.caption}\nRow {i}: "
            + " / ".join(f"{c}={v}" for c, v in zip(table.columns, row, strict=True)),
            metadata={"pages": list(table.pages), "row_start": i, "row_end": i,
                      "columns": list(table.columns), "caption": table.caption},
        )
        for i, row in enumerate(table.rows)
    )


def make_batch(name: str, n_tables: int = 2, rows: tuple[tuple[str, ...], ...] = PROPERTIES,
               status: str = "ok") -> DocumentResult:
    """A document with `n_tables` property tables and one row chunk per body row."""
    doc_id = doc_id_of(name)
    tables = tuple(property_table(doc_id, n + 1, rows, page=n + 1, source=f"{name}.pdf") for n in range(n_tables))
    chunks = tuple(c for t in tables for c in chunks_for(t))
    doc = DocumentRecord(
        doc_id=doc_id, source=f"{name}.pdf", status=status, kind="text",  # type: ignore[arg-type]
        pages=tuple(PageInfo(page=p + 1, kind="text", chars=900, image_coverage=0.0)
                    for p in range(max(n_tables, 1))),
        n_tables=len(tables), n_chunks=len(chunks),
    )
    return DocumentResult(document=doc, tables=tables, chunks=chunks)


def with_bad_last_chunk(batch: DocumentResult) -> DocumentResult:
    """The batch with a last chunk whose metadata cannot be serialised: a real mid-write failure
    (tables and most chunks are already being written when it is reached)."""
    bad = batch.chunks[-1].model_copy(update={"metadata": {"handle": object()}})
    return batch.model_copy(update={"chunks": batch.chunks[:-1] + (bad,)})


def write_at_once(sinks: Sequence[Any], batch: DocumentResult, rounds: int) -> None:
    """Each sink writes `batch` in its own thread, released together, `rounds` times: two runs
    on different --out sharing one store, writing the same document at the same moment."""
    def write(sink: Any, start: threading.Barrier) -> None:
        start.wait()
        sink.write(batch)

    for _ in range(rounds):
        start = threading.Barrier(len(sinks))
        threads = [threading.Thread(target=write, args=(s, start)) for s in sinks]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
