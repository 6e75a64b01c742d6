"""A local Prefect server that rowkeeper runs share (`runner.prefect_server: reuse`, the default).

A run through Prefect with no configured API used to start an ephemeral server of its own and
wait for it: ~4-5 s of CPU and most of the Prefect path's start-up, every run. Now the first
such run starts one detached *keeper* process, which starts the server and keeps it; later runs
find it through a state file in PREFECT_HOME and attach in milliseconds. Never started when the
user configured a server (PREFECT_API_URL, a profile naming one): flows.launch decides that.

Files in PREFECT_HOME, per *key* (Prefect's version, this Python, the server's settings in the
environment: a run with other settings or after an upgrade gets a server of its own; the old
one stops when idle):

- `rowkeeper-server-KEY.json`: the server's pid, port and keeper pid (written by the keeper).
- `rowkeeper-server-KEY.lease`: every run attached holds a shared flock on it for its whole
  flow; the kernel drops it when the run ends in any way (kill -9 included). The keeper stops
  the server once nobody has held it for `idle_s` seconds, under an exclusive flock, after
  removing the state file: a run either attached before (its shared lock keeps the server) or
  finds no state and starts a new one.
- `rowkeeper-server-KEY.start`: one run at a time starts a server.

A state file that names a dead process, a process that is not our server, or a server that does
not answer (crashed, hung, port taken by something else) is replaced: its keeper and server, if
still ours, are stopped first. A nightly run therefore never waits on a stale server.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import IO, Any

from rowkeeper.errors import ServerUnavailable
from rowkeeper.flows.guard import (
    _PORT_IN_USE,
    _START_HINT,
    attached_to,
    server_command,
    stop_server,
)

UNHEALTHY_AFTER_S = 10.0
"""A state file's server that answered once and then not for this long is replaced (hung)."""


def prefect_home() -> str:
    """PREFECT_HOME as Prefect resolves it, without importing Prefect."""
    return os.path.expanduser(os.environ.get("PREFECT_HOME") or os.path.join("~", ".prefect"))


_SERVER_SETTINGS = ("PREFECT_SERVER_", "PREFECT_API_DATABASE_", "PREFECT_API_SERVICES_", "PREFECT_UI_",
                    "PREFECT_PROFILE", "PREFECT_MEMO_STORE_PATH")
"""Environment settings that change the server (a client's, such as its timeouts, do not)."""


def server_key(env: dict[str, str] | None = None) -> str:
    """Which server a run may share: Prefect's version, the interpreter and the environment's
    settings of the server; a run whose differ (or after an upgrade) gets a server of its own."""
    from importlib.metadata import version

    env = dict(os.environ if env is None else env)
    settings = sorted((k, v) for k, v in env.items() if k.startswith(_SERVER_SETTINGS)
                      and k != "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS")
    text = json.dumps([version("prefect"), sys.executable, settings])
    return hashlib.sha1(text.encode()).hexdigest()[:12]


def _paths(key: str) -> dict[str, str]:
    base = os.path.join(prefect_home(), f"rowkeeper-server-{key}")
    return {kind: f"{base}.{kind}" for kind in ("json", "lease", "start", "log")}


def read_state(path: str) -> dict[str, Any] | None:
    """The state file's content, None when there is none or it is unreadable."""
    try:
        with open(path, encoding="utf-8") as f:
            state = json.load(f)
        return state if isinstance(state, dict) and {"pid", "port", "keeper"} <= state.keys() else None
    except (OSError, ValueError):
        return None


def _healthy(port: int, timeout_s: float = 2.0) -> bool:
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=timeout_s) as r:
            return r.status == 200
    except (urllib.error.URLError, OSError, ValueError):
        return False


def _cmdline(pid: int) -> bytes:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read()
    except OSError:
        return b""


def is_ours(state: dict[str, Any]) -> bool:
    """The state's processes are still the keeper and the server it names (not recycled pids)."""
    server, keeper = _cmdline(int(state["pid"])), _cmdline(int(state["keeper"]))
    return b"prefect.server.api.server" in server and str(state["port"]).encode() in server \
        and b"rowkeeper.flows.shared_server" in keeper


class SharedServer:
    """A run's hold on the shared server: `attached()` waits until it answers and points this
    process's Prefect clients at it; `stop()` lets go of the lease (the server stays)."""

    def __init__(self, idle_s: float) -> None:
        self.idle_s, self.port = idle_s, 0
        self._keeper: subprocess.Popen[bytes] | None = None  # the keeper this run started
        self.key = server_key()
        self.files = _paths(self.key)
        os.makedirs(prefect_home(), exist_ok=True)
        self._lease: int | None = os.open(self.files["lease"], os.O_RDWR | os.O_CREAT, 0o644)
        fcntl.flock(self._lease, fcntl.LOCK_SH)  # the keeper holds LOCK_EX only while stopping
        os.utime(self.files["lease"])
        self._ensure()

    def _ensure(self, stale: dict[str, Any] | None = None) -> None:
        """A keeper and server published in the state file: the one there, or a new one (one
        starter at a time; `stale`: a state to replace although its processes are ours)."""
        state = read_state(self.files["json"])
        if state is not None and state != stale and is_ours(state):
            return
        with _locked(self.files["start"]):
            state = read_state(self.files["json"])
            if state is not None and state != stale and is_ours(state):
                return  # another run started one meanwhile
            if state is not None:
                retire(state)
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.files["json"])
            with open(self.files["log"], "ab") as log:
                self._keeper = keeper = subprocess.Popen(
                    [sys.executable, "-m", "rowkeeper.flows.shared_server", self.key, str(self.idle_s)],
                    stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True)
            deadline = time.monotonic() + 30  # the keeper publishes its server within a second
            while read_state(self.files["json"]) is None and keeper.poll() is None and \
                    time.monotonic() < deadline:
                time.sleep(0.02)

    @property
    def url(self) -> str:
        """The API URL, as Prefect's clients want it (once `wait_ready` returned)."""
        return f"http://127.0.0.1:{self.port}/api"

    def wait_ready(self, timeout_s: float) -> None:
        """Block until the server named by the state file answers; one that answered once and
        no longer does for UNHEALTHY_AFTER_S (hung), or whose processes are gone, is replaced.
        ServerUnavailable after `timeout_s`."""
        deadline = time.monotonic() + timeout_s
        silent_since: dict[int, float] = {}
        while time.monotonic() < deadline:
            state = read_state(self.files["json"])
            if state is None and self._keeper is not None and self._keeper.poll() is not None:
                raise ServerUnavailable(  # no start-up loop: say why, as a server of its own would
                    f"the shared Prefect server this run started exited before answering (see "
                    f"{self.files['log']})")
            if state is None or not is_ours(state):
                self._ensure()
            elif _healthy(int(state["port"])):
                self.port = int(state["port"])
                return
            elif state.get("ready"):
                since = silent_since.setdefault(int(state["pid"]), time.monotonic())
                if time.monotonic() - since > UNHEALTHY_AFTER_S:
                    self._ensure(stale=state)
            time.sleep(0.05)
        raise ServerUnavailable(f"Prefect server did not answer within {timeout_s:g} s{_START_HINT}")

    @contextlib.contextmanager
    def attached(self) -> Iterator[None]:
        """Prefect's clients in this process talk to the shared server while the block runs."""
        with attached_to(self.wait_ready, lambda: self.url):
            yield

    def stop(self) -> None:
        """Let go of the lease (its last use now: the idle time counts from here)."""
        fd, self._lease = self._lease, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.utime(self.files["lease"])
            os.close(fd)


@contextlib.contextmanager
def _locked(path: str) -> Iterator[None]:
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def retire(state: dict[str, Any]) -> None:
    """Stop a state file's keeper and server if they are still ours (a stale or hung one)."""
    if not is_ours(state):
        return
    with contextlib.suppress(OSError):
        os.kill(int(state["keeper"]), signal.SIGTERM)
    stop_server(int(state["pid"]))


def published() -> dict[str, dict[str, Any]]:
    """The shared servers published in PREFECT_HOME now: key -> state (whether alive or not)."""
    import glob

    out = {}
    for path in glob.glob(os.path.join(glob.escape(prefect_home()), "rowkeeper-server-*.json")):
        state = read_state(path)
        if state is not None:
            out[os.path.basename(path)[len("rowkeeper-server-"):-len(".json")]] = state
    return out


def stop_unused(key: str, tries: int = 5) -> bool:
    """Stop the shared server of `key` now if no run holds it, as its keeper does once idle
    (its state file removed under the lease's exclusive lock: a run starting meanwhile waits,
    then starts a server of its own); True if it was stopped. One a run holds is left running:
    whoever started it (a benchmark, a script) may not stop it under another run."""
    files = _paths(key)
    try:
        lease = os.open(files["lease"], os.O_RDWR)
    except OSError:
        return False
    try:
        for attempt in range(tries):  # the keeper takes the lock itself for an instant each poll
            try:
                fcntl.flock(lease, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if attempt == tries - 1:
                    return False
                time.sleep(0.2)
        state = read_state(files["json"])
        if state is None or not is_ours(state):
            return False
        os.unlink(files["json"])
        retire(state)
        return True
    finally:
        os.close(lease)


@contextlib.contextmanager
def stopping_new_servers() -> Iterator[None]:
    """At the end of the block, the shared servers started during it stopped if no run holds
    them (`stop_unused`): a benchmark or a script stops what it started, not what it found."""
    before = {key: state["pid"] for key, state in published().items()}
    try:
        yield
    finally:
        for key, state in published().items():
            if before.get(key) != state["pid"]:
                stop_unused(key)


# -- the keeper: `python -m rowkeeper.flows.shared_server KEY IDLE_S` ---------------------------


def _spawn_server(log: IO[bytes]) -> tuple[subprocess.Popen[bytes], int]:
    import socket

    with socket.socket() as sock:  # a free loopback port, as the OS hands them out
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    cmd, env = server_command(port)
    return subprocess.Popen(cmd, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=log), port


def _write_state(path: str, state: dict[str, Any]) -> None:
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(state, f)
    os.replace(tmp, path)


def keep(key: str, idle_s: float, poll_s: float = 0.5) -> int:
    """Start the server, publish it, and stop it once no run has held the lease for `idle_s`
    (counted from the last run's end, or from the start if no run ever attached)."""
    files = _paths(key)
    lease = os.open(files["lease"], os.O_RDWR | os.O_CREAT, 0o644)
    proc, port = _spawn_server(sys.stdout.buffer)
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    state = {"pid": proc.pid, "port": port, "keeper": os.getpid(), "key": key, "ready": False}
    _write_state(files["json"], state)
    last_used = time.time()
    while not stopping:
        if proc.poll() == _PORT_IN_USE and not state["ready"]:  # taken between bind and listen
            proc, port = _spawn_server(sys.stdout.buffer)
            state = {**state, "pid": proc.pid, "port": port}
            _write_state(files["json"], state)
        if proc.poll() is not None:  # died: the next run starts another
            break
        if not state["ready"] and _healthy(port, timeout_s=poll_s):
            state = {**state, "ready": True}  # from now on a run may replace it if it goes silent
            _write_state(files["json"], state)
        last_used = _last_use(lease, files["lease"], last_used)
        if time.time() - last_used >= idle_s:
            break  # holding LOCK_EX: no run attaches until the state file is gone
        fcntl.flock(lease, fcntl.LOCK_UN)
        time.sleep(poll_s)
    if read_state(files["json"]) == state:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(files["json"])
    if proc.poll() is None:
        stop_server(proc.pid)
        proc.wait()
    os.close(lease)  # releases LOCK_EX: a waiting run finds no state and starts a server
    return 0


def _last_use(lease: int, path: str, last_used: float) -> float:
    """Now if a run holds the lease; else the later of `last_used` and the lease file's mtime
    (touched by each run as it attaches and as it lets go), keeping LOCK_EX taken."""
    try:
        fcntl.flock(lease, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return time.time()
    with contextlib.suppress(OSError):
        last_used = max(last_used, os.stat(path).st_mtime)
    return last_used


def stop_all_unused() -> int:
    """`python -m rowkeeper.flows.shared_server stop`: every shared server in PREFECT_HOME that
    no run holds stopped now, instead of when idle; prints what it did."""
    for key in published():
        print(f"rowkeeper-server-{key}: {'stopped' if stop_unused(key) else 'left (a run holds it, or it is gone)'}")
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["stop"]:
        sys.exit(stop_all_unused())
    sys.exit(keep(sys.argv[1], float(sys.argv[2])))
