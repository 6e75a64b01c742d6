"""The Prefect server that runs through Prefect share (flows.shared_server): started by the first
run, reused by the next, stopped when idle; a stale or hung one never blocks a run."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from samples import pdfgen
from samples.make_samples import sample_specs
from tests.flows.marked import marked


def _setup(tmp_path: Path, idle_s: float) -> tuple[Path, Path, dict[str, str]]:
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.pdf").write_bytes(pdfgen.build_pdf(sample_specs()["ruled"]))
    cfg = tmp_path / "always.yaml"
    cfg.write_text(f"runner:\n  prefect: always\n  prefect_server_idle_s: {idle_s}\n")
    env = {k: v for k, v in os.environ.items() if k != "PREFECT_API_URL"}
    env.update(PREFECT_HOME=str(tmp_path / "prefect"), ROWKEEPER_TEST_MARK=f"rk-shared-{uuid.uuid4().hex}",
               PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS="600")
    return tmp_path / "in", cfg, env


def _run(pdfs: Path, out: Path, cfg: Path, env: dict[str, str]) -> None:
    cmd = [sys.executable, "-m", "rowkeeper.cli", "run", str(pdfs), "--out", str(out), "--config",
           str(cfg), "--no-progress"]
    got = subprocess.run(cmd, capture_output=True, text=True, timeout=900, env=env)
    assert got.returncode == 0, got.stderr[-3000:]
    docs = [json.loads(x) for x in (out / "documents.jsonl").read_text().splitlines()]
    assert [d["status"] for d in docs] == ["ok"]
    rows = [json.loads(x)["rows"] for x in (out / "tables.jsonl").read_text().splitlines()]
    assert rows and rows[0][2][1] == "Standing desk"


def _state(home: Path) -> dict[str, int]:
    (path,) = home.glob("rowkeeper-server-*.json")
    return json.loads(path.read_text())


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _flow_runs(home: Path) -> list[str]:
    with sqlite3.connect(home / "prefect.db") as db:
        return [state for (state,) in db.execute("select state_type from flow_run")]


def _gone_within(seconds: float, mark: str) -> list[str]:
    deadline = time.monotonic() + seconds
    while marked(mark) and time.monotonic() < deadline:
        time.sleep(0.5)
    return marked(mark)


@contextlib.contextmanager
def _lease_held(home: Path, key: str) -> Iterator[None]:
    """The server's lease held as a run holds it while it runs (a shared flock)."""
    home.mkdir(parents=True, exist_ok=True)
    fd = os.open(home / f"rowkeeper-server-{key}.lease", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_SH)
        yield
    finally:
        os.close(fd)


def _key(env: dict[str, str]) -> str:
    from rowkeeper.cli import QUIET_ENV
    from rowkeeper.flows.shared_server import server_key

    return server_key({**QUIET_ENV, **env})  # as the run computes it, with the CLI's settings


@pytest.mark.slow  # ~25-40 s: two runs through Prefect; CI runs it (scripts/test.sh's slow list)
def test_a_second_run_reuses_the_server_and_it_stops_when_idle(tmp_path: Path):
    pdfs, cfg, env = _setup(tmp_path, idle_s=3)
    home = tmp_path / "prefect"
    # the test holds the lease over both runs, as a third run still going would: the idle time
    # can then be short (a loaded machine's gaps between and after the runs' processes may
    # outlast it), and the stop is waited for 3 s, not the 20 s it took
    with _lease_held(home, _key(env)):
        _run(pdfs, tmp_path / "out1", cfg, env)
        first = _state(home)
        assert first["ready"] and _alive(first["pid"]) and _alive(first["keeper"])
        _run(pdfs, tmp_path / "out2", cfg, env)
        assert _state(home) == first  # the same server, not a second one
        assert _flow_runs(home) == ["COMPLETED", "COMPLETED"]  # both runs recorded on it
    # no run holds it now: 3 s after the last one let go, keeper and server are gone
    assert _gone_within(60, env["ROWKEEPER_TEST_MARK"]) == []
    assert list(home.glob("rowkeeper-server-*.json")) == []


@pytest.mark.slow  # ~40-60 s: two servers started, 10 s of silence waited; CI runs it (scripts/test.sh)
def test_a_stale_or_hung_server_is_replaced_not_waited_for(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    pdfs, cfg, env = _setup(tmp_path, idle_s=120)
    home = tmp_path / "prefect"
    home.mkdir()
    monkeypatch.setenv("PREFECT_HOME", str(home))
    from rowkeeper.flows.shared_server import stop_unused, stopping_new_servers

    # a state file left by a crash whose pids now belong to other processes (this test's)
    stale = {"pid": os.getpid(), "port": 1, "keeper": os.getpid(), "key": "x", "ready": True}
    key = _key(env)
    (home / f"rowkeeper-server-{key}.json").write_text(json.dumps(stale))
    _run(pdfs, tmp_path / "out1", cfg, env)
    first = _state(home)
    assert first["pid"] != os.getpid() and _alive(first["pid"])
    os.kill(first["pid"], signal.SIGSTOP)  # hung: alive, its port open, never answering
    try:
        # what a benchmark does (bench/throughput.py): stop, at the end, the server it started
        with stopping_new_servers():
            _run(pdfs, tmp_path / "out2", cfg, env)
            second = _state(home)
            assert second["pid"] != first["pid"] and _alive(second["pid"])
            assert not _alive(first["pid"]) and not _alive(first["keeper"])  # the hung one stopped
            with _lease_held(home, key):
                assert not stop_unused(key)  # a run holds it: left running
            assert _state(home) == second
    finally:
        if _alive(first["pid"]):
            os.kill(first["pid"], signal.SIGKILL)
    assert _gone_within(30, env["ROWKEEPER_TEST_MARK"]) == []  # no run held it at the end: stopped
    assert list(home.glob("rowkeeper-server-*.json")) == []


def test_runs_share_a_server_only_with_the_same_server_settings():
    from rowkeeper.flows.shared_server import server_key

    base = {"PATH": "/usr/bin", "PREFECT_HOME": "/h"}
    assert server_key(base) == server_key({**base, "PREFECT_LOGGING_LEVEL": "DEBUG",
                                           "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "9"})
    assert server_key(base) != server_key({**base, "PREFECT_SERVER_API_SERVICES_TRIGGERS_ENABLED": "false"})
    assert server_key(base) != server_key({**base, "PREFECT_API_DATABASE_CONNECTION_URL": "postgresql://x"})
