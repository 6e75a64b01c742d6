"""kill -9 a `rowkeeper run` at random moments, rerun it, and compare the sinks with a clean
run's: no lost documents, no duplicates, no partial tables, for the folder and DuckDB sinks
(and Postgres where a server is available).

Two trials run by default (one at a random moment, one the instant a sink starts writing);
`-m slow` runs twelve, half of them aimed at sink writes.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from rowkeeper.registry import resolve
from samples import pdfgen
from samples.make_samples import sample_specs

VOLATILE = {"seconds"}


def _corpus(d: Path, n: int = 6) -> Path:
    """`n` documents with distinct bytes (n - 1 with tables, one corrupt)."""
    d.mkdir(parents=True)
    specs = sample_specs()
    for i in range(n - 1):
        name = list(specs)[i % len(specs)]
        spec = specs[name]
        spec.title = f"{spec.title or name} copy {i}"
        (d / f"doc{i}.pdf").write_bytes(pdfgen.build_pdf(spec))
    (d / "corrupt.pdf").write_bytes((d / "doc0.pdf").read_bytes()[:3000])
    return d


def _config(out: Path, pg: dict[str, Any] | None) -> Path:
    sinks = [{"type": "folder", "path": str(out)}, {"type": "duckdb", "path": str(out / "rk.duckdb")}]
    if pg:
        sinks.append({"type": "postgres", **pg})
    cfg = out.parent / f"{out.name}.yaml"
    cfg.write_text(json.dumps({"sinks": sinks, "runner": {"type": "local", "workers": 2,
                                                          "document_timeout_s": 120}}))
    return cfg


def _start(corpus: Path, out: Path, cfg: Path) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "rowkeeper.cli", "run", str(corpus), "--out", str(out),
           "--config", str(cfg), "--no-progress"]
    # Its own session: kill -9 of the group takes the run and every worker it started.
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)


def _run(corpus: Path, out: Path, cfg: Path) -> float:
    start = time.monotonic()
    proc = _start(corpus, out, cfg)
    _, err = proc.communicate(timeout=900)
    assert proc.returncode == 0, err.decode()[-2000:]
    return time.monotonic() - start


def _parts(out: Path) -> int:
    return sum(1 for _ in (out / "_docs").rglob("*.jsonl")) if (out / "_docs").exists() else 0


def _kill_run(corpus: Path, out: Path, cfg: Path, rng: random.Random, clean_s: float,
              on_write: bool) -> str:
    """Start a run and kill -9 its process group at a random moment, or mid-write: right after
    the folder sink commits a document, while the DuckDB sink writes the same one."""
    proc = _start(corpus, out, cfg)
    deadline = time.monotonic() + (clean_s * 3 if on_write else rng.uniform(0.5, 0.8 * clean_s))
    after = rng.randrange(1, 5)  # kill once this many documents reached the folder sink
    while time.monotonic() < deadline and proc.poll() is None:
        if on_write and _parts(out) >= after:
            break
        time.sleep(0.002 if on_write else 0.01)
    if proc.poll() is not None:
        return "finished before the kill"
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    return "during a sink write" if on_write else "at a random moment"


def _strip(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [_strip(v) for v in value]
    return value


def _snapshot(out: Path, cfg: Path) -> dict[str, Any]:
    """What each sink holds, read through the Sink protocol, plus the folder's consolidated files."""
    snap: dict[str, Any] = {}
    for entry in json.loads(cfg.read_text())["sinks"]:
        cls = resolve("sink", entry["type"])
        sink = cls(cls.Options.model_validate({k: v for k, v in entry.items() if k != "type"}))
        docs = sink.documents()
        snap[entry["type"]] = {d: _strip(sink.read(d).model_dump(mode="json")) for d in sorted(docs)}
        sink.close() if entry["type"] != "folder" else None
    for name in ("documents.jsonl", "tables.jsonl", "chunks.jsonl"):
        lines = (out / name).read_text(encoding="utf-8").splitlines()
        snap[name] = sorted(json.dumps(_strip(json.loads(x)), sort_keys=True) for x in lines)
    import pyarrow.parquet as pq

    rows = pq.read_table(out / "tables.parquet").to_pylist()
    snap["tables.parquet"] = sorted(json.dumps(r, sort_keys=True, default=str) for r in rows)
    if any(entry["type"] == "duckdb" for entry in json.loads(cfg.read_text())["sinks"]):
        snap["duckdb_counts"] = _duckdb_counts(out / "rk.duckdb")
    return snap


def _duckdb_counts(path: Path) -> dict[str, int]:
    import duckdb

    con = duckdb.connect(str(path), read_only=True)
    try:
        names = [r[0] for r in con.execute("select table_name from information_schema.tables "
                                           "where table_type = 'BASE TABLE'").fetchall()]
        return {n: con.execute(f'select count(*) from "{n}"').fetchone()[0] for n in sorted(names)}
    finally:
        con.close()


def _trials(tmp_path: Path, n: int, seed: int, pg: dict[str, Any] | None = None) -> list[str]:
    corpus = _corpus(tmp_path / "in")
    clean_out = tmp_path / "clean"
    clean_cfg = _config(clean_out, pg and {**pg, "schema_name": pg["schema_name"] + "_clean"})
    clean_s = _run(corpus, clean_out, clean_cfg)
    clean = _snapshot(clean_out, clean_cfg)
    assert len(clean["folder"]) == 6 and clean["duckdb_counts"]
    rng = random.Random(seed)
    moments = []
    for i in range(n):
        out = tmp_path / f"trial{i}"
        cfg = _config(out, pg and {**pg, "schema_name": f"{pg['schema_name']}_{i}"})
        when = _kill_run(corpus, out, cfg, rng, clean_s, on_write=i % 2 == 1)
        moments.append(when)
        _run(corpus, out, cfg)
        got = _snapshot(out, cfg)
        for key in clean:
            if key in got:
                assert got[key] == clean[key], f"trial {i} (killed {when}): {key} differs"
        assert not [p for p in out.rglob("*.tmp")], f"trial {i}: temp files left behind"
    return moments


def test_kill_9_then_rerun_equals_a_clean_run(tmp_path: Path):
    moments = _trials(tmp_path, n=2, seed=1)
    assert moments == ["at a random moment", "during a sink write"], moments


@pytest.mark.slow
def test_kill_9_then_rerun_equals_a_clean_run_twelve_times(tmp_path: Path):
    moments = _trials(tmp_path, n=12, seed=2)
    print("kill moments:", moments)
    assert moments.count("during a sink write") == 6, moments
    assert moments.count("finished before the kill") <= 2, moments


@pytest.mark.slow
@pytest.mark.postgres
def test_kill_9_then_rerun_equals_a_clean_run_with_postgres(tmp_path: Path):
    from tests.sinks.pg_server import start_server

    dsn = os.environ.get("ROWKEEPER_TEST_PG_DSN")
    server = None
    if not dsn:
        try:
            server = start_server()
        except RuntimeError as e:
            pytest.skip(f"no Postgres server: {e}")
        dsn = server.dsn
    try:
        _trials(tmp_path, n=4, seed=3, pg={"dsn": dsn, "schema_name": "crash", "vector": "off"})
    finally:
        if server is not None:
            server.stop()


def _crash_at(point: str, corpus: Path, out: Path, cfg: Path) -> subprocess.CompletedProcess[bytes]:
    cmd = [sys.executable, "-m", "rowkeeper.cli", "run", str(corpus), "--out", str(out),
           "--config", str(cfg), "--no-progress"]
    env = dict(os.environ, ROWKEEPER_CRASH_AT=point)
    return subprocess.run(cmd, capture_output=True, env=env, timeout=900)


def _small_corpus(d: Path) -> Path:
    """Two documents (one with tables, one corrupt): enough for a consolidation to be killed."""
    d.mkdir(parents=True)
    spec = sample_specs()["ruled"]
    (d / "doc0.pdf").write_bytes(pdfgen.build_pdf(spec))
    (d / "corrupt.pdf").write_bytes((d / "doc0.pdf").read_bytes()[:3000])
    return d


@pytest.mark.parametrize("point", ["consolidate:1", pytest.param("consolidate:2", marks=pytest.mark.slow)])
def test_kill_9_during_consolidation_is_repaired_by_the_rerun(tmp_path: Path, point: str):
    """Killed while `.documents.jsonl.*.tmp` exists (or after only documents.jsonl was renamed),
    the rerun has nothing to extract yet rebuilds every top-level file and removes the temps."""
    corpus = _small_corpus(tmp_path / "in")
    clean_out, out = tmp_path / "clean", tmp_path / "killed"
    clean_cfg, cfg = _config(clean_out, None), _config(out, None)
    _run(corpus, clean_out, clean_cfg)
    killed = _crash_at(point, corpus, out, cfg)
    assert killed.returncode == -signal.SIGKILL, killed.stderr.decode()[-2000:]
    assert list(out.glob(".documents.jsonl.*.tmp")) or point.endswith(":2")
    if point.endswith(":1"):
        assert not (out / "documents.jsonl").exists()
    rerun = subprocess.run([sys.executable, "-m", "rowkeeper.cli", "run", str(corpus), "--out",
                            str(out), "--config", str(cfg), "--no-progress"],
                           capture_output=True, text=True, timeout=900)
    assert rerun.returncode == 0, rerun.stderr[-2000:]
    assert "1 skipped unchanged" in rerun.stderr
    assert _snapshot(out, cfg) == _snapshot(clean_out, clean_cfg)
    assert not list(out.rglob("*.tmp"))
