"""Per-page deadlines inside one layer's run: a page that takes too long is cut off, not the document.

A layer gets its pending pages as a `PageClock`. Each time the layer moves on to the next page
(iterates the clock), that page's budget starts: a SIGALRM at the end of it raises
`StepDeadline` in the layer, which the cascade catches, records as a `deadline` attempt for that
page, and reruns the layer on the other pages. A layer that does not iterate its pages one by
one (it hands them all to a library) gets one budget per page for the whole call, and a deadline
then cuts all of them.

How long a page may take (`PageBudget`): by default its share of the document's time, so a
200-page document cannot spend a fixed budget on every page and then time out as a whole, and a
1-page document may use most of its timeout. The document's deadline is `page_budget_share`
of `runner.document_timeout_s` after its reading started. A layer gets an equal share of the
time left with the layers after it (and the later passes' pages keep theirs); within its share
each page gets the time left shared by the pages still to read, and at least `min_page_budget_s`
while the share has that much left. Time a fast page or layer does not use goes to the rest.
Past its share a layer's remaining pages are cut at once (they keep what earlier layers read,
or their text). A fixed `page_budget_s` overrides all this (0: no budget).

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
class PageBudget:
    """How long a layer may spend on its next page: `fixed_s` seconds each, or a share of the
    time left before `deadline` (time.monotonic()); neither: no budget."""

    fixed_s: float = 0.0
    deadline: float | None = None
    floor_s: float = 30.0
    """With a deadline: a page may take this long while the layer's share has that much left."""
    later_pages: int = 0
    """Pages that later passes (the scanned pages after the text pages) still have to read."""

    @property
    def enabled(self) -> bool:
        """Does any page have a budget?"""
        return self.deadline is not None or self.fixed_s > 0

    def left_s(self) -> float:
        """Seconds left before the deadline (inf without one)."""
        return float("inf") if self.deadline is None else self.deadline - time.monotonic()

    def for_layer(self, pages: int, layers_left: int) -> PageBudget:
        """The share of the time left that one layer gets for its `pages`: the pages of later
        passes and the `layers_left - 1` layers after it keep theirs (what it does not use
        goes on to them)."""
        if self.deadline is None:
            return self
        share = max(self.left_s(), 0.0) * pages / max(pages + self.later_pages, 1) / max(layers_left, 1)
        return PageBudget(deadline=time.monotonic() + share, floor_s=self.floor_s)

    def for_page(self, pages_left: int) -> float:
        """The next page's budget when `pages_left` pages (it included) remain in this pass;
        0 when the deadline has passed."""
        if self.deadline is None:
            return self.fixed_s
        left = self.left_s()
        if left <= 0:
            return 0.0
        return max(min(self.floor_s, left), left / max(pages_left + self.later_pages, 1))

    def for_call(self, pages: int) -> float:
        """The budget of a whole call over `pages` pages (a layer that reads them all at once)."""
        if self.deadline is None:
            return self.fixed_s * max(pages, 1)
        return max(self.left_s(), 0.0)


def derived_budget(fixed_s: float | None, time_s: float | None, share: float, floor_s: float,
                   started: float | None = None) -> PageBudget:
    """The budget a document's pages get: `fixed_s` when set (0: none), else `share` of its
    `time_s` seconds from `started` (default now); no time known: no budget."""
    if fixed_s is not None:
        return PageBudget(fixed_s=fixed_s)
    if not time_s or time_s <= 0 or share <= 0:
        return PageBudget()
    start = time.monotonic() if started is None else started
    return PageBudget(deadline=start + share * time_s, floor_s=floor_s)


@dataclass(frozen=True)
class Step:
    """The page(s) a layer is working on now, since when, and the budget it has."""

    layer: str
    pages: tuple[int, ...]
    started: float
    budget_s: float


MIN_REST_S = 1.0
"""What a layer's work after its last page gets at least, even past the deadline (0 would
disarm the alarm and leave it unbounded)."""

# The step in progress in this process: one document at a time runs in a worker, and the
# watchdog thread must read it without a handle on the cascade's locals.
_current: list[Step] = []


def current_step() -> Step | None:
    """The step running now in this process (None between steps)."""
    return _current[-1] if _current else None


class PageClock(Sequence[int]):
    """A layer's pending pages; iterating them starts each page's budget in turn."""

    def __init__(self, layer: str, pages: Sequence[int], budget: PageBudget | float) -> None:
        self.layer, self.pages = layer, tuple(pages)
        self.budget = budget if isinstance(budget, PageBudget) else PageBudget(fixed_s=budget)
        self._active = False  # armed only inside `with clock:`, where our SIGALRM handler is set
        self.cut: tuple[int, ...] = ()
        """Pages the layer never reached because the document's deadline had passed."""

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
        for i, p in enumerate(self.pages):
            budget_s = self.budget.for_page(len(self.pages) - i)
            if self._active and budget_s <= 0:  # the document's deadline has passed
                self.cut = self.pages[i:]  # the layer sees no more pages and returns what it read
                return
            self._arm((p,), budget_s)
            hang_point(f"layer:{self.layer}:{p}")  # a test's stuck page, inside its own budget
            yield p
        # past the last page (or a layer that read them all at once): the rest of the call
        self._arm(self.pages, max(self.budget.for_call(len(self.pages)), MIN_REST_S))

    def _arm(self, pages: tuple[int, ...], budget_s: float) -> None:
        if not self._active:  # SIGALRM's default action would end the process
            return
        _current[:] = [Step(self.layer, pages, time.monotonic(), budget_s)]
        signal.setitimer(signal.ITIMER_REAL, budget_s)

    def __enter__(self) -> PageClock:
        """Start the whole call's budget (for a layer that never iterates its pages); raise
        StepDeadline at once, before anything is armed, when the document has no time left."""
        if _enabled(self.budget):
            call_s = self.budget.for_call(len(self.pages))
            if call_s <= 0:
                raise StepDeadline(Step(self.layer, self.pages, time.monotonic(), 0.0))
            self._previous = signal.signal(signal.SIGALRM, _expire)
            self._active = True
            self._arm(self.pages, call_s)
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


def _enabled(budget: PageBudget) -> bool:
    return budget.enabled and threading.current_thread() is threading.main_thread()


def _expire(signum: int, frame: object) -> None:
    step = current_step()
    raise StepDeadline(step if step is not None else None)


def cut_pages(e: StepDeadline, clock: PageClock) -> tuple[int, ...]:
    """The pages a deadline cut off: the step's own page, or all of the call's pages."""
    step = e.args[0] if e.args and isinstance(e.args[0], Step) else None
    return step.pages if step is not None else clock.pages
