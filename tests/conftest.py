"""Test-wide settings: no telemetry, Prefect state in a temp dir, repo root importable."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

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


class _Harness:
    """Prefect's test harness (a temporary database and a server: ~20 s of start-up on two cores),
    held open across the tests that use it: `pytest_collection_modifyitems` runs them in a row,
    `pytest_runtest_teardown` closes it after the last of them, so no other test runs with it."""

    stack: ExitStack | None = None


@pytest.fixture()
def prefect_harness() -> Iterator[None]:
    """Flows in this test run against Prefect's test harness, started once for all such tests."""
    if _Harness.stack is None:
        from prefect.testing.utilities import prefect_test_harness

        stack = ExitStack()
        stack.enter_context(prefect_test_harness(server_startup_timeout=120))
        _Harness.stack = stack
    yield


def _uses_harness(item: object) -> bool:
    return "prefect_harness" in getattr(item, "fixturenames", ())


def pytest_collection_modifyitems(session: object, config: object, items: list) -> None:
    """The tests using the harness moved up to the first of them, in their order (the others keep theirs)."""
    users = [i for i in items if _uses_harness(i)]
    if users:
        at = items.index(users[0])
        rest = [i for i in items if not _uses_harness(i)]
        items[:] = rest[:at] + users + rest[at:]


def pytest_runtest_teardown(item: object, nextitem: object) -> None:
    """Close the harness after the last test in a row that uses it."""
    if _Harness.stack is not None and (nextitem is None or not _uses_harness(nextitem)):
        stack, _Harness.stack = _Harness.stack, None
        stack.close()
