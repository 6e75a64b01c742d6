"""The ingest flow: discover -> plan (hash vs manifest) -> per document extract + load -> report.

Thin wiring over flows.pipeline (the work), flows.incremental (what to do), flows.outputs (the
sinks) and flows.report. Documents go to the task runner in batches (flows.runners: one `extract`
task run per batch of about `runner.batch_pages` pages, each document in an isolated worker
subprocess, so a hanging or crashing parser fails one document); as each batch comes back its
documents are written to every sink one by one in the flow (retried only on `TransientError`)
and a Prefect progress artifact moves. Unchanged documents never reach a task run, and a run
with nothing to process never starts Prefect at all (its ephemeral server costs seconds).
"""

from __future__ import annotations

import contextvars
import logging
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import timedelta
from typing import Any

from prefect import flow, task
from prefect.cache_policies import NO_CACHE

from rowkeeper.config import Config
from rowkeeper.errors import TransientError
from rowkeeper.flows import loading
from rowkeeper.flows.batching import (
    batched_results,
    extract_batch,
    gave_up,
    stream_results,
    window_for,
)
from rowkeeper.flows.guard import out_lock
from rowkeeper.flows.incremental import Plan
from rowkeeper.flows.isolation import process_isolated
from rowkeeper.flows.launch import finish_run, prepare, run_cli, write_reports  # noqa: F401 - re-exported
from rowkeeper.flows.loading import LOAD_RETRY_DELAYS, _progress  # noqa: F401 - re-exported
from rowkeeper.flows.outcome import (
    final_state,
    process_start_clock,
)
from rowkeeper.flows.page_pictures import PagePictures
from rowkeeper.flows.pipeline import pipeline_fingerprint, process_document
from rowkeeper.flows.report import summary_markdown
from rowkeeper.flows.report_stream import ReportLog
from rowkeeper.models import DocumentInput, DocumentRecord, DocumentResult

TAGS = ("rowkeeper",)
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


# Batches of documents, one task run each (flows.batching.extract_batch: importable by reference).
extract_batch_task = task(extract_batch, name="extract-batch", tags=[*TAGS, "extract"],
                          task_run_name="extract {label}", cache_policy=NO_CACHE)


@task(name="load", tags=[*TAGS, "load"], task_run_name="load {result.document.source}",
      cache_policy=NO_CACHE, retries=3, retry_delay_seconds=list(LOAD_RETRY_DELAYS),
      retry_condition_fn=_only_transient)
def load_task(result: DocumentResult, sinks: Sequence[Any], stale: Sequence[str] = ()) -> DocumentRecord:
    """Replace the document in every sink (and drop the previous version of a changed file)."""
    return loading.load(result, sinks, stale)


# load_task's work and retries without a task run of its own (a task run per document was most
# of the flow's per-document cost); a TransientError past the retries ends the run.
load_in_flow = loading.load_with_retries


def cached_extract_task(hours: float) -> Any:
    """extract_task cached on `extraction_cache_key` (opt-in: see bench/RESULTS.md for cost)."""
    return extract_task.with_options(cache_key_fn=extraction_cache_key, persist_result=True,
                                     cache_expiration=timedelta(hours=hours))


def log_document(rec: DocumentRecord) -> None:
    """One structured line per document (flows.loading), through Prefect's run logger in a flow."""
    loading.log_document(rec, _run_logger())


def _run_logger() -> Any:
    """Prefect's run logger inside a flow (the line then shows in the UI), else rowkeeper.run."""
    from prefect.exceptions import MissingContextError
    from prefect.logging import get_run_logger

    try:
        return get_run_logger()
    except MissingContextError:
        return log


def process_plan(plan: Plan, sinks: Sequence[Any], extracted: Iterable[DocumentResult],
                 load: Callable[..., DocumentRecord] = load_task,
                 config: Config | None = None) -> ReportLog:
    """flows.loading.process_plan with each document's line on the flow run's logger."""
    return loading.process_plan(plan, sinks, extracted, load, log_document, config=config)


def extract_with_prefect(docs: Sequence[DocumentInput], config: Config,
                         cache_hours: float = 0.0) -> Iterator[DocumentResult]:
    """Submit batches of documents to the flow's task runner, a bounded window at a time
    (flows.runners); yield each batch's results as it finishes and move the progress artifact."""
    if cache_hours > 0:  # the opt-in cache is keyed per document: one task run per document
        extract = cached_extract_task(cache_hours)
        yield from stream_results(lambda doc: extract.submit(doc, config), docs,
                                  window_for(config.runner), lambda d, e: gave_up(d, e, config))
        return
    progress = _BatchProgress(len(docs))
    yield from batched_results(docs, config, lambda batch, label: extract_batch_task.submit(
        batch, config, label), progress.advance)


class _BatchProgress:
    """A Prefect progress artifact on the flow run: the share of documents extracted, moved
    once per batch (best effort: a run is not failed for its progress bar)."""

    def __init__(self, total: int) -> None:
        self.total, self.done, self.id = total, 0, None
        try:
            from prefect.artifacts import create_progress_artifact

            self.id = create_progress_artifact(0.0, key="rowkeeper-progress",
                                               description=f"documents extracted of {total}")
        except Exception as e:  # noqa: BLE001 - outside a flow run, or the API refused
            log.debug("no progress artifact: %s", e)

    def advance(self, n: int) -> None:
        """`n` more documents extracted."""
        self.done += n
        if self.id is None or not self.total:
            return
        from prefect.artifacts import update_progress_artifact

        try:
            update_progress_artifact(self.id, 100.0 * self.done / self.total)
        except Exception as e:  # noqa: BLE001 - best effort, as above
            log.debug("progress artifact not updated: %s", e)


def ingest_plain(inputs: Sequence[str], config: Config, prune: bool = False) -> dict[str, Any]:
    """The same run without Prefect, in this process (tests, benchmarks, debugging)."""
    start = time.perf_counter()
    plan, sinks = prepare(inputs, config)
    extracted = (process_document(doc, config) for doc in plan.todo)
    entries = process_plan(plan, sinks, extracted, load=loading.load, config=config)
    return finish_run(entries, plan, sinks, config, start, prune)


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
    # `rowkeeper run` holds OUT's lock already; a served deployment's run takes it here, so a
    # scheduled run that meets another run on OUT refuses in one line instead of doing it twice
    with out_lock(config.out):
        plan, sinks = _prepared.get() or prepare(inputs, config)
        # the sinks' and the report's imports on a thread while the first batch is extracted
        # (this process waits for it), then report.html's pages, rendered as results come back
        pictures = PagePictures(after=loading.start_preload())
        try:
            entries = process_plan(plan, sinks, pictures.passing(extract_with_prefect(plan.todo, config, cache_hours)),
                                   load=load_in_flow, config=config)
            pictures.attach(entries)
        finally:
            pictures.cancel()
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


def publish_artifact(report: dict[str, Any]) -> None:
    """The summary as a Prefect markdown artifact (visible on the flow run in the UI)."""
    from prefect.artifacts import create_markdown_artifact

    create_markdown_artifact(markdown=summary_markdown(report), key="rowkeeper-run-report",
                             description="rowkeeper run summary")


def flow_for(config: Config) -> Any:
    """The ingest flow on the task runner config.runner names (flows.runners: threads, a process
    pool, Dask or Ray); each task drives one isolated worker process."""
    from rowkeeper.flows.runners import task_runner

    return ingest_flow.with_options(task_runner=task_runner(config.runner))


