"""rowkeeper from Python: ingest PDFs into the configured sinks, read a run's tables back, or
extract one PDF in this process (notebooks).

Stages are imported on first use, as the CLI's subcommands are, so `import rowkeeper` stays
cheap and `extract` never imports Prefect. The work itself is the pipeline's and the flow's:
nothing here re-implements a stage.
"""

from __future__ import annotations

import argparse
import csv
import importlib
import io
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rowkeeper.config import Config, check_config, load_config, parse_config
from rowkeeper.errors import BadInput
from rowkeeper.models import Chunk, DocumentRecord
from rowkeeper.models import Table as _TableRecord

if TYPE_CHECKING:
    import pandas

PathLike = str | os.PathLike[str]
ConfigLike = PathLike | Config | dict[str, Any] | None


class Table(_TableRecord):
    """A logical table (a tables.jsonl line) with exports to pandas, CSV and Markdown."""

    def to_pandas(self) -> pandas.DataFrame:
        """The body as a DataFrame: one column per name in `columns`, one row per body row."""
        import pandas

        return pandas.DataFrame([list(r) for r in self.rows], columns=list(self.columns))

    def to_csv(self, path: PathLike | None = None) -> str:
        """The table as CSV (header line = column names); also written to `path` if given."""
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(self.columns)
        writer.writerows(self.rows)
        text = buf.getvalue()
        if path is not None:
            with open(path, "w", encoding="utf-8", newline="") as f:
                f.write(text)
        return text

    def to_markdown(self) -> str:
        """The table as a GitHub Markdown table, as rowkeeper's `table` chunks render it."""
        from rowkeeper.transforms.table_text import to_markdown

        return to_markdown(self)


@dataclass(frozen=True)
class DocumentStatus:
    """How one input document ended in a run."""

    source: str
    doc_id: str
    status: str
    """ok, failed or skipped_unchanged."""
    error: str | None = None
    tables: int = 0
    chunks: int = 0


@dataclass(frozen=True)
class RunSummary:
    """What `ingest` did: the run's totals and each document's status (report.json)."""

    out: str
    documents: int
    ok: int
    failed: int
    skipped: int
    pages: int
    tables: int
    chunks: int
    seconds: float
    statuses: tuple[DocumentStatus, ...] = ()
    report: dict[str, Any] = field(default_factory=dict, repr=False)
    """report.json, for the figures not lifted into fields: its head as read, its `documents`
    read from the file again on each pass (flows.report_stream.ReportDocuments)."""

    def read_tables(self) -> list[Table]:
        """The run folder's tables (`read_tables(self.out)`)."""
        return read_tables(self.out)


@dataclass(frozen=True)
class Extracted:
    """One PDF read in-process: its record (status, pages, attempts), tables and chunks."""

    document: DocumentRecord
    tables: tuple[Table, ...] = ()
    chunks: tuple[Chunk, ...] = ()

    @property
    def status(self) -> str:
        """ok or failed."""
        return self.document.status


def _as_config(config: ConfigLike) -> Config:
    """A checked Config from a YAML path, a dict, a Config, or None (the default config)."""
    if config is None or isinstance(config, str | os.PathLike):
        return load_config(config)
    return check_config(parse_config(config))


def _inputs(paths: PathLike | Iterable[PathLike]) -> list[str]:
    if isinstance(paths, str | os.PathLike):
        return [os.fspath(paths)]
    return [os.fspath(p) for p in paths]


def _stage(target: str) -> Any:
    """A flow-layer function by 'module:attr', imported now (the core imports no stage)."""
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)


def ingest(paths: PathLike | Iterable[PathLike], out: PathLike | None = None,
           config: ConfigLike = None, *, prune: bool = False, retry_failed: bool = False,
           progress: bool = False) -> RunSummary:
    """Run the ingest flow (as `rowkeeper run`) over PDFs or folders into the configured sinks."""
    from rowkeeper.cli import QUIET_ENV

    for key, value in QUIET_ENV.items():  # before the flow module imports Prefect
        os.environ.setdefault(key, value)
    cfg = _as_config(config)
    if out is not None:
        cfg = cfg.with_out(os.fspath(out))
    if retry_failed:
        cfg = cfg.model_copy(update={"runner": cfg.runner.model_copy(update={"retry_failed": True})})
    args = argparse.Namespace(no_progress=not progress, prune=prune, cache_hours=0.0)
    _stage("rowkeeper.flows.launch:run_cli")(_inputs(paths), cfg, args)
    return read_summary(cfg.out)


def read_summary(out: PathLike) -> RunSummary:
    """The RunSummary of the run whose report.json is in `out`, read one document at a time (a
    100,000-document report is never loaded whole: `report["documents"]` reads it on demand)."""
    read_report = _stage("rowkeeper.flows.report_stream:read_report")
    report = read_report(os.path.join(os.fspath(out), "report.json"))
    t = report["totals"]
    statuses = tuple(
        DocumentStatus(source=d["source"], doc_id=d["doc_id"], status=d["status"],
                       error=d.get("error"), tables=d.get("n_tables", 0), chunks=d.get("n_chunks", 0))
        for d in report["documents"])
    return RunSummary(out=os.fspath(out), documents=t["documents"], ok=t["ok"], failed=t["failed"],
                      skipped=t["skipped"], pages=t["pages"], tables=t["tables"],
                      chunks=t["chunks"], seconds=t["seconds"], statuses=statuses, report=report)


def _jsonl(out_dir: PathLike, name: str) -> Iterable[dict[str, Any]]:
    """The records of a run folder's `name` (a local folder or an fsspec URL)."""
    import fsspec

    path = f"{os.fspath(out_dir).rstrip('/')}/{name}"
    try:
        with fsspec.open(path, "rt", encoding="utf-8") as f:
            lines = f.read().splitlines()
    except FileNotFoundError as e:
        raise FileNotFoundError(f"no {name} in {out_dir} (run rowkeeper.ingest(..., out=...) first)") from e
    return (json.loads(line) for line in lines if line.strip())


def read_tables(out_dir: PathLike) -> list[Table]:
    """The tables of a run folder's tables.jsonl, in file order."""
    return [Table.model_validate(record) for record in _jsonl(out_dir, "tables.jsonl")]


def read_chunks(out_dir: PathLike) -> list[Chunk]:
    """The retrieval chunks of a run folder's chunks.jsonl, in file order."""
    return [Chunk.model_validate(record) for record in _jsonl(out_dir, "chunks.jsonl")]


def extract(pdf_path: PathLike, config: ConfigLike = None, *, raise_on_error: bool = True) -> Extracted:
    """Tables and chunks of one PDF, computed in this process (no Prefect, no worker, no sink).

    The pipeline is the one a run's worker calls (`flows.pipeline.process_document`). Nothing
    is written: crops of in-table images are not made (their chunks carry no `crop_path`). A
    document that cannot be read raises `BadInput` with its reason, or, with
    `raise_on_error=False`, comes back with `status == "failed"` and `document.error`.
    """
    cfg = _as_config(config).model_copy(update={"out": ""})
    path = os.fspath(pdf_path)
    pipeline = importlib.import_module("rowkeeper.flows.pipeline")
    try:
        doc = pipeline.load_document(path)
    except BadInput as e:
        if raise_on_error:
            raise
        doc_id = pipeline.unreadable_id(path)
        return Extracted(DocumentRecord(doc_id=doc_id, source=path, status="failed", error=str(e)))
    result = pipeline.process_document(doc, cfg)
    if result.document.status == "failed" and raise_on_error:
        raise BadInput(f"{path}: {result.document.error}")
    tables = tuple(Table.model_validate(t.model_dump()) for t in result.tables)
    return Extracted(result.document, tables, result.chunks)
