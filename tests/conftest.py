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

pytest_plugins = ["tests.pdf_fixtures"]
