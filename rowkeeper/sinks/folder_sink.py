"""The folder sink: the CONTRACT.md files, kept per document on disk and consolidated at close.

Layout under `path` (a local folder or any fsspec URL):

    _docs/<aa>/<doc_id>.jsonl             one part per document: a header line, the
                                          documents.jsonl line, its tables.jsonl lines, its
                                          chunks.jsonl lines (the source of truth)
    cells/shard=<aa>/<doc_id>.parquet     tables.parquet rows of that document: a Parquet dataset
                                          partitioned per document (DuckDB, pandas, Polars, Spark)
    documents.jsonl tables.jsonl chunks.jsonl tables.parquet
                                          consolidated by close() from the parts

`<aa>` is the first two characters of the doc id, so no folder holds more than ~1/256 of a
large corpus. Every file is written under a hidden temp name and renamed into place; the part
file is renamed last and is the commit point, so a failed write leaves the old version whole.
All state lives on disk: another process (or a later run) reads what this one wrote.
"""

from __future__ import annotations

import json
import posixpath
import uuid
from collections.abc import Iterator, Sequence
from contextlib import ExitStack
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from rowkeeper.errors import ConfigError
from rowkeeper.faults import crash_point
from rowkeeper.models import Chunk, DocumentRecord, DocumentResult, Table
from rowkeeper.schema import CellRow, arrow_schema, cells_arrow
from rowkeeper.sinks.options import coerce_options, safe_doc_id

_VERSION = b"rowkeeper.version"
_STAMP = b"rowkeeper.parts"
"""tables.parquet metadata: a hash of the (doc_id, version) of every part it was built from."""
CONTRACT_FILES = ("documents.jsonl", "tables.jsonl", "chunks.jsonl", "tables.parquet")
_STAMP_FILE = ".parts-stamp"
"""The same stamp beside the outputs, written after tables.parquet's rename: a run with no work
reads it instead of importing pyarrow for the Parquet footer (a crash between the two leaves
the old stamp, which no longer matches the parts: the next run rebuilds)."""
_CROPS = "images/*"
"""Where the run's workers write crops of in-table images (flows.crops.CROPS_DIR, per document):
a worker killed between a crop's write and its rename leaves a temp file there."""


class FolderSink:
    """Writes the CONTRACT.md folder, replacing a document's files atomically on each write."""

    name: ClassVar[str] = "folder"

    class Options(BaseModel):
        """Where to write, and whether close() rebuilds the top-level files."""

        model_config = ConfigDict(frozen=True, extra="forbid")
        path: str = "out"
        """A folder or an fsspec URL (memory://out, s3://bucket/out with s3fs installed)."""
        consolidate: bool = True
        """close() writes documents/tables/chunks.jsonl and tables.parquet from the parts."""
        storage_options: dict[str, Any] = Field(default_factory=dict)
        """Passed to fsspec (credentials come from the environment, not from here)."""

    def __init__(self, options: BaseModel | dict[str, Any] | None = None) -> None:
        self.options = coerce_options(FolderSink.Options, options, self.name)
        from fsspec.core import url_to_fs

        try:
            self.fs, self.root = url_to_fs(self.options.path, **self.options.storage_options)
        except (ImportError, ValueError) as e:
            raise ConfigError(f"folder sink cannot open {self.options.path!r}: {e}") from e
        self.root = self.root.rstrip("/") or "/"
        self.fs.makedirs(self.root, exist_ok=True)
        self._versions: dict[str, str] | None = None  # doc_id -> part version, once read

    # -- paths ---------------------------------------------------------------------------
    def _join(self, *parts: str) -> str:
        return posixpath.join(self.root, *parts)

    def part_path(self, doc_id: str) -> str:
        """Where the per-document part file of `doc_id` lives."""
        doc_id = safe_doc_id(doc_id)
        return self._join("_docs", doc_id[:2], f"{doc_id}.jsonl")

    def cells_path(self, doc_id: str) -> str:
        """Where the per-document Parquet file of `doc_id` lives."""
        doc_id = safe_doc_id(doc_id)
        return self._join("cells", f"shard={doc_id[:2]}", f"{doc_id}.parquet")

    def _temp(self, final: str) -> str:
        # hidden and not *.parquet / *.jsonl: dataset readers and globs skip it
        head, tail = posixpath.split(final)
        return posixpath.join(head, f".{tail}.{uuid.uuid4().hex[:12]}.tmp")

    # -- writing ---------------------------------------------------------------------------
    def write(self, batch: DocumentResult) -> None:
        """Replace every file of the batch's document: temps first, then rename, part last."""
        doc_id = batch.document.doc_id
        part, cells = self.part_path(doc_id), self.cells_path(doc_id)
        temps: list[str] = []
        version = uuid.uuid4().hex
        try:
            cells_tmp = self._stage_cells(cells, batch.tables, version, temps)
            part_tmp = self._stage_part(part, batch, version, temps)
            self._rename(cells_tmp, cells)
            crash_point("write")
            self._rename(part_tmp, part)  # the commit point
            if self._versions is not None:
                self._versions[doc_id] = version
        finally:
            for t in temps:
                if self.fs.exists(t):
                    self.fs.rm(t)

    def _stage_cells(self, final: str, tables: Sequence[Table], version: str, temps: list[str]) -> str:
        import pyarrow.parquet as pq

        tmp = self._temp(final)
        temps.append(tmp)
        self.fs.makedirs(posixpath.dirname(final), exist_ok=True)
        data = cells_arrow(tables).replace_schema_metadata({_VERSION: version})
        with self.fs.open(tmp, "wb") as f:
            pq.write_table(data, f, compression="zstd")
        return tmp

    def _stage_part(self, final: str, batch: DocumentResult, version: str, temps: list[str]) -> str:
        tmp = self._temp(final)
        temps.append(tmp)
        self.fs.makedirs(posixpath.dirname(final), exist_ok=True)
        header = {"doc_id": batch.document.doc_id, "tables": len(batch.tables),
                  "chunks": len(batch.chunks), "version": version}
        with self.fs.open(tmp, "w", encoding="utf-8") as f:
            f.write(json.dumps(header) + "\n")
            f.write(_line(batch.document))
            for t in batch.tables:
                f.write(_line(t))
            for c in batch.chunks:
                f.write(_line(c))
        return tmp

    def _rename(self, tmp: str, final: str) -> None:
        self.fs.mv(tmp, final)

    def delete(self, doc_id: str) -> None:
        """Remove a document: its Parquet file, then the part (the commit point; a crash between
        leaves the document, whose Parquet file the next consolidation rebuilds)."""
        for path in (self.cells_path(doc_id), self.part_path(doc_id)):
            if self.fs.exists(path):
                self.fs.rm(path)
        if self._versions is not None:
            self._versions.pop(doc_id, None)

    # -- reading -----------------------------------------------------------------------------
    def _parts(self) -> list[str]:
        return sorted(self.fs.glob(self._join("_docs", "*", "*.jsonl")))

    def _read_part(self, path: str) -> Iterator[tuple[str, str]]:
        """(kind, json line) of a part file: kind is header, document, table or chunk."""
        with self.fs.open(path, "r", encoding="utf-8") as f:
            line = f.readline()
            header = json.loads(line)
            yield "header", line
            yield "document", f.readline()
            for _ in range(header["tables"]):
                yield "table", f.readline()
            for _ in range(header["chunks"]):
                yield "chunk", f.readline()

    def read(self, doc_id: str) -> DocumentResult | None:
        """What is stored for `doc_id`, from its part file."""
        path = self.part_path(doc_id)
        if not self.fs.exists(path):
            return None
        found: dict[str, list[str]] = {"header": [], "document": [], "table": [], "chunk": []}
        for kind, line in self._read_part(path):
            found[kind].append(line)
        return DocumentResult(
            document=DocumentRecord.model_validate_json(found["document"][0]),
            tables=tuple(Table.model_validate_json(x) for x in found["table"]),
            chunks=tuple(Chunk.model_validate_json(x) for x in found["chunk"]),
        )

    def documents(self) -> dict[str, DocumentRecord]:
        """Every stored document record by doc_id (reads two lines per part file)."""
        out: dict[str, DocumentRecord] = {}
        versions: dict[str, str] = {}
        for path in self._parts():
            with self.fs.open(path, "r", encoding="utf-8") as f:
                header = json.loads(f.readline())
                rec = DocumentRecord.model_validate_json(f.readline())
            out[rec.doc_id] = rec
            versions[rec.doc_id] = header["version"]
        self._versions = versions
        return out

    def _part_versions(self) -> dict[str, str]:
        if self._versions is None:
            self.documents()
        assert self._versions is not None
        return self._versions

    # -- recovery ------------------------------------------------------------------------------
    def leftover_temps(self) -> list[str]:
        """Temp files a killed write or consolidation left behind (no live run owns them: the
        run holds the output folder's lock)."""
        found: set[str] = set()
        for where in ("", "_docs/*", "cells/shard=*", _CROPS):
            for pattern in (".*.tmp", "*.tmp"):
                found.update(self.fs.glob(self._join(where, pattern) if where else self._join(pattern)))
        return sorted(found)

    def needs_consolidation(self) -> bool:
        """True when a top-level file is missing or stale (the parts changed since it was built)
        or a crash left temp files: close() must rebuild, whatever the manifest says."""
        if not self.options.consolidate:
            return False
        if self.leftover_temps():
            return True
        if not all(self.fs.exists(self._join(name)) for name in CONTRACT_FILES):
            return True
        return self._built_from() != _stamp(self._part_versions())

    def _built_from(self) -> str | None:
        """The parts stamp of the consolidated tables.parquet (renamed last, so a current stamp
        means every top-level file of that consolidation is in place)."""
        try:
            with self.fs.open(self._join(_STAMP_FILE), "r", encoding="utf-8") as f:
                return f.read().strip() or None
        except FileNotFoundError:
            return self._parquet_stamp()

    def _parquet_stamp(self) -> str | None:
        """The stamp in tables.parquet's own metadata (outputs written before the stamp file)."""
        import pyarrow.parquet as pq

        try:
            with self.fs.open(self._join("tables.parquet"), "rb") as f:
                meta = pq.read_metadata(f).metadata or {}
        except Exception:  # noqa: BLE001 - unreadable (truncated by a full disk): rebuild it
            return None
        stamp = meta.get(_STAMP)
        return stamp.decode() if stamp else None

    def _write_stamp(self, stamp: str) -> None:
        """The stamp file beside the outputs (temp + rename, like every other file)."""
        final = self._join(_STAMP_FILE)
        tmp = self._temp(final)
        try:
            with self.fs.open(tmp, "w", encoding="utf-8") as f:
                f.write(stamp + "\n")
            self._rename(tmp, final)
        finally:
            if self.fs.exists(tmp):
                self.fs.rm(tmp)

    def _remove_temps(self) -> None:
        for path in self.leftover_temps():
            if self.fs.exists(path):
                self.fs.rm(path)

    # -- consolidation -----------------------------------------------------------------------
    def close(self) -> None:
        """Rebuild the top-level CONTRACT files from the parts on disk (temp + rename each)."""
        if self.options.consolidate:
            self.consolidate()

    def consolidate(self) -> None:
        """Write documents.jsonl, tables.jsonl, chunks.jsonl and tables.parquet from the parts,
        repairing per-document Parquet files that a crash left stale, missing or orphaned."""
        import pyarrow.parquet as pq

        self._remove_temps()
        parts = self._parts()
        versions: dict[str, str] = {}
        finals = {name: self._join(name) for name in CONTRACT_FILES}
        temps = {name: self._temp(path) for name, path in finals.items()}
        names = {"document": "documents.jsonl", "table": "tables.jsonl", "chunk": "chunks.jsonl"}
        try:
            with ExitStack() as stack:
                files = {kind: stack.enter_context(self.fs.open(temps[name], "w", encoding="utf-8"))
                         for kind, name in names.items()}
                pf = stack.enter_context(self.fs.open(temps["tables.parquet"], "wb"))
                writer = stack.enter_context(pq.ParquetWriter(pf, arrow_schema(CellRow), compression="zstd"))
                for path in parts:
                    writer.write_table(self._consolidate_part(path, files, versions))
                stamp = _stamp(versions)
                writer.add_key_value_metadata({_STAMP: stamp})
            crash_point("consolidate")
            for i, name in enumerate(CONTRACT_FILES):  # tables.parquet (the stamp) last
                self._rename(temps[name], finals[name])
                if i == 0:
                    crash_point("consolidate")
            self._write_stamp(stamp)
        finally:
            for t in temps.values():
                if self.fs.exists(t):
                    self.fs.rm(t)
        self._remove_orphans({posixpath.basename(p)[: -len(".jsonl")] for p in parts})
        self._versions = versions

    def _consolidate_part(self, path: str, files: dict[str, Any], versions: dict[str, str]) -> Any:
        """Copy a part's lines to the top-level files; return its cells (rebuilt if stale)."""
        header: dict[str, Any] = {}
        tables: list[str] = []
        for kind, line in self._read_part(path):
            if kind == "header":
                header = json.loads(line)
                versions[header["doc_id"]] = header["version"]
                continue
            files[kind].write(line)  # part lines are contract lines: copied verbatim
            if kind == "table":
                tables.append(line)
        cells = self._read_cells(header["doc_id"])
        if cells is None or (cells.schema.metadata or {}).get(_VERSION) != header["version"].encode():
            rebuilt = [Table.model_validate_json(t) for t in tables]
            self._put_cells(header["doc_id"], rebuilt, header["version"])
            cells = cells_arrow(rebuilt)
        return cells.replace_schema_metadata(None)

    def _put_cells(self, doc_id: str, tables: Sequence[Table], version: str) -> None:
        temps: list[str] = []
        final = self.cells_path(doc_id)
        try:
            self._rename(self._stage_cells(final, tables, version, temps), final)
        finally:
            for t in temps:
                if self.fs.exists(t):
                    self.fs.rm(t)

    def _read_cells(self, doc_id: str) -> Any:
        import pyarrow.parquet as pq

        path = self.cells_path(doc_id)
        if not self.fs.exists(path):
            return None
        with self.fs.open(path, "rb") as f:
            return pq.read_table(f)

    def _remove_orphans(self, doc_ids: set[str]) -> None:
        """Delete Parquet files of documents with no part (a crash between the two renames)."""
        for path in self.fs.glob(self._join("cells", "shard=*", "*.parquet")):
            if posixpath.basename(path)[: -len(".parquet")] not in doc_ids:
                self.fs.rm(path)


def _stamp(versions: dict[str, str]) -> str:
    """One hash of a set of part versions: equal stamps, same consolidated content."""
    import hashlib

    blob = "\n".join(f"{d}:{v}" for d, v in sorted(versions.items()))
    return hashlib.sha256(blob.encode()).hexdigest()


def _line(record: BaseModel) -> str:
    return record.model_dump_json() + "\n"
