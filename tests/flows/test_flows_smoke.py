"""One smoke test per flow under Prefect's test harness (its server starts once, here only)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from rowkeeper.config import Config, load_config


@pytest.fixture(scope="module")
def harness() -> Iterator[None]:
    from prefect.testing.utilities import prefect_test_harness

    with prefect_test_harness(server_startup_timeout=120):
        yield


@pytest.fixture()
def corpus(pdf_dir: Path, tmp_path: Path) -> Path:
    d = tmp_path / "in"
    d.mkdir()
    for name in ("ruled.pdf", "corrupt.pdf"):
        shutil.copy(pdf_dir / name, d / name)
    return d


def test_ingest_flow_then_backfill_flow(harness: None, corpus: Path, tmp_path: Path) -> None:
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


def test_opt_in_extraction_cache_serves_a_new_sink(harness: None, corpus: Path, tmp_path: Path) -> None:
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
