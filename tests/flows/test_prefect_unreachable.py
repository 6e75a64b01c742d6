"""A run that goes through Prefect but cannot reach it (a configured API that is not there, a
server that does not start in time) is a run that cannot happen: one line on stderr and exit 2,
no traceback, nothing written for any document and no process left behind (issue 15)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from rowkeeper.errors import ServerUnavailable
from rowkeeper.flows.guard import unreachable_reason
from samples import pdfgen
from samples.make_samples import sample_specs
from tests.flows.marked import marked


def _closed_port() -> int:
    with socket.socket() as sock:  # bound then released: nothing listens on it
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _run(tmp_path: Path, more: str = "", **env: str) -> tuple[subprocess.CompletedProcess[str], str]:
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.pdf").write_bytes(pdfgen.build_pdf(sample_specs()["ruled"]))
    cfg = tmp_path / "always.yaml"
    cfg.write_text("runner:\n  prefect: always\n" + more)
    mark = f"RK_UNREACHABLE_{uuid.uuid4().hex[:8]}"
    full = {**os.environ, "PREFECT_HOME": str(tmp_path / "prefect"), mark: "1", **env}
    cmd = [sys.executable, "-m", "rowkeeper.cli", "run", str(tmp_path / "in"), "--out",
           str(tmp_path / "out"), "--config", str(cfg), "--no-progress"]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=full), mark


def test_an_unreachable_prefect_api_is_one_line_and_exit_2(tmp_path: Path):
    url = f"http://127.0.0.1:{_closed_port()}/api"
    got, mark = _run(tmp_path, PREFECT_API_URL=url)
    assert got.returncode == 2, got.stderr[-2000:]
    lines = got.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in got.stderr
    assert lines[0].startswith(f"rowkeeper: Prefect is unreachable: Failed to reach API at {url}")
    assert "check PREFECT_API_URL" in lines[0]
    assert not (tmp_path / "out" / "documents.jsonl").exists()
    assert marked(mark) == []


@pytest.mark.parametrize("server", ["per_run", "reuse"])
def test_a_prefect_server_that_does_not_start_in_time_is_one_line_and_exit_2(tmp_path: Path, server: str):
    # reuse: the shared server keeps starting for the next run, and stops after its idle time
    more = f"  prefect_server: {server}\n  prefect_server_idle_s: 2\n"
    got, mark = _run(tmp_path, more, PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS="0")
    assert got.returncode == 2, got.stderr[-2000:]
    lines = got.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in got.stderr
    assert lines[0].startswith("rowkeeper: Prefect server did not answer within 0 s")
    assert "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS" in lines[0]
    assert not (tmp_path / "out" / "documents.jsonl").exists()
    deadline = time.monotonic() + (0 if server == "per_run" else 30)
    while marked(mark) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert marked(mark) == []  # the server that was starting is stopped, its watchdog gone


def test_prefect_s_own_start_up_timeout_is_recognised_through_its_cause():
    try:
        try:
            raise RuntimeError("Timed out while attempting to connect to ephemeral Prefect API "
                               "server. stdout: lots of log")
        except RuntimeError as inner:
            raise ValueError("while running the flow") from inner
    except ValueError as e:
        reason = unreachable_reason(e)
    assert reason is not None and reason.startswith(
        "Prefect is unreachable: Timed out while attempting to connect to ephemeral Prefect API server")
    assert "stdout" not in reason
    assert unreachable_reason(RuntimeError("something else")) is None
    assert issubclass(ServerUnavailable, Exception)


def test_the_reason_names_the_api():
    assert unreachable_reason(RuntimeError("Failed to reach API at http://10.0.0.1:4200/api/")) == (
        "Prefect is unreachable: Failed to reach API at http://10.0.0.1:4200/api/; check "
        "PREFECT_API_URL (or unset it to let the run start its own server)")
