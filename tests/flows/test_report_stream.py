"""The run report streamed (flows.report_stream, flows.report_page): a run of many documents
keeps no report entry in memory, loses none (every document in report.json exactly once, in
report order) and writes a bounded report.html (failures and warnings in full, the rest
summarised). The results are real ones (generated PDFs read by process_document), each loaded
many times under its own doc id, as a long run's would be."""

from __future__ import annotations

import html
import json
import re
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest

from rowkeeper.config import load_config
from rowkeeper.flows import report_page
from rowkeeper.flows.incremental import Plan
from rowkeeper.flows.launch import finish_run
from rowkeeper.flows.loading import process_plan
from rowkeeper.flows.pipeline import load_document, process_document
from rowkeeper.flows.report_stream import iter_report_documents, read_report_head
from rowkeeper.models import DocumentResult
from samples import pdfgen
from samples.make_samples import sample_specs


@pytest.fixture(scope="module")
def shapes(tmp_path_factory: pytest.TempPathFactory) -> list[DocumentResult]:
    """A ruled table, a two-page table, a corrupt file (failed) and a blank scan (ok, warned)."""
    import pymupdf

    d = tmp_path_factory.mktemp("shapes")
    (d / "ruled.pdf").write_bytes(pdfgen.build_pdf(sample_specs()["ruled"]))
    (d / "two_page.pdf").write_bytes(pdfgen.build_pdf(sample_specs()["two_page"]))
    (d / "corrupt.pdf").write_bytes(b"%PDF-1.7\n1 0 obj <<>>\n%%EOF damaged")
    doc = pymupdf.open()
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 200, 280), 0)
    pix.clear_with(255)
    doc.new_page(width=595, height=842).insert_image(pymupdf.Rect(0, 0, 595, 842), pixmap=pix)
    doc.save(d / "blank_scan.pdf")
    names = ("ruled.pdf", "two_page.pdf", "corrupt.pdf", "blank_scan.pdf")
    results = [process_document(load_document(str(d / n)), load_config()) for n in names]
    assert [r.document.status for r in results] == ["ok", "ok", "failed", "ok"]
    assert results[3].document.warnings and results[0].tables
    return results


def copies(shapes: list[DocumentResult], n: int) -> Iterator[DocumentResult]:
    """`n` results cycling through the shapes, each its own document (doc id and source)."""
    for i in range(n):
        r = shapes[i % len(shapes)]
        rec = r.document.model_copy(update={"doc_id": f"{i:064x}", "source": f"run/doc_{i:05d}.pdf"})
        yield r.model_copy(update={"document": rec})


def _held_after(shapes: list[DocumentResult], n: int, out: Path) -> int:
    """Bytes still allocated once process_plan has loaded `n` documents (its log kept alive)."""
    out.mkdir()
    config = load_config().with_out(str(out))
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        log = process_plan(Plan(), [], copies(shapes, n), load=lambda res, sinks, stale: res.document,
                           log_line=lambda rec: None, config=config)
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(log) == n
    log.close()
    return held


def test_the_flow_holds_no_report_entry_per_document(shapes: list[DocumentResult], tmp_path: Path) -> None:
    few, many = _held_after(shapes, 40, tmp_path / "few"), _held_after(shapes, 400, tmp_path / "many")
    # a held entry is 10-80 KB (tables, first rows, checks, cell boxes): 360 more would be MBs
    assert (many - few) / 360 < 512, (few, many)


def test_every_document_is_in_the_report_once_and_the_page_is_bounded(
        shapes: list[DocumentResult], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(report_page, "MAX_DETAILED", 6)
    monkeypatch.setattr(report_page, "MAX_LISTED", 10)
    n, config = 120, load_config().with_out(str(tmp_path))
    log = process_plan(Plan(), [], copies(shapes, n), load=lambda res, sinks, stale: res.document,
                       log_line=lambda rec: None, config=config)
    report = finish_run(log, Plan(), [], config, time.perf_counter(), prune=False)
    docs = list(iter_report_documents(str(tmp_path / "report.json")))
    assert sorted(d["doc_id"] for d in docs) == [f"{i:064x}" for i in range(n)]
    assert json.loads((tmp_path / "report.json").read_text())["documents"] == docs  # one JSON value
    assert [d["status"] for d in docs[:30]] == ["failed"] * 30 and docs[30]["status"] == "ok"
    t = read_report_head(str(tmp_path / "report.json"))["totals"]
    assert (t["documents"], t["ok"], t["failed"], t["documents_with_warnings"]) == (120, 90, 30, 30)
    assert t["tables"] == 30 * len(shapes[0].tables) + 30 * len(shapes[1].tables)
    assert report["totals"] == t and len(report["documents"]) == n
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert page.count('<section class="doc') == 6
    # every failure's error and every warning in full; 10 clean ok rows, the other clean ones counted
    error, warning = shapes[2].document.error, shapes[3].document.warnings[0]
    assert page.count(f'<div class="err">{html.escape(error)}</div>') == 30 - 6
    assert page.count(f'<div class="warn">{html.escape(warning)}</div>') == 30
    clean_rows = len(re.findall(r'<tr><td><span class="status ok">ok</span></td><td>[^<]*</td>'
                                r"<td>\d+</td><td>\d+</td><td>\d+</td><td></td></tr>", page))
    assert clean_rows == 10
    assert f"and {60 - 10:,} more documents, ok and without warnings" in page


def test_a_report_of_thousands_of_documents_stays_small(shapes: list[DocumentResult], tmp_path: Path) -> None:
    """report.html of 3,000 clean documents: the detailed ones, MAX_LISTED rows and a count."""
    n, config = 3000, load_config().with_out(str(tmp_path))
    ok = [shapes[0], shapes[1]]
    log = process_plan(Plan(), [], copies(ok, n), load=lambda res, sinks, stale: res.document,
                       log_line=lambda rec: None, config=config)
    finish_run(log, Plan(), [], config, time.perf_counter(), prune=False)
    size = (tmp_path / "report.html").stat().st_size
    assert size < 3_000_000, size
    listed = report_page.MAX_DETAILED + report_page.MAX_LISTED
    assert f"and {n - listed:,} more documents" in (tmp_path / "report.html").read_text(encoding="utf-8")
    assert sum(1 for _ in iter_report_documents(str(tmp_path / "report.json"))) == n


def test_a_run_summary_lists_what_report_json_lists_without_loading_it_whole(
        shapes: list[DocumentResult], tmp_path: Path) -> None:
    """rowkeeper.ingest's summary: one status per report.json document, in its order, read one
    document at a time (a 100,000-document report.json is GBs)."""
    from rowkeeper.api import read_summary

    n, config = 400, load_config().with_out(str(tmp_path))
    log = process_plan(Plan(), [], copies(shapes, n), load=lambda res, sinks, stale: res.document,
                       log_line=lambda rec: None, config=config)
    finish_run(log, Plan(), [], config, time.perf_counter(), prune=False)
    path = tmp_path / "report.json"
    tracemalloc.start()
    try:
        summary = read_summary(tmp_path)
        held, peak = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        whole = json.loads(path.read_text(encoding="utf-8"))
        whole_peak = tracemalloc.get_traced_memory()[1] - held
    finally:
        tracemalloc.stop()
    listed = json.loads(path.read_text(encoding="utf-8"))["documents"]
    assert [(s.source, s.doc_id, s.status, s.error, s.tables, s.chunks) for s in summary.statuses] == [
        (d["source"], d["doc_id"], d["status"], d.get("error"), d["n_tables"], d["n_chunks"]) for d in listed]
    assert (summary.documents, summary.ok, summary.failed) == (n, 300, 100)
    assert summary.report["totals"]["documents"] == n and len(summary.report["documents"]) == n
    # beyond what it keeps (a status per document), reading took one line's worth at a time;
    # loading report.json whole takes its whole parse at once
    assert peak - held < whole_peak / 10, (peak, held, whole_peak)
    assert whole["documents"] == listed
