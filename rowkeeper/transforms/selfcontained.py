"""The self-contained measure: can every table value be read from a row-level chunk alone?

A body cell counts as contained when some `row` or `row_group` chunk of its table that covers
its row holds the row key, the column name and the value. A cell whose column has no name (`""`,
blank, or only dashes and dots) never counts: `Column 3: 21.6` tells a retriever nothing about
what 21.6 is. The row key itself is the exception, since it names the row (a stub column of row
labels under a blank corner cell is common and reads fine). `report.json` carries the fraction per table and per run; cells that fail are
listed so a person can see what a retriever loses.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from rowkeeper.models import Chunk, Table
from rowkeeper.transforms.table_text import clean, key_column

MAX_LISTED = 20
"""Failing cells listed per table (the count is always exact)."""
_PLACEHOLDER = re.compile(r"[\s\-\u2010-\u2015\u2212._\u2026\u30fb\u00b7*/]*")
"""What a header cell holds when it names nothing: blanks, dashes, dots, slashes, asterisks."""


class TableSelfContained(BaseModel):
    """The measure for one table."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    table_id: str
    cells: int
    contained: int
    fraction: float
    unnamed: int = 0
    """Cells (counted in `cells`, never in `contained`) whose column has no name (key aside)."""
    missing: tuple[str, ...] = ()
    """Up to MAX_LISTED failing cells as `row N, column C: value`."""


class SelfContainedReport(BaseModel):
    """The measure for a run (or a document): totals, per table, and tables below 1.0."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    cells: int
    contained: int
    fraction: float
    unnamed: int = 0
    tables: tuple[TableSelfContained, ...] = ()
    below: tuple[str, ...] = ()
    """Ids of the tables whose fraction is below 1.0."""


def texts_by_row(chunks: Sequence[Chunk], n_rows: int) -> tuple[list[list[str]], list[str]]:
    """Cleaned chunk texts per body row they cover, and those of chunks with no row metadata."""
    per_row: list[list[str]] = [[] for _ in range(n_rows)]
    anywhere: list[str] = []
    for c in chunks:
        start, end = c.metadata.get("row_start"), c.metadata.get("row_end")
        text = clean(c.text)
        if start is None or end is None:
            anywhere.append(text)  # e.g. a fixed-size baseline chunk may hold any row
            continue
        for i in range(max(0, int(start)), min(n_rows, int(end) + 1)):
            per_row[i].append(text)
    return per_row, anywhere


def is_unnamed(column: str) -> bool:
    """Whether a column name names nothing (empty, blank, or only placeholder punctuation)."""
    return _PLACEHOLDER.fullmatch(column) is not None


def _contained(texts: Sequence[str], needles: Sequence[str]) -> bool:
    return any(all(n in t for n in needles) for t in texts)


def measure_table(table: Table, chunks: Sequence[Chunk], key: int | None = None) -> TableSelfContained:
    """Fraction of the table's non-empty body cells readable (key, column, value) from one chunk."""
    k = key_column(table, key)
    mine = [c for c in chunks if c.table_id == table.table_id and c.kind in ("row", "row_group")]
    per_row, anywhere = texts_by_row(mine, len(table.rows))
    columns = [clean(table.columns[j]) if j < len(table.columns) else "" for j in range(
        max((len(r) for r in table.rows), default=0))]
    cells = contained = unnamed = 0
    missing: list[str] = []
    for i, row in enumerate(table.rows):
        texts = per_row[i] + anywhere
        row_key = clean(row[k]) if k < len(row) else ""
        for j, raw in enumerate(row):
            value = clean(raw)
            if not value:
                continue
            cells += 1
            if j != k and is_unnamed(columns[j]):
                unnamed += 1
            elif _contained(texts, [n for n in (row_key, columns[j], value) if n]):
                contained += 1
                continue
            if len(missing) < MAX_LISTED:
                label = columns[j] if not is_unnamed(columns[j]) else f"{j + 1} (unnamed)"
                missing.append(f"row {i + 1}, column {label}: {value}")
    frac = contained / cells if cells else 1.0
    return TableSelfContained(table_id=table.table_id, cells=cells, contained=contained,
                              fraction=round(frac, 6), unnamed=unnamed, missing=tuple(missing))


def measure_self_contained(tables: Sequence[Table], chunks: Sequence[Chunk],
                           key: int | None = None) -> SelfContainedReport:
    """The measure over tables of one or many documents, per table and in total."""
    by_table: dict[str | None, list[Chunk]] = defaultdict(list)
    for c in chunks:
        by_table[c.table_id].append(c)
    per = tuple(measure_table(t, by_table.get(t.table_id, []), key) for t in tables)
    cells = sum(p.cells for p in per)
    contained = sum(p.contained for p in per)
    return SelfContainedReport(
        cells=cells, contained=contained, unnamed=sum(p.unnamed for p in per),
        fraction=round(contained / cells, 6) if cells else 1.0, tables=per,
        below=tuple(p.table_id for p in per if p.fraction < 1.0))
