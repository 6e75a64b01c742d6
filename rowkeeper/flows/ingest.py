"""The ingest flow: discover -> plan (hash vs manifest) -> per document extract + load -> report.

Thin wiring over flows.pipeline (the work), flows.incremental (what to do), flows.outputs (the
sinks) and flows.report. Per document, `extract` runs the pipeline in an isolated worker
subprocess (a hanging or crashing parser fails one document), and `load` writes it to every
sink, retried only on `TransientError`. Unchanged documents never become task runs, and a run
with nothing to process never starts Prefect at all (its ephemeral server costs seconds).
"""

from __future__ import annotations

import contextvars
import itertools
import logging
import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import timedelta
from typing import Any

from prefect import flow, task
from prefect.cache_policies import NO_CACHE

from rowkeeper.config import Config
from rowkeeper.errors import OutputError, TransientError
from rowkeeper.faults import crash_point
from rowkeeper.flows.guard import start_supervised_server
from rowkeeper.flows.incremental import TRANSIENT_MARK, Plan, hash_inputs, plan_run
from rowkeeper.flows.isolation import process_isolated
from rowkeeper.flows.outcome import (
    DocumentsFailed,
    count_failed_skipped,
    final_state,
    process_start_clock,
    retry_hint,
)
from rowkeeper.flows.outputs import (
    close_all,
    delete_all,
    manifests,
    must_close,
    open_sinks,
    write_all,
)
from rowkeeper.flows.pipeline import pipeline_fingerprint, process_document
from rowkeeper.flows.progress import RunProgress
from rowkeeper.flows.report import (
    build_report,
    document_entry,
    summary_markdown,
    write_report_files,
)
from rowkeeper.models import DocumentInput, DocumentRecord, DocumentResult

TAGS = ("rowkeeper",)
_progress: contextvars.ContextVar[RunProgress | None] = contextvars.ContextVar("progress", default=None)
# Set by run_cli, which plans before deciding to start Prefect; the flow then need not re-hash.
_prepared: contextvars.ContextVar[tuple[Plan, list[Any]] | None] = contextvars.ContextVar(
    "prepared", default=None)
# perf_counter value at which the `rowkeeper` process started (set by run_cli): the run's
# seconds include Python's and Prefect's start-up, which a user waits for too.
_started: contextvars.ContextVar[float | None] = contextvars.ContextVar("started", default=None)
log = logging.getLogger("rowkeeper.run")


def _only_transient(task: Any, task_run: Any, state: Any) -> bool:
    """Retry condition: a TransientError (network, 429/5xx, lock) and nothing else."""
    try:
        state.result()
    except TransientError:
        return True
    except Exception:  # noqa: BLE001 - any other failure is terminal
        return False
    return False


def extraction_cache_key(context: Any, parameters: dict[str, Any]) -> str:
    """Document bytes + every layer's package version + output config: an upgrade of a parser
    (or a changed setting) invalidates the cached extraction, nothing else does."""
    return f"rowkeeper-extract-{parameters['doc'].doc_id}-{pipeline_fingerprint(parameters['config'])}"


# classify -> cascade -> assemble -> chunk for one document, in an isolated worker. The task
# wraps flows.isolation.process_isolated itself (not a function named extract_task here), so
# Dask and process pools pickle it by reference instead of by value with this module's globals.
extract_task = task(process_isolated, name="extract", tags=[*TAGS, "extract"],
                    task_run_name="extract {doc.source}", cache_policy=NO_CACHE, retries=2,
                    retry_delay_seconds=[2, 10], retry_condition_fn=_only_transient)


@task(name="load", tags=[*TAGS, "load"], task_run_name="load {result.document.source}",
      cache_policy=NO_CACHE, retries=3, retry_delay_seconds=[1, 5, 20],
      retry_condition_fn=_only_transient)
def load_task(result: DocumentResult, sinks: Sequence[Any], stale: Sequence[str] = ()) -> DocumentRecord:
    """Replace the document in every sink (and drop the previous version of a changed file)."""
    write_all(sinks, result, stale)
    return result.document


def cached_extract_task(hours: float) -> Any:
    """extract_task cached on `extraction_cache_key` (opt-in: see bench/RESULTS.md for cost)."""
    return extract_task.with_options(cache_key_fn=extraction_cache_key, persist_result=True,
                                     cache_expiration=timedelta(hours=hours))


def log_document(rec: DocumentRecord) -> None:
    """One structured line per document: key=value pairs, readable in the Prefect UI and greppable."""
    layers = sorted({a.extractor for a in rec.attempts if a.accepted})
    fields = {"event": "document", "status": rec.status, "doc_id": rec.doc_id[:12],
              "source": rec.source, "kind": rec.kind, "pages": len(rec.pages),
              "tables": rec.n_tables, "chunks": rec.n_chunks, "seconds": rec.seconds,
              "layers": ",".join(layers) or None, "error": rec.error}
    line = " ".join(f"{k}={v!r}" if isinstance(v, str) and " " in v else f"{k}={v}"
                    for k, v in fields.items() if v is not None)
    logger = _run_logger()
    (logger.warning if rec.status == "failed" else logger.info)(line, extra={"rowkeeper": fields})


def _run_logger() -> Any:
    """Prefect's run logger inside a flow (the line then shows in the UI), else rowkeeper.run."""
    from prefect.exceptions import MissingContextError
    from prefect.logging import get_run_logger

    try:
        return get_run_logger()
    except MissingContextError:
        return log


def process_plan(plan: Plan, sinks: Sequence[Any], extracted: Iterable[DocumentResult],
                 load: Callable[..., DocumentRecord] = load_task) -> list[dict[str, Any]]:
    """Load each result as its extraction finishes (one at a time: sinks need not be
    thread-safe); report entries back. Unreadable inputs are loaded as failed records."""
    progress = _progress.get()
    if progress:
        progress.begin()
    entries: list[dict[str, Any]] = []
    # chain, not (*a, *b): unpacking would drain the stream and hold every result until the end
    for result in itertools.chain(plan.unreadable, extracted):
        crash_point("extract")
        rec = load(result, sinks, plan.replaces.get(result.document.doc_id, ()))
        entries.append(document_entry(rec, result))
        log_document(rec)
        if progress:
            progress.done(rec)
    return entries


def extract_with_prefect(docs: Sequence[DocumentInput], config: Config,
                         cache_hours: float = 0.0) -> Iterator[DocumentResult]:
    """Submit extractions to the flow's task runner, a bounded window at a time (flows.runners);
    yield results as they finish."""
    from rowkeeper.flows.pipeline import describe_error, failed_result
    from rowkeeper.flows.runners import stream_results, window_for

    extract = cached_extract_task(cache_hours) if cache_hours > 0 else extract_task

    def gave_up(doc: DocumentInput, e: BaseException) -> DocumentResult:
        return failed_result(doc, f"{TRANSIENT_MARK}: {describe_error(e)}", 0.0, config)

    yield from stream_results(lambda doc: extract.submit(doc, config), docs,
                              window_for(config.runner), gave_up)


def ingest_plain(inputs: Sequence[str], config: Config, prune: bool = False) -> dict[str, Any]:
    """The same run without Prefect, in this process (tests, benchmarks, debugging)."""
    start = time.perf_counter()
    plan, sinks = prepare(inputs, config)
    extracted = (process_document(doc, config) for doc in plan.todo)
    entries = process_plan(plan, sinks, extracted, load=load_task.fn)
    return finish_run(entries, plan, sinks, config, start, prune)


def finish_run(entries: list[dict[str, Any]], plan: Plan, sinks: Sequence[Any], config: Config,
               start: float, prune: bool, command: str = "run",
               startup: float | None = None) -> dict[str, Any]:
    """Prune, close the sinks (only if anything changed), write report.json and report.html.
    `start` is a perf_counter value; `startup` the seconds of it spent before the flow began."""
    pruned = list(plan.vanished) if prune else []
    delete_all(sinks, pruned)
    if any(e["status"] != "skipped_unchanged" for e in entries) or pruned or must_close(sinks):
        close_all(sinks)
    entries = entries + [document_entry(rec) for rec in plan.skipped]
    records = [_record(e) for e in entries if e["status"] != "skipped_unchanged"]
    report = build_report(entries, records, config, time.perf_counter() - start, command=command,
                          pruned=pruned, duplicates=[list(d) for d in plan.duplicates],
                          vanished=list(plan.vanished), out=config.out,
                          startup_seconds=None if startup is None else round(startup, 3))
    report["totals"]["failed_skipped"] = count_failed_skipped(plan.skipped)
    write_reports(report, config.out)
    return report


def _record(entry: dict[str, Any]) -> DocumentRecord:
    return entry["_record"]


def write_reports(report: dict[str, Any], out: str) -> None:
    """report.json and report.html into the run folder (the previous report.json kept, for the trend)."""
    from rowkeeper.flows.report import keep_previous, trend

    report["trend"] = trend(keep_previous(out), report["totals"])
    write_report_files(report, out, "report")


def _run_name() -> str:
    """'ingest <out> <UTC time>': readable in the Prefect UI whether config came as a model or
    (from a deployment) as JSON."""
    import datetime as dt

    from prefect.runtime import flow_run

    config = flow_run.parameters.get("config")
    out = config.out if isinstance(config, Config) else (config or {}).get("out", "out")
    return f"ingest {out} {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M}"


def ingest(inputs: list[str], config: Config | dict[str, Any], prune: bool = False,
           cache_hours: float = 0.0, retry_failed: bool = False) -> Any:
    """Ingest PDFs into the configured sinks: skip unchanged, replace changed, report.

    Ends Completed with the totals as its result and a message naming any failures, or Failed
    (DocumentsFailed) when every document failed; `retry_failed` re-parses earlier failures."""
    began = time.perf_counter()
    started = _started.get()
    start = started if started is not None else _process_start_if_served(began)
    config = Config.model_validate(config) if isinstance(config, dict) else config
    if retry_failed:
        config = with_retry_failed(config)
    plan, sinks = _prepared.get() or prepare(inputs, config)
    entries = process_plan(plan, sinks, extract_with_prefect(plan.todo, config, cache_hours))
    report = finish_run(entries, plan, sinks, config, start, prune, startup=began - start)
    publish_artifact(report)
    return final_state(report)


def with_retry_failed(config: Config) -> Config:
    """`config` with runner.retry_failed set: earlier failures are parsed again."""
    return config.model_copy(update={"runner": config.runner.model_copy(update={"retry_failed": True})})


def _process_start_if_served(now: float) -> float:
    """A deployment's flow run is a process of its own: its seconds count from that process's
    start (Prefect's start-up included). Called in-process (tests, notebooks), from now."""
    from prefect.runtime import deployment

    if not deployment.id:
        return now
    return process_start_clock()


# The flow wraps `ingest` rather than shadowing it, so Dask can pickle the flow by reference
# (by value it would drag this module's context variables along and fail).
ingest_flow = flow(ingest, name="rowkeeper-ingest", flow_run_name=_run_name, log_prints=False,
                   validate_parameters=False)


def prepare(inputs: Sequence[str], config: Config) -> tuple[Plan, list[Any]]:
    """Discover PDFs, hash them, open the sinks and plan against their manifests."""
    from rowkeeper.discover import discover_pdfs

    paths = discover_pdfs(inputs)
    sinks = open_sinks(config)
    docs, unreadable = hash_inputs(paths)
    return plan_run(docs, manifests(sinks), config, unreadable), sinks


def publish_artifact(report: dict[str, Any]) -> None:
    """The summary as a Prefect markdown artifact (visible on the flow run in the UI)."""
    from prefect.artifacts import create_markdown_artifact

    create_markdown_artifact(markdown=summary_markdown(report), key="rowkeeper-run-report",
                             description="rowkeeper run summary")


def run_cli(inputs: list[str], config: Config, args: Any) -> int:
    """`rowkeeper run`: 0 when every document is ok, skipped or recorded failed; OutputError
    (one line, exit 2) when the output is in use by another run, read-only, full or locked."""
    from rowkeeper.flows.flow_memory import memory_cap
    from rowkeeper.flows.guard import describe_os_error, out_lock

    with out_lock(config.out, float(getattr(args, "wait_lock", 0.0) or 0.0)), \
            memory_cap(config.runner.flow_memory_limit_mb):  # the workers' cap, for the run itself
        crash_point("startup")
        try:
            return _run_locked(inputs, config, args)
        except OSError as e:
            raise OutputError(describe_os_error(e, config.out)) from None


def _run_locked(inputs: list[str], config: Config, args: Any) -> int:
    now = time.perf_counter()
    start = process_start_clock()
    plan, sinks = prepare(inputs, config)
    show = not getattr(args, "no_progress", False)
    prune = bool(getattr(args, "prune", False))
    if not plan.todo and not plan.unreadable and not (prune and plan.vanished):
        # Nothing to process: answer from hashes and the manifest, without starting Prefect.
        report = finish_run([], plan, sinks, config, start, prune, startup=now - start)
    else:
        with RunProgress(len(plan.todo) + len(plan.unreadable), enabled=show) as progress:
            _progress.set(progress)
            _prepared.set((plan, sinks))
            _started.set(start)
            start_supervised_server()  # so a kill -9 of the run cannot orphan it
            try:
                flow_for(config)(list(inputs), config, prune=prune,
                                 cache_hours=float(getattr(args, "cache_hours", 0.0) or 0.0))
            except DocumentsFailed:
                pass  # recorded in documents.jsonl and the report: the run itself happened
        report = _read_report(config.out)
    print_summary(report, config.out)
    return 0


def flow_for(config: Config) -> Any:
    """The ingest flow on the task runner config.runner names (flows.runners: threads, a process
    pool, Dask or Ray); each task drives one isolated worker process."""
    from rowkeeper.flows.runners import task_runner

    return ingest_flow.with_options(task_runner=task_runner(config.runner))


def _read_report(out: str) -> dict[str, Any]:
    import json

    with open(os.path.join(out, "report.json"), encoding="utf-8") as f:
        return json.load(f)


def print_summary(report: dict[str, Any], out: str) -> None:
    """Two lines on stderr: the totals, and where the outputs and the report are."""
    import sys

    t = report["totals"]
    print(f"rowkeeper: {t['documents']} documents: {t['ok']} ok, {t['failed']} failed, "
          f"{t['skipped']} skipped unchanged; {t['pages']} pages, {t['tables']} tables, "
          f"{t['chunks']} chunks in {t['seconds']:.1f} s", file=sys.stderr)
    hint = retry_hint(t)
    if hint:
        print(f"rowkeeper: {hint}", file=sys.stderr)
    print(f"rowkeeper: outputs in {out}/ (report: {os.path.join(out, 'report.html')})", file=sys.stderr)
