"""report.html's page pictures, rendered while the run extracts.

report.html shows a thumbnail and an enlarged view of each page that holds a table. Rendered
after the last document, as they were, they were most of a run's exit (3 of 3.8 s on the
throughput corpus, quiet: 40 pages rendered and encoded one after another). So `PagePictures`
renders each document's table pages as its result comes back, within the report's picture
budget (flows.report_html), and the report takes them from there (`attach`); a page it wants
that was not rendered beforehand is rendered then, so the report is the same either way.

Where they are rendered: in a local run with as many workers as usable CPUs (`runner.workers:
auto`), by the isolated worker that just read the document (`render_in_worker`, called by the
extraction thread after its batch): the workers render in parallel and the run process renders
nothing (a render thread here got no CPU until the last document: the run's exit). Elsewhere
(fewer workers than CPUs: a core is idle; the Prefect flow, whose tasks run where its task
runner puts them) a thread of the run process renders them: PyMuPDF is not thread-safe, so one
thread, at a lower priority, taking idle CPU only; what it has not rendered when the last
document is loaded, the report renders.

Which pages get which pictures is the report's budget spent in report order (failures first,
then the most failing tables, then by source), not in the order documents finish: `AheadBudget`
replays that budget over the documents rendered so far that come before this one in the report,
so a document that finishes late but sorts early still gets its enlarged views ahead (on the
throughput corpus, three pages of the fifth handbook were left to the report's end, rendered
in the run process after the last document, ~0.2-0.3 s of its wall).
"""

from __future__ import annotations

import bisect
import os
import queue
import sys
import threading
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from rowkeeper.config import Config
from rowkeeper.models import DocumentInput, DocumentResult

if TYPE_CHECKING:
    from rowkeeper.flows.crops import PageRender
    from rowkeeper.flows.isolation import IsolatedWorker

_STOP = object()


def render_in_workers(workers: int, cpus: int) -> bool:
    """Whether the workers render the pictures: when they are as many as the usable CPUs (the
    default, `runner.workers: auto`), a thread of the run process would get no CPU until the
    last document; with fewer, it takes an idle core beside them and the workers only extract."""
    return workers >= cpus


def table_pages(result: DocumentResult) -> list[int]:
    """The pages report.html shows for a document, in its order: the pages of its tables,
    tables with failing checks first (flows.report.document_entry)."""
    from rowkeeper.flows.report_html import MAX_PAGES_PER_DOCUMENT

    if result.document.status != "ok":
        return []
    tables = sorted(result.tables, key=lambda t: t.validation.passed)  # stable, as the report's
    return list(dict.fromkeys(p for t in tables for p in t.pages))[:MAX_PAGES_PER_DOCUMENT]


def report_place(result: DocumentResult) -> tuple[int, int, str]:
    """The document's place in the report (flows.report_stream.report_key), from its result."""
    from rowkeeper.flows.report_stream import report_key

    failing = sum(not t.validation.passed for t in result.tables)
    return report_key({"status": result.document.status, "failing_tables": failing,
                       "source": result.document.source})


class AheadBudget:
    """report.html's picture budget (flows.report_html.Budget) for pages rendered ahead, spent
    in report order: a document's pages get the pictures the report would give them after the
    documents rendered so far that come before it (an enlarged view not yet rendered counts at
    the mean size of those that were). A document that sorts after ones the budget already
    covers takes their place: their pictures go unused, the report shows this one's."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._docs: list[tuple[tuple[int, int, str], list[int | None]]] = []
        """(report place, each page's enlarged bytes or None) in report order, cut after the
        document that spends the last thumbnail (those after it get nothing, whatever comes)."""
        self._zoom_bytes: list[int] = [0, 0]  # enlarged views rendered so far: count, bytes

    def _estimate(self) -> int:
        count, total = self._zoom_bytes
        return total // count if count else 0

    def take(self, place: tuple[int, int, str], pages: list[int]) -> list[tuple[int, tuple[int, ...]]]:
        """The widths to render each of a document's `pages` at, as the report would spend its
        budget on them (pages with no picture left out); the pages are held until `settle`."""
        from rowkeeper.flows.report_html import Budget

        with self._lock:
            budget, guess = Budget(), self._estimate()
            at = bisect.bisect_left(self._docs, place, key=lambda d: d[0])
            for _, zooms in self._docs[:at]:
                for zoom in zooms:
                    widths = budget.take()
                    if not widths:
                        return []
                    budget.settle(widths, guess if zoom is None else zoom)
            wanted = []
            for page in pages:
                if not (widths := budget.take()):
                    break
                wanted.append((page, widths))
                budget.settle(widths, guess)
            if wanted:
                self._docs.insert(at, (place, [None] * len(wanted)))
                self._cut()
            return wanted

    def settle(self, place: tuple[int, int, str], zoom_bytes: list[int | None]) -> None:
        """The document's enlarged views as rendered (bytes, per page taken; None: none)."""
        with self._lock:
            for i, (key, zooms) in enumerate(self._docs):
                if key == place:
                    self._docs[i] = (key, [z or old for z, old in zip(zoom_bytes, zooms, strict=False)])
                    break
            for z in zoom_bytes:
                if z:
                    self._zoom_bytes = [self._zoom_bytes[0] + 1, self._zoom_bytes[1] + z]

    def _cut(self) -> None:
        """Drop the documents after the one that spends the last thumbnail."""
        from rowkeeper.flows.report_html import MAX_THUMBNAILS

        pages = 0
        for i, (_, zooms) in enumerate(self._docs):
            pages += len(zooms)
            if pages >= MAX_THUMBNAILS:
                del self._docs[i + 1:]
                return


class PagePictures:
    """Pictures of finished documents' table pages for the report (`attach`): rendered by a
    thread fed with the documents (`offer`), or, in a local run, by each document's isolated
    worker right after it (`render_in_worker`: no thread here then)."""

    def __init__(self, after: threading.Thread | None = None, in_workers: bool = False) -> None:
        """`after`: a thread to wait for before the first render (the run's preload of PyMuPDF
        and the report: this thread imports neither beside it, the caller's thread neither)."""
        self._after = after
        self._todo: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._cancelled = threading.Event()
        self._budget = AheadBudget()
        self.done: dict[str, dict[int, PageRender]] = {}
        self._thread: threading.Thread | None = None
        self.in_workers = in_workers
        if not in_workers:
            self._thread = threading.Thread(target=self._work, name="rowkeeper-pictures", daemon=True)
            self._thread.start()

    def offer(self, result: DocumentResult) -> None:
        """Queue the pages of the document's tables (for the thread, if there is one)."""
        pages = table_pages(result)
        if self._thread is not None and pages:
            self._todo.put((report_place(result), pages))

    def passing(self, results: Iterable[DocumentResult]) -> Iterator[DocumentResult]:
        """`results` unchanged, each offered on its way to the sinks."""
        for result in results:
            self.offer(result)
            yield result

    def render_in_worker(self, worker: IsolatedWorker, doc: DocumentInput, result: DocumentResult,
                         config: Config) -> None:
        """The document's table pages rendered by `worker` (the one that just read it: its
        extraction threads' CPU, in parallel, instead of this process's), within the budget;
        nothing when a thread renders them (`in_workers` False)."""
        if not self.in_workers or self._cancelled.is_set():
            return
        place = report_place(result)
        wanted = self._budget.take(place, table_pages(result))  # extraction threads call this at once
        got = worker.pictures(doc, config, wanted) if wanted else {}
        self._budget.settle(place, [_zoom_bytes(got.get(page)) for page, _ in wanted])
        if got:
            self.done[result.document.source] = got  # one key per document: no lock needed

    def finish(self) -> None:
        """Render everything queued, then end the thread (the report then renders nothing)."""
        self._todo.put(_STOP)
        if self._thread is not None:
            self._thread.join()

    def cancel(self) -> None:
        """End after the page being rendered (the rest, if the report wants it, it renders)."""
        self._cancelled.set()
        self._todo.put(_STOP)

    def attach(self, entries: Iterable[dict[str, Any]]) -> None:
        """Give each report entry its rendered pages (`_pictures`, which report.json leaves out).
        Pages still queued are left to the report, which renders them at the run's priority."""
        self.cancel()
        if self._thread is not None:
            self._thread.join()
        if hasattr(entries, "attach_pictures"):  # a run's ReportLog: given when read back
            entries.attach_pictures(dict(self.done))
            return
        for entry in entries:
            if entry.get("source") in self.done:
                entry["_pictures"] = self.done[entry["source"]]

    def _work(self) -> None:
        _lower_priority()
        if self._after is not None:
            self._after.join()
        try:
            self._render_queued()
        except Exception:  # noqa: BLE001 - ahead-of-time pictures are optional: the report renders its own
            pass

    def _render_queued(self) -> None:
        """Each queued document's pages within the budget, the PDF opened once per document:
        a page's first render loads the document's fonts (~12 of ~18 ms a page on generated
        business PDFs), which its other pages then share."""
        from rowkeeper.flows.crops import render_document_pictures

        while (item := self._todo.get()) is not _STOP and not self._cancelled.is_set():
            place, pages = item
            source = place[2]
            wanted = self._budget.take(place, pages)
            got = render_document_pictures(source, wanted) if wanted else {}
            self._budget.settle(place, [_zoom_bytes(got.get(page)) for page, _ in wanted])
            if got:
                self.done[source] = {**self.done.get(source, {}), **got}


def _zoom_bytes(got: PageRender | None) -> int | None:
    """What a page rendered ahead spends of the budget's enlarged bytes (None: not rendered)."""
    if got is None:
        return None
    from rowkeeper.flows.report_html import ZOOM_WIDTH

    return len(got.uris.get(ZOOM_WIDTH, ""))


def _lower_priority(by: int = 10) -> None:
    """This thread's nice value raised: on a busy machine the workers' extraction, which the
    run waits for, goes first, and the pictures take what CPU is idle (Linux: a thread has its
    own nice value, set through its thread id; elsewhere that id is no process's, so skip)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        tid = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, tid, min(19, os.getpriority(os.PRIO_PROCESS, tid) + by))
    except OSError:  # not allowed here: the pictures render at the run's own priority
        pass
