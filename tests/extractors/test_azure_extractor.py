"""The Azure layer against a local HTTP server speaking prebuilt-layout's documented shapes."""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path

import pytest

from rowkeeper.errors import BadInput, LayerUnavailable, TransientError
from rowkeeper.extractors.azure_extractor import AzureLayoutExtractor, AzureOptions
from rowkeeper.extractors.cloud_common import read_ledger
from rowkeeper.models import DocumentInput
from rowkeeper.protocols import Extractor
from tests.extractors.cloud_fakes import (
    FakeService,
    PageTruth,
    azure_analyze_result,
    page_truth,
    serve,
)
from tests.extractors.ocr_fixtures import SPANNED, write_pair

pytest.importorskip("httpx")

ANALYZE = "/documentintelligence/documentModels/prebuilt-layout:analyze"
KEY = "test-key-not-a-secret-1234"


@pytest.fixture(scope="module")
def docs(tmp_path_factory: pytest.TempPathFactory) -> tuple[DocumentInput, DocumentInput, PageTruth]:
    """A spanned-header table with caption and footnote: text version, scanned twin, truth."""
    spec = dataclasses.replace(SPANNED, caption="Table 3 Sales by half", footnotes=["* EUR thousand"])
    text, scan = write_pair(tmp_path_factory.mktemp("azure"), "spanned", spec)
    return text, scan, page_truth(text)


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No Azure settings unless a test sets them."""
    monkeypatch.delenv("AZURE_DI_ENDPOINT", raising=False)
    monkeypatch.delenv("AZURE_DI_KEY", raising=False)


def _fast(**kw: object) -> AzureOptions:
    return AzureOptions(base_delay_s=0.0, poll_interval_s=0.0, **kw)


def _script_ok(svc: FakeService, truth: PageTruth, throttle: int = 0) -> None:
    op = "/documentintelligence/documentModels/prebuilt-layout/analyzeResults/op-1"
    throttled = [(429, {"Retry-After": "0"}, {"error": {"code": "429", "message": "Rate limit"}})] * throttle
    svc.script("POST", ANALYZE, *throttled, lambda s: (202, {"Operation-Location": s.url + op}, b""))
    svc.script("GET", op, (200, {"Retry-After": "0"}, {"status": "running"}),
               (200, {}, {"status": "succeeded", "analyzeResult": azure_analyze_result([truth])}))


def test_not_configured_is_unavailable_naming_the_variables(env: None, docs) -> None:  # type: ignore[no-untyped-def]
    """No endpoint/key in the environment: the cascade skips the layer with what to set."""
    ex = AzureLayoutExtractor()
    assert isinstance(ex, Extractor) and ex.handles == frozenset({"scanned"})
    with pytest.raises(LayerUnavailable, match="AZURE_DI_ENDPOINT and AZURE_DI_KEY"):
        ex.extract(docs[1], [1])


def test_tables_lines_and_cost_after_throttling(env: None, docs, monkeypatch: pytest.MonkeyPatch,  # type: ignore[no-untyped-def]
                                                caplog: pytest.LogCaptureFixture) -> None:
    """429 then 202, poll running then succeeded: spans, headers, points, caption line, ledger."""
    _, scan, truth = docs
    with serve() as svc:
        _script_ok(svc, truth, throttle=1)
        monkeypatch.setenv("AZURE_DI_ENDPOINT", svc.url + "/")
        monkeypatch.setenv("AZURE_DI_KEY", KEY)
        ex = AzureLayoutExtractor(_fast())
        with caplog.at_level(logging.DEBUG):
            got = ex.extract(scan, [1])
    posts = [s for s in svc.seen if s.method == "POST"]
    assert len(posts) == 2 and "api-version=2024-11-30" in posts[-1].path
    assert posts[-1].headers["Ocp-Apim-Subscription-Key"] == KEY
    assert posts[-1].headers["Content-Type"] == "application/pdf" and posts[-1].body.startswith(b"%PDF")
    assert KEY not in caplog.text
    t = got.tables[0]
    assert (t.n_rows, t.n_cols) == (4, 5)
    assert t.grid() == [["Region", "2025", "", "2026", ""], ["", "H1", "H2", "H1", "H2"],
                        ["North", "10", "11", "12", "13"], ["South", "20", "21", "22", "23"]]
    slot = {(c.row, c.col): c for c in t.cells}
    assert (slot[0, 0].row_span, slot[0, 1].col_span, slot[2, 0].row_span) == (2, 2, 1)
    assert all(c.is_header == (c.row < 2) for c in t.cells)
    assert t.bbox == pytest.approx(truth.table_bbox, abs=0.05)  # inches -> points
    assert slot[2, 1].bbox == pytest.approx(dict(((r, c), b) for r, c, *_, b in truth.cells)[2, 1], abs=0.05)
    texts = [ln.text for ln in got.lines]
    assert "Table 3 Sales by half" in texts and "* EUR thousand" in texts
    assert "North" not in texts  # table text stays in the table
    heading = next(ln for ln in got.lines if ln.text == truth.heading)
    assert heading.bold and t.metrics["has_caption"] == 1.0
    assert ex.ledger.snapshot() == {"service": "azure", "pages_sent": 1, "calls": 1, "retries": 1,
                                    "price_per_page": 0.01, "cost": 0.01, "max_pages": 500}


def test_only_the_pages_asked_for_are_sent_and_mapped_back(env: None, docs, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Page 2 of a two-page PDF goes out as a one-page PDF; results come back as page 2."""
    import pymupdf

    _, scan, truth = docs
    two = tmp_path / "two.pdf"
    with pymupdf.open(scan.path) as a:
        a.insert_pdf(pymupdf.open(scan.path))
        a.save(two)
    doc = scan.model_copy(update={"path": str(two)})
    with serve() as svc:
        _script_ok(svc, truth)
        monkeypatch.setenv("AZURE_DI_ENDPOINT", svc.url)
        monkeypatch.setenv("AZURE_DI_KEY", KEY)
        got = AzureLayoutExtractor(_fast()).extract(doc, [2])
    sent = next(s for s in svc.seen if s.method == "POST").body
    assert pymupdf.open(stream=sent, filetype="pdf").page_count == 1
    assert {t.page for t in got.tables} == {2} and {ln.page for ln in got.lines} == {2}
    assert all(c.page == 2 for c in got.tables[0].cells)


def test_server_errors_end_in_a_transient_error(env: None, docs, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """500 on every try: retried, then TransientError (the flow may retry the document later)."""
    with serve() as svc:
        svc.script("POST", ANALYZE, (500, {}, {"error": {"code": "InternalServerError", "message": "boom"}}))
        monkeypatch.setenv("AZURE_DI_ENDPOINT", svc.url)
        monkeypatch.setenv("AZURE_DI_KEY", KEY)
        ex = AzureLayoutExtractor(_fast(retries=2))
        with pytest.raises(TransientError, match="HTTP 500"):
            ex.extract(docs[1], [1])
    assert len(svc.seen) == 3 and ex.ledger.snapshot()["retries"] == 2


def test_rejected_key_and_failed_analysis(env: None, docs, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """401 -> unavailable (not retried); an analysis that fails on the document -> BadInput."""
    with serve() as svc:
        monkeypatch.setenv("AZURE_DI_ENDPOINT", svc.url)
        monkeypatch.setenv("AZURE_DI_KEY", KEY)
        svc.script("POST", ANALYZE, (401, {}, {"error": {"code": "401", "message": "Access denied"}}))
        with pytest.raises(LayerUnavailable, match="credentials rejected"):
            AzureLayoutExtractor(_fast()).extract(docs[1], [1])
        assert len(svc.seen) == 1
        svc.script("POST", ANALYZE, lambda s: (202, {"Operation-Location": s.url + "/op/2"}, b""))
        svc.script("GET", "/op/2", (200, {}, {"status": "failed", "error": {
            "code": "InvalidContent", "message": "The file is corrupted"}}))
        with pytest.raises(BadInput, match="InvalidContent"):
            AzureLayoutExtractor(_fast()).extract(docs[1], [1])


def test_page_budget_is_shared_through_the_ledger_file(env: None, docs, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Two instances (two documents of one run) share a 1-page budget: the second is refused unsent."""
    _, scan, truth = docs
    ledger = tmp_path / "ledger" / "azure.json"
    with serve() as svc:
        _script_ok(svc, truth)
        monkeypatch.setenv("AZURE_DI_ENDPOINT", svc.url)
        monkeypatch.setenv("AZURE_DI_KEY", KEY)
        opts = _fast(max_pages_per_run=1, ledger_path=str(ledger), price_per_page=0.0015)
        AzureLayoutExtractor(opts).extract(scan, [1])
        n = len(svc.seen)
        with pytest.raises(LayerUnavailable, match="page budget exhausted"):
            AzureLayoutExtractor(opts).extract(scan, [1])
        assert len(svc.seen) == n  # nothing sent
    figures = read_ledger(ledger)
    assert (figures["pages_sent"], figures["cost"], figures["service"]) == (1, 0.0015, "azure")


def test_ledger_figures_for_the_report(tmp_path: Path) -> None:
    """The flow reads every configured ledger in one call; an unused layer reports zero pages."""
    from rowkeeper.extractors.cloud_common import CostLedger, ledger_figures

    path = tmp_path / "azure.json"
    CostLedger("azure", 0.01, None, str(path)).reserve(3)
    figures = ledger_figures({"azure": {"ledger_path": str(path)},
                              "textract": {"ledger_path": str(tmp_path / "textract.json")}, "ocr": {}})
    assert figures["azure"]["pages_sent"] == 3 and figures["azure"]["cost"] == 0.03
    assert figures["textract"]["pages_sent"] == 0
