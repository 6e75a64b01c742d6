"""The LanceDB sink: retrieval chunks with metadata, vectors and a full-text index, embedded.

Two Lance tables: `chunks` (the chunk columns of rowkeeper.schema, plus `vector` and
`embedding_model`) and `documents` (the manifest). A document's chunks are replaced by one
`merge_insert` (a single Lance commit): rows of the document absent from the batch are
deleted, the rest upserted, so readers see the old set or the new set, never a mix. The
document record is committed after its chunks: it is the commit point of the document.

Two runs may share one LanceDB folder (each with its own --out and folder lock). Two merges
of the same document committed at once both insert its chunks (Lance rebases the second
commit on the first instead of refusing it), so a document's writes take a file lock in the
folder (`.rowkeeper-locks/`, one of 256 files by the document's hash); a remote URI has no
such lock, and one writer per database is then the user's contract.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any, ClassVar

import lancedb
import pyarrow as pa
from pydantic import BaseModel, ConfigDict

from rowkeeper.errors import ConfigError
from rowkeeper.models import Chunk, DocumentRecord, DocumentResult
from rowkeeper.schema import ORDINAL, arrow_schema, columns_of, from_row, to_row
from rowkeeper.sinks.embeddings import EmbeddingName, make_embedder
from rowkeeper.sinks.options import coerce_options, safe_doc_id


class LanceDBSink:
    """Chunks (with vectors and full-text search) and documents in a LanceDB folder."""

    name: ClassVar[str] = "lancedb"
    stores_tables: ClassVar[bool] = False
    """Tables are not stored here: chunks carry what a retriever needs (see CONTRACT.md)."""

    class Options(BaseModel):
        """Where the database is, which embedding to compute, how to index text."""

        model_config = ConfigDict(frozen=True, extra="forbid")
        path: str = "out/lancedb"
        embedding: EmbeddingName = "auto"
        """auto: the bundled static model if installed, else hashing; off: no vector column."""
        hashing_dim: int = 256
        fts: bool = True
        """Build or refresh the full-text index on `text` at close()."""
        compact_every: int = 100
        """Compact after this many writes: each write is a commit that adds small fragments,
        and merges slow down as they pile up (about 25% over 300 documents); 0 = only at close."""
        fts_tokenizer: str = "icu"
        """Lance base tokenizer: icu splits words in any script (Japanese too); simple splits
        on spaces and punctuation only; ngram matches substrings."""

    def __init__(self, options: BaseModel | dict[str, Any] | None = None) -> None:
        self.options = coerce_options(LanceDBSink.Options, options, self.name)
        self.embedder = make_embedder(self.options.embedding, self.options.hashing_dim)
        Path(self.options.path).mkdir(parents=True, exist_ok=True)
        # interval 0: every read sees commits made by other sinks and processes since opening
        self.db = lancedb.connect(self.options.path, read_consistency_interval=timedelta(0))
        self.chunks = self._open("chunks", self._chunk_schema())
        self.docs = self._open("documents", _with_ordinal(arrow_schema(DocumentRecord)))
        self._writes = 0

    def _chunk_schema(self) -> pa.Schema:
        schema = _with_ordinal(arrow_schema(Chunk))
        if self.embedder is not None:
            schema = schema.append(pa.field("vector", pa.list_(pa.float32(), self.embedder.dim)))
            schema = schema.append(pa.field("embedding_model", pa.string()))
        return schema

    def _open(self, name: str, schema: pa.Schema) -> Any:
        if name not in self.db.list_tables().tables:
            return self.db.create_table(name, schema=schema, exist_ok=True)
        table = self.db.open_table(name)
        if table.schema != schema:
            raise ConfigError(
                f"LanceDB table {name!r} at {self.options.path} has another schema (an embedding "
                f"of another size?): {table.schema} vs {schema}; write to a new path")
        return table

    def _chunk_rows(self, chunks: Sequence[Chunk]) -> pa.Table:
        data = _columns(Chunk, chunks)
        if self.embedder is not None:
            vectors = self.embedder.embed([c.text for c in chunks])
            data["vector"] = list(vectors)
            data["embedding_model"] = [self.embedder.name] * len(chunks)
        return pa.Table.from_pydict(data, schema=self._chunk_schema())

    def write(self, batch: DocumentResult) -> None:
        """Replace the document's chunks in one Lance commit, then its document record."""
        doc_id = safe_doc_id(batch.document.doc_id)
        rows = self._chunk_rows(batch.chunks)  # serialisation and embedding fail before any commit
        doc = pa.Table.from_pydict(_columns(DocumentRecord, [batch.document]),
                                   schema=self.docs.schema)
        with self._document_lock(doc_id):
            _replace(self.chunks, ["doc_id", "chunk_id"], rows, doc_id)
            _replace(self.docs, ["doc_id"], doc, doc_id)
        self._writes += 1
        if self.options.compact_every and self._writes % self.options.compact_every == 0:
            for table in (self.chunks, self.docs):
                table.optimize()

    def delete(self, doc_id: str) -> None:
        """Remove the document record (the commit point) and then its chunks."""
        where = f"doc_id = '{safe_doc_id(doc_id)}'"
        with self._document_lock(safe_doc_id(doc_id)):
            self.docs.delete(where)
            self.chunks.delete(where)

    @contextmanager
    def _document_lock(self, doc_id: str) -> Iterator[None]:
        """Hold `doc_id`'s write lock in this folder (another run writing it waits)."""
        if "://" in self.options.path:
            yield
            return
        folder = Path(self.options.path) / ".rowkeeper-locks"
        folder.mkdir(exist_ok=True)
        bucket = hashlib.blake2b(doc_id.encode(), digest_size=1).hexdigest()
        fd = os.open(folder / f"{bucket}.lock", os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)  # releases the flock

    def _rows(self, table: Any, model: type[BaseModel], where: str | None) -> list[Any]:
        cols = columns_of(model)
        query = table.search().select([c.name for c in cols] + [ORDINAL.name])
        if where:
            query = query.where(where)
        data = query.limit(None).to_arrow().sort_by(ORDINAL.name).to_pylist()
        return [from_row(model, cols, [r[c.name] for c in cols]) for r in data]

    def read(self, doc_id: str) -> DocumentResult | None:
        """The stored document record and its chunks (tables are not kept in LanceDB)."""
        where = f"doc_id = '{safe_doc_id(doc_id)}'"
        docs = self._rows(self.docs, DocumentRecord, where)
        if not docs:
            return None
        return DocumentResult(document=docs[0], chunks=tuple(self._rows(self.chunks, Chunk, where)))

    def documents(self) -> dict[str, DocumentRecord]:
        """Every stored document record by doc_id."""
        return {d.doc_id: d for d in self._rows(self.docs, DocumentRecord, None)}

    def close(self) -> None:
        """Build the full-text index the first time, then compact the per-document commits,
        fold new rows into the indexes and drop versions older than an hour."""
        for table in (self.chunks, self.docs):
            if table is self.chunks and self.options.fts and table.count_rows():
                if "text_idx" not in {i.name for i in table.list_indices()}:
                    table.create_fts_index("text", base_tokenizer=self.options.fts_tokenizer)
            table.optimize(cleanup_older_than=timedelta(hours=1))


def _with_ordinal(schema: pa.Schema) -> pa.Schema:
    return schema.append(pa.field(ORDINAL.name, pa.int64(), nullable=False))


def _columns(model: type[BaseModel], records: Sequence[BaseModel]) -> dict[str, list[Any]]:
    """Records as columns of their sink schema plus their ordinal (JSON fields as text)."""
    cols = columns_of(model)
    rows = [to_row(r, cols) for r in records]
    data = {c.name: [row[i] for row in rows] for i, c in enumerate(cols)}
    data[ORDINAL.name] = list(range(len(records)))
    return data


def _replace(table: Any, on: list[str], rows: pa.Table, doc_id: str) -> None:
    """One commit: upsert `rows`, delete the document's rows not among them."""
    if rows.num_rows == 0:
        table.delete(f"doc_id = '{doc_id}'")
        return
    (table.merge_insert(on)
     .when_matched_update_all()
     .when_not_matched_insert_all()
     .when_not_matched_by_source_delete(f"doc_id = '{doc_id}'")
     .execute(rows))
