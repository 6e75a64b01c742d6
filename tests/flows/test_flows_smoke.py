"""One smoke test per flow under Prefect's test harness (its server starts once for these and the
Python API's flow tests: `prefect_harness`, tests/conftest.py)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rowkeeper.config import Config, load_config


@pytest.fixture()
def corpus(pdf_dir: Path, tmp_path: Path) -> Path:
    d = tmp_path / "in"
    d.mkdir()
    for name in ("ruled.pdf", "corrupt.pdf"):
        shutil.copy(pdf_dir / name, d / name)
    return d


def test_ingest_flow_then_backfill_flow(prefect_harness: None, corpus: Path, tmp_path: Path) -> None:
    from rowkeeper.flows.backfill import BackfillOptions, backfill_flow
    from rowkeeper.flows.ingest import ingest_flow

    config = load_config().with_out(str(tmp_path / "out"))
    totals = ingest_flow([str(corpus)], config)
    assert (totals["ok"], totals["failed"], totals["tables"]) == (1, 1, 1)
    out = Path(config.out)
    tables = [json.loads(x) for x in (out / "tables.jsonl").read_text().splitlines()]
    assert tables[0]["rows"][2] == ["01-003", "Standing desk", "38,500.00", "3"]
    assert (out / "report.html").stat().st_size > 1000

    again = ingest_flow([str(corpus)], config)
    assert again["skipped"] == 1 and again["documents"] == 2

    stricter = config.model_copy(update={"transform": config.transform.model_copy(
        update={"max_empty_ratio": -1.0})})
    summary = backfill_flow(stricter, BackfillOptions(dry_run=True))
    # the ok document and the failed one both carry the old fingerprint
    assert summary["documents"] == 2 and summary["checks_flipped"] == 1
    assert json.loads((out / "backfill.json").read_text())["backfill"]["summary"]["dry-run"] == 2


def test_opt_in_extraction_cache_serves_a_new_sink(prefect_harness: None, corpus: Path, tmp_path: Path) -> None:
    from rowkeeper.flows.ingest import ingest_flow

    first = load_config().with_out(str(tmp_path / "a"))
    ingest_flow([str(corpus)], first, cache_hours=1.0)
    second = first.with_out(str(tmp_path / "b"))  # a new sink: nothing to skip, extraction cached
    totals = ingest_flow([str(corpus)], second, cache_hours=1.0)
    assert totals["ok"] == 1
    a, b = ((tmp_path / d / "tables.jsonl").read_text() for d in ("a", "b"))
    assert a == b and "Standing desk" in b
    # identical records down to each document's measured seconds: the result came from the cache
    docs = [(tmp_path / d / "documents.jsonl").read_text() for d in ("a", "b")]
    assert docs[0] == docs[1]


def test_serve_builds_a_scheduled_deployment(tmp_path: Path) -> None:
    from rowkeeper.flows.serve import build_deployment

    config: Config = load_config().with_out(str(tmp_path / "out"))
    dep = build_deployment(["samples/pdfs"], config, "0 2 * * *", name="nightly")
    assert dep.name == "nightly" and dep.flow_name == "rowkeeper-ingest"
    assert {"rowkeeper", "scheduled"} <= set(dep.tags)
    assert dep.schedules[0].schedule.cron == "0 2 * * *"
    assert dep.parameters["config"]["out"] == str(tmp_path / "out")
    assert dep.parameters["retry_failed"] is False  # a served run's switch to retry failures
    # imported by module path: Prefect puts no folder of ours on sys.path
    assert dep.entrypoint == "rowkeeper.flows.ingest.ingest_flow"


def _with_password(config: Config, password: str) -> Config:
    return config.model_copy(update={"extract": config.extract.model_copy(update={"passwords": (password,)})})


def test_flow_run_ends_failed_when_every_document_failed(prefect_harness: None, pdf_dir: Path,
                                                         tmp_path: Path) -> None:
    from rowkeeper.flows.ingest import ingest_flow

    encrypted = str(pdf_dir / "ruled_encrypted.pdf")
    config = load_config().with_out(str(tmp_path / "out"))
    state = ingest_flow([encrypted], config, return_state=True)
    assert state.is_failed()
    assert state.message.startswith("1 of 1 documents failed: ruled_encrypted.pdf: ")
    # the password arrives; the failure is unchanged and skipped until retried (flow parameter)
    fixed = _with_password(config, "secret")
    skipped = ingest_flow([encrypted], fixed, return_state=True)
    assert skipped.is_failed() and "1 document failed before and was skipped" in skipped.message
    retried = ingest_flow([encrypted], fixed, retry_failed=True, return_state=True)
    assert retried.is_completed() and retried.message == "1 documents: 1 ok, 0 skipped unchanged, none failed"
    tables = [json.loads(x) for x in (tmp_path / "out" / "tables.jsonl").read_text().splitlines()]
    assert tables[0]["rows"][1] == ["01-002", "Office chair", "14,900.00", "7"]


def test_cli_exits_0_hints_at_retry_failed_and_retries(prefect_harness: None, pdf_dir: Path, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    from rowkeeper.cli import main

    corpus = tmp_path / "in"
    corpus.mkdir()
    for name in ("ruled.pdf", "ruled_encrypted.pdf"):
        shutil.copy(pdf_dir / name, corpus / name)
    out = tmp_path / "out"
    run = ["run", str(corpus), "--out", str(out), "--no-progress"]
    assert main(run) == 0
    capsys.readouterr()
    with_password = tmp_path / "config.yaml"
    with_password.write_text("extract:\n  passwords: [secret]\n")
    assert main([*run, "--config", str(with_password)]) == 0
    said = capsys.readouterr().err
    assert ("rowkeeper: 1 document failed before and was skipped (unchanged); rerun with "
            "--retry-failed") in said
    assert main([*run, "--config", str(with_password), "--retry-failed"]) == 0
    said = capsys.readouterr().err
    assert "2 documents: 1 ok, 0 failed, 1 skipped unchanged" in said and "--retry-failed" not in said
    docs = [json.loads(x) for x in (out / "documents.jsonl").read_text().splitlines()]
    assert sorted(d["status"] for d in docs) == ["ok", "ok"]


def test_reported_seconds_count_from_process_start(prefect_harness: None, pdf_dir: Path, tmp_path: Path) -> None:
    """The run's seconds include Python's and Prefect's start-up: the process's whole life up to
    the report (here the CLI attaches to the harness's server, as to a `prefect server start`)."""
    import os
    import subprocess
    import sys
    import time

    from prefect.settings import PREFECT_API_URL

    out = tmp_path / "out"
    env = {**os.environ, "PREFECT_API_URL": str(PREFECT_API_URL.value())}
    began = time.time()
    done = subprocess.run([sys.executable, "-m", "rowkeeper.cli", "run", str(pdf_dir / "ruled.pdf"),
                           "--out", str(out), "--no-progress"], env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    report = json.loads((out / "report.json").read_text())
    lived = (out / "report.json").stat().st_mtime - began
    seconds = report["totals"]["seconds"]
    assert lived - 1.0 <= seconds <= lived + 0.1
    assert 0 < report["startup_seconds"] < seconds
    assert f"in {seconds:.1f} s" in done.stderr
