"""What a run holds while it runs, and lets go of however it ends.

- The output folder's lock: `OUT/.rowkeeper.lock`, an flock held for the whole run with the
  owner's pid in it (by `rowkeeper run`, by the ingest flow itself, as a served deployment's
  runs start it, and by `rowkeeper backfill`). A second run on the same `--out` refuses with one line instead of doing
  the work twice (or waits for it, `--wait-lock SECONDS`); the kernel drops the lock when its owner dies (kill -9 included), so a lock
  left by a dead run is simply taken over.
- The Prefect ephemeral server: `rowkeeper run` launches it itself (`EarlyServer`), as soon as
  it knows there is work and before it imports Prefect, so the server's start-up overlaps the
  run's; it is stopped when the run ends, but a kill -9 skips that and would leave it running
  (a port and ~220 MB each). A watchdog child reads a pipe from the run; the pipe reaches EOF
  when the run ends in any way, and the watchdog then stops the server.
- OS errors on the output (read-only, disk full, no permission) as one readable line.
"""

from __future__ import annotations

import errno
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, Any

from rowkeeper.errors import OutputError, ServerUnavailable

LOCK_NAME = ".rowkeeper.lock"
_held: set[str] = set()
"""Output folders (real paths) whose lock this process holds: a second flock of the same file
from this process would be refused like another run's (flock locks belong to the open file)."""
_OS_REASONS = {errno.EROFS: "read-only file system", errno.ENOSPC: "no space left on device",
               errno.EDQUOT: "disk quota exceeded", errno.EACCES: "permission denied",
               errno.EPERM: "operation not permitted"}


def describe_os_error(e: OSError, out: str) -> str:
    """One line for an OS error on the output: what, where, and no traceback."""
    what = _OS_REASONS.get(e.errno or 0, e.strerror or type(e).__name__)
    where = e.filename or out
    return f"cannot write output {where}: {what}"


@contextmanager
def out_lock(out: str, wait_s: float = 0.0) -> Iterator[None]:
    """Hold OUT's run lock; OutputError (one line) when another live run holds it for more
    than `wait_s` seconds (0: refuse at once; CLI `--wait-lock SECONDS`)."""
    if "://" in out:  # remote folders: no flock; one writer per prefix is the user's contract
        yield
        return
    key = os.path.realpath(out)
    if key in _held:  # this process holds it already (`rowkeeper run`, then its flow): reentrant
        yield
        return
    path = os.path.join(out, LOCK_NAME)
    try:
        os.makedirs(out, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as e:
        raise OutputError(describe_os_error(e, out)) from None
    try:
        _take_lock(fd, out, wait_s)
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except OSError as e:  # a full disk fails the run here, before any work: one line
            raise OutputError(describe_os_error(e, out)) from None
        _held.add(key)
        try:
            yield
        finally:
            _held.discard(key)
    finally:
        os.close(fd)  # closing the descriptor releases the flock


def _take_lock(fd: int, out: str, wait_s: float) -> None:
    """flock `fd`, polling up to `wait_s` seconds (one line on stderr while waiting)."""
    import fcntl

    deadline = time.monotonic() + wait_s
    said = False
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            owner = os.pread(fd, 32, 0).decode(errors="replace").strip() or "unknown"
        if time.monotonic() >= deadline:
            waited = f" after waiting {wait_s:g} s" if wait_s > 0 else ""
            raise OutputError(f"{out} is in use by another rowkeeper run (pid {owner}){waited}; "
                              "wait for it to finish (--wait-lock SECONDS) or choose another --out")
        if not said:
            print(f"rowkeeper: {out} is in use by another run (pid {owner}); waiting up to "
                  f"{wait_s:g} s", file=sys.stderr)
            said = True
        time.sleep(min(0.5, max(deadline - time.monotonic(), 0.01)))


def lock_owner(out: str) -> int | None:
    """The pid written in OUT's lock file (None when there is none); for messages and tests."""
    try:
        with open(os.path.join(out, LOCK_NAME), encoding="utf-8") as f:
            return int(f.read().strip() or 0) or None
    except (OSError, ValueError):
        return None


# -- the Prefect server ------------------------------------------------------------------------
_START_HINT = ("; the machine may be overloaded: raise PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS, "
               "or run without Prefect (runner.type: local, runner.prefect: auto or never)")
# What Prefect raises when its server or API is not there (prefect.client, prefect.server).
_UNREACHABLE = ("Failed to reach API at", "Timed out while attempting to connect to ephemeral Prefect API")


def unreachable_reason(e: BaseException) -> str | None:
    """One line saying why the run could not talk to Prefect, when `e` (or what caused it) is
    Prefect's server or API not answering; None for any other error (it keeps its traceback)."""
    seen: set[int] = set()
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        text = " ".join(str(e).split())
        for mark in _UNREACHABLE:
            if mark in text:
                head = text[text.index(mark):].split(" stdout:")[0].rstrip(".")
                hint = _START_HINT if "ephemeral" in mark else \
                    "; check PREFECT_API_URL (or unset it to let the run start its own server)"
                return f"Prefect is unreachable: {head}{hint}"
        if type(e).__module__.startswith("httpx") and "Connect" in type(e).__name__:
            return f"Prefect is unreachable: {type(e).__name__}: {text}" + \
                "; check PREFECT_API_URL and that its server is running"
        e = e.__cause__ or e.__context__  # type: ignore[assignment]
    return None


_watchdogs: list[subprocess.Popen[bytes]] = []
_PORT_IN_USE = 3  # uvicorn's exit status when its port was taken meanwhile


class _OneLineError(logging.Filter):
    """Drops the console copy of Prefect's "Encountered exception during execution" record when
    the exception is one the run reports itself in one line (the CLI: `rowkeeper: ...`, exit 2;
    the API: raised to the caller); the record still goes to the Prefect server's log."""

    REPORTED = (OutputError, ServerUnavailable, OSError)  # launch.run_cli: an OSError is OutputError

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        return not (record.name.startswith("prefect.flow_runs") and isinstance(exc, self.REPORTED))


def quiet_reported_errors() -> None:
    """Install `_OneLineError` on Prefect's console handlers (once Prefect has set up logging)."""
    from prefect.logging.handlers import PrefectConsoleHandler

    for handler in logging.getLogger().handlers:
        if isinstance(handler, PrefectConsoleHandler) and \
                not any(isinstance(f, _OneLineError) for f in handler.filters):
            handler.addFilter(_OneLineError())


def start_supervised_server() -> int | None:
    """Start Prefect's ephemeral server now (main thread) under a watchdog; its pid, or None
    when the run attaches to a configured server (PREFECT_API_URL) instead."""
    from prefect.settings import PREFECT_API_URL, PREFECT_SERVER_ALLOW_EPHEMERAL_MODE

    if PREFECT_API_URL.value() or not PREFECT_SERVER_ALLOW_EPHEMERAL_MODE.value():
        return None
    from prefect.server.api.server import SubprocessASGIServer

    server = SubprocessASGIServer()  # the instance Prefect's clients will find and reuse
    server.start()
    if server.server_process is None:
        return None
    _watch_server(server.server_process.pid)
    return server.server_process.pid


def _watch_server(pid: int) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "rowkeeper.flows.guard", str(pid)]
    dog = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _watchdogs.append(dog)
    return dog


def _release(dog: subprocess.Popen[bytes]) -> None:
    """End a server's watchdog now (its pipe closed, then waited for): a run that stops its
    server leaves no process behind when it returns, not only a moment after it exits."""
    if dog in _watchdogs:
        _watchdogs.remove(dog)
    if dog.stdin is not None:
        dog.stdin.close()
    _wait_or_kill(dog)


def _wait_or_kill(proc: subprocess.Popen[bytes], timeout_s: float = 5.0) -> None:
    """Wait for `proc` to end, killing it if it has not within `timeout_s`."""
    try:
        proc.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


class EarlyServer:
    """Prefect's ephemeral API server for one run, launched before this process imports Prefect
    (the server's own imports, ~4 s of CPU, then overlap the run's), under the same watchdog.

    The command and environment are those of Prefect's SubprocessASGIServer; the run attaches
    with `attached()` (PREFECT_API_URL for the duration of the flow), and `stop()` ends it."""

    def __init__(self) -> None:
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None
        self._dogs: list[subprocess.Popen[bytes]] = []
        self._spawn()

    @property
    def url(self) -> str:
        """The API URL, as Prefect's clients want it."""
        return f"http://127.0.0.1:{self.port}/api"

    def _spawn(self) -> None:
        import socket

        with socket.socket() as sock:  # a free loopback port, as the OS hands them out
            sock.bind(("127.0.0.1", 0))
            self.port = sock.getsockname()[1]
        cmd, env = server_command(self.port)
        self.proc = subprocess.Popen(cmd, env=env)
        self._dogs.append(_watch_server(self.proc.pid))

    def wait_ready(self, timeout_s: float) -> None:
        """Block until the server answers /health; ServerUnavailable when it cannot start."""
        import urllib.error
        import urllib.request

        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            assert self.proc is not None
            if self.proc.poll() == _PORT_IN_USE:
                self._spawn()
            elif self.proc.poll() is not None:
                raise ServerUnavailable(f"the Prefect server this run started exited with status "
                                        f"{self.proc.returncode} before answering")
            try:
                with urllib.request.urlopen(f"{self.url}/health", timeout=2) as r:
                    if r.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.05)
        raise ServerUnavailable(f"Prefect server did not answer within {timeout_s:g} s{_START_HINT}")

    @contextmanager
    def attached(self) -> Iterator[None]:
        """Prefect's clients in this process talk to this server while the block runs."""
        with attached_to(self.wait_ready, lambda: self.url):
            yield

    def stop(self) -> None:
        """End the server (the watchdog would otherwise, when this process exits), then its watchdog."""
        proc, self.proc = self.proc, None
        if proc is not None and proc.poll() is None:
            proc.terminate()
            _wait_or_kill(proc)
        dogs, self._dogs = self._dogs, []
        for dog in dogs:
            _release(dog)


def server_command(port: int) -> tuple[list[str], dict[str, str]]:
    """The command and environment of Prefect's SubprocessASGIServer on `port` (API only)."""
    import importlib.util

    spec = importlib.util.find_spec("prefect")
    app_dir = os.path.dirname(os.path.dirname(spec.origin)) if spec and spec.origin else "."
    env = dict(os.environ, PREFECT_UI_ENABLED="0", PREFECT__SERVER_EPHEMERAL="1",
               PREFECT__SERVER_FINAL="1")
    env.pop("PREFECT_API_URL", None)
    return [sys.executable, "-m", "uvicorn", "--app-dir", app_dir, "--factory",
            "prefect.server.api.server:create_app", "--host", "127.0.0.1", "--port",
            str(port), "--log-level", "error", "--lifespan", "on"], env


@contextmanager
def attached_to(wait_ready: Any, url: Any) -> Iterator[None]:
    """Wait for a server (`wait_ready(timeout_s)`), point this process's Prefect clients at
    `url()` while the block runs, and send their queued logs and events before it ends."""
    from prefect.settings import (
        PREFECT_API_URL,
        PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS,
        temporary_settings,
    )

    wait_ready(float(PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS.value()))
    with temporary_settings(updates={PREFECT_API_URL: url()}):
        try:
            yield
        finally:
            _drain_prefect_workers()


def _drain_prefect_workers() -> None:
    """Send Prefect's queued logs and events (and stop its senders) while the server is still
    up: otherwise they are sent at exit, to no server, with 'Error logging to API' on stderr."""
    from prefect.events.worker import EventsWorker
    from prefect.logging.handlers import APILogWorker

    for worker in (APILogWorker, EventsWorker):
        try:
            worker.drain_all(timeout=5)
        except Exception:  # noqa: BLE001 - nothing was started, or it is already stopping
            pass


def configured_api() -> bool:
    """Does this run attach to a configured Prefect API (or may it not start its own)? Read
    without importing Prefect when it is not loaded yet: the environment decides, and a profile
    that names a server is honoured once Prefect is imported (`EarlyServer` then stops)."""
    if "prefect.settings" not in sys.modules:
        allow = os.environ.get("PREFECT_SERVER_ALLOW_EPHEMERAL_MODE", "true").lower()
        return bool(os.environ.get("PREFECT_API_URL") or profile_api_url()) or \
            allow in ("0", "false", "no")
    from prefect.settings import PREFECT_API_URL, PREFECT_SERVER_ALLOW_EPHEMERAL_MODE

    return bool(PREFECT_API_URL.value()) or not PREFECT_SERVER_ALLOW_EPHEMERAL_MODE.value()


def profile_api_url() -> str | None:
    """PREFECT_API_URL of the active Prefect profile (`prefect profile use` / `prefect config
    set`), read from profiles.toml without importing Prefect; None when there is none."""
    import tomllib

    home = os.environ.get("PREFECT_HOME") or os.path.join(os.path.expanduser("~"), ".prefect")
    path = os.environ.get("PREFECT_PROFILES_PATH") or os.path.join(home, "profiles.toml")
    try:
        with open(os.path.expanduser(path), "rb") as f:
            profiles = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError):
        return None
    name = os.environ.get("PREFECT_PROFILE") or profiles.get("active") or "ephemeral"
    url = profiles.get("profiles", {}).get(name, {}).get("PREFECT_API_URL")
    return str(url) if url else None


def _is_server(pid: int) -> bool:
    """Still our uvicorn server (not a recycled pid)?"""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return b"prefect.server.api.server" in f.read()
    except OSError:
        return False


def stop_server(pid: int, grace_s: float = 5.0) -> None:
    """SIGTERM the server, then SIGKILL if it is still there after `grace_s`."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        if not _is_server(pid):
            return
        os.kill(pid, sig)
        deadline = time.monotonic() + grace_s
        while time.monotonic() < deadline and _is_server(pid) and not _is_zombie(pid):
            time.sleep(0.05)


def _is_zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] == b"Z"
    except OSError:
        return True


def _watch(pid: int, pipe: IO[bytes]) -> int:
    """Block until the run's end of the pipe closes, then stop the server."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the group: the run handles it
    while pipe.read(4096):
        pass
    stop_server(pid)
    return 0


def main(argv: list[str] | None = None) -> int:
    """Watchdog entry point: `python -m rowkeeper.flows.guard SERVER_PID` (stdin: the run's pipe)."""
    args: Any = argv if argv is not None else sys.argv[1:]
    return _watch(int(args[0]), sys.stdin.buffer)


if __name__ == "__main__":
    sys.exit(main())
