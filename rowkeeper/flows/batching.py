"""Documents in batches through any executor, with bounded memory; no Prefect in this module.

`stream_results` keeps a bounded window of submissions in flight, so 100,000 documents never
become 100,000 live futures and each result can be written as soon as it finishes; any future
with a done-callback works (a Prefect task run's, a `concurrent.futures` one's). Documents
travel in batches (`document_batches`, about `runner.batch_pages` pages each): under Prefect one
task run per batch, since a task run's state changes cost tens of milliseconds of orchestration
while a small document's work is a few hundred. `extract_batch` retries each document's
transient errors on its own, so one document cannot fail its batch.
"""

from __future__ import annotations

import itertools
import math
import queue
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

from rowkeeper.config import Config, RunnerConfig
from rowkeeper.errors import TransientError
from rowkeeper.models import DocumentInput, DocumentResult

T = TypeVar("T")
R = TypeVar("R")

IN_FLIGHT_PER_WORKER = 2
"""Submissions kept ahead per worker: one running, one queued, so no worker waits on the flow."""
DOC_RETRY_DELAYS = (2.0, 10.0)
"""Waits before a document's second and third try after a TransientError (a cloud OCR's 429)."""


def window_for(runner: RunnerConfig) -> int:
    """How many submissions to keep in flight for this runner."""
    return runner.worker_count() * IN_FLIGHT_PER_WORKER


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
    run still gets about four batches per worker, so every worker has work and progress shows.
    With several workers the last batches shrink (`tail_cap`), so they finish together."""
    workers = runner.worker_count()
    spread = max(1, math.ceil(len(docs) / (workers * 4)))
    most_docs = max(1, min(runner.batch_docs, spread))
    batch: list[DocumentInput] = []
    pages = 0
    for i, doc in enumerate(docs):
        n = estimate.pages_of(doc)
        cap = min(most_docs, tail_cap(len(docs) - i + len(batch), workers))
        if batch and (len(batch) >= cap or pages + n > runner.batch_pages):
            yield batch
            batch, pages = [], 0
        batch.append(doc)
        pages += n
    if batch:
        yield batch


def tail_cap(remaining: int, workers: int) -> int:
    """Most documents for a batch that starts with `remaining` documents not yet batched.

    Guided self-scheduling: with one worker any size will do (nothing waits on another), but
    with several, a worker that gets the last full batch keeps the others idle for its length
    (on 2 workers and 50-document batches, ~9 s of a 3-minute run); a batch of at most
    remaining / (2 x workers) documents makes the tail a few documents long, for a handful
    more task runs per run."""
    if workers <= 1:
        return remaining
    return max(1, math.ceil(remaining / (2 * workers)))


def batched_results(docs: Sequence[DocumentInput], config: Config,
                    submit: Callable[[list[DocumentInput], str], Any],
                    on_batch: Callable[[int], None] = lambda n: None) -> Iterator[DocumentResult]:
    """Every document's result, batch by batch as each finishes: `submit(batch, label)` returns
    a future of `extract_batch(batch, config, label)`; `on_batch(n)` after each batch's n."""
    estimate, numbers = PageEstimate(), itertools.count(1)
    sizes = {doc.doc_id: doc.size for doc in docs}

    def labelled(batch: list[DocumentInput]) -> Any:
        return submit(batch, f"batch {next(numbers)}: {len(batch)} documents from {batch[0].source}")

    for results in stream_results(labelled, document_batches(docs, config.runner, estimate),
                                  window_for(config.runner),
                                  lambda b, e: [gave_up(d, e, config) for d in b]):
        for result in results:
            estimate.learn(result, sizes.get(result.document.doc_id, 0))
            yield result
        on_batch(len(results))


def extract_batch(docs: Sequence[DocumentInput], config: Config, label: str = "",
                  target: str | None = None) -> list[DocumentResult]:
    """Every document of the batch through this thread's isolated worker, one after another
    (each result without its text lines: the sinks and the report read none).
    `label` only names the task run in the Prefect UI; `target` replaces the pipeline (tests)."""
    return [_extract_one(doc, config, target) for doc in docs]


def _extract_one(doc: DocumentInput, config: Config, target: str | None) -> DocumentResult:
    from rowkeeper.flows.isolation import DEFAULT_TARGET, process_isolated

    # results go to the sinks and the report, which read no text line: they stay in the worker
    for delay in DOC_RETRY_DELAYS:
        try:
            return process_isolated(doc, config, target or DEFAULT_TARGET, lines=False)
        except TransientError:
            time.sleep(delay)
    try:
        return process_isolated(doc, config, target or DEFAULT_TARGET, lines=False)
    except TransientError as e:
        return gave_up(doc, e, config)


def gave_up(doc: DocumentInput, e: BaseException, config: Config) -> DocumentResult:
    """The failed result of a document whose transient errors outlived their retries (a later
    run retries it, whatever runner.retry_failed says)."""
    from rowkeeper.flows.incremental import TRANSIENT_MARK
    from rowkeeper.flows.pipeline import describe_error, failed_result

    return failed_result(doc, f"{TRANSIENT_MARK}: {describe_error(e)}", 0.0, config)
