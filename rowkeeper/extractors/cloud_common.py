"""What the cloud layout layers share: retries with backoff, the page budget and cost ledger,
and cutting the pages to send out of a PDF.

The ledger is per extractor instance (no module globals). Give it a `ledger_path` to share one
budget between instances and worker processes of a run: the file is updated under an exclusive
lock, and `read_ledger(path)` gives the figures for report.json.
"""

from __future__ import annotations

import fcntl
import json
import random
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

import pymupdf
from pydantic import BaseModel, ConfigDict

from rowkeeper.errors import BadInput, LayerUnavailable, TransientError
from rowkeeper.extractors.page_model import DocumentModel, document_of
from rowkeeper.models import DocumentInput

T = TypeVar("T")


class CostLedger:
    """Pages sent to a paid API, their cost, and the run's page budget."""

    def __init__(self, service: str, price_per_page: float, max_pages: int | None,
                 path: str | None = None) -> None:
        self.service = service
        self.price_per_page = price_per_page
        self.max_pages = max_pages
        self.path = Path(path) if path else None
        self._lock = threading.Lock()
        self._local = {"pages_sent": 0, "calls": 0, "retries": 0}

    def reserve(self, pages: int) -> None:
        """Count `pages` as sent, or raise LayerUnavailable when they would exceed the budget."""
        with self._lock:
            self._update(lambda d: self._take(d, pages))

    def _take(self, d: dict[str, int], pages: int) -> None:
        if self.max_pages is not None and d["pages_sent"] + pages > self.max_pages:
            raise LayerUnavailable(
                f"{self.service}: page budget exhausted ({d['pages_sent']} of {self.max_pages} pages "
                f"sent this run; raise extract.options.{self.service}.max_pages_per_run)")
        d["pages_sent"] += pages
        d["calls"] += 1

    def note_retry(self) -> None:
        """Count one retried request."""
        with self._lock:
            self._update(lambda d: d.__setitem__("retries", d["retries"] + 1))

    def _update(self, change: Callable[[dict[str, int]], None]) -> None:
        if self.path is None:
            change(self._local)
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path, "a+", encoding="utf-8") as f:
            fcntl.flock(f, fcntl.LOCK_EX)  # other workers of the run wait here
            f.seek(0)
            raw = f.read().strip()
            d = {"pages_sent": 0, "calls": 0, "retries": 0, **(json.loads(raw) if raw else {})}
            change(d)
            f.seek(0)
            f.truncate()
            json.dump({**d, "service": self.service, "price_per_page": self.price_per_page}, f)

    def snapshot(self) -> dict[str, float | int | str | None]:
        """Pages sent, calls, retries and cost so far (the figures report.json shows)."""
        d = read_ledger(self.path) if self.path else dict(self._local)
        pages = int(d.get("pages_sent", 0) or 0)
        return {"service": self.service, "pages_sent": pages, "calls": int(d.get("calls", 0) or 0),
                "retries": int(d.get("retries", 0) or 0), "price_per_page": self.price_per_page,
                "cost": round(pages * self.price_per_page, 6), "max_pages": self.max_pages}


def read_ledger(path: str | Path) -> dict[str, float | int | str]:
    """The figures a file-backed ledger holds (empty when nothing was sent)."""
    p = Path(path)
    if not p.exists():
        return {}
    with open(p, encoding="utf-8") as f:
        fcntl.flock(f, fcntl.LOCK_SH)
        raw = f.read().strip()
    d = json.loads(raw) if raw else {}
    if d:
        d["cost"] = round(d.get("pages_sent", 0) * d.get("price_per_page", 0.0), 6)
    return d


def with_retries(call: Callable[[], T], *, retries: int, base_delay: float, max_delay: float,
                 ledger: CostLedger | None = None,
                 sleep: Callable[[float], None] = time.sleep) -> T:
    """`call()`, retried on TransientError with exponential backoff and jitter.

    A TransientError may carry `retry_after` (seconds, from the server); it is honoured up to
    `max_delay`. After `retries` retries the last TransientError propagates.
    """
    for attempt in range(retries + 1):
        try:
            return call()
        except TransientError as e:
            if attempt == retries:
                raise
            hint = getattr(e, "retry_after", None)
            delay = hint if hint is not None else base_delay * (2 ** attempt) * (0.5 + random.random())
            if ledger is not None:
                ledger.note_retry()
            sleep(min(max(delay, 0.0), max_delay))
    raise AssertionError("unreachable")


class PaidApiOptions(BaseModel):
    """The options every paid cloud layer has (config: extract.options.<layer>): its page price
    and budget per run, and its retries; each layer adds its own."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    price_per_page: float = 0.0
    """USD per page (each layer's list price); set your contract's."""
    max_pages_per_run: int | None = 500
    ledger_path: str | None = None
    """A JSON file shared by the run's workers: one budget per run, figures for report.json."""
    retries: int = 4
    base_delay_s: float = 1.0
    max_delay_s: float = 30.0
    request_timeout_s: float = 60.0

    def ledger(self, service: str) -> CostLedger:
        """The ledger of `service`'s pages, at these options' price and budget."""
        return CostLedger(service, self.price_per_page, self.max_pages_per_run, self.ledger_path)

    def retried(self, call: Callable[[], T], ledger: CostLedger) -> T:
        """`call()` retried as these options say (`with_retries`), each retry counted in `ledger`."""
        return with_retries(call, retries=self.retries, base_delay=self.base_delay_s,
                            max_delay=self.max_delay_s, ledger=ledger)


class RetryableHTTP(TransientError):
    """A 429/5xx answer, with the server's Retry-After when it gave one."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def retry_after(value: str | None) -> float | None:
    """Seconds from a Retry-After header (delta-seconds form; dates are ignored)."""
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


def pages_pdf(doc: DocumentInput, pages: Sequence[int],
              model: DocumentModel | None = None) -> tuple[bytes, list[tuple[float, float]]]:
    """A PDF holding only `pages` (in order) and their (width, height) in points; cut from
    `model` when the document is open."""
    out = pymupdf.open()
    sizes = []
    try:
        with document_of(doc, model) as m:
            src = m.pdf
            for p in pages:
                if not 1 <= p <= src.page_count:
                    raise BadInput(f"{doc.source}: no page {p}")
                out.insert_pdf(src, from_page=p - 1, to_page=p - 1)
                sizes.append((src[p - 1].rect.width, src[p - 1].rect.height))
        return out.tobytes(garbage=3, deflate=True), sizes
    finally:
        out.close()


def ledger_figures(options: dict[str, dict[str, object]]) -> dict[str, dict[str, float | int | str]]:
    """Figures of every cloud layer whose `ledger_path` is set in `extract.options` (for report.json)."""
    out = {}
    for name in ("azure", "textract"):
        path = (options.get(name) or {}).get("ledger_path")
        if path:
            out[name] = read_ledger(str(path)) or {"service": name, "pages_sent": 0, "cost": 0.0}
    return out
