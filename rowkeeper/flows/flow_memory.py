"""The run process's own memory cap (`runner.flow_memory_limit_mb`), like the workers' cap.

Workers get `RLIMIT_AS`; the run process cannot: its threads (Prefect, a Dask client) reserve
gigabytes of address space they never touch, more the more cores the machine has. So a daemon
thread reads the process's resident size and, past the cap, ends the run with one line and exit
status 2. That is as safe as a kill -9 (every write is atomic, the next run repairs and resumes,
workers and the Prefect server die with the run), and far better than the kernel's OOM killer
picking a process on a shared machine.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager


def rss_mb() -> float:
    """Resident memory of this process, in MiB."""
    with open("/proc/self/statm", encoding="ascii") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


@contextmanager
def memory_cap(limit_mb: int, poll_s: float = 0.5) -> Iterator[None]:
    """While inside: watch this process's RSS; past `limit_mb`, one line on stderr and exit 2
    (0: no cap). The watch stops on exit, so a caller in a long-lived process (tests) is safe."""
    if limit_mb <= 0 or not os.path.exists("/proc/self/statm"):
        yield
        return
    done = threading.Event()

    def watch() -> None:
        while not done.wait(poll_s):
            used = rss_mb()
            if used > limit_mb:
                print(f"rowkeeper: the run process used {used:.0f} MB, over runner.flow_memory_limit_mb="
                      f"{limit_mb}; stopped (outputs are consistent: rerun to resume)", file=sys.stderr,
                      flush=True)
                os._exit(2)

    thread = threading.Thread(target=watch, name="rowkeeper-flow-memory", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
