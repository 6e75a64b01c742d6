"""A local `rowkeeper run` without Prefect (flows.local_run), and the runs that still go through
Prefect: same documents, tables and report either way, and no server left by a kill -9."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from rowkeeper.config import Config, RunnerConfig
from rowkeeper.errors import ConfigError
from rowkeeper.flows.guard import profile_api_url
from rowkeeper.flows.local_run import uses_prefect
from samples import pdfgen
from samples.make_samples import sample_specs
from tests.flows.marked import marked

_RUN = ("import sys\nfrom rowkeeper.cli import main\n"
        "rc = main(['run', *sys.argv[1:], '--no-progress'])\n"
        "print(rc, 'prefect' in sys.modules)\n")


def _corpus(d: Path, copies: int = 3) -> Path:
    d.mkdir()
    ruled = pdfgen.build_pdf(sample_specs()["ruled"])
    for i in range(copies):  # distinct bytes, so distinct documents
        (d / f"price_list_{i}.pdf").write_bytes(ruled + b"%% copy %d\n" % i)
    (d / "broken.pdf").write_bytes(b"%PDF-1.7\nnot really a pdf")
    return d


def _run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", _RUN, *args], capture_output=True, text=True,
                          timeout=900, env=env)


def _no_api_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PREFECT_API_URL"}
    # the ephemeral server of a Prefect run can take minutes to answer on a loaded machine
    return {**env, "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "600", **extra}


def _statuses(out: Path) -> dict[str, str]:
    docs = [json.loads(x) for x in (out / "documents.jsonl").read_text().splitlines()]
    return {Path(d["source"]).name: d["status"] for d in docs}


def _rows(out: Path) -> list[list[list[str]]]:
    return sorted(json.loads(x)["rows"] for x in (out / "tables.jsonl").read_text().splitlines())


def runs_like_local(tmp_path: Path, runner: str, **env: str) -> None:
    """A run of `_corpus` through Prefect with `runner.type: runner` (one worker, a batch per
    document) ends like the local run: same statuses and table rows, the broken PDF failed, the
    totals in the report."""
    corpus = _corpus(tmp_path / "in", copies=2)
    cfg = tmp_path / f"{runner}.yaml"
    cfg.write_text(f"runner:\n  type: {runner}\n  workers: 1\n  batch_docs: 1\n")  # 3 batches
    local, out = tmp_path / "local", tmp_path / runner
    got_local = _run(str(corpus), "--out", str(local), env=_no_api_env())
    run = _run(str(corpus), "--out", str(out), "--config", str(cfg),
               env=_no_api_env(PREFECT_HOME=str(tmp_path / "prefect"), **env))
    assert got_local.stdout.split() == ["0", "False"], got_local.stderr[-2000:]
    assert run.stdout.split() == ["0", "True"], run.stderr[-3000:]
    assert _statuses(out) == _statuses(local)
    assert _statuses(out)["broken.pdf"] == "failed"
    assert _rows(out) == _rows(local)
    assert all(rows[2][1] == "Standing desk" for rows in _rows(out))
    report = json.loads((out / "report.json").read_text())
    assert report["totals"]["ok"] == 2 and report["totals"]["failed"] == 1


def test_a_local_run_with_work_never_imports_prefect(tmp_path: Path):
    corpus, out = _corpus(tmp_path / "in"), tmp_path / "out"
    cfg = tmp_path / "batches.yaml"
    cfg.write_text("runner:\n  batch_docs: 2\n")  # 3 documents -> 2 batches
    got = _run(str(corpus), "--out", str(out), "--config", str(cfg), env=_no_api_env())
    assert got.stdout.split() == ["0", "False"], got.stderr[-2000:]
    assert _statuses(out) == {"broken.pdf": "failed", **{f"price_list_{i}.pdf": "ok" for i in range(3)}}
    assert all(rows[2][1] == "Standing desk" for rows in _rows(out))
    lines = got.stderr.strip().splitlines()  # the failure's line, as Prefect's logger wrote it
    assert len(lines) == 3 and "| WARNING |" in lines[0] and "broken.pdf" in lines[0], lines
    report = json.loads((out / "report.json").read_text())
    assert 0 < report["startup_seconds"] <= report["totals"]["seconds"]


def test_which_runs_go_through_prefect():
    local, dask = RunnerConfig(), RunnerConfig(type="dask")
    assert not uses_prefect(Config(runner=local), api_configured=False)
    assert uses_prefect(Config(runner=local), api_configured=True)  # a server to record the run
    assert uses_prefect(Config(runner=dask), api_configured=False)  # Prefect's task runners
    always = RunnerConfig(prefect="always")
    assert uses_prefect(Config(runner=always), api_configured=False)
    never = RunnerConfig(prefect="never")
    assert not uses_prefect(Config(runner=never), api_configured=True)
    with pytest.raises(ConfigError, match="runner.prefect: never needs runner.type local"):
        uses_prefect(Config(runner=RunnerConfig(type="ray", prefect="never")), api_configured=False)


def test_a_profile_that_names_a_server_is_found_without_prefect(tmp_path: Path, monkeypatch):
    (tmp_path / "profiles.toml").write_text(
        'active = "team"\n[profiles.team]\nPREFECT_API_URL = "http://10.0.0.7:4200/api"\n'
        '[profiles.solo]\nPREFECT_LOGGING_LEVEL = "INFO"\n')
    monkeypatch.setenv("PREFECT_HOME", str(tmp_path))
    monkeypatch.delenv("PREFECT_PROFILES_PATH", raising=False)
    monkeypatch.delenv("PREFECT_PROFILE", raising=False)
    assert profile_api_url() == "http://10.0.0.7:4200/api"
    monkeypatch.setenv("PREFECT_PROFILE", "solo")
    assert profile_api_url() is None
    monkeypatch.setenv("PREFECT_HOME", str(tmp_path / "none"))
    assert profile_api_url() is None


def test_prefect_always_gives_the_same_outputs_through_the_flow(tmp_path: Path):
    corpus = _corpus(tmp_path / "in", copies=2)
    cfg = tmp_path / "always.yaml"
    cfg.write_text("runner:\n  prefect: always\n")
    local = _run(str(corpus), "--out", str(tmp_path / "local"), env=_no_api_env())
    # a Prefect home of its own: the run's private server records into tmp_path/prefect
    flow = _run(str(corpus), "--out", str(tmp_path / "flow"), "--config", str(cfg),
                env=_no_api_env(PREFECT_HOME=str(tmp_path / "prefect")))
    assert local.stdout.split() == ["0", "False"], local.stderr[-2000:]
    assert flow.stdout.split() == ["0", "True"], flow.stderr[-2000:]
    assert _statuses(tmp_path / "flow") == _statuses(tmp_path / "local")
    assert _rows(tmp_path / "flow") == _rows(tmp_path / "local")
    # what the Prefect UI shows of it: the flow run and its batch's task run, completed
    with sqlite3.connect(tmp_path / "prefect" / "prefect.db") as db:
        flows = list(db.execute("select name, state_type from flow_run"))
        tasks = list(db.execute("select name, state_type from task_run"))
    assert [state for _, state in flows] == ["COMPLETED"] and flows[0][0].startswith("ingest ")
    assert tasks and all(state == "COMPLETED" and name.startswith("extract batch") for name, state in tasks)


@pytest.mark.parametrize("server", ["per_run", "reuse"])
def test_kill_9_of_a_run_through_prefect_leaves_no_server(tmp_path: Path, server: str):
    """per_run: the run's own server goes with it; reuse: the shared server outlives the run by
    its idle time (2 s here; flows.shared_server) and no longer."""
    mark = f"rk-orphan-{uuid.uuid4().hex}"
    cfg = tmp_path / "always.yaml"
    cfg.write_text(f"runner:\n  prefect: always\n  prefect_server: {server}\n  prefect_server_idle_s: 2\n")
    env = _no_api_env(ROWKEEPER_CRASH_AT="extract", ROWKEEPER_TEST_MARK=mark)
    cmd = [sys.executable, "-m", "rowkeeper.cli", "run", str(_corpus(tmp_path / "in", copies=1)),
           "--out", str(tmp_path / "out"), "--config", str(cfg), "--no-progress"]
    got = subprocess.run(cmd, capture_output=True, text=True, timeout=900, env=env)
    assert got.returncode == -signal.SIGKILL, got.stderr[-2000:]
    deadline = time.monotonic() + (15 if server == "per_run" else 30)
    while marked(mark) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert marked(mark) == []
