"""Per-page deadlines inside one layer's run: a page that takes too long is cut off, not the document.

A layer gets its pending pages as a `PageClock`. Each time the layer moves on to the next page
(iterates the clock), that page's budget starts: a SIGALRM at the end of it raises
`StepDeadline` in the layer, which the cascade catches, records as a `deadline` attempt for that
page, and reruns the layer on the other pages. A layer that does not iterate its pages one by
one (it hands them all to a library) gets one budget per page for the whole call, and a deadline
then cuts all of them.

A signal only interrupts Python code: a C call that never returns (a render stuck inside MuPDF)
is cut by the worker's own watchdog instead (`flows/isolation.py`), which reads the step in
progress from `current_step()`. The alarm is process-wide, so budgets run only in the main
thread (the worker subprocess); elsewhere the document timeout is the only deadline.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, overload

from rowkeeper.faults import hang_point


class StepDeadline(BaseException):
    """A page's budget in a layer ran out. A BaseException, so that a library's broad
    `except Exception` does not swallow it and keep going."""


@dataclass(frozen=True)
class Step:
    """The page(s) a layer is working on now, since when, and the budget it has."""

    layer: str
    pages: tuple[int, ...]
    started: float
    budget_s: float


# The step in progress in this process: one document at a time runs in a worker, and the
# watchdog thread must read it without a handle on the cascade's locals.
_current: list[Step] = []


def current_step() -> Step | None:
    """The step running now in this process (None between steps)."""
    return _current[-1] if _current else None


class PageClock(Sequence[int]):
    """A layer's pending pages; iterating them starts each page's budget in turn."""

    def __init__(self, layer: str, pages: Sequence[int], budget_s: float) -> None:
        self.layer, self.pages, self.budget_s = layer, tuple(pages), budget_s
        self._active = False  # armed only inside `with clock:`, where our SIGALRM handler is set

    @overload
    def __getitem__(self, i: int) -> int: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[int]: ...
    def __getitem__(self, i: Any) -> Any:
        return self.pages[i]

    def __len__(self) -> int:
        return len(self.pages)

    def __contains__(self, page: object) -> bool:  # a membership test is not moving on to a page
        return page in self.pages

    def __iter__(self) -> Iterator[int]:
        for p in self.pages:
            self._arm((p,), self.budget_s)
            hang_point(f"layer:{self.layer}:{p}")  # a test's stuck page, inside its own budget
            yield p
        # past the last page (or a layer that read them all at once): the rest of the call
        self._arm(self.pages, self.budget_s * max(len(self.pages), 1))

    def _arm(self, pages: tuple[int, ...], budget_s: float) -> None:
        if not self._active:  # SIGALRM's default action would end the process
            return
        _current[:] = [Step(self.layer, pages, time.monotonic(), budget_s)]
        signal.setitimer(signal.ITIMER_REAL, budget_s)

    def __enter__(self) -> PageClock:
        """Start the whole call's budget (for a layer that never iterates its pages)."""
        if _enabled(self.budget_s):
            self._previous = signal.signal(signal.SIGALRM, _expire)
            self._active = True
            self._arm(self.pages, self.budget_s * max(len(self.pages), 1))
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            if self._active:
                signal.setitimer(signal.ITIMER_REAL, 0)
        finally:  # the one-shot alarm may fire just before it is disarmed: restore anyway
            if self._active:
                self._active = False
                signal.signal(signal.SIGALRM, self._previous)
            _current.clear()


def _enabled(budget_s: float) -> bool:
    return budget_s > 0 and threading.current_thread() is threading.main_thread()


def _expire(signum: int, frame: object) -> None:
    step = current_step()
    raise StepDeadline(step if step is not None else None)


def cut_pages(e: StepDeadline, clock: PageClock) -> tuple[int, ...]:
    """The pages a deadline cut off: the step's own page, or all of the call's pages."""
    step = e.args[0] if e.args and isinstance(e.args[0], Step) else None
    return step.pages if step is not None else clock.pages
