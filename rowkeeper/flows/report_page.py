"""report.html written as the report's documents stream past, and bounded whatever the run's size.

The first MAX_DETAILED documents in report order (failures, then the most failing tables) get
their full section (tables, first rows, checks, page pictures: flows.report_html). After them,
one row per document: every failed document and every document with warnings, with its error
and warnings in full (what a person must act on is never cut); ok documents without warnings up
to MAX_LISTED rows, then a count of the rest (report.json and documents.jsonl hold every one).
So a 100,000-document run's page is the summary, its problems, and a few MB, not 2 GB.
"""

from __future__ import annotations

import contextlib
import io
import os
from types import TracebackType
from typing import IO, Any

from rowkeeper.flows.report_html import (
    _CSS,
    Budget,
    _e,
    diff_html,
    document_html,
    summary_html,
    trend_html,
)

MAX_DETAILED = 200
"""Documents shown in full (the report's picture budget is 200 thumbnails: one page each)."""
MAX_LISTED = 2000
"""Rows for ok documents without warnings past the detailed ones; the rest are counted."""


def head_html(report: dict[str, Any]) -> str:
    """Everything before the documents: title, summary, trend, a backfill's diff."""
    title = f"rowkeeper {report.get('command', 'run')} report"
    diff = diff_html(report["backfill"]) if report.get("backfill") else ""
    return ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            '<meta name="viewport" content="width=device-width,initial-scale=1">'
            f'<link rel="icon" href="data:,"><title>{_e(title)}</title><style>{_CSS}</style></head>'
            f"<body><header><h1>{_e(title)}</h1><div>{_e(report.get('out'))} · finished "
            f"{_e(report.get('finished_at'))} · rowkeeper {_e(report.get('rowkeeper_version'))}</div></header>"
            f"<main><h2>Summary</h2>{summary_html(report['totals'])}{trend_html(report)}{diff}"
            "<h2>Documents</h2>")


def row_html(doc: dict[str, Any]) -> str:
    """One document as a table row: status, source, figures, error and warnings in full."""
    status = doc["status"]
    notes = f'<div class="err">{_e(doc["error"])}</div>' if doc.get("error") else ""
    notes += "".join(f'<div class="warn">{_e(w)}</div>' for w in doc.get("warnings") or ())
    return (f'<tr><td><span class="status {status}">{_e(status.replace("_", " "))}</span></td>'
            f'<td>{_e(doc["source"])}</td><td>{doc["pages"]}</td><td>{doc["n_tables"]}</td>'
            f'<td>{doc["n_chunks"]}</td><td>{notes}</td></tr>')


_ROWS_HEAD = ('<h3>Other documents</h3><table class="grid rows-list"><tr><th>status</th>'
              "<th>source</th><th>pages</th><th>tables</th><th>chunks</th><th>error, warnings</th></tr>")


class ReportPage:
    """report.html into `path` (or any text stream), one document at a time (`add`)."""

    def __init__(self, report: dict[str, Any], path: str | None = None,
                 stream: IO[str] | None = None) -> None:
        self.path, self.tmp = path, f"{path}.tmp" if path else None
        if self.tmp:
            os.makedirs(os.path.dirname(self.tmp) or ".", exist_ok=True)
        self.f: IO[str] = stream if stream is not None else open(self.tmp or os.devnull, "w", encoding="utf-8")
        self.budget = Budget()  # the limits read now: settable
        self.detailed = self.listed = self.unlisted = 0
        self.in_rows = False
        self.f.write(head_html(report))

    def add(self, doc: dict[str, Any]) -> None:
        """The next document in report order: in full, as a row, or counted."""
        if self.detailed < MAX_DETAILED:
            self.detailed += 1
            self.f.write(document_html(doc, self.budget))
            return
        problem = doc["status"] == "failed" or bool(doc.get("warnings") or doc.get("error"))
        if not problem and self.listed >= MAX_LISTED:
            self.unlisted += 1
            return
        if not self.in_rows:
            self.in_rows = True
            self.f.write(_ROWS_HEAD)
        self.listed += not problem
        self.f.write(row_html(doc))

    def finish(self) -> None:
        """Close the page (and rename it into place)."""
        if self.in_rows:
            self.f.write("</table>")
        if self.unlisted:
            self.f.write(f'<p class="muted">and {self.unlisted:,} more documents, ok and without '
                         "warnings, not listed here: report.json and documents.jsonl hold every "
                         "document.</p>")
        self.f.write("</main></body></html>")
        if self.tmp:
            self.f.close()
            os.replace(self.tmp, self.path or "")

    def __enter__(self) -> ReportPage:
        return self

    def __exit__(self, kind: type[BaseException] | None, e: BaseException | None,
                 tb: TracebackType | None) -> None:
        try:
            if kind is None:
                self.finish()
        finally:
            if self.tmp and os.path.exists(self.tmp):  # a failure here or in the run: no half page
                with contextlib.suppress(OSError):  # closing flushes, and the disk may be full
                    self.f.close()
                os.remove(self.tmp)


def render(report: dict[str, Any]) -> str:
    """The whole page as a string (report.documents a list)."""
    buf = io.StringIO()
    page = ReportPage(report, stream=buf)
    for doc in report["documents"]:
        page.add(doc)
    page.finish()
    return buf.getvalue()
