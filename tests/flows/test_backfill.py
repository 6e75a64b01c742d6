"""Backfill after a config change, without Prefect: diff, regression guard, dry run."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rowkeeper.config import Config, load_config
from rowkeeper.flows.backfill import BackfillOptions, backfill_plain
from rowkeeper.flows.diff import diff_document
from rowkeeper.flows.ingest import ingest_plain
from rowkeeper.flows.pipeline import load_document, process_document


def _snapshot(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and not p.name.startswith(("report.", "backfill."))}


@pytest.fixture()
def stored(pdf_dir: Path, tmp_path: Path) -> Config:
    """A folder sink holding ruled.pdf and two_page.pdf, written by the default config."""
    d = tmp_path / "in"
    d.mkdir()
    for name in ("ruled.pdf", "two_page.pdf"):
        shutil.copy(pdf_dir / name, d / name)
    config = load_config().with_out(str(tmp_path / "out"))
    ingest_plain([str(d)], config)
    return config


def _stricter(config: Config) -> Config:
    """A 'parser upgrade' that changes output: every table now fails its empty-cell check."""
    return config.model_copy(update={"transform": config.transform.model_copy(
        update={"max_empty_ratio": -1.0})})


def test_nothing_to_backfill_when_current(stored: Config) -> None:
    report = backfill_plain(stored, BackfillOptions())
    assert report["backfill"]["summary"]["documents"] == 0


def test_dry_run_reports_the_diff_and_leaves_the_sink_identical(stored: Config) -> None:
    out = Path(stored.out)
    before = _snapshot(out)
    report = backfill_plain(_stricter(stored), BackfillOptions(dry_run=True))
    assert _snapshot(out) == before
    diff = report["backfill"]
    assert diff["summary"]["documents"] == 2 and diff["summary"]["dry-run"] == 2
    flips = [f for d in diff["documents"] for t in d["tables_changed"] for f in t["checks_flipped"]]
    assert {(f["check"], f["before"], f["after"]) for f in flips} == {("empty_ratio", "pass", "fail")}
    assert json.loads((out / "backfill.json").read_text())["backfill"]["summary"]["regressions"] == 2


def test_regressing_documents_are_refused_unless_forced(stored: Config) -> None:
    out = Path(stored.out)
    before = _snapshot(out)
    report = backfill_plain(_stricter(stored), BackfillOptions())
    assert report["backfill"]["summary"]["refused"] == 2
    assert _snapshot(out) == before
    report = backfill_plain(_stricter(stored), BackfillOptions(force=True))
    assert report["backfill"]["summary"]["replaced"] == 2
    tables = [json.loads(x) for x in (out / "tables.jsonl").read_text().splitlines()]
    assert len(tables) == 2 and not any(t["validation"]["passed"] for t in tables)
    # now current: a second backfill has nothing to do, and a run skips everything
    assert backfill_plain(_stricter(stored), BackfillOptions())["backfill"]["summary"]["documents"] == 0


def test_diff_lists_changed_cells_and_lost_rows(pdf_dir: Path) -> None:
    config = load_config()
    old = process_document(load_document(str(pdf_dir / "ruled.pdf")), config)
    (table,) = old.tables
    rows = list(table.rows)
    rows[1] = ("01-002", "Office chair", "15,900.00", "7")
    new = old.model_copy(update={"tables": (table.model_copy(update={"rows": tuple(rows[:-1])}),)})
    d = diff_document(old, new)
    (t,) = d["tables_changed"]
    assert t["rows_lost"] == 1 and t["cells_changed"] == 1
    assert t["cell_samples"] == [{"row": 1, "column": "Unit price", "before": "14,900.00",
                                  "after": "15,900.00"}]
    lost = diff_document(old, old.model_copy(update={"tables": ()}))
    assert len(lost["tables_lost"]) == 1 and lost["regressions"] == 1


def test_a_new_chunking_is_a_change_with_chunk_counts(stored: Config) -> None:
    """Only the chunks change (smaller row groups): the backfill must not report '0 changed'."""
    out = Path(stored.out)
    before = len((out / "chunks.jsonl").read_text().splitlines())
    finer = stored.model_copy(update={"chunk": stored.chunk.model_copy(update={"max_chars": 300})})
    report = backfill_plain(finer, BackfillOptions())
    s = report["backfill"]["summary"]
    assert s["documents_changed"] == 2 and s["cells_changed"] == 0 and s["regressions"] == 0
    after = len((out / "chunks.jsonl").read_text().splitlines())
    assert (s["chunks_before"], s["chunks_after"]) == (before, after) and after > before
    assert s["chunks_added"] - s["chunks_lost"] == after - before
    two_page = next(d for d in report["backfill"]["documents"] if d["source"].endswith("two_page.pdf"))
    assert two_page["chunks_by_kind"]["row_group"]["added"] > 0 and two_page["action"] == "replaced"
    assert "chunks " in (out / "backfill.html").read_text()
