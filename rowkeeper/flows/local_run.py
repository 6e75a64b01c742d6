"""An ad-hoc `rowkeeper run` without Prefect: the flow's batches on threads in this process.

Prefect's ephemeral server is most of a small run's time (its start ~6-10 s on two cores, then
~1.5 s for the flow run and tens of milliseconds per task run; bench/RESULTS.md), and with no
configured server nobody can look at what it records. So a run with `runner.type: local`, no
Prefect API configured and `runner.prefect: auto` runs here instead: the same batches
(flows.batching), the same isolated workers, loading, retries, progress bar, per-document log
line, documents.jsonl and report; only the Prefect flow run, task runs and artifacts are
missing. A configured API (`PREFECT_API_URL`, or a profile naming one), `runner.prefect:
always`, or another runner type sends the run through the Prefect flow (flows.ingest).
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

from rowkeeper.config import Config
from rowkeeper.errors import ConfigError
from rowkeeper.flows.batching import batched_results, extract_batch
from rowkeeper.flows.incremental import Plan
from rowkeeper.flows.isolation import thread_worker
from rowkeeper.flows.launch import finish_run
from rowkeeper.flows.loading import load_with_retries, process_plan, start_preload
from rowkeeper.flows.page_pictures import PagePictures, render_in_workers
from rowkeeper.machine import usable_cpus
from rowkeeper.models import DocumentInput, DocumentResult

_FORMAT = "%(asctime)s.%(msecs)03d | %(levelname)-7s | %(name)s - %(message)s"


def uses_prefect(config: Config, api_configured: bool) -> bool:
    """Does this run go through the Prefect flow? (`api_configured`: a Prefect API to attach to.)"""
    mode, kind = config.runner.prefect, config.runner.type
    if mode == "never" and kind != "local":
        raise ConfigError(f"runner.prefect: never needs runner.type local (not {kind!r}): the "
                          "process, dask and ray runners are Prefect task runners")
    if mode != "auto":
        return mode == "always"
    return api_configured or kind != "local"


def run_local(plan: Plan, sinks: Sequence[Any], config: Config, start: float,
              prune: bool) -> dict[str, Any]:
    """Extract `plan.todo` in batches on `runner.worker_count()` threads, load each result as it comes
    back, and write the report; its `startup_seconds` count from `start` to the first batch."""
    began = time.perf_counter()
    preload = start_preload()
    if plan.unreadable:  # loaded first, before any result: this thread imports at once
        preload.join()
    pool = ThreadPoolExecutor(max_workers=config.runner.worker_count(),
                              thread_name_prefix="rowkeeper-extract")
    # rendered by each batch's worker after its documents, or by a thread here beside fewer workers
    pictures = PagePictures(after=preload, in_workers=render_in_workers(config.runner.worker_count(), usable_cpus()))
    try:
        with _document_lines():
            extracted = batched_results(plan.todo, config, lambda batch, label: pool.submit(
                extract_pictured, batch, config, label, pictures))
            entries = process_plan(plan, sinks, pictures.passing(_after(preload, extracted)),
                                   load_with_retries, config=config)
        pictures.attach(entries)
    finally:  # Ctrl-C: running batches end as their workers get the signal too; no new ones
        pool.shutdown(wait=False, cancel_futures=True)
        pictures.cancel()
    return finish_run(entries, plan, sinks, config, start, prune, startup=began - start)


def extract_pictured(batch: list[DocumentInput], config: Config, label: str,
                     pictures: PagePictures) -> list[DocumentResult]:
    """`extract_batch`, then report.html's pictures of its documents' table pages rendered by
    the same worker (flows.page_pictures; a failure there only leaves them to the report)."""
    results = extract_batch(batch, config, label)
    if not pictures.in_workers:
        return results
    worker = thread_worker(config)
    for doc, result in zip(batch, results, strict=True):
        try:
            pictures.render_in_worker(worker, doc, result, config)
        except Exception:  # noqa: BLE001 - pictures are optional: the report renders its own
            pass
    return results


def _after(preload: threading.Thread, results: Iterable[DocumentResult]) -> Iterator[DocumentResult]:
    """`results`, each once the preload is done: this thread then never imports beside it."""
    for result in results:
        preload.join()
        yield result


class _Stderr(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to whatever sys.stderr is now (the progress bar redirects it while it shows)."""

    @property
    def stream(self) -> Any:  # type: ignore[override]
        return sys.stderr

    @stream.setter
    def stream(self, value: Any) -> None:
        pass


@contextmanager
def _document_lines() -> Iterator[None]:
    """Show the `rowkeeper.run` lines on stderr, as Prefect's console handler would, at
    PREFECT_LOGGING_LEVEL (WARNING from the CLI: failures only), unless the application
    already handles logging (then its handlers get them)."""
    logger = logging.getLogger("rowkeeper.run")
    if logger.handlers or logging.getLogger().handlers:
        yield
        return
    handler = _Stderr()
    handler.setFormatter(logging.Formatter(_FORMAT, datefmt="%H:%M:%S"))
    level = os.environ.get("PREFECT_LOGGING_LEVEL", "WARNING").upper()
    before = logger.level
    logger.setLevel(level if level in logging.getLevelNamesMapping() else "WARNING")
    logger.addHandler(handler)
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(before)
