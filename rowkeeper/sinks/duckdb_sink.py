"""The DuckDB sink: documents, tables, typed cells and chunks in one embedded database file.

Each `write` deletes the document's rows and inserts the new ones in one transaction, so a
rerun replaces and a failure rolls back to the previous version. Column types come from
rowkeeper.schema (derived from the model); nested fields are DuckDB JSON.

`rowkeeper sql OUT "SELECT ..."` (see `sql_cli`) queries the database, or, for a folder with no
database, the folder sink's files through views of the same names.
"""

from __future__ import annotations

import contextlib
import csv
import json
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, ClassVar

import duckdb
import pyarrow as pa
from pydantic import BaseModel, ConfigDict

from rowkeeper.errors import ConfigError, OutputError, TransientError
from rowkeeper.models import Chunk, DocumentRecord, DocumentResult, Table
from rowkeeper.schema import (
    CELLS_NUMERIC,
    ORDINAL,
    CellRow,
    arrow_schema,
    cells_arrow,
    columns_of,
    sql_add_columns,
    sql_ddl,
    to_row,
)
from rowkeeper.sinks.options import coerce_options
from rowkeeper.sinks.sql_records import RECORDS, SqlRecords

DB_NAME = "rowkeeper.duckdb"



def _unwritable(e: duckdb.Error) -> bool:
    """Does `e` say the database file cannot be written (a full disk, a read-only or vanished
    file)? DuckDB raises an IOException, or at COMMIT a TransactionException carrying it, and
    after such a failure a FatalException (the database is invalidated)."""
    return isinstance(e, duckdb.IOException | duckdb.FatalException) or \
        str(e).startswith("TransactionContext Error: Failed to commit")


def _ddl() -> list[str]:
    stmts = [sql_ddl(name, model, "duckdb", extra=(ORDINAL,)) for name, model in RECORDS.items()]
    stmts += [alter for name, model in RECORDS.items() for alter in sql_add_columns(name, model, "duckdb")]
    stmts.append(sql_ddl("cells", CellRow, "duckdb"))
    stmts.append(CELLS_NUMERIC)
    return stmts


def _arrow(model: type[BaseModel], records: Sequence[BaseModel]) -> pa.Table:
    """Records as an Arrow table of their sink columns plus their ordinal."""
    cols = columns_of(model)
    rows = [to_row(r, cols) for r in records]  # serialisation errors surface here, mid-transaction
    data = {c.name: [row[i] for row in rows] for i, c in enumerate(cols)}
    data[ORDINAL.name] = list(range(len(records)))
    schema = arrow_schema(model).append(pa.field(ORDINAL.name, pa.int64(), nullable=False))
    return pa.Table.from_pydict(data, schema=schema)


class DuckDBSink(SqlRecords):
    """Documents, tables, typed cells and chunks in a DuckDB file; one transaction per document."""

    name: ClassVar[str] = "duckdb"
    _MARK: ClassVar[str] = "?"
    _ORDER: ClassVar[str] = "ord"

    class Options(BaseModel):
        """Where the database file is."""

        model_config = ConfigDict(frozen=True, extra="forbid")
        path: str = f"out/{DB_NAME}"

    def __init__(self, options: BaseModel | dict[str, Any] | None = None) -> None:
        self.options = coerce_options(DuckDBSink.Options, options, self.name)
        self._con: duckdb.DuckDBPyConnection | None = None

    @property
    def con(self) -> duckdb.DuckDBPyConnection:
        """The connection, opened (and the schema created) on first use."""
        if self._con is None:
            path = Path(self.options.path)
            path.parent.mkdir(parents=True, exist_ok=True)
            try:
                self._con = duckdb.connect(str(path))
            except duckdb.IOException as e:  # another process holds the write lock
                raise TransientError(f"cannot open {path}: {e}") from e
            with self._writing():
                for stmt in _ddl():
                    self._con.execute(stmt)
        return self._con

    @contextlib.contextmanager
    def _writing(self, transaction: bool = False) -> Iterator[None]:
        """Statements that write the file (in one transaction when asked): a failure rolls
        back, and one saying the file cannot be written is an OutputError (one line, exit 2)."""
        con = self.con
        if transaction:
            con.execute("BEGIN TRANSACTION")
        try:
            yield
            if transaction:
                con.execute("COMMIT")
        except BaseException as e:
            if transaction:
                with contextlib.suppress(duckdb.Error):  # a failed COMMIT has ended it already
                    con.execute("ROLLBACK")
            if isinstance(e, duckdb.Error) and _unwritable(e):
                raise OutputError(f"cannot write {self.options.path}: {str(e).splitlines()[0]}") from None
            raise

    def write(self, batch: DocumentResult) -> None:
        """Replace the document's rows in every table, in one transaction."""
        with self._writing(transaction=True):
            self._delete_rows(batch.document.doc_id)
            self._insert("documents", _arrow(DocumentRecord, [batch.document]))
            self._insert("tables", _arrow(Table, batch.tables))
            self._insert("cells", cells_arrow(batch.tables))
            self._insert("chunks", _arrow(Chunk, batch.chunks))

    def _insert(self, table: str, data: pa.Table) -> None:
        if data.num_rows:
            self.con.register("_rk_rows", data)
            try:
                self.con.execute(f"INSERT INTO {table} BY NAME SELECT * FROM _rk_rows")
            finally:
                self.con.unregister("_rk_rows")

    def _delete_rows(self, doc_id: str) -> None:
        for table in ("chunks", "cells", "tables", "documents"):
            self.con.execute(f"DELETE FROM {table} WHERE doc_id = ?", [doc_id])

    def delete(self, doc_id: str) -> None:
        """Remove every row of `doc_id`, in one transaction."""
        with self._writing(transaction=True):
            self._delete_rows(doc_id)

    def _query(self, sql: str, params: list[Any]) -> Sequence[Sequence[Any]]:
        return self.con.execute(sql, params).fetchall()

    def close(self) -> None:
        """Checkpoint and close the database file."""
        if self._con is not None:
            with self._writing():  # the checkpoint writes the file
                self._con.close()
            self._con = None


# -- rowkeeper sql -----------------------------------------------------------------------------
def _literal(path: Path) -> str:
    """A path as a SQL string literal (views cannot take prepared parameters)."""
    return "'" + str(path).replace("'", "''") + "'"


def _folder_views(con: duckdb.DuckDBPyConnection, folder: Path) -> None:
    """Views named like the database tables over a folder sink's files (no database needed)."""
    files = {"documents": "documents.jsonl", "tables": "tables.jsonl", "chunks": "chunks.jsonl"}
    for view, name in files.items():
        if (folder / name).exists() and (folder / name).stat().st_size:
            con.execute(f"CREATE VIEW {view} AS SELECT * FROM read_json_auto({_literal(folder / name)})")
    if (folder / "tables.parquet").exists():
        con.execute(f"CREATE VIEW cells AS SELECT * FROM read_parquet({_literal(folder / 'tables.parquet')})")
    if {"cells", "tables", "documents"} <= {r[0] for r in con.execute("SHOW TABLES").fetchall()}:
        con.execute(CELLS_NUMERIC)


def connect_out(out: str) -> duckdb.DuckDBPyConnection:
    """A read-only connection to a run's output: a .duckdb file, a folder holding one, or a
    folder sink's files (viewed as documents / tables / cells / chunks / cells_numeric)."""
    path = Path(out)
    db = path if path.is_file() else path / DB_NAME
    if db.is_file():
        try:
            return duckdb.connect(str(db), read_only=True)
        except duckdb.IOException as e:
            raise ConfigError(f"cannot open {db} (is a run still writing it?): {e}") from e
    if not path.is_dir():
        raise ConfigError(f"no rowkeeper output at {out}")
    con = duckdb.connect()
    _folder_views(con, path)
    return con


def _print(columns: Sequence[str], rows: Iterable[Sequence[Any]], fmt: str) -> None:
    if fmt == "csv":
        w = csv.writer(sys.stdout)
        w.writerow(columns)
        w.writerows(rows)
    elif fmt == "jsonl":
        for row in rows:
            print(json.dumps(dict(zip(columns, row, strict=True)), ensure_ascii=False, default=str))
    else:
        print("\t".join(columns))
        for row in rows:
            print("\t".join("" if v is None else str(v) for v in row))


def sql_cli(out: str, query: str, fmt: str = "tsv") -> int:
    """`rowkeeper sql OUT QUERY`: run a query against a run's output and print the result."""
    con = connect_out(out)
    try:
        cur = con.execute(query)
    except duckdb.Error as e:
        print(f"rowkeeper sql: {e}", file=sys.stderr)
        return 1
    if cur.description is None:
        return 0
    _print([d[0] for d in cur.description], cur.fetchall(), fmt)
    return 0

