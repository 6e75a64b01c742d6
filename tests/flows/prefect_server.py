"""A real Prefect server on loopback for the served-deployment test (`prefect server start` in
a subprocess with its own PREFECT_HOME), spoken to over its REST API with the stdlib only.

Every process is started in a session of its own and stopped with its whole process group,
so a failing test leaves no server, runner or flow-run process behind.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
FINAL = {"COMPLETED", "FAILED", "CRASHED", "CANCELLED"}


def free_port() -> int:
    """A TCP port on 127.0.0.1 nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def prefect_env(home: Path, api_url: str | None = None) -> dict[str, str]:
    """The environment of every process of the test: its own PREFECT_HOME, no analytics, this
    checkout importable, and the API URL of the test's server."""
    env = {**os.environ, "PREFECT_HOME": str(home), "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
           "PREFECT_SERVER_UI_ENABLED": "false", "PREFECT_LOGGING_LEVEL": "WARNING",
           "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)}
    env.pop("PREFECT_API_URL", None)
    if api_url:
        env["PREFECT_API_URL"] = api_url
    return env


def start(cmd: list[str], env: dict[str, str], cwd: Path, log: Path) -> subprocess.Popen[bytes]:
    """A process in a session of its own (stoppable with its children), output to `log`."""
    with open(log, "wb") as out:
        return subprocess.Popen(cmd, env=env, cwd=cwd, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)


def stop_group(proc: subprocess.Popen[bytes], sig: int = signal.SIGTERM, wait_s: float = 30) -> None:
    """Signal the process group, wait for it, SIGKILL what is left (no orphans)."""
    try:
        os.killpg(proc.pid, sig)
    except ProcessLookupError:
        pass
    try:
        proc.wait(timeout=wait_s)
    except subprocess.TimeoutExpired:
        pass
    kill_leftovers(proc.pid)


def kill_leftovers(pgid: int) -> bool:
    """SIGKILL every process still in the group; True if there were any."""
    try:
        os.killpg(pgid, signal.SIGKILL)
    except ProcessLookupError:
        return False
    return True


@dataclass
class PrefectServer:
    """A running server: its API URL, its home, and its process."""

    api_url: str
    home: Path
    proc: subprocess.Popen[bytes]

    def request(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """One JSON call to the REST API, retried on 429/502/503 as Prefect's own client does
        (the server answers 503 while its SQLite database is locked by another writer, such as
        the served process registering its deployment)."""
        data = None if body is None else json.dumps(body).encode()
        for wait in (1.0, 2.0, 4.0, 8.0, None):
            req = urllib.request.Request(f"{self.api_url}{path}", data=data, method=method,
                                         headers={"Content-Type": "application/json"})
            try:
                with urllib.request.urlopen(req, timeout=30) as resp:
                    return json.loads(resp.read() or b"null")
            except urllib.error.HTTPError as e:
                if wait is None or e.code not in (429, 502, 503):
                    raise
                time.sleep(wait)
        raise AssertionError("unreachable")

    def deployment(self, flow: str, name: str) -> dict[str, Any]:
        """The deployment `flow/name` as the server stores it."""
        return self.request("GET", f"/deployments/name/{flow}/{name}")

    def run_deployment(self, deployment_id: str, parameters: dict[str, Any] | None = None) -> str:
        """Create a flow run of the deployment now (what `prefect deployment run` does); its id."""
        body = {"parameters": parameters} if parameters else {}
        return str(self.request("POST", f"/deployments/{deployment_id}/create_flow_run", body)["id"])

    def wait_flow_run(self, run_id: str, timeout_s: float) -> dict[str, Any]:
        """Poll the flow run until its state is final; the run as the server stores it."""
        deadline = time.monotonic() + timeout_s
        while True:
            run = self.request("GET", f"/flow_runs/{run_id}")
            if run["state"] and run["state"]["type"] in FINAL:
                return run
            if time.monotonic() > deadline:
                raise TimeoutError(f"flow run {run_id} still {run['state']} after {timeout_s} s")
            time.sleep(0.5)


def start_server(home: Path, timeout_s: float = 180) -> PrefectServer:
    """`prefect server start` on a free loopback port; returns once /api/health answers."""
    home.mkdir(parents=True, exist_ok=True)
    port = free_port()
    api_url = f"http://127.0.0.1:{port}/api"
    cmd = [sys.executable, "-m", "prefect", "server", "start", "--host", "127.0.0.1", "--port", str(port)]
    proc = start(cmd, prefect_env(home), home, home / "server.log")
    server = PrefectServer(api_url, home, proc)
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"prefect server exited {proc.returncode}: {_tail(home / 'server.log')}")
        try:
            if server.request("GET", "/health") is True:
                return server
        except (urllib.error.URLError, ConnectionError, TimeoutError, json.JSONDecodeError):
            pass
        time.sleep(0.5)
    stop_group(proc)
    raise RuntimeError(f"prefect server not healthy after {timeout_s} s: {_tail(home / 'server.log')}")


def _tail(path: Path, n: int = 2000) -> str:
    try:
        return path.read_text(errors="replace")[-n:]
    except OSError:
        return "(no log)"
