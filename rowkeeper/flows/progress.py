"""The CLI's progress bar: documents and pages done, pages/s and ETA (rich)."""

from __future__ import annotations

import time
from types import TracebackType

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from rowkeeper.models import DocumentRecord


class RunProgress:
    """Counts documents and pages as they finish; silent when disabled."""

    def __init__(self, total_docs: int, enabled: bool = True, console: Console | None = None) -> None:
        self.pages = 0
        self.start = time.perf_counter()
        self._progress: Progress | None = None
        if enabled and total_docs:
            self._progress = Progress(
                TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                TextColumn("docs"), TaskProgressColumn(),
                TextColumn("{task.fields[pages]} pages · {task.fields[rate]} pages/s"),
                TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                console=console or Console(stderr=True), transient=False)
            self._task = self._progress.add_task("starting", total=total_docs, pages=0, rate="-")

    def __enter__(self) -> RunProgress:
        if self._progress is not None:
            self._progress.start()
        return self

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._progress is not None:
            self._progress.stop()

    def begin(self) -> None:
        """Work starts now: Prefect's start-up must not count against pages/s and ETA."""
        self.start = time.perf_counter()
        if self._progress is not None:
            self._progress.reset(self._task, description="rowkeeper", pages=0, rate="-")

    def done(self, record: DocumentRecord) -> None:
        """One document finished (processed, failed or skipped)."""
        self.pages += len(record.pages) if record.status != "skipped_unchanged" else 0
        if self._progress is None:
            return
        elapsed = max(time.perf_counter() - self.start, 1e-6)
        self._progress.update(self._task, advance=1, pages=self.pages,
                              rate=f"{self.pages / elapsed:.1f}")
