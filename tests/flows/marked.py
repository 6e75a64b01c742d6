"""Live processes found by a mark in their environment (the kill -9 tests' orphan check)."""

from __future__ import annotations

import os
from pathlib import Path


def marked(mark: str) -> list[str]:
    """Command lines of live (not zombie) processes whose environment carries `mark`."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            env = Path(f"/proc/{pid}/environ").read_bytes()
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if mark.encode() in env and state != "Z":
            found.append(f"{pid} {cmd}")
    return found
