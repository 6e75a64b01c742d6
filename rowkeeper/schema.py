"""Column types for sinks, derived once from the model: the Arrow schema and the SQL DDL.

Sinks do not invent column types: every table a sink creates is `columns_of(<model>)`, so a
field added to a record in models.py shows up in Parquet, DuckDB and Postgres alike. Scalar
fields become typed columns; nested fields (tuples of records, dicts) become JSON.
"""

from __future__ import annotations

import json
import types
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel

from rowkeeper.models import NUMERIC_TYPES, ColumnType, Record, Table

Kind = Literal["text", "int", "float", "bool", "json"]
Dialect = Literal["duckdb", "postgres"]

_SCALARS: dict[type, Kind] = {str: "text", int: "int", float: "float", bool: "bool"}
_SQL: dict[Dialect, dict[Kind, str]] = {
    "duckdb": {"text": "VARCHAR", "int": "BIGINT", "float": "DOUBLE", "bool": "BOOLEAN", "json": "JSON"},
    "postgres": {"text": "TEXT", "int": "BIGINT", "float": "DOUBLE PRECISION", "bool": "BOOLEAN",
                 "json": "JSONB"},
}


class CellRow(Record):
    """One body cell of a table: a row of tables.parquet and of the SQL `cells` table."""

    doc_id: str
    table_id: str
    row: int
    col: int
    column: str
    text: str
    type: ColumnType
    value_num: float | None = None


@dataclass(frozen=True)
class Column:
    """A sink column: name, storage kind and whether it may be null."""

    name: str
    kind: Kind
    nullable: bool


ORDINAL = Column("ord", "int", False)
"""Position of a record within its document, so SQL sinks give tables and chunks back in order."""

CELLS_NUMERIC = """
CREATE OR REPLACE VIEW cells_numeric AS
SELECT c.doc_id, d.source, c.table_id, t.caption, t.section_path, t.pages,
       c."row", c.col, c."column", label.text AS row_label, c.type, c.value_num, c.text
FROM cells c
JOIN tables t ON t.doc_id = c.doc_id AND t.table_id = c.table_id
JOIN documents d ON d.doc_id = c.doc_id
LEFT JOIN cells label
  ON label.doc_id = c.doc_id AND label.table_id = c.table_id AND label."row" = c."row"
 AND label.col = 0
WHERE c.value_num IS NOT NULL
"""
"""The view every SQL sink creates: parsed numbers with their column name, the row's first cell (its label) and table context."""


def _kind(annotation: Any) -> tuple[Kind, bool]:
    """Storage kind of a field annotation, and whether None is allowed."""
    origin = get_origin(annotation)
    if origin in (Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        kind, _ = _kind(args[0]) if len(args) == 1 else ("json", True)
        return kind, True
    if origin is Literal:
        return ("text", False) if all(isinstance(a, str) for a in get_args(annotation)) else ("json", False)
    if isinstance(annotation, type) and annotation in _SCALARS:
        return _SCALARS[annotation], False
    return "json", False


def columns_of(model: type[BaseModel]) -> tuple[Column, ...]:
    """The sink columns of a record type, in field order."""
    out = []
    for name, field in model.model_fields.items():
        kind, nullable = _kind(field.annotation)
        out.append(Column(name, kind, nullable))
    return tuple(out)


def arrow_schema(model: type[BaseModel]) -> Any:
    """The pyarrow schema of a record type (JSON fields as UTF-8 strings)."""
    import pyarrow as pa

    types_ = {"text": pa.string(), "int": pa.int64(), "float": pa.float64(), "bool": pa.bool_(),
              "json": pa.string()}
    return pa.schema([pa.field(c.name, types_[c.kind], nullable=c.nullable) for c in columns_of(model)])


def sql_ddl(table: str, model: type[BaseModel], dialect: Dialect, primary_key: Sequence[str] = (),
            extra: Sequence[Column] = ()) -> str:
    """`CREATE TABLE IF NOT EXISTS` for a record type (plus `extra` columns) in a SQL dialect."""
    sql = _SQL[dialect]
    cols = [f'"{c.name}" {sql[c.kind]}{"" if c.nullable else " NOT NULL"}'
            for c in (*columns_of(model), *extra)]
    if primary_key:
        cols.append("PRIMARY KEY (" + ", ".join(f'"{k}"' for k in primary_key) + ")")
    return f"CREATE TABLE IF NOT EXISTS {table} (\n  " + ",\n  ".join(cols) + "\n)"


def sql_add_columns(table: str, model: type[BaseModel], dialect: Dialect) -> list[str]:
    """`ADD COLUMN IF NOT EXISTS` for every field, so a store created before a field was added
    to the model takes the new records (added columns are nullable: old rows have no value)."""
    sql = _SQL[dialect]
    return [f'ALTER TABLE {table} ADD COLUMN IF NOT EXISTS "{c.name}" {sql[c.kind]}'
            for c in columns_of(model)]


def to_row(record: BaseModel, columns: Sequence[Column]) -> tuple[Any, ...]:
    """A record as a tuple of column values (JSON fields as JSON text)."""
    data = record.model_dump(mode="json")
    return tuple(
        json.dumps(data[c.name], ensure_ascii=False) if c.kind == "json" else data[c.name]
        for c in columns
    )


def _has_default(field: Any) -> bool:
    """A field NULL may stand for: optional with a non-None default (a column added later)."""
    return not field.is_required() and field.default is not None


def from_row(model: type[BaseModel], columns: Sequence[Column], values: Sequence[Any]) -> Any:
    """A record back from column values (JSON text or already-decoded JSON both accepted)."""
    data = {
        c.name: json.loads(v) if c.kind == "json" and isinstance(v, str) else v
        for c, v in zip(columns, values, strict=True)
        # NULL in a column added after the row was written (sql_add_columns): the field's default
        if v is not None or not _has_default(model.model_fields[c.name])
    }
    return model.model_validate(data)


def cell_columns(tables: Iterable[Table]) -> dict[str, list[Any]]:
    """The body cells of tables as columns of CellRow (columnar: no object per cell)."""
    cols: dict[str, list[Any]] = {c.name: [] for c in columns_of(CellRow)}
    for t in tables:
        for r, row in enumerate(t.rows):
            nums = t.values[r] if r < len(t.values) else ()
            for c, text in enumerate(row):
                ctype = t.column_types[c] if c < len(t.column_types) else "text"
                num = nums[c] if ctype in NUMERIC_TYPES and c < len(nums) else None
                cols["doc_id"].append(t.doc_id)
                cols["table_id"].append(t.table_id)
                cols["row"].append(r)
                cols["col"].append(c)
                cols["column"].append(t.columns[c] if c < len(t.columns) else "")
                cols["text"].append(text)
                cols["type"].append(ctype)
                cols["value_num"].append(num)
    return cols


def cells_arrow(tables: Iterable[Table]) -> Any:
    """The body cells of tables as a pyarrow Table with the CellRow schema."""
    import pyarrow as pa

    return pa.Table.from_pydict(cell_columns(tables), schema=arrow_schema(CellRow))
