"""A disk that fills up at any phase of a run (start-up, a document's write, consolidation, the
report, a DuckDB commit): one `rowkeeper: cannot write output ...` line, exit 2, no temp file
left behind, and the same command, once there is room, ends with the outputs of a run that
never failed. The full disk is the process's file size limit (RLIMIT_FSIZE: every write past
it fails, EFBIG, as a write to a full disk fails with ENOSPC), set from the sizes of a clean
run's files so that each case fails at its phase."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from samples import pdfgen
from samples.make_samples import sample_specs
from tests.flows.test_crash import _config, _run, _snapshot


def _corpus(d: Path, n: int = 5) -> Path:
    """`n` small documents of one shape (distinct bytes): the consolidated files outgrow any one
    document's files, and the report (with page pictures) outgrows them, so a size limit can
    fall between each phase's writes."""
    d.mkdir(parents=True)
    for i in range(n):
        spec = sample_specs()["ruled"]
        spec.title = f"Price list {i}"
        (d / f"doc{i}.pdf").write_bytes(pdfgen.build_pdf(spec))
    return d


def _folder_config(out: Path) -> Path:
    cfg = _config(out, None)
    data = json.loads(cfg.read_text())
    data["sinks"] = [s for s in data["sinks"] if s["type"] == "folder"]
    cfg.write_text(json.dumps(data))
    return cfg


def _run_limited(corpus: Path, out: Path, cfg: Path, limit: int) -> subprocess.CompletedProcess[str]:
    def limit_files() -> None:  # in the child: every file this run (and its workers) writes
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    cmd = [sys.executable, "-m", "rowkeeper.cli", "run", str(corpus), "--out", str(out),
           "--config", str(cfg), "--no-progress"]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=900, preexec_fn=limit_files)


def _sizes(out: Path, names: list[str]) -> int:
    return max(p.stat().st_size for name in names for p in out.glob(name))


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> dict:
    base = tmp_path_factory.mktemp("full")
    corpus = _corpus(base / "in")
    out = base / "clean"
    cfg = _folder_config(out)
    _run(corpus, out, cfg)
    per_doc = _sizes(out, ["_docs/*/*.jsonl", "cells/*/*.parquet"])
    top = _sizes(out, ["documents.jsonl", "tables.jsonl", "chunks.jsonl", "tables.parquet"])
    assert per_doc < top < (out / "report.html").stat().st_size  # so each limit below is a phase
    return {"corpus": corpus, "snapshot": _snapshot(out, cfg), "per_doc": per_doc, "top": top}


# the byte limit per phase, from the clean run's file sizes
PHASES = {"start-up (the lock's pid)": lambda c: 0, "a document's write": lambda c: 1024,
          "consolidation": lambda c: c["per_doc"] + 1, "the report": lambda c: c["top"] + 1}


@pytest.mark.parametrize("phase", list(PHASES))
def test_a_full_disk_is_one_line_and_exit_2_and_a_rerun_completes(clean: dict, tmp_path: Path,
                                                                  phase: str) -> None:
    out = tmp_path / "out"
    cfg = _folder_config(out)
    got = _run_limited(clean["corpus"], out, cfg, PHASES[phase](clean))
    assert got.returncode == 2, got.stderr[-3000:]
    assert len(got.stderr.strip().splitlines()) == 1, got.stderr[-3000:]
    assert got.stderr.startswith(f"rowkeeper: cannot write output {out}"), got.stderr
    assert sorted(p.name for p in out.rglob("*.tmp")) == []  # no half file left by the failure
    _run(clean["corpus"], out, cfg)
    assert _snapshot(out, cfg) == clean["snapshot"]
    assert sorted(p.name for p in out.rglob("*.tmp")) == []


def test_a_duckdb_store_on_a_full_disk_is_one_line_and_exit_2_and_a_rerun_completes(
        clean: dict, tmp_path: Path) -> None:
    """DuckDB reports a failed write as a failed COMMIT (TransactionException), not an IOError."""
    out = tmp_path / "out"
    cfg = _config(out, None)  # folder + DuckDB
    got = _run_limited(clean["corpus"], out, cfg, 64 * 1024)  # the folder's files fit, the database not
    assert got.returncode == 2, got.stderr[-3000:]
    assert len(got.stderr.strip().splitlines()) == 1, got.stderr[-3000:]
    assert got.stderr.startswith(f"rowkeeper: cannot write {out / 'rk.duckdb'}"), got.stderr
    _run(clean["corpus"], out, cfg)
    snap = _snapshot(out, cfg)
    assert {k: v for k, v in snap.items() if k not in ("duckdb", "duckdb_counts")} == clean["snapshot"]
    assert sorted(snap["duckdb"]) == sorted(clean["snapshot"]["folder"]) and snap["duckdb_counts"]["chunks"]


def test_an_output_error_inside_the_prefect_flow_is_one_line_too(clean: dict, tmp_path: Path) -> None:
    """Through Prefect (`runner.prefect: always`) the write fails inside the flow run, whose
    engine logs the exception with its traceback to the console before the CLI's own line; a
    file where the folder sink's `_docs/` folder goes fails the first write (a size limit
    would fail the run's own Prefect server first)."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "_docs").write_text("in the way")
    cfg = _folder_config(out)
    data = json.loads(cfg.read_text())
    data["runner"]["prefect"] = "always"
    cfg.write_text(json.dumps(data))
    cmd = [sys.executable, "-m", "rowkeeper.cli", "run", str(clean["corpus"]), "--out", str(out),
           "--config", str(cfg), "--no-progress"]
    got = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    assert got.returncode == 2, got.stderr[-3000:]
    assert got.stderr.startswith(f"rowkeeper: cannot write output {out / '_docs'}"), got.stderr[-3000:]
    assert len(got.stderr.strip().splitlines()) == 1, got.stderr[-3000:]
