"""The record tables of the SQL sinks (duckdb_sink, postgres_sink) and reading them back: one
SELECT of a model's columns per table, in the stored order, and a document's result from them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from pydantic import BaseModel

from rowkeeper.models import Chunk, DocumentRecord, DocumentResult, Table
from rowkeeper.schema import columns_of, from_row

RECORDS: dict[str, type[BaseModel]] = {"documents": DocumentRecord, "tables": Table, "chunks": Chunk}


class SqlRecords:
    """`read` and `documents` of a SQL sink, over its `_query` (a SELECT's rows), its driver's
    parameter mark (`_MARK`) and the order its rows were stored in (`_ORDER`)."""

    _MARK: ClassVar[str]
    _ORDER: ClassVar[str]

    def _query(self, sql: str, params: list[Any]) -> Sequence[Sequence[Any]]:
        raise NotImplementedError

    def _select(self, table: str, where: str = "", params: Sequence[Any] = ()) -> list[Any]:
        model = RECORDS[table]
        cols = columns_of(model)
        names = ", ".join(f'"{c.name}"' for c in cols)
        rows = self._query(f"SELECT {names} FROM {table} {where} ORDER BY {self._ORDER}", list(params))
        return [from_row(model, cols, row) for row in rows]

    def read(self, doc_id: str) -> DocumentResult | None:
        """What is stored for `doc_id`."""
        where = f"WHERE doc_id = {self._MARK}"
        docs = self._select("documents", where, [doc_id])
        if not docs:
            return None
        return DocumentResult(document=docs[0], tables=tuple(self._select("tables", where, [doc_id])),
                              chunks=tuple(self._select("chunks", where, [doc_id])))

    def documents(self) -> dict[str, DocumentRecord]:
        """Every stored document record by doc_id."""
        return {d.doc_id: d for d in self._select("documents")}
