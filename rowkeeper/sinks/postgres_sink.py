"""The Postgres sink (psycopg 3): documents, tables, typed cells and chunks in a schema.

The schema is created on first use (under an advisory lock, so parallel workers do not race).
Each `write` deletes the document's rows and COPYs the new ones in one transaction. When the
`vector` extension (pgvector) is available, chunks get an `embedding vector(dim)` column.
The DSN comes from options or the environment (ROWKEEPER_PG_DSN, else libpq's PG* variables).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar, Literal

import psycopg
from pydantic import BaseModel, ConfigDict

from rowkeeper.errors import ConfigError, TransientError
from rowkeeper.models import Chunk, DocumentRecord, DocumentResult, Table
from rowkeeper.schema import (
    CELLS_NUMERIC,
    ORDINAL,
    CellRow,
    cell_columns,
    columns_of,
    sql_add_columns,
    sql_ddl,
    to_row,
)
from rowkeeper.sinks.embeddings import EmbeddingName, make_embedder
from rowkeeper.sinks.options import coerce_options, safe_doc_id
from rowkeeper.sinks.sql_records import RECORDS, SqlRecords

_IDENT = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


def _pg_text(value: Any) -> Any:
    """Postgres text and JSONB reject NUL: replace it (PDF text layers do contain it)."""
    if isinstance(value, str):
        return value.replace("\x00", "\ufffd").replace("\\u0000", "\\ufffd")
    return value


class PostgresSink(SqlRecords):
    """Documents, tables, typed cells and chunks (optionally pgvector) in a Postgres schema."""

    name: ClassVar[str] = "postgres"
    _MARK: ClassVar[str] = "%s"
    _ORDER: ClassVar[str] = "doc_id, ord"

    class Options(BaseModel):
        """Server, schema, and the chunk embedding stored when pgvector is available."""

        model_config = ConfigDict(frozen=True, extra="forbid")
        dsn: str | None = None
        """libpq connection string; prefer ROWKEEPER_PG_DSN / PG* variables for secrets."""
        schema_name: str = "rowkeeper"
        vector: Literal["auto", "off"] = "auto"
        """auto: an `embedding` column when the `vector` extension can be created."""
        embedding: EmbeddingName = "auto"
        hashing_dim: int = 256

    def __init__(self, options: BaseModel | dict[str, Any] | None = None) -> None:
        self.options = coerce_options(PostgresSink.Options, options, self.name)
        if not _IDENT.match(self.options.schema_name):
            raise ConfigError(f"postgres schema_name {self.options.schema_name!r} is not a plain identifier")
        self._conn: psycopg.Connection[Any] | None = None
        self.embedder = None
        self.has_vector = False

    # -- connection and schema -------------------------------------------------------------
    @property
    def conn(self) -> psycopg.Connection[Any]:
        """The connection, opened and the schema created on first use."""
        if self._conn is None:
            dsn = self.options.dsn or os.environ.get("ROWKEEPER_PG_DSN", "")
            try:
                self._conn = psycopg.connect(dsn, autocommit=True)
            except psycopg.OperationalError as e:
                raise TransientError(f"cannot connect to Postgres: {e}") from e
            self._create_schema(self._conn)
        return self._conn

    def _create_schema(self, conn: psycopg.Connection[Any]) -> None:
        schema = self.options.schema_name
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [f"rowkeeper:{schema}"])
            conn.execute(f'CREATE SCHEMA IF NOT EXISTS "{schema}"')
            conn.execute(f'SET search_path TO "{schema}"')
            for name, model in RECORDS.items():
                conn.execute(sql_ddl(name, model, "postgres", extra=(ORDINAL,)))
                for alter in sql_add_columns(name, model, "postgres"):
                    conn.execute(alter)
            conn.execute(sql_ddl("cells", CellRow, "postgres"))
            for name in (*RECORDS, "cells"):
                conn.execute(f"CREATE INDEX IF NOT EXISTS {name}_doc_id ON {name} (doc_id)")
            conn.execute(CELLS_NUMERIC)
            if self.options.vector == "auto" and self.options.embedding != "off":
                self._add_vector_column(conn)

    def _add_vector_column(self, conn: psycopg.Connection[Any]) -> None:
        available = conn.execute(
            "SELECT 1 FROM pg_available_extensions WHERE name = 'vector'").fetchone()
        if not available:
            return
        try:
            with conn.transaction():  # a savepoint: lacking the privilege must not abort the DDL
                conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        except psycopg.errors.InsufficientPrivilege:
            return
        self.embedder = make_embedder(self.options.embedding, self.options.hashing_dim)
        assert self.embedder is not None
        conn.execute(f"ALTER TABLE chunks ADD COLUMN IF NOT EXISTS embedding vector({self.embedder.dim})")
        conn.execute("ALTER TABLE chunks ADD COLUMN IF NOT EXISTS embedding_model TEXT")
        self.has_vector = True

    # -- writing ---------------------------------------------------------------------------
    def write(self, batch: DocumentResult) -> None:
        """Replace the document's rows in every table, in one transaction."""
        doc_id = safe_doc_id(batch.document.doc_id)
        conn = self.conn
        vectors = self._vectors(batch.chunks)
        try:
            with conn.transaction():
                self._lock_document(doc_id)
                self._delete_rows(doc_id)
                self._copy("documents", _record_rows(DocumentRecord, [batch.document]))
                self._copy("tables", _record_rows(Table, batch.tables))
                cells = cell_columns(batch.tables)
                self._copy("cells", zip(*cells.values(), strict=True), list(cells))
                self._copy_chunks(batch.chunks, vectors)
        except psycopg.OperationalError as e:
            raise TransientError(f"Postgres write of {doc_id} failed: {e}") from e

    def _vectors(self, chunks: Sequence[Chunk]) -> list[str] | None:
        if not self.has_vector or self.embedder is None:
            return None
        return ["[" + ",".join(f"{x:.6g}" for x in v) + "]" for v in self.embedder.embed([c.text for c in chunks])]

    def _copy_chunks(self, chunks: Sequence[Chunk], vectors: list[str] | None) -> None:
        rows: Iterable[tuple[Any, ...]] = _record_rows(Chunk, chunks)
        names = [c.name for c in columns_of(Chunk)] + [ORDINAL.name]
        if vectors is not None and self.embedder is not None:
            model = self.embedder.name
            rows = ((*row, vec, model) for row, vec in zip(rows, vectors, strict=True))
            names += ["embedding", "embedding_model"]
        self._copy("chunks", rows, names)

    def _copy(self, table: str, rows: Iterable[Sequence[Any]], names: list[str] | None = None) -> None:
        if names is None:
            names = [c.name for c in columns_of(RECORDS[table])] + [ORDINAL.name]
        cols = ", ".join(f'"{n}"' for n in names)
        with self.conn.cursor() as cur, cur.copy(f"COPY {table} ({cols}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row([_pg_text(v) for v in row])

    def _lock_document(self, doc_id: str) -> None:
        """Hold the document's lock until the transaction ends: another run writing the same
        schema (its own --out, its own folder lock) waits, then deletes what this one wrote,
        instead of both deleting nothing and both inserting."""
        self.conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))",
                          [f"rowkeeper:{self.options.schema_name}:{doc_id}"])

    def _delete_rows(self, doc_id: str) -> None:
        for table in ("chunks", "cells", "tables", "documents"):
            self.conn.execute(f"DELETE FROM {table} WHERE doc_id = %s", [doc_id])

    def delete(self, doc_id: str) -> None:
        """Remove every row of `doc_id`, in one transaction."""
        with self.conn.transaction():
            self._lock_document(safe_doc_id(doc_id))
            self._delete_rows(safe_doc_id(doc_id))

    # -- reading (sql_records.SqlRecords) ------------------------------------------------------
    def _query(self, sql: str, params: list[Any]) -> Sequence[Sequence[Any]]:
        return self.conn.execute(sql, params).fetchall()

    def close(self) -> None:
        """Close the connection."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None


def _record_rows(model: type[BaseModel], records: Sequence[BaseModel]) -> Iterable[tuple[Any, ...]]:
    """Rows of records plus their ordinal, serialised lazily (inside the transaction)."""
    cols = columns_of(model)
    return ((*to_row(r, cols), i) for i, r in enumerate(records))
