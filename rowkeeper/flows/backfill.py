"""Backfill after a parser upgrade or a config change: reprocess the stored documents whose
pipeline fingerprint is no longer the current one (or a filtered set), diff each against what
the sink holds, and replace it unless that would make it worse (`max_regression`).

`--dry-run` computes the same diff and writes nothing to any sink. Reports go to
`backfill.json` / `backfill.html` in the run folder, never into the sink's own files.
"""

from __future__ import annotations

import datetime as dt
import fnmatch
import os
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from prefect import flow
from pydantic import BaseModel, ConfigDict

from rowkeeper.config import Config
from rowkeeper.errors import BadInput
from rowkeeper.flows.diff import diff_document, summarize
from rowkeeper.flows.incremental import is_current
from rowkeeper.flows.ingest import extract_with_prefect, load_task, log_document
from rowkeeper.flows.outputs import close_all, open_sinks
from rowkeeper.flows.pipeline import load_document, process_document
from rowkeeper.flows.report import (
    build_report,
    document_entry,
    summary_markdown,
    write_report_files,
)
from rowkeeper.models import DocumentInput, DocumentRecord, DocumentResult


class BackfillOptions(BaseModel):
    """Which documents to reprocess and how careful to be."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    dry_run: bool = False
    max_regression: int = 0
    """Refuse to replace a document with more regressions than this (flows.diff.regressions)."""
    force: bool = False
    all: bool = False
    """Reprocess every stored document, current fingerprint or not."""
    glob: str | None = None
    extractor: str | None = None
    """Only documents where this extractor's output was accepted."""
    since: str | None = None
    """Only documents whose source file changed on or after this ISO date."""


def selected(rec: DocumentRecord, config: Config, opts: BackfillOptions) -> bool:
    """Does the backfill take this stored document?"""
    if not opts.all and is_current(rec, config):
        return False
    if opts.glob and not fnmatch.fnmatch(rec.source, opts.glob):
        return False
    if opts.extractor and not any(a.accepted and a.extractor == opts.extractor for a in rec.attempts):
        return False
    if opts.since:
        since = dt.datetime.fromisoformat(opts.since).timestamp()
        if not os.path.exists(rec.source) or os.path.getmtime(rec.source) < since:
            return False
    return True


def select_documents(manifest: dict[str, DocumentRecord], config: Config,
                     opts: BackfillOptions) -> tuple[list[tuple[DocumentInput, str]], list[dict[str, Any]]]:
    """(input, stored doc_id) pairs to reprocess, and notes on stored documents that cannot be."""
    todo, notes = [], []
    for doc_id, rec in sorted(manifest.items(), key=lambda kv: kv[1].source):
        if not selected(rec, config, opts):
            continue
        try:
            todo.append((load_document(rec.source), doc_id))
        except BadInput as e:
            notes.append({"doc_id": doc_id, "source": rec.source, "note": f"not reprocessed: {e}"})
    return todo, notes


def run_backfill(config: Config, opts: BackfillOptions,
                 extract_many: Callable[[Sequence[DocumentInput], Config], Iterable[DocumentResult]],
                 load: Callable[..., DocumentRecord]) -> dict[str, Any]:
    """Select, reprocess, diff, replace (unless dry-run or refused), and write the report."""
    with tempfile.TemporaryDirectory(prefix="rowkeeper-dry-run-") as scratch:
        # A dry run's side files (image crops) go to scratch: the run folder stays as it was.
        work = config.model_copy(update={"out": scratch}) if opts.dry_run else config
        return _backfill(config, opts, lambda docs: extract_many(docs, work), load)


def _backfill(config: Config, opts: BackfillOptions,
              extract_many: Callable[[Sequence[DocumentInput]], Iterable[DocumentResult]],
              load: Callable[..., DocumentRecord]) -> dict[str, Any]:
    start = time.perf_counter()
    sinks = open_sinks(config)
    primary = sinks[0]
    todo, notes = select_documents(primary.documents(), config, opts)
    stored = {doc.doc_id: old_id for doc, old_id in todo}
    diffs, entries, wrote = [], [], False
    for result in extract_many([doc for doc, _ in todo]):
        old_id = stored[result.document.doc_id]
        d = diff_document(primary.read(old_id), result)
        d["action"] = _action(d, opts)
        diffs.append(d)
        if d["action"] == "replaced":
            load(result, sinks, (old_id,) if old_id != result.document.doc_id else ())
            wrote = True
        entries.append(document_entry(result.document, result))
        log_document(result.document)
    if wrote:
        close_all(sinks)
    records = [e["_record"] for e in entries]
    summary = {**summarize(diffs), **{a: sum(d["action"] == a for d in diffs)
                                      for a in ("replaced", "refused", "dry-run")}}
    report = build_report(entries, records, config, time.perf_counter() - start, command="backfill",
                          backfill={"options": opts.model_dump(), "summary": summary,
                                    "documents": diffs, "notes": notes})
    write_backfill_report(report, config.out)
    return report


def _action(d: dict[str, Any], opts: BackfillOptions) -> str:
    if opts.dry_run:
        return "dry-run"
    if d["regressions"] > opts.max_regression and not opts.force:
        return "refused"
    return "replaced"


def write_backfill_report(report: dict[str, Any], out: str) -> None:
    """backfill.json and backfill.html in the run folder (beside, not inside, the sink files)."""
    write_report_files(report, out, "backfill")


def backfill_plain(config: Config, opts: BackfillOptions) -> dict[str, Any]:
    """The backfill without Prefect, in this process (tests, debugging)."""
    def extract_many(docs: Sequence[DocumentInput], work: Config) -> Iterator[DocumentResult]:
        return (process_document(doc, work) for doc in docs)

    return run_backfill(config, opts, extract_many, load_task.fn)


def _run_name() -> str:
    """'backfill <out> [dry run]' for the Prefect UI."""
    from prefect.runtime import flow_run

    p = flow_run.parameters
    config, opts = p.get("config"), p.get("options")
    out = config.out if isinstance(config, Config) else (config or {}).get("out", "out")
    dry = opts.dry_run if isinstance(opts, BackfillOptions) else (opts or {}).get("dry_run")
    return f"backfill {out}{' (dry run)' if dry else ''}"


@flow(name="rowkeeper-backfill", flow_run_name=_run_name, log_prints=False,
      validate_parameters=False)
def backfill_flow(config: Config, options: BackfillOptions) -> dict[str, Any]:
    """Reprocess stale documents, diff them against the sink, replace the ones that did not regress."""
    report = run_backfill(config, options, extract_with_prefect, load_task)
    from prefect.artifacts import create_markdown_artifact

    create_markdown_artifact(markdown=backfill_markdown(report), key="rowkeeper-backfill-report",
                             description="rowkeeper backfill diff")
    return report["backfill"]["summary"]


def backfill_markdown(report: dict[str, Any]) -> str:
    """The run summary plus the diff totals, as markdown."""
    s = report["backfill"]["summary"]
    lines = ["| diff | value |", "| --- | --- |"] + [f"| {k.replace('_', ' ')} | {v} |" for k, v in s.items()]
    return summary_markdown(report) + "\n\n**Backfill diff**\n\n" + "\n".join(lines)


def backfill_cli(config: Config, args: Any) -> int:
    """`rowkeeper backfill`: exit 0 unless a document was refused for regressing (exit 3); like
    `rowkeeper run`, it holds OUT's lock (another run on OUT: one line, exit 2) and an OS error
    on the output (read-only, full) is one line and exit 2."""
    from rowkeeper.errors import OutputError
    from rowkeeper.flows.guard import describe_os_error, out_lock

    with out_lock(config.out):
        try:
            return _backfill_locked(config, args)
        except OSError as e:
            raise OutputError(describe_os_error(e, config.out)) from None


def _backfill_locked(config: Config, args: Any) -> int:
    import sys

    opts = BackfillOptions(dry_run=args.dry_run, max_regression=args.max_regression, force=args.force,
                           all=args.all, glob=args.glob, extractor=args.extractor, since=args.since)
    todo, _ = select_documents(open_sinks(config)[0].documents(), config, opts)
    # Nothing stale: answer from the manifest without paying for Prefect's start-up.
    summary = backfill_flow(config, opts) if todo else backfill_plain(config, opts)["backfill"]["summary"]
    report_path = os.path.join(config.out, "backfill.html")
    print(f"rowkeeper backfill: {summary['documents']} reprocessed, {summary['documents_changed']} "
          f"changed, {summary['cells_changed']} cells changed, chunks {summary['chunks_before']} -> "
          f"{summary['chunks_after']} (+{summary['chunks_added']} -{summary['chunks_lost']}), "
          f"{summary['regressions']} regressions"
          f"{' (dry run: nothing written)' if opts.dry_run else ''}; report: {report_path}",
          file=sys.stderr)
    if summary["refused"]:
        print(f"rowkeeper backfill: {summary['refused']} documents not replaced because they regressed "
              f"(more than --max-regression {opts.max_regression}); rerun with --force to replace them",
              file=sys.stderr)
        return 3
    return 0
