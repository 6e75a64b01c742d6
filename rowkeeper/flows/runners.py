"""Where per-document tasks run, and how documents stream through them with bounded memory.

`task_runner` turns `config.runner` into a Prefect task runner: threads in this process
(`local`), a process pool (`process`), a Dask cluster (`dask`, via prefect-dask: a LocalCluster
of `workers` single-threaded processes, or an existing scheduler at `address`) or Ray (`ray`,
via prefect-ray). Scheduling is theirs; rowkeeper only keeps a bounded window of submissions
in flight (`stream_results`), so 100,000 documents never become 100,000 live futures and each
result can be written as soon as it finishes.

Documents travel in batches (`document_batches`, about `runner.batch_pages` pages each): one
Prefect task run per batch, since a task run's state changes cost tens of milliseconds of
orchestration while a small document's work is a few hundred. `extract_batch` retries each
document's transient errors on its own, so one document cannot fail its batch.
"""

from __future__ import annotations

import math
import queue
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

from prefect.task_runners import ProcessPoolTaskRunner, TaskRunner, ThreadPoolTaskRunner

from rowkeeper.config import Config, RunnerConfig
from rowkeeper.errors import ConfigError, MissingExtra, TransientError
from rowkeeper.models import DocumentInput, DocumentResult

T = TypeVar("T")
R = TypeVar("R")

IN_FLIGHT_PER_WORKER = 2
"""Submissions kept ahead per worker: one running, one queued, so no worker waits on the flow."""


def task_runner(runner: RunnerConfig) -> TaskRunner[Any]:
    """The Prefect task runner `runner.type` names, sized by `runner.workers`."""
    workers = max(1, runner.workers)
    if runner.type == "local":
        return ThreadPoolTaskRunner(max_workers=workers)
    if runner.type == "process":
        return ProcessPoolTaskRunner(max_workers=workers)
    if runner.type == "dask":
        return dask_runner(runner)
    if runner.type == "ray":
        return ray_runner(runner)
    raise ConfigError(f"unknown runner.type {runner.type!r}; known: local, process, dask, ray")


def dask_runner(runner: RunnerConfig) -> TaskRunner[Any]:
    """prefect-dask: the scheduler at `runner.address`, else a LocalCluster on 127.0.0.1 of
    `workers` processes with one thread each (PDF parsing holds the GIL)."""
    try:
        from prefect_dask import DaskTaskRunner
    except ImportError as e:
        raise MissingExtra("runner 'dask'", "dask", str(e)) from e
    if runner.address:
        return DaskTaskRunner(address=runner.address)
    kwargs = {"n_workers": max(1, runner.workers), "threads_per_worker": 1, "processes": True,
              "host": "127.0.0.1", "dashboard_address": None,
              # The scheduler always serves /health: bind it to loopback on a free port.
              "scheduler_kwargs": {"dashboard": False, "dashboard_address": "127.0.0.1:0"}}
    return DaskTaskRunner(cluster_class=local_cluster, cluster_kwargs=kwargs)


def local_cluster(**kwargs: Any) -> Any:
    """A Dask LocalCluster whose workers report to this flow's Prefect API.

    Called by prefect-dask inside the flow run. Without the API URL in their environment the
    worker processes would each start (and orphan) an ephemeral Prefect server of their own.
    """
    from distributed import LocalCluster
    from prefect.client.orchestration import get_client

    url = get_client(sync_client=True).api_url
    env = {"PREFECT_API_URL": str(url).rstrip("/")} if url else {}
    return LocalCluster(env=env, **kwargs)


def ray_runner(runner: RunnerConfig) -> TaskRunner[Any]:
    """prefect-ray: the cluster at `runner.address`, else a local Ray with `workers` CPUs."""
    try:
        from prefect_ray import RayTaskRunner
    except ImportError as e:
        raise MissingExtra("runner 'ray'", "ray", str(e)) from e
    if runner.address:
        return RayTaskRunner(address=runner.address)
    return RayTaskRunner(init_kwargs={"num_cpus": max(1, runner.workers), "include_dashboard": False})


def window_for(runner: RunnerConfig) -> int:
    """How many submissions to keep in flight for this runner."""
    return max(1, runner.workers) * IN_FLIGHT_PER_WORKER


def stream_results(submit: Callable[[T], Any], items: Iterable[T], window: int,
                   on_error: Callable[[T, BaseException], R]) -> Iterator[R]:
    """Submit items lazily, at most `window` in flight, and yield results in finishing order.

    A future that raises (a transient error that outlived its retries) becomes
    `on_error(item, exc)`, so one document cannot end the stream.
    """
    done: queue.Queue[Any] = queue.Queue()
    owner: dict[Any, T] = {}
    source = iter(items)

    def refill() -> None:
        while len(owner) < window:
            item = next(source, _END)
            if item is _END:
                return
            fut = submit(item)  # type: ignore[arg-type]
            owner[fut] = item  # type: ignore[assignment]
            _on_done(fut, done.put)

    refill()
    while owner:
        fut = done.get()
        item = owner.pop(fut)
        refill()  # the next document starts before this result is written
        try:
            result = fut.result()
        except Exception as e:  # noqa: BLE001 - turned into that document's failed result
            result = on_error(item, e)
        yield result


_END = object()


def _on_done(future: Any, callback: Callable[[Any], None]) -> None:
    # Prefect's own futures expose a done-callback that fires once the final state is set.
    add = getattr(future, "_add_prefect_done_callback", None) or future.add_done_callback
    add(callback)


# -- batches -----------------------------------------------------------------------------------

DOC_RETRY_DELAYS = (2.0, 10.0)
"""Waits before a document's second and third try after a TransientError (a cloud OCR's 429)."""


class PageEstimate:
    """Pages of a PDF not yet opened (the flow never opens one), from its size in bytes, at the
    bytes per page of the documents finished so far in this run."""

    PRIOR_BYTES_PER_PAGE = 100_000
    """Until a document has finished (bench/throughput.py's handbooks, fonts embedded: ~105 kB)."""

    def __init__(self) -> None:
        self.bytes = 0
        self.pages = 0

    def learn(self, result: DocumentResult, size: int) -> None:
        """One finished document: its size and page count refine the estimate."""
        if size > 0 and result.document.pages:
            self.bytes += size
            self.pages += len(result.document.pages)

    def pages_of(self, doc: DocumentInput) -> int:
        """Estimated pages of `doc` (at least 1)."""
        per_page = self.bytes / self.pages if self.pages else self.PRIOR_BYTES_PER_PAGE
        return max(1, round(doc.size / per_page))


def document_batches(docs: Sequence[DocumentInput], runner: RunnerConfig,
                     estimate: PageEstimate) -> Iterator[list[DocumentInput]]:
    """Consecutive batches of about `runner.batch_pages` estimated pages and at most
    `runner.batch_docs` documents, formed lazily (later batches use a better estimate); a short
    run still gets about four batches per worker, so every worker has work and progress shows."""
    spread = max(1, math.ceil(len(docs) / (max(1, runner.workers) * 4)))
    most_docs = max(1, min(runner.batch_docs, spread))
    batch: list[DocumentInput] = []
    pages = 0
    for doc in docs:
        n = estimate.pages_of(doc)
        if batch and (len(batch) >= most_docs or pages + n > runner.batch_pages):
            yield batch
            batch, pages = [], 0
        batch.append(doc)
        pages += n
    if batch:
        yield batch


def extract_batch(docs: Sequence[DocumentInput], config: Config, label: str = "",
                  target: str | None = None) -> list[DocumentResult]:
    """Every document of the batch through this thread's isolated worker, one after another.
    `label` only names the task run in the Prefect UI; `target` replaces the pipeline (tests)."""
    return [_extract_one(doc, config, target) for doc in docs]


def _extract_one(doc: DocumentInput, config: Config, target: str | None) -> DocumentResult:
    from rowkeeper.flows.isolation import DEFAULT_TARGET, process_isolated

    for delay in DOC_RETRY_DELAYS:
        try:
            return process_isolated(doc, config, target or DEFAULT_TARGET)
        except TransientError:
            time.sleep(delay)
    try:
        return process_isolated(doc, config, target or DEFAULT_TARGET)
    except TransientError as e:
        return gave_up(doc, e, config)


def gave_up(doc: DocumentInput, e: BaseException, config: Config) -> DocumentResult:
    """The failed result of a document whose transient errors outlived their retries (a later
    run retries it, whatever runner.retry_failed says)."""
    from rowkeeper.flows.incremental import TRANSIENT_MARK
    from rowkeeper.flows.pipeline import describe_error, failed_result

    return failed_result(doc, f"{TRANSIENT_MARK}: {describe_error(e)}", 0.0, config)
