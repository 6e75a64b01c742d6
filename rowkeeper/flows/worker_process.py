"""The worker subprocess of flows.isolation: `python -m rowkeeper.flows.worker_process TARGET
MEMORY_MB PARENT_PID` imports TARGET once, then answers one request frame after another.

Its side of the seam with the caller (flows.isolation.IsolatedWorker) is only this: the
length-prefixed JSON frames below, on stdin and the worker's original stdout (fd 1 is pointed
at stderr, so a library that prints cannot corrupt a reply); a `ready` frame once TARGET is
imported; and per request a reply `<kind> <rss_mb>\n<body>`, kind one of result, transient,
error, memory (or `step`, from the watchdog thread, when a page is stuck in C code). Its limits
are the kernel's: RLIMIT_AS for memory, PR_SET_PDEATHSIG so it dies with the run.
"""

from __future__ import annotations

import importlib
import json
import os
import resource
import select
import signal
import struct
import sys
import threading
import time
from collections.abc import Callable
from typing import IO, Any

from rowkeeper.config import Config
from rowkeeper.errors import TransientError
from rowkeeper.flows.step_watch import start_watchdog
from rowkeeper.models import DocumentInput

_HEADER = struct.Struct(">Q")


def write_frame(f: IO[bytes], payload: bytes) -> None:
    """One frame: an 8-byte big-endian length, then the payload."""
    f.write(_HEADER.pack(len(payload)) + payload)
    f.flush()


def _read_exact(fd: int, n: int, deadline: float) -> bytes:
    """`n` bytes from `fd`, or TimeoutError at `deadline`, or EOFError if the writer is gone."""
    buf = bytearray()
    while len(buf) < n:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            raise TimeoutError
        chunk = os.read(fd, min(n - len(buf), 1 << 20))
        if not chunk:
            raise EOFError
        buf += chunk
    return bytes(buf)


def read_frame(fd: int, deadline: float) -> bytes:
    """One frame's payload from `fd`; TimeoutError at `deadline`, EOFError when the writer is gone."""
    (n,) = _HEADER.unpack(_read_exact(fd, _HEADER.size, deadline))
    return _read_exact(fd, n, deadline)


def _die_with_parent(parent_pid: int) -> None:
    """Ask Linux to SIGKILL this worker when its parent dies (a kill -9 of the run leaves none)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent_pid:
        os._exit(1)


def _limit_memory(memory_mb: int) -> None:
    cap = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # 100k documents must not leave core files


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _run_op(fn: Callable[..., Any], op: str, doc: DocumentInput, config: Config,
            pages: list[Any] | None, lines: bool = True) -> str:
    if op == "count":
        from rowkeeper.flows.page_ranges import page_count

        return json.dumps(page_count(doc, config))
    if op == "pictures":  # report.html's pictures of pages [[page, [widths]], ...] (flows.page_pictures)
        from rowkeeper.flows.crops import pictures_to_json, render_document_pictures

        return pictures_to_json(render_document_pictures(doc.path, pages or ()))
    if op == "pages" and pages:
        from rowkeeper.flows.page_ranges import extract_pages

        return extract_pages(doc, config, pages[0], pages[1]).model_dump_json()
    # A result's text lines are half its JSON and most of its parsing on the caller's side
    # (~35 ms of a 22-page document); a caller that only writes sinks asks without them.
    return fn(doc, config).model_dump_json(exclude=None if lines else {"lines"})


def _handle(fn: Callable[..., Any], request: bytes, cache: dict[str, Config]) -> bytes:
    """One request to one reply frame: b'<kind> <rss_mb>\\n<body>'."""
    req = json.loads(request)
    key = json.dumps(req["config"], sort_keys=True)
    config = cache.get(key) or cache.setdefault(key, Config.model_validate(req["config"]))
    try:
        doc = DocumentInput.model_validate(req["doc"])
        kind, body = "result", _run_op(fn, req.get("op", "process"), doc, config, req.get("pages"),
                                       req.get("lines", True))
    except MemoryError:
        cap_mb = resource.getrlimit(resource.RLIMIT_AS)[0] // 2**20
        kind, body = "memory", f"memory limit of {cap_mb} MB exceeded (runner.memory_limit_mb)"
    except TransientError as e:
        kind, body = "transient", str(e)
    except Exception as e:  # noqa: BLE001 - any escape from the target fails only this document
        from rowkeeper.flows.pipeline import describe_error

        kind, body = "error", describe_error(e)
    return f"{kind} {_rss_mb():.0f}\n".encode() + body.encode()


# What the pipeline imports on its first document (flows.pipeline imports its stages lazily:
# ~0.5 s of CPU). Imported once the worker is ready, before it reads a request: where the run
# still starts (a Prefect server coming up) the worker is idle meanwhile; otherwise the first
# document would have imported them anyway.
_PIPELINE_STAGES = (
    "rowkeeper.extractors.cascade", "rowkeeper.extractors.classify", "rowkeeper.extractors.outline",
    "rowkeeper.extractors.pymupdf_extractor", "rowkeeper.transforms.assemble", "rowkeeper.transforms.bounds",
    "rowkeeper.transforms.coverage", "rowkeeper.transforms.table_chunks", "rowkeeper.transforms.validate",
)


def _warm(target: str) -> None:
    if target != "rowkeeper.flows.pipeline:process_document":
        return
    for name in _PIPELINE_STAGES:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - the document that needs it reports the failure
            pass


def _serve(target: str, reply: IO[bytes]) -> int:
    stdin = sys.stdin.buffer
    try:
        module, _, attr = target.partition(":")
        fn = getattr(importlib.import_module(module), attr)
    except Exception as e:  # noqa: BLE001 - reported to the caller as the startup failure
        write_frame(reply, f"error\n{type(e).__name__}: {e}".encode())
        return 1
    lock = threading.Lock()  # the watchdog thread may reply too (a page stuck in C code)

    def send(frame: bytes) -> None:
        with lock:
            write_frame(reply, frame)

    send(b"ready\n")
    _warm(target)
    start_watchdog(send)
    cache: dict[str, Config] = {}
    while header := stdin.read(_HEADER.size):
        (n,) = _HEADER.unpack(header)
        send(_handle(fn, stdin.read(n), cache))
    return 0


def main(argv: list[str] | None = None) -> int:
    """Worker entry point: `python -m rowkeeper.flows.worker_process TARGET MEMORY_MB PARENT_PID`."""
    import faulthandler

    target, memory_mb, parent_pid = argv if argv is not None else sys.argv[1:]
    _die_with_parent(int(parent_pid))
    _limit_memory(int(memory_mb))
    reply = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # stray prints from C libraries land in stderr, not in a reply frame
    sys.stdout = sys.stderr
    faulthandler.enable()
    return _serve(target, reply)


if __name__ == "__main__":
    sys.exit(main())
