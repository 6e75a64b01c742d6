"""Crash points: named moments where a test (or bench/killnine.py) can kill -9 the process.

`ROWKEEPER_CRASH_AT=consolidate` kills the process the first time it reaches the point named
`consolidate`; `consolidate:3` the third time. Unset (always, outside tests) it costs one
dictionary look-up. The kill is SIGKILL of this process only, so what survives it (workers,
the Prefect server, temp files) is exactly what a real kill -9 would leave.
"""

from __future__ import annotations

import fnmatch
import os
import signal
import time
from collections import Counter

POINTS = ("startup", "extract", "write", "consolidate")
"""The phases a run passes through, in order (see bench/killnine.py)."""
_hits: Counter[str] = Counter()


def crash_point(name: str) -> None:
    """SIGKILL this process if ROWKEEPER_CRASH_AT names this point (and its hit count)."""
    want = os.environ.get("ROWKEEPER_CRASH_AT")
    if not want:
        return
    point, _, nth = want.partition(":")
    if point != name:
        return
    _hits[name] += 1
    if _hits[name] >= int(nth or 1):
        os.kill(os.getpid(), signal.SIGKILL)


def hang_point(name: str) -> None:
    """Block forever if ROWKEEPER_HANG_AT names this point: a parser stuck on a page, on cue
    (`layer:pymupdf` before a layer's call, `layer:pymupdf:3` inside its work on page 3,
    `layer:pymupdf:*` on every page: a shell-style pattern).

    `ROWKEEPER_HANG_MODE=c` hangs the way a stuck C call does: SIGALRM is blocked, so no
    Python-level alarm can interrupt it (only something outside the thread can end it)."""
    want = os.environ.get("ROWKEEPER_HANG_AT")
    if not want or not fnmatch.fnmatchcase(name, want):
        return
    if os.environ.get("ROWKEEPER_HANG_MODE") == "c":
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
    while True:
        time.sleep(3600)
