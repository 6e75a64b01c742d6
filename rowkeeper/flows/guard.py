"""What a run holds while it runs, and lets go of however it ends.

- The output folder's lock: `OUT/.rowkeeper.lock`, an flock held for the whole run with the
  owner's pid in it. A second run on the same `--out` refuses with one line instead of doing
  the work twice (or waits for it, `--wait-lock SECONDS`); the kernel drops the lock when its owner dies (kill -9 included), so a lock
  left by a dead run is simply taken over.
- The Prefect ephemeral server: Prefect starts it as a child of the run and stops it at exit,
  but a kill -9 skips atexit and leaves it running (a port and ~220 MB each). A watchdog child
  reads a pipe from the run; the pipe reaches EOF when the run ends in any way, and the
  watchdog then stops the server.
- OS errors on the output (read-only, disk full, no permission) as one readable line.
"""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, Any

from rowkeeper.errors import OutputError

LOCK_NAME = ".rowkeeper.lock"
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
    path = os.path.join(out, LOCK_NAME)
    try:
        os.makedirs(out, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as e:
        raise OutputError(describe_os_error(e, out)) from None
    try:
        _take_lock(fd, out, wait_s)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
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
_watchdogs: list[subprocess.Popen[bytes]] = []


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
    pid = server.server_process.pid
    cmd = [sys.executable, "-m", "rowkeeper.flows.guard", str(pid)]
    _watchdogs.append(subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                       stderr=subprocess.DEVNULL))
    return pid


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
