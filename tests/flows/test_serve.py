"""`rowkeeper serve` for real: a Prefect server on loopback, the deployment served by the CLI
in a subprocess, a run triggered through the API, the documents checked in the folder sink,
the flow run's final state and message checked on the server, then serve stopped with SIGINT
(one line, exit 0) and the server stopped, leaving no process behind.
"""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.flows.prefect_server import kill_leftovers, prefect_env, start, start_server, stop_group

pytestmark = pytest.mark.slow  # ~1-2 min: a server, a runner and a flow-run process start


def _wait_for_deployment(server, name: str, serve: subprocess.Popen[bytes], log: Path) -> dict:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if serve.poll() is not None:
            raise AssertionError(f"serve exited {serve.returncode}: {log.read_text()[-2000:]}")
        try:
            return server.deployment("rowkeeper-ingest", name)
        except OSError:
            time.sleep(0.5)
    raise AssertionError(f"deployment never registered: {log.read_text()[-2000:]}")


def _documents(out: Path) -> dict[str, dict]:
    lines = (out / "documents.jsonl").read_text(encoding="utf-8").splitlines()
    return {Path(d["source"]).name: d for d in map(json.loads, lines)}


def test_served_deployment_runs_documents_into_the_sink(pdf_dir: Path, tmp_path: Path) -> None:
    corpus, out, work = tmp_path / "pdfs", tmp_path / "out", tmp_path / "work"
    corpus.mkdir()
    work.mkdir()  # serve's cwd: no folder of this checkout is near it
    for name in ("ruled.pdf", "two_page.pdf", "corrupt.pdf"):
        shutil.copy(pdf_dir / name, corpus / name)
    server = start_server(tmp_path / "prefect")
    serve = None
    try:
        env = prefect_env(server.home, server.api_url)
        log = tmp_path / "serve.log"
        serve = start([sys.executable, "-m", "rowkeeper.cli", "serve", str(corpus), "--out", str(out),
                       "--cron", "0 2 * * *", "--name", "test-nightly"], env, work, log)
        deployment = _wait_for_deployment(server, "test-nightly", serve, log)
        assert deployment["entrypoint"] == "rowkeeper.flows.ingest.ingest_flow"
        assert deployment["schedules"][0]["schedule"]["cron"] == "0 2 * * *"

        run = server.wait_flow_run(server.run_deployment(deployment["id"]), timeout_s=240)

        docs = _documents(out)
        assert {n: d["status"] for n, d in docs.items()} == {
            "ruled.pdf": "ok", "two_page.pdf": "ok", "corrupt.pdf": "failed"}
        assert docs["ruled.pdf"]["kind"] == "text"
        tables = [json.loads(t) for t in (out / "tables.jsonl").read_text(encoding="utf-8").splitlines()]
        rows = {Path(t["source"]).name: len(t["rows"]) for t in tables}
        assert rows == {"ruled.pdf": 5, "two_page.pdf": 40}
        # one document failed: the run is Completed and its message says so
        assert run["state"]["type"] == "COMPLETED", run["state"]
        assert run["state"]["message"].startswith("1 of 3 documents failed: corrupt.pdf: ")
        assert run["name"].startswith(f"ingest {out} ")  # ingest_flow itself ran, not a copy

        serve.send_signal(signal.SIGINT)
        serve.wait(timeout=60)
        said = log.read_text(errors="replace")
        assert serve.returncode == 0, said[-2000:]
        assert "Traceback" not in said
        assert said.rstrip().splitlines()[-1] == (
            "rowkeeper serve: stopped; rowkeeper-ingest/test-nightly is no longer served")
        assert not kill_leftovers(serve.pid), "serve left processes behind"
    finally:
        if serve is not None and serve.poll() is None:
            stop_group(serve)
        stop_group(server.proc)
    assert server.proc.poll() is not None
