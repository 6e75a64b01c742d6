"""What a run has to do, decided from file hashes and the sinks' manifests before any PDF is
opened: new or changed documents are processed, unchanged ones skipped, vanished ones pruned.

The state lives with the sinks (`Sink.documents()`), never in this process, so a nightly run
on another machine makes the same decision.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rowkeeper.config import Config
from rowkeeper.errors import BadInput
from rowkeeper.flows.pipeline import load_document, pipeline_fingerprint, unreadable_id
from rowkeeper.models import DocumentInput, DocumentRecord, DocumentResult

Manifest = Mapping[str, DocumentRecord]


@dataclass(frozen=True)
class Plan:
    """The run's work list and everything it will not process, with why."""

    todo: tuple[DocumentInput, ...] = ()
    skipped: tuple[DocumentRecord, ...] = ()
    """Stored records of unchanged documents, status set to skipped_unchanged."""
    unreadable: tuple[DocumentResult, ...] = ()
    """Inputs whose bytes could not be read: failed results, written like any other."""
    duplicates: tuple[tuple[str, str], ...] = ()
    """(source, doc_id) of inputs whose bytes equal an earlier input's: processed once."""
    replaces: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """New doc_id -> stored doc_ids of the same source (the file changed): deleted after write."""
    vanished: tuple[str, ...] = ()
    """Stored doc_ids no input has any more (removed only with --prune)."""


def hash_inputs(paths: Sequence[str]) -> tuple[list[DocumentInput], list[tuple[str, str]]]:
    """Input records of readable files, and (path, reason) of those that could not be read."""
    docs, bad = [], []
    for path in paths:
        try:
            docs.append(load_document(path))
        except BadInput as e:
            bad.append((path, str(e)))
    return docs, bad


TRANSIENT_MARK = "gave up after retries"
"""Prefix of the error of a document that failed on transient errors (always retried)."""


def is_current(record: DocumentRecord | None, config: Config) -> bool:
    """Was this stored record written by the pipeline as configured now, and need no retry?

    A failure counts as current (not retried) unless `runner.retry_failed` is set or it gave
    up on transient errors: the same bytes through the same pipeline fail the same way."""
    if record is None or record.status not in ("ok", "failed"):
        return False
    if record.status == "failed" and (
        config.runner.retry_failed or (record.error or "").startswith(TRANSIENT_MARK)
    ):
        return False
    return record.fingerprint == pipeline_fingerprint(config, record.kind)


def plan_run(docs: Sequence[DocumentInput], manifests: Sequence[Manifest], config: Config,
             unreadable: Sequence[tuple[str, str]] = ()) -> Plan:
    """Split inputs into work and skips against every sink's manifest (all must be current)."""
    todo: list[DocumentInput] = []
    skipped: list[DocumentRecord] = []
    duplicates: list[tuple[str, str]] = []
    seen: set[str] = set()
    for doc in docs:
        if doc.doc_id in seen:
            duplicates.append((doc.source, doc.doc_id))
            continue
        seen.add(doc.doc_id)
        stored = [m.get(doc.doc_id) for m in manifests]
        if manifests and all(is_current(r, config) for r in stored):
            first = stored[0]
            assert first is not None
            # a failure not retried stays `failed` in documents.jsonl and the report
            status = "failed" if first.status == "failed" else "skipped_unchanged"
            skipped.append(first.model_copy(update={"status": status, "source": doc.source}))
        else:
            todo.append(doc)
    failed = tuple(_unreadable_result(p, reason, config) for p, reason in unreadable)
    stored_by_source = _by_source(manifests)
    replaces = {d.doc_id: old for d in todo if (old := tuple(
        i for i in stored_by_source.get(d.source, ()) if i != d.doc_id))}
    current = seen | {r.document.doc_id for r in failed} | {i for old in replaces.values() for i in old}
    vanished = tuple(sorted({i for m in manifests for i in m} - current))
    return Plan(tuple(todo), tuple(skipped), failed, tuple(duplicates), replaces, vanished)


def _by_source(manifests: Sequence[Manifest]) -> dict[str, tuple[str, ...]]:
    out: dict[str, set[str]] = {}
    for m in manifests:
        for doc_id, rec in m.items():
            out.setdefault(rec.source, set()).add(doc_id)
    return {s: tuple(sorted(ids)) for s, ids in out.items()}


def _unreadable_result(path: str, reason: str, config: Config) -> DocumentResult:
    record = DocumentRecord(doc_id=unreadable_id(path), source=path, status="failed", error=reason,
                            fingerprint=pipeline_fingerprint(config))
    return DocumentResult(document=record)
