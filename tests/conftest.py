"""Test-wide settings: no telemetry, Prefect state in a temp dir, repo root importable."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

_PREFECT_TMP = tempfile.mkdtemp(prefix="rowkeeper-prefect-")
os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
os.environ.setdefault("OMP_THREAD_LIMIT", "1")
os.environ["PREFECT_SERVER_ANALYTICS_ENABLED"] = "false"
os.environ["PREFECT_HOME"] = _PREFECT_TMP
os.environ["PREFECT_LOCAL_STORAGE_PATH"] = os.path.join(_PREFECT_TMP, "storage")
os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "120")
os.environ.setdefault("PREFECT_LOGGING_LEVEL", "WARNING")

# Every process the tests start carries this mark, so the shared Prefect servers their runs leave
# (flows.shared_server: they stop after runner.prefect_server_idle_s) are stopped at the end.
_SESSION_MARK = f"{os.getpid()}-{_PREFECT_TMP}"
os.environ["ROWKEEPER_TEST_SESSION"] = _SESSION_MARK

pytest_plugins = ["tests.pdf_fixtures"]


def pytest_sessionfinish(session: object, exitstatus: int) -> None:
    """SIGTERM the shared-server keepers this session's runs started (each stops its server)."""
    import signal

    mark = f"ROWKEEPER_TEST_SESSION={_SESSION_MARK}".encode()
    for pid in filter(str.isdigit, os.listdir("/proc") if os.path.isdir("/proc") else []):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
            if b"rowkeeper.flows.shared_server" in cmd and mark in Path(f"/proc/{pid}/environ").read_bytes():
                os.kill(int(pid), signal.SIGTERM)
        except OSError:
            continue
