"""Isolation: a hang, a crash or a memory blow-up fails only its own document, with its reason."""

from __future__ import annotations

import time

import pytest

from rowkeeper.config import Config, RunnerConfig
from rowkeeper.errors import TransientError
from rowkeeper.flows.isolation import IsolatedWorker, Limits, process_isolated, redact
from rowkeeper.models import DocumentInput

TARGET = "tests.flows.isolation_targets:behave"


def _doc(name: str, password: str | None = None) -> DocumentInput:
    return DocumentInput(path=f"/nowhere/{name}.pdf", source=f"{name}.pdf", doc_id=name * 4,
                         password=password)


@pytest.fixture
def worker():
    w = IsolatedWorker(Limits(timeout_s=3, memory_mb=1024), TARGET)
    yield w
    w.close()


def test_a_batch_with_a_hang_a_segfault_and_a_blowup_fails_only_those(worker: IsolatedWorker):
    names = ["ok_1", "hang", "ok_2", "segfault", "ok_3", "allocate", "exit", "ok_4"]
    start = time.monotonic()
    results = {n: worker.process(_doc(n), Config()).document for n in names}
    assert time.monotonic() - start < 30
    assert [n for n, r in results.items() if r.status == "ok"] == ["ok_1", "ok_2", "ok_3", "ok_4"]
    assert results["hang"].status == "failed"
    assert results["hang"].error.startswith("timed out after 3 s")
    assert 2.9 < results["hang"].seconds < 10
    assert "SIGSEGV" in results["segfault"].error
    assert "memory limit of 1024 MB exceeded" in results["allocate"].error
    assert "exited with status 3" in results["exit"].error


def test_the_worker_is_reused_between_good_documents_and_replaced_after_a_crash(worker):
    pid = lambda n: worker.process(_doc(n), Config()).document.n_tables  # noqa: E731
    first, second = pid("ok_a"), pid("ok_b")
    assert first == second  # one interpreter for many documents: imports are paid once
    worker.process(_doc("segfault"), Config())
    assert pid("ok_c") != first


def test_stdout_noise_from_a_library_cannot_corrupt_the_reply(worker):
    assert worker.process(_doc("noisy"), Config()).document.status == "ok"


def test_transient_errors_are_raised_so_the_task_retries(worker):
    with pytest.raises(TransientError, match="HTTP 503"):
        worker.process(_doc("transient"), Config())


def test_passwords_never_reach_the_failure_reason(worker, monkeypatch):
    monkeypatch.setenv("ROWKEEPER_PDF_PASSWORDS", "hunter2,s3cret")
    rec = worker.process(_doc("leak", password="s3cret"), Config()).document
    assert rec.status == "failed" and "ValueError: wrong password '***'" in rec.error
    assert "s3cret" not in rec.model_dump_json()


def test_a_target_that_cannot_be_imported_fails_documents_with_a_clear_reason():
    w = IsolatedWorker(Limits(timeout_s=3, memory_mb=1024), "tests.flows.no_such_module:fn")
    rec = w.process(_doc("ok"), Config()).document
    w.close()
    assert rec.status == "failed"
    assert rec.error.startswith("worker did not start: ModuleNotFoundError")


def test_process_isolated_takes_its_limits_from_the_runner_config():
    config = Config(runner=RunnerConfig(document_timeout_s=1.5, memory_limit_mb=1024))
    rec = process_isolated(_doc("hang"), config, target=TARGET).document
    assert rec.error.startswith("timed out after 1.5 s")


def test_redact_replaces_every_secret():
    assert redact("pw=a1 and b2", ["a1", None, "", "b2"]) == "pw=*** and ***"


def test_a_long_document_in_page_ranges_gives_the_same_tables_as_in_one_piece(tmp_path):
    """Ranges of 4 pages over a 10-page table: merged across range boundaries all the same."""
    from rowkeeper.config import ExtractConfig
    from rowkeeper.flows.pipeline import load_document
    from samples import pdfgen

    spec = pdfgen.DocSpec(title="Parts", blocks=[pdfgen.TableSpec(
        header=[["Part", "Price", "Weight"]], rows=pdfgen.numbers_rows(400, seed=3), repeat_header=True)])
    path = tmp_path / "long.pdf"
    path.write_bytes(pdfgen.build_pdf(spec))
    doc = load_document(str(path))
    whole = process_isolated(doc, Config())
    ranged = process_isolated(doc, Config(extract=ExtractConfig(max_pages=5, page_batch=4)))
    assert whole.document.status == ranged.document.status == "ok"
    assert len(ranged.document.pages) == len(whole.document.pages) >= 10
    assert {a.pages for a in ranged.document.attempts} >= {(1, 2, 3, 4), (5, 6, 7, 8)}
    assert [t.rows for t in ranged.tables] == [t.rows for t in whole.tables]
    assert sum(len(t.rows) for t in ranged.tables) == 400
