"""How a run ended, said where people look: the flow run's final state and message in the
Prefect UI, the closing lines of `rowkeeper run`, and the seconds the run really took.

Plain functions over the report dict (flows.report); only `final_state` touches Prefect.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from typing import Any

RETRY_HINT = "rerun with --retry-failed (retry_failed=true for a served deployment)"
_MAX_REASONS = 3


class DocumentsFailed(Exception):
    """Every document of the run failed: the flow run ends Failed; `totals` has the figures."""

    def __init__(self, message: str, totals: dict[str, Any]) -> None:
        super().__init__(message)
        self.totals = totals


_IMPORTED_AT = time.time()


def process_started_at() -> float:
    """Epoch seconds at which this process started (Linux /proc), so that a run's seconds
    include Python's and Prefect's start-up; elsewhere, when rowkeeper was first imported."""
    try:
        with open("/proc/self/stat", encoding="ascii") as f:
            # fields after the ')' of the command name: state is field 3, starttime field 22
            start_ticks = int(f.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime", encoding="ascii") as f:
            uptime = float(f.read().split()[0])
        started = time.time() - uptime + start_ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return _IMPORTED_AT
    return min(started, _IMPORTED_AT)


def process_start_clock() -> float:
    """The process's start on the time.perf_counter() clock (run seconds are perf_counter
    differences)."""
    return time.perf_counter() - (time.time() - process_started_at())


def failed_documents(report: dict[str, Any]) -> list[dict[str, Any]]:
    """The report's documents with status failed (this run's and unchanged earlier failures)."""
    return [d for d in report["documents"] if d["status"] == "failed"]


def outcome_message(report: dict[str, Any]) -> str:
    """One line for the flow run's state: how many documents failed and the first reasons."""
    t = report["totals"]
    failed = failed_documents(report)
    if not failed:
        return (f"{t['documents']} documents: {t['ok']} ok, {t['skipped']} skipped unchanged, "
                "none failed")
    reasons = "; ".join(f"{os.path.basename(d['source'])}: {_reason(d)}" for d in failed[:_MAX_REASONS])
    more = f"; and {len(failed) - _MAX_REASONS} more" if len(failed) > _MAX_REASONS else ""
    line = f"{len(failed)} of {t['documents']} documents failed: {reasons}{more}"
    hint = retry_hint(t)
    return f"{line}. {hint}" if hint else line


def retry_hint(totals: dict[str, Any]) -> str | None:
    """'N documents failed before and were skipped; rerun with --retry-failed', or None."""
    n = int(totals.get("failed_skipped") or 0)
    if not n:
        return None
    were = "documents failed before and were" if n != 1 else "document failed before and was"
    return f"{n} {were} skipped (unchanged); {RETRY_HINT}"


def _reason(doc: dict[str, Any]) -> str:
    """The first line of a document's error, without the path the message already names."""
    lines = (doc["error"] or "").strip().splitlines()
    line = lines[0].removeprefix(f"{doc['source']}: ") if lines else "no reason recorded"
    return line if len(line) <= 160 else line[:157] + "..."


def every_document_failed(report: dict[str, Any]) -> bool:
    """True when the run had documents and none of them ended ok or skipped unchanged."""
    t = report["totals"]
    return bool(t["documents"]) and t["failed"] == t["documents"]


def final_state(report: dict[str, Any]) -> Any:
    """The flow run's final state: Failed when every document failed, else Completed; the
    message says how many failed and why, and the data are the run's totals."""
    from prefect.states import Completed, Failed

    message = outcome_message(report)
    if every_document_failed(report):
        return Failed(message=message, data=DocumentsFailed(message, report["totals"]))
    return Completed(message=message, data=report["totals"])


def count_failed_skipped(skipped: Sequence[Any]) -> int:
    """How many of the plan's skipped records are earlier failures (not retried this run)."""
    return sum(rec.status == "failed" for rec in skipped)
