"""report.json: what a run ingested and whether it can be trusted, totals first.

Built from the run's results alone (plain data in, a dict out), so `rowkeeper run`, `backfill`
and tests share it; report_html.py renders the same dict for people.
"""

from __future__ import annotations

import datetime as dt
import itertools
import os
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import rowkeeper
from rowkeeper.config import Config
from rowkeeper.flows.report_stream import (
    ReportLog,
    RunTotals,
    read_report,
    read_report_head,
    report_key,
    write_report_json,
)
from rowkeeper.models import DocumentRecord, DocumentResult, Table

# List prices per page, USD (Azure Document Intelligence layout: $10 / 1,000 pages; AWS Textract
# AnalyzeDocument tables: $15 / 1,000 pages). A layer's `price_per_page` option overrides them.
CLOUD_PRICE_PER_PAGE = {"azure": 0.010, "textract": 0.015}
SAMPLE_ROWS = 5
"""Body rows per table in the report (a person checks the first rows against the page)."""
MAX_CELL_BOXES = 2000
"""Cell boxes kept per table for the report's page overlay; a huge table's outline suffices."""
PREVIOUS_REPORT = "report.previous.json"
"""The previous run's report.json, kept beside the new one for the trend."""
TREND = (("documents", 0), ("ok", 0), ("failed", -1), ("skipped", 0), ("pages", 0),
         ("tables", 0), ("rows", 0), ("tables_failing_checks", -1), ("chunks", 0),
         ("self_contained_rate", 1), ("seconds", -1))
"""Figures compared with the previous run, and which way is better (1 up, -1 down, 0 neither)."""


def _reason_key(reason: str) -> str:
    """A reason without its figures, so that '0.41 fill' and '0.38 fill' count together."""
    head = reason.split(":")[0].split("(")[0].strip()
    return "".join("#" if ch.isdigit() else ch for ch in head)[:120]


def count_pages(rec: DocumentRecord, by_kind: Counter[str], by_layer: Counter[str],
                reasons: Counter[str]) -> None:
    """Add a document's pages by kind, by accepted layer ("none": no layer) and escalations."""
    by_kind.update(p.kind for p in rec.pages)
    accepted: set[int] = set()
    for a in rec.attempts:
        if a.accepted:
            by_layer[a.extractor] += len(set(a.pages) - accepted)
            accepted |= set(a.pages)
        else:
            reasons[f"{a.extractor}: {_reason_key(a.reason)}"] += len(a.pages)
    by_layer["none"] += len({p.page for p in rec.pages} - accepted) if rec.pages else 0


def page_figures(records: Sequence[DocumentRecord]) -> dict[str, Any]:
    """Pages by kind, pages by the layer whose output was accepted, and escalations with why."""
    by_kind: Counter[str] = Counter()
    by_layer: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    for rec in records:
        count_pages(rec, by_kind, by_layer, reasons)
    if not by_layer["none"]:
        del by_layer["none"]
    return {"pages": sum(by_kind.values()), "pages_by_kind": dict(by_kind),
            "pages_by_layer": dict(by_layer), "escalations": sum(reasons.values()),
            "escalation_reasons": dict(reasons.most_common())}


def cloud_cost(records: Sequence[DocumentRecord], config: Config) -> float:
    """Estimated USD of the cloud layers' pages (every attempt is billed, accepted or not)."""
    total = 0.0
    for rec in records:
        for a in rec.attempts:
            opts = config.extract.options.get(a.extractor, {})
            price = opts.get("price_per_page", CLOUD_PRICE_PER_PAGE.get(a.extractor, 0.0))
            total += price * len(a.pages)
    return round(total, 4)


def self_contained(result: DocumentResult) -> dict[str, dict[str, Any]]:
    """Per table id: how many cells a lone row chunk can answer (transforms.selfcontained)."""
    if not result.tables:
        return {}
    from rowkeeper.transforms.selfcontained import measure_self_contained

    m = measure_self_contained(result.tables, result.chunks)
    return {t.table_id: t.model_dump(mode="json") for t in m.tables}


def cell_boxes(t: Table) -> dict[str, list[list[float]]]:
    """The table's cell boxes by page (as a string key, JSON's), rounded to 0.1 pt."""
    out: dict[str, list[list[float]]] = {}
    for c in t.cells[:MAX_CELL_BOXES]:
        if c.bbox is not None and c.page is not None:
            out.setdefault(str(c.page), []).append([round(v, 1) for v in c.bbox])
    return out


def table_entry(t: Table, contained: dict[str, Any]) -> dict[str, Any]:
    """One table in the report: where it is, its shape, types and first rows, its checks with
    failures."""
    checks = [c.model_dump(mode="json") for c in t.validation.checks]
    checks.sort(key=lambda c: c["passed"])  # failing checks first
    return {"table_id": t.table_id, "pages": list(t.pages),
            "regions": [r.model_dump(mode="json") for r in t.regions], "caption": t.caption,
            "section_path": list(t.section_path), "columns": list(t.columns),
            "column_types": list(t.column_types), "n_rows": len(t.rows),
            "sample_rows": [list(r) for r in t.rows[:SAMPLE_ROWS]], "extractor": t.extractor,
            "merged_from": list(t.merged_from), "passed": t.validation.passed, "checks": checks,
            "self_contained": contained.get(t.table_id)}


def document_entry(rec: DocumentRecord, result: DocumentResult | None = None) -> dict[str, Any]:
    """One document in the report (built as it finishes, so the run keeps no result in memory);
    tables with failing checks first. Keys starting with _ stay out of report.json: the cell
    boxes are for report.html's enlarged pages only (in JSON they would triple its size)."""
    contained = self_contained(result) if result is not None else {}
    tables = [table_entry(t, contained) for t in (result.tables if result else ())]
    tables.sort(key=lambda t: t["passed"])
    return {"doc_id": rec.doc_id, "source": rec.source, "status": rec.status, "kind": rec.kind,
            "pages": len(rec.pages), "page_kinds": [p.kind for p in rec.pages],
            "n_tables": rec.n_tables, "n_chunks": rec.n_chunks, "seconds": rec.seconds,
            "error": rec.error, "attempts": [a.model_dump(mode="json") for a in rec.attempts],
            "warnings": list(rec.warnings),
            "failing_tables": sum(not t["passed"] for t in tables), "tables": tables,
            "_record": rec, "_cell_boxes": {t.table_id: cell_boxes(t) for t in (result.tables if result else ())}}


def report_head(totals: RunTotals, config: Config, seconds: float, **extra: Any) -> dict[str, Any]:
    """The report.json dict without its documents: version, when, config, `extra`, totals."""
    return {"rowkeeper_version": rowkeeper.__version__,
            "finished_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "config_fingerprint": config.fingerprint(), **extra, "totals": totals.figures(seconds)}


def build_report(entries: Sequence[dict[str, Any]], records: Sequence[DocumentRecord],
                 config: Config, seconds: float, **extra: Any) -> dict[str, Any]:
    """The report.json dict of entries held in memory (backfill, tests): totals, then documents
    (failures first). `entries` are every document, skipped ones included, each with its
    `_record` when processed this run (`records`, the same records, is kept for callers)."""
    totals = RunTotals(config)
    for entry in entries:
        totals.add(entry)
    return {**report_head(totals, config, seconds, **extra),
            "documents": sorted(entries, key=report_key)}


def write_report_files(report: dict[str, Any], out: str, stem: str) -> None:
    """STEM.json (without the private `_` keys of each document) and STEM.html into `out`, in
    one pass over `report["documents"]` (a list, or a run's ReportLog read back from disk)."""
    documents = report["documents"]
    if isinstance(documents, ReportLog):
        documents = documents.ordered()
    try:
        from rowkeeper.flows.report_page import ReportPage
    except ImportError:  # no PyMuPDF for the page pictures: report.json only
        write_report_json(os.path.join(out, f"{stem}.json"), report, documents)
        return
    with ReportPage(report, os.path.join(out, f"{stem}.html")) as page:
        write_report_json(os.path.join(out, f"{stem}.json"), report, documents, each=page.add)


def processed_any(entries: ReportLog | Sequence[dict[str, Any]]) -> bool:
    """Did the run process (not skip) any document? (Held entries or a run's ReportLog.)"""
    if isinstance(entries, ReportLog):
        return any(n for status, n in entries.totals.status.items() if status != "skipped_unchanged")
    return any(e["status"] != "skipped_unchanged" for e in entries)


def finish_report(entries: ReportLog | Sequence[dict[str, Any]], plan: Any, config: Config,
                  seconds: float, write: Callable[[dict[str, Any], str], None],
                  **extra: Any) -> dict[str, Any]:
    """Add the plan's skipped documents to the run's entries, write the report with `write`
    (streamed from disk), and return it with its documents read back from report.json."""
    from rowkeeper.flows.outcome import count_failed_skipped

    if isinstance(entries, ReportLog):
        log = entries
    else:
        log = ReportLog(config, config.out)
        log.extend(entries)
    log.extend(document_entry(rec) for rec in plan.skipped)
    report = report_head(log.totals, config, seconds, **extra)
    report["totals"]["failed_skipped"] = count_failed_skipped(plan.skipped)
    try:
        write({**report, "documents": log}, config.out)
    finally:
        log.close()
    return read_report(os.path.join(config.out, "report.json"))


def keep_previous(out: str) -> dict[str, Any] | None:
    """The previous run's report.json in `out` without its documents (None if there is none or
    it is unreadable), moved to report.previous.json so that writing the new one keeps it."""
    path = os.path.join(out, "report.json")
    try:
        previous = read_report_head(path)
        os.replace(path, os.path.join(out, PREVIOUS_REPORT))
    except (OSError, ValueError):
        return None
    return previous if isinstance(previous, dict) and isinstance(previous.get("totals"), dict) else None


def trend(previous: dict[str, Any] | None, totals: dict[str, Any]) -> dict[str, Any] | None:
    """This run's figures beside the previous run's, each with its direction and whether that
    is good news (`tone`: good, bad or none); None without a previous run."""
    if previous is None:
        return None
    figures = []
    for name, better in TREND:
        before, now = previous["totals"].get(name), totals.get(name)
        change = round(now - before, 6) if isinstance(now, int | float) and isinstance(before, int | float) else None
        direction = None if change is None else "up" if change > 0 else "down" if change < 0 else "same"
        tone = "none" if not change or not better else "good" if (change > 0) == (better > 0) else "bad"
        figures.append({"figure": name, "previous": before, "current": now, "change": change,
                        "direction": direction, "tone": tone})
    return {"previous_finished_at": previous.get("finished_at"), "kept_as": PREVIOUS_REPORT,
            "previous_rowkeeper_version": previous.get("rowkeeper_version"),
            "previous_config_fingerprint": previous.get("config_fingerprint"), "figures": figures}


def summary_markdown(report: dict[str, Any]) -> str:
    """The totals as a markdown table (the Prefect artifact and the CLI's closing lines)."""
    t = report["totals"]
    rows = [("documents", t["documents"]), ("ok", t["ok"]), ("failed", t["failed"]),
            ("skipped (unchanged)", t["skipped"]), ("pages", t["pages"]),
            ("pages by kind", _fmt(t["pages_by_kind"])), ("pages by layer", _fmt(t["pages_by_layer"])),
            ("escalations", t["escalations"]), ("tables", t["tables"]),
            ("rows", t.get("rows")),
            ("tables failing checks", t["tables_failing_checks"]), ("chunks", t["chunks"]),
            ("seconds", t["seconds"]), ("pages/s", t["pages_per_second"]),
            ("estimated cloud cost (USD)", t["estimated_cloud_cost_usd"]),
            ("self-contained rate", t["self_contained_rate"])]
    lines = ["| figure | value |", "| --- | --- |"] + [f"| {k} | {v} |" for k, v in rows]
    # failures come first in a report: read no further than the 50 shown
    failed = list(itertools.islice(itertools.takewhile(lambda d: d["status"] == "failed",
                                                       report["documents"]), 50))
    if failed:
        lines += ["", "**Failed documents**", ""] + [f"- `{d['source']}`: {d['error']}" for d in failed]
    return "\n".join(lines)


def _fmt(d: dict[str, Any]) -> str:
    return ", ".join(f"{k} {v}" for k, v in d.items()) or "-"
