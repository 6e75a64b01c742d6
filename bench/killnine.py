"""kill -9 benchmark: kill `rowkeeper run` at each phase, rerun, compare every sink with a
clean run's.

    python bench/killnine.py [--trials N] [--docs N] [--postgres] [--part dev|test|all] [--shared-prefect]

Phases (rowkeeper/faults.py crash points, each the run SIGKILLing itself, so workers, the
Prefect server and temp files are left exactly as a real kill -9 leaves them): `startup`
(output locked, nothing planned), `extract` (a document extracted, before its load), `write`
(the folder sink between its two renames), `consolidate` (top-level temp files written, or
documents.jsonl renamed and the rest not). The hit at which a trial dies is drawn per trial.
Per phase it prints trials, reruns identical to the clean run (folder parts, documents/tables/
chunks.jsonl, tables.parquet, DuckDB, and Postgres with --postgres), temp files left after the
rerun, and processes of the killed run still alive 15 s after the kill. Seeds: dev part 1,
test part 2 (tune on dev, only measure on test).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rowkeeper.faults import POINTS  # noqa: E402
from tests.flows.test_crash import _config, _corpus, _run, _snapshot  # noqa: E402

_HITS = {"startup": (1, 1), "extract": (1, 5), "write": (1, 5), "consolidate": (1, 2)}
SEEDS = {"dev": 1, "test": 2}


def _marked(mark: str) -> list[str]:
    """Live (non-zombie) processes whose environment carries `mark`."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            env = Path(f"/proc/{pid}/environ").read_bytes()
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()[:80]
        except OSError:
            continue
        if mark.encode() in env and state != "Z":
            found.append(f"{pid} {cmd}")
    return found


def kill_at(point: str, corpus: Path, out: Path, cfg: Path) -> tuple[int, list[str]]:
    """Run with the crash point armed; its exit status and the processes alive 15 s later."""
    mark = f"rk-killnine-{uuid.uuid4().hex}"
    env = dict(os.environ, ROWKEEPER_CRASH_AT=point, ROWKEEPER_TEST_MARK=mark)
    cmd = [sys.executable, "-m", "rowkeeper.cli", "run", str(corpus), "--out", str(out),
           "--config", str(cfg), "--no-progress"]
    proc = subprocess.run(cmd, capture_output=True, env=env, timeout=1800)
    deadline = time.monotonic() + 15
    while _marked(mark) and time.monotonic() < deadline:
        time.sleep(0.2)
    return proc.returncode, _marked(mark)


def trials(base: Path, n: int, seed: int, n_docs: int, pg: dict[str, Any] | None,
           phases: tuple[str, ...] = POINTS) -> dict[str, dict]:
    """n trials per phase; per phase the counts the module docstring lists."""
    corpus = _corpus(base / "in", n_docs)
    clean_out = base / "clean"
    clean_cfg = _config(clean_out, pg and {**pg, "schema_name": pg["schema_name"] + "_clean"})
    _run(corpus, clean_out, clean_cfg)
    clean = _snapshot(clean_out, clean_cfg)
    rng = random.Random(seed)
    table: dict[str, dict] = {}
    for phase in phases:
        row = {"trials": 0, "killed": 0, "identical": 0, "temps_left": 0, "orphans": 0, "notes": []}
        for i in range(n):
            out = base / f"{phase}{i}"
            cfg = _config(out, pg and {**pg, "schema_name": f"{pg['schema_name']}_{phase}{i}"})
            point = f"{phase}:{rng.randint(*_HITS[phase])}"
            rc, alive = kill_at(point, corpus, out, cfg)
            _run(corpus, out, cfg)
            got = _snapshot(out, cfg)
            differs = [k for k in clean if got.get(k) != clean[k]]
            temps = list(out.rglob("*.tmp"))
            row["trials"] += 1
            row["killed"] += rc == -signal.SIGKILL
            row["identical"] += not differs
            row["temps_left"] += len(temps)
            row["orphans"] += len(alive)
            if differs or temps or alive or rc != -signal.SIGKILL:
                row["notes"].append({"point": point, "rc": rc, "differs": differs,
                                     "temps": [str(t) for t in temps][:3], "alive": alive[:3]})
        table[phase] = row
        print(phase, json.dumps(row), flush=True)
    return table


def main(argv: list[str] | None = None) -> int:
    """Run the trials of the chosen part(s) and print one line per phase."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trials", type=int, default=2, help="trials per phase (the issue's target: 20)")
    ap.add_argument("--docs", type=int, default=6, help="documents in the corpus (one is corrupt)")
    ap.add_argument("--postgres", action="store_true", help="add a throwaway Postgres server as a third sink")
    ap.add_argument("--part", choices=["dev", "test", "all"], default="test")
    ap.add_argument("--phases", default=",".join(POINTS), help=f"comma-separated, of {', '.join(POINTS)}")
    ap.add_argument("--shared-prefect", action="store_true",
                    help="one Prefect server for every run (PREFECT_API_URL): a trial skips the ~10-30 s "
                         "server start-up, but no longer checks that a killed run's own server dies with it")
    args = ap.parse_args(argv)
    server, pg, prefect = None, None, _shared_prefect() if args.shared_prefect else None
    if args.postgres:
        from tests.sinks.pg_server import start_server

        server = start_server()
        pg = {"dsn": server.dsn, "schema_name": "killnine", "vector": "off"}
    try:
        for part in (("dev", "test") if args.part == "all" else (args.part,)):
            print(f"## {part} (seed {SEEDS[part]}, {args.trials} trials per phase, {args.docs} documents)")
            trials(Path(tempfile.mkdtemp(prefix=f"rk-kill9-{part}-")), args.trials, SEEDS[part],
                   args.docs, pg and {**pg, "schema_name": f"killnine_{part}"}, tuple(args.phases.split(",")))
    finally:
        if server is not None:
            server.stop()
        if prefect is not None:
            prefect.stop()
    return 0


def _shared_prefect() -> Any:
    """Start one Prefect server and point every run of this benchmark at it."""
    from prefect.server.api.server import SubprocessASGIServer

    server = SubprocessASGIServer()
    server.start(timeout=300)  # a loaded machine takes minutes
    os.environ["PREFECT_API_URL"] = server.api_url
    return server


if __name__ == "__main__":
    sys.exit(main())
