"""What this machine can give a run: usable CPUs and available memory, read when a run starts
(never at import time), for `runner.workers: auto`."""

from __future__ import annotations

import os
from pathlib import Path

_MEMINFO = Path("/proc/meminfo")


def usable_cpus() -> int:
    """CPUs this process may run on (its affinity mask, as a container's cpuset limits it)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # no affinity call (macOS, Windows)
        return max(1, os.cpu_count() or 1)


def available_memory_mb(meminfo: Path = _MEMINFO) -> int | None:
    """Memory the kernel can give new work without swapping (MemAvailable), in MB; None where
    it cannot tell (no /proc)."""
    try:
        for line in meminfo.read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) // 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def auto_workers(worker_memory_mb: int, cpus: int | None = None, memory_mb: int | None = None) -> int:
    """Workers for `runner.workers: auto`: one per usable CPU (PDF parsing holds a core each),
    no more than the available memory holds when every worker reaches its cap
    (`runner.memory_limit_mb`; 0, no cap, bounds nothing), and at least one."""
    cpus = usable_cpus() if cpus is None else cpus
    memory_mb = available_memory_mb() if memory_mb is None else memory_mb
    if worker_memory_mb > 0 and memory_mb is not None:
        cpus = min(cpus, memory_mb // worker_memory_mb)
    return max(1, cpus)
