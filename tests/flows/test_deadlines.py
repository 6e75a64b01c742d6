"""A document whose table layer hangs is not lost: the hung worker is killed at the deadline and
the document is read again text-only, with an attempt and a warning saying so."""

from __future__ import annotations

from pathlib import Path

import pytest

from rowkeeper.config import Config
from rowkeeper.flows.isolation import IsolatedWorker, Limits
from rowkeeper.flows.pipeline import load_document
from samples import pdfgen
from samples.make_samples import sample_specs


@pytest.fixture
def ruled(tmp_path: Path) -> Path:
    path = tmp_path / "ruled.pdf"
    path.write_bytes(pdfgen.build_pdf(sample_specs()["ruled"]))
    return path


def test_a_hung_table_layer_ends_in_text_only_output(ruled: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("ROWKEEPER_HANG_AT", "layer:pymupdf")  # the worker inherits it
    worker = IsolatedWorker(Limits(timeout_s=20, fallback_timeout_s=120))
    try:
        result = worker.process(load_document(str(ruled)), Config())
    finally:
        worker.close()
    rec = result.document
    assert rec.status == "ok", rec.error
    assert result.tables == ()
    assert [c.kind for c in result.chunks] and {c.kind for c in result.chunks} == {"text"}
    assert rec.attempts[0].extractor == "deadline"
    assert rec.attempts[0].reason.startswith("table layers cut off (timed out after 20 s "
                                             "(runner.document_timeout_s)")
    assert any("text-only output" in w for w in rec.warnings)


def test_with_no_second_reading_the_document_fails_with_the_deadline(ruled: Path,
                                                                    monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("ROWKEEPER_HANG_AT", "layer:pymupdf")
    worker = IsolatedWorker(Limits(timeout_s=10, fallback_timeout_s=0))
    try:
        rec = worker.process(load_document(str(ruled)), Config()).document
    finally:
        worker.close()
    assert rec.status == "failed"
    assert rec.error.startswith("timed out after 10 s (runner.document_timeout_s)")
