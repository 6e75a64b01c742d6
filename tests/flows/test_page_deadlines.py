"""A page stuck in one layer is cut off at its own budget; the document keeps its other pages and
that page is read by the next layers (issue 15 item 2). The hang is real: `rowkeeper/faults.py`
blocks inside the layer's work on that page, either in Python (the per-page alarm cuts it) or
with SIGALRM blocked, as a stuck C call is (the worker's watchdog restarts the worker)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from rowkeeper.config import Config
from rowkeeper.flows.isolation import IsolatedWorker, Limits
from rowkeeper.flows.pipeline import load_document, process_document
from samples import pdfgen
from samples.make_samples import sample_specs


@pytest.fixture(scope="module")
def two_tables(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Page 1: a ruled price table; page 2: a borderless revenue table."""
    pdf = pymupdf.open("pdf", pdfgen.build_pdf(sample_specs()["ruled"]))
    pdf.insert_pdf(pymupdf.open("pdf", pdfgen.build_pdf(sample_specs()["borderless"])))
    path = tmp_path_factory.mktemp("deadline") / "two.pdf"
    pdf.save(path)
    return path


def _budget(seconds: float) -> Config:
    return Config.model_validate({"extract": {"options": {"cascade": {"page_budget_s": seconds}}}})


def _cells(result) -> dict[int, set[str]]:
    return {t.pages[0]: {c for row in t.rows for c in row if c} for t in result.tables}


def test_a_page_hung_in_one_layer_is_read_by_the_next(two_tables: Path, monkeypatch: pytest.MonkeyPatch):
    clean = process_document(load_document(str(two_tables)), _budget(6))
    monkeypatch.setenv("ROWKEEPER_HANG_AT", "layer:pymupdf:1")
    result = process_document(load_document(str(two_tables)), _budget(6))
    rec = result.document
    assert rec.status == "ok", rec.error
    cut = [a for a in rec.attempts if a.reason.startswith("deadline:")]
    assert [(a.extractor, a.pages) for a in cut] == [("pymupdf", (1,))]
    assert ("pdfplumber", (1,), True) in [(a.extractor, a.pages, a.accepted) for a in rec.attempts]
    assert sorted(_cells(result)) == [1, 2]  # both pages' tables are there
    assert _cells(result)[2] == _cells(clean)[2]
    assert any(w.startswith("page 1: pymupdf cut off at its deadline") for w in rec.warnings)
    assert rec.fingerprint == clean.document.fingerprint


def test_with_every_table_layer_hung_the_page_keeps_its_text(two_tables: Path,
                                                             monkeypatch: pytest.MonkeyPatch):
    config = Config.model_validate({"extract": {"text_layers": ["pymupdf"],
                                                "options": {"cascade": {"page_budget_s": 5}}}})
    monkeypatch.setenv("ROWKEEPER_HANG_AT", "layer:pymupdf:1")
    result = process_document(load_document(str(two_tables)), config)
    assert result.document.status == "ok"
    assert sorted(_cells(result)) == [2]
    page1 = " ".join(c.text for c in result.chunks if 1 in (c.metadata.get("pages") or ()))
    assert "Office equipment" in page1  # the heading above the cut-off table is still read


def test_a_page_stuck_in_c_code_restarts_the_worker_without_that_step(two_tables: Path,
                                                                      monkeypatch: pytest.MonkeyPatch):
    clean = process_document(load_document(str(two_tables)), _budget(6))
    monkeypatch.setenv("ROWKEEPER_HANG_AT", "layer:pymupdf:1")  # in the worker only
    monkeypatch.setenv("ROWKEEPER_HANG_MODE", "c")  # SIGALRM blocked: the alarm cannot cut it
    worker = IsolatedWorker(Limits(timeout_s=120, fallback_timeout_s=0))
    try:
        result = worker.process(load_document(str(two_tables)), _budget(6))
    finally:
        worker.close()
    rec = result.document
    assert rec.status == "ok", rec.error
    cut = [a for a in rec.attempts if a.reason.startswith("deadline:")]
    assert [(a.extractor, a.pages) for a in cut] == [("pymupdf", (1,))]
    assert "stuck in C code" in cut[0].reason
    assert sorted(_cells(result)) == [1, 2]
    assert rec.fingerprint == clean.document.fingerprint


def test_pages_read_outside_a_budgeted_call_arm_no_alarm():
    """A layer that keeps and re-reads its pages after the call must not leave an alarm behind
    (SIGALRM's default action would end the worker)."""
    import time

    from rowkeeper.extractors.step_budget import PageClock, current_step

    clock = PageClock("pymupdf", [1, 2], 0.05)
    with clock:
        assert list(clock) == [1, 2] and current_step().pages == (1, 2)
    assert list(clock) == [1, 2] and current_step() is None
    time.sleep(0.2)  # still alive: nothing was armed


@pytest.fixture(scope="module")
def two_ruled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two pages, each a ruled price table."""
    pdf = pymupdf.open()
    for _ in range(2):
        pdf.insert_pdf(pymupdf.open("pdf", pdfgen.build_pdf(sample_specs()["ruled"])))
    path = tmp_path_factory.mktemp("derived") / "two_ruled.pdf"
    pdf.save(path)
    return path


def test_page_budgets_come_from_the_document_timeout_so_every_page_hung_does_not_time_it_out(
        two_ruled: Path, monkeypatch: pytest.MonkeyPatch):
    """Every page hangs in the first layer. Each page's budget is a share of the document's
    time, so the first layer gives up within its share, the second reads every page, and the
    whole stays inside runner.document_timeout_s (a fixed 120 s per page would have spent 240 s:
    in a worker with a 60 s timeout that document failed, 'timed out', bench/RESULTS.md)."""
    import time

    config = Config.model_validate({"runner": {"document_timeout_s": 30},
                                    "extract": {"text_layers": ["pymupdf", "pdfplumber"]}})
    clean = process_document(load_document(str(two_ruled)), config)
    monkeypatch.setenv("ROWKEEPER_HANG_AT", "layer:pymupdf:*")
    start = time.monotonic()
    result = process_document(load_document(str(two_ruled)), config)
    elapsed = time.monotonic() - start
    rec = result.document
    assert rec.status == "ok", rec.error
    assert elapsed < 30  # inside the document's timeout: the worker would not have killed it
    cut = [a for a in rec.attempts if a.reason.startswith("deadline:")]
    assert sorted(p for a in cut if a.extractor == "pymupdf" for p in a.pages) == [1, 2]
    assert "share of runner.document_timeout_s" in cut[0].reason
    accepted = {p for a in rec.attempts if a.extractor == "pdfplumber" and a.accepted for p in a.pages}
    assert accepted == {1, 2}
    assert _cells(result) == _cells(clean)  # both pages' cells, as a run without the hang reads them
    assert rec.fingerprint == clean.document.fingerprint


def test_a_one_page_document_may_use_most_of_its_timeout_and_a_long_one_a_share_each():
    """The derived budget: a 1-page document's only layer may take 80% of the timeout; 200
    pages share it (each at least min_page_budget_s while time is left), so the whole layer
    pass ends within the document's share however many pages hang."""
    from rowkeeper.extractors.step_budget import derived_budget

    one = derived_budget(None, 600, 0.8, 10).for_layer(pages=1, layers_left=1)
    assert 479 < one.for_page(1) <= 480
    three_layers = derived_budget(None, 600, 0.8, 10).for_layer(pages=1, layers_left=3)
    assert 159 < three_layers.for_page(1) <= 160  # the two layers after it keep their shares
    long = derived_budget(None, 600, 0.8, 10).for_layer(pages=200, layers_left=1)
    assert long.for_page(200) == 10 and long.left_s() <= 480
    assert derived_budget(120, 600, 0.8, 10).for_page(200) == 120  # page_budget_s fixes it
    assert not derived_budget(0, 600, 0.8, 10).enabled  # 0: no budget
    with_scans = derived_budget(None, 600, 0.8, 10)
    with_scans = type(with_scans)(deadline=with_scans.deadline, later_pages=3)
    assert 119 < with_scans.for_layer(pages=1, layers_left=1).for_page(1) <= 120  # 3 scans keep 3/4
