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
    clean = process_document(load_document(str(two_tables)), _budget(20))
    monkeypatch.setenv("ROWKEEPER_HANG_AT", "layer:pymupdf:1")
    result = process_document(load_document(str(two_tables)), _budget(20))
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
                                                "options": {"cascade": {"page_budget_s": 10}}}})
    monkeypatch.setenv("ROWKEEPER_HANG_AT", "layer:pymupdf:1")
    result = process_document(load_document(str(two_tables)), config)
    assert result.document.status == "ok"
    assert sorted(_cells(result)) == [2]
    page1 = " ".join(c.text for c in result.chunks if 1 in (c.metadata.get("pages") or ()))
    assert "Office equipment" in page1  # the heading above the cut-off table is still read


def test_a_page_stuck_in_c_code_restarts_the_worker_without_that_step(two_tables: Path,
                                                                      monkeypatch: pytest.MonkeyPatch):
    clean = process_document(load_document(str(two_tables)), _budget(20))
    monkeypatch.setenv("ROWKEEPER_HANG_AT", "layer:pymupdf:1")  # in the worker only
    monkeypatch.setenv("ROWKEEPER_HANG_MODE", "c")  # SIGALRM blocked: the alarm cannot cut it
    worker = IsolatedWorker(Limits(timeout_s=120, fallback_timeout_s=0))
    try:
        result = worker.process(load_document(str(two_tables)), _budget(20))
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
