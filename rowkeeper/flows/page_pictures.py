"""report.html's page pictures, rendered on a thread of the run process while the run extracts.

report.html shows a thumbnail and an enlarged view of each page that holds a table. Rendered
after the last document, as they were, they were most of a run's exit (3 of 3.8 s on the
throughput corpus, quiet: 40 pages rendered and WebP-encoded one after another). The run
process mostly waits on its workers meanwhile, so `PagePictures` renders each document's table
pages as its result comes back, within the report's picture budget (flows.report_html), and
the report takes them from there (`attach`); a page it wants that was not rendered beforehand
is rendered then, so the report is the same either way. Only the run's own thread renders here
(PyMuPDF is not thread-safe): the extraction itself runs in the worker processes. The thread
runs at a lower priority, so on a busy machine it takes idle CPU only; what it has not rendered
when the last document is loaded, the report renders.
"""

from __future__ import annotations

import os
import queue
import sys
import threading
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from rowkeeper.models import DocumentResult

if TYPE_CHECKING:
    from rowkeeper.flows.crops import PageRender

_STOP = object()


class PagePictures:
    """A render thread fed with finished documents; `attach` hands the pictures to the report."""

    def __init__(self, after: threading.Thread | None = None) -> None:
        """`after`: a thread to wait for before the first render (the run's preload of PyMuPDF
        and the report: this thread imports neither beside it, the caller's thread neither)."""
        self._after = after
        self._todo: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._cancelled = threading.Event()
        self.done: dict[str, dict[int, PageRender]] = {}
        self._thread = threading.Thread(target=self._work, name="rowkeeper-pictures", daemon=True)
        self._thread.start()

    def offer(self, result: DocumentResult) -> None:
        """Queue the pages of the document's tables."""
        pages = list(dict.fromkeys(p for t in result.tables for p in t.pages))
        if result.document.status == "ok" and pages:
            self._todo.put((result.document.source, pages))

    def passing(self, results: Iterable[DocumentResult]) -> Iterator[DocumentResult]:
        """`results` unchanged, each offered on its way to the sinks."""
        for result in results:
            self.offer(result)
            yield result

    def finish(self) -> None:
        """Render everything queued, then end the thread (the report then renders nothing)."""
        self._todo.put(_STOP)
        self._thread.join()

    def cancel(self) -> None:
        """End after the page being rendered (the rest, if the report wants it, it renders)."""
        self._cancelled.set()
        self._todo.put(_STOP)

    def attach(self, entries: Iterable[dict[str, Any]]) -> None:
        """Give each report entry its rendered pages (`_pictures`, which report.json leaves out).
        Pages still queued are left to the report, which renders them at the run's priority."""
        self.cancel()
        self._thread.join()
        if hasattr(entries, "attach_pictures"):  # a run's ReportLog: given when read back
            entries.attach_pictures(self.done)
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
        from rowkeeper.flows import report_html as rh
        from rowkeeper.flows.crops import render_pictures

        thumbs, zooms, zoom_bytes = rh.MAX_THUMBNAILS, rh.MAX_ENLARGED, rh.MAX_ENLARGED_BYTES
        while (item := self._todo.get()) is not _STOP:
            source, pages = item
            for page in pages[: rh.MAX_PAGES_PER_DOCUMENT]:
                if thumbs <= 0 or self._cancelled.is_set():
                    return  # the report has no room for more pictures than this
                widths = (rh.THUMB_WIDTH, rh.ZOOM_WIDTH) if zooms > 0 and zoom_bytes > 0 else (rh.THUMB_WIDTH,)
                got = render_pictures(source, page, widths)
                if got is None:
                    continue
                self.done.setdefault(source, {})[page] = got
                thumbs -= 1
                if len(widths) > 1:
                    zooms, zoom_bytes = zooms - 1, zoom_bytes - len(got.uris[rh.ZOOM_WIDTH])


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
