"""Results into the sinks, one document at a time, and one log line each; no Prefect here.

Shared by the Prefect flow (flows.ingest) and a run without Prefect (flows.local_run): loading
is the same either way, so are the report entries, the progress bar and the log line.
"""

from __future__ import annotations

import contextvars
import importlib
import itertools
import logging
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from rowkeeper.config import Config
from rowkeeper.errors import TransientError
from rowkeeper.faults import crash_point
from rowkeeper.flows.incremental import Plan
from rowkeeper.flows.outputs import write_all
from rowkeeper.flows.progress import RunProgress
from rowkeeper.flows.report import document_entry
from rowkeeper.flows.report_stream import ReportLog
from rowkeeper.models import DocumentRecord, DocumentResult

LOAD_RETRY_DELAYS = (1.0, 5.0, 20.0)
log = logging.getLogger("rowkeeper.run")
# Set by the CLI around a run: the progress bar process_plan moves.
_progress: contextvars.ContextVar[RunProgress | None] = contextvars.ContextVar("progress", default=None)


# What the run process itself needs once the first result is back: pyarrow for the folder
# sink's tables (it imports pandas on its first array) and report.html (no PyMuPDF: the workers
# render its pictures, flows.page_pictures).
# Imported on a thread while the worker imports the PDF stack and reads the first batch, not
# after it: together ~1 s of a 1-page run on a quiet machine, several under load.
_PRELOAD = ("pyarrow.parquet", "pandas", "rowkeeper.flows.report_html")


def start_preload() -> threading.Thread:
    """A started thread importing `_PRELOAD` (a local run's and the Prefect flow's)."""
    thread = threading.Thread(target=_preload, name="rowkeeper-preload", daemon=True)
    thread.start()
    return thread


def _preload() -> None:
    for name in _PRELOAD:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - an optional package; whoever needs it says so later
            pass


def load(result: DocumentResult, sinks: Sequence[Any], stale: Sequence[str] = ()) -> DocumentRecord:
    """Replace the document in every sink (and drop the previous version of a changed file)."""
    write_all(sinks, result, stale)
    return result.document


def load_with_retries(result: DocumentResult, sinks: Sequence[Any],
                      stale: Sequence[str] = ()) -> DocumentRecord:
    """`load`, retried on TransientError after LOAD_RETRY_DELAYS; past them the error ends the run."""
    for delay in LOAD_RETRY_DELAYS:
        try:
            return load(result, sinks, stale)
        except TransientError:
            time.sleep(delay)
    return load(result, sinks, stale)


def log_document(rec: DocumentRecord, logger: Any = None) -> None:
    """One structured line per document: key=value pairs, readable in the Prefect UI and greppable."""
    layers = sorted({a.extractor for a in rec.attempts if a.accepted})
    fields = {"event": "document", "status": rec.status, "doc_id": rec.doc_id[:12],
              "source": rec.source, "kind": rec.kind, "pages": len(rec.pages),
              "tables": rec.n_tables, "chunks": rec.n_chunks, "seconds": rec.seconds,
              "layers": ",".join(layers) or None, "error": rec.error}
    line = " ".join(f"{k}={v!r}" if isinstance(v, str) and " " in v else f"{k}={v}"
                    for k, v in fields.items() if v is not None)
    logger = logger or log
    (logger.warning if rec.status == "failed" else logger.info)(line, extra={"rowkeeper": fields})


def process_plan(plan: Plan, sinks: Sequence[Any], extracted: Iterable[DocumentResult],
                 load: Callable[..., DocumentRecord] = load,
                 log_line: Callable[[DocumentRecord], None] = log_document,
                 config: Config | None = None) -> ReportLog:
    """Load each result as its extraction finishes (one at a time: sinks need not be
    thread-safe); each report entry goes to the run's ReportLog (on disk beside `config.out`:
    the run keeps no entry in memory). Unreadable inputs are loaded as failed records."""
    progress = _progress.get()
    if progress:
        progress.begin()
    entries = ReportLog(config, config.out if config is not None else None)
    # chain, not (*a, *b): unpacking would drain the stream and hold every result until the end
    for result in itertools.chain(plan.unreadable, extracted):
        crash_point("extract")
        rec = load(result, sinks, plan.replaces.get(result.document.doc_id, ()))
        entries.add(document_entry(rec, result))
        log_line(rec)
        if progress:
            progress.done(rec)
    return entries
