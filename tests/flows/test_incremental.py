"""Reruns on a folder sink, without Prefect: skip unchanged, replace changed, prune vanished."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rowkeeper.config import Config, load_config
from rowkeeper.flows.ingest import ingest_plain
from samples import pdfgen
from samples.make_samples import sample_specs

FILES = ("ruled.pdf", "borderless.pdf", "corrupt.pdf")


def _lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def _snapshot(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and not p.name.startswith("report.")}


@pytest.fixture()
def corpus(pdf_dir: Path, tmp_path: Path) -> Path:
    d = tmp_path / "in"
    d.mkdir()
    for name in FILES:
        shutil.copy(pdf_dir / name, d / name)
    return d


@pytest.fixture()
def config(tmp_path: Path) -> Config:
    return load_config().with_out(str(tmp_path / "out"))


def test_first_run_writes_every_document(corpus: Path, config: Config) -> None:
    report = ingest_plain([str(corpus)], config)
    out = Path(config.out)
    docs = {Path(d["source"]).name: d for d in _lines(out / "documents.jsonl")}
    assert set(docs) == set(FILES)
    assert docs["ruled.pdf"]["status"] == "ok" and docs["corrupt.pdf"]["status"] == "failed"
    tables = _lines(out / "tables.jsonl")
    ruled = next(t for t in tables if t["source"].endswith("ruled.pdf"))
    assert ruled["rows"][1] == ["01-002", "Office chair", "14,900.00", "7"]
    assert report["totals"]["ok"] == 2 and report["totals"]["failed"] == 1
    saved = json.loads((out / "report.json").read_text())
    assert saved["totals"]["documents"] == 3 and saved["documents"][0]["status"] == "failed"


def test_unchanged_rerun_skips_and_writes_nothing(corpus: Path, config: Config) -> None:
    ingest_plain([str(corpus)], config)
    out = Path(config.out)
    before = _snapshot(out)
    report = ingest_plain([str(corpus)], config)
    statuses = {Path(d["source"]).name: d["status"] for d in report["documents"]}
    # ok documents are skipped; the unchanged corrupt one stays failed, with its reason, and
    # is not parsed again (same bytes, same pipeline: it would fail the same way)
    assert statuses == {"ruled.pdf": "skipped_unchanged", "borderless.pdf": "skipped_unchanged",
                        "corrupt.pdf": "failed"}
    assert next(d["error"] for d in report["documents"] if d["status"] == "failed")
    assert report["totals"]["pages"] == 0  # no PDF was parsed
    assert len(_lines(out / "documents.jsonl")) == 3
    assert _snapshot(out) == before  # nothing rewritten


def test_failed_documents_are_retried_only_when_asked_or_transient(corpus: Path,
                                                                   config: Config) -> None:
    from rowkeeper.flows.ingest import prepare
    from rowkeeper.flows.pipeline import failed_result, load_document

    ingest_plain([str(corpus)], config)
    todo = [Path(d.source).name for d in prepare([str(corpus)], config)[0].todo]
    assert todo == []
    retry = config.model_copy(update={"runner": config.runner.model_copy(update={"retry_failed": True})})
    todo = [Path(d.source).name for d in prepare([str(corpus)], retry)[0].todo]
    assert todo == ["corrupt.pdf"]
    # a failure that gave up on transient errors (e.g. a 503 from a server) is always retried
    from rowkeeper.flows.incremental import TRANSIENT_MARK
    from rowkeeper.sinks.folder_sink import FolderSink

    doc = load_document(str(corpus / "ruled.pdf"), str(corpus / "ruled.pdf"))
    sink = FolderSink({"path": config.out})
    sink.write(failed_result(doc, f"{TRANSIENT_MARK}: 503 Service Unavailable", 0.0, config))
    sink.close()
    todo = [Path(d.source).name for d in prepare([str(corpus)], config)[0].todo]
    assert todo == ["ruled.pdf"]


def test_changed_file_is_reprocessed_and_replaced(corpus: Path, config: Config) -> None:
    ingest_plain([str(corpus)], config)
    spec = sample_specs()["borderless"]
    spec.blocks[-1].rows[0][1] = "9,999"  # North Q1 revised
    (corpus / "borderless.pdf").write_bytes(pdfgen.build_pdf(spec))
    report = ingest_plain([str(corpus)], config)
    statuses = {Path(d["source"]).name: d["status"] for d in report["documents"]}
    assert statuses["borderless.pdf"] == "ok" and statuses["ruled.pdf"] == "skipped_unchanged"
    out = Path(config.out)
    docs = _lines(out / "documents.jsonl")
    assert len(docs) == 3  # the old version was replaced, not kept beside the new one
    tables = [t for t in _lines(out / "tables.jsonl") if t["source"].endswith("borderless.pdf")]
    assert len(tables) == 1 and tables[0]["rows"][0][1] == "9,999"


def test_prune_removes_vanished_documents(corpus: Path, config: Config) -> None:
    ingest_plain([str(corpus)], config)
    (corpus / "borderless.pdf").unlink()
    ingest_plain([str(corpus)], config)
    out = Path(config.out)
    assert len(_lines(out / "documents.jsonl")) == 3  # kept without --prune
    report = ingest_plain([str(corpus)], config, prune=True)
    names = {Path(d["source"]).name for d in _lines(out / "documents.jsonl")}
    assert names == {"ruled.pdf", "corrupt.pdf"} and len(report["pruned"]) == 1
