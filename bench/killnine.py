"""kill -9 benchmark: kill `rowkeeper run` at each phase, rerun, compare every sink with a
clean run's.

    python bench/killnine.py [--trials N | PHASE=N,...] [--docs N] [--postgres] [--part dev|test|all]
                             [--prefect auto|always] [--shared-prefect] [--parallel N] [--json PATH]

`--prefect` sets `runner.prefect` for every run: `auto` (the default, as a user's `rowkeeper run`
with no Prefect API configured: no Prefect at all) or `always` (through the Prefect flow, on the
local server runs share, flows.shared_server, here with a 5 s idle time so that a killed run's
server is gone within the 15 s checked; or on one `prefect server start` with `--shared-prefect`).

Phases (rowkeeper/faults.py crash points, each the run SIGKILLing itself, so workers, the
Prefect server and temp files are left exactly as a real kill -9 leaves them): `startup`
(output locked, nothing planned), `extract` (a document extracted, before its load), `write`
(the folder sink between its two renames), `consolidate` (top-level temp files written, or
documents.jsonl renamed and the rest not). The hit at which a trial dies is drawn per trial.
Per phase it prints trials, reruns identical to the clean run (folder parts, documents/tables/
chunks.jsonl, tables.parquet, DuckDB, and Postgres with --postgres, and report.json listing
every document exactly once), files left after the rerun
that a clean run does not have (temp files, DuckDB WALs), and processes of the killed run still
alive 15 s after the kill, by kind (Prefect server, worker, watchdog). Seeds: dev part 1,
test part 2 (tune on dev, only measure on test).

A trial is cheap on purpose: 3 small documents (2 readable, 1 corrupt), one Postgres server
for all trials, `--parallel N` trials at once (each in its own folder and schema).
"""

from __future__ import annotations

import argparse
import concurrent.futures
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

SEEDS = {"dev": 1, "test": 2}
_KINDS = (("server", "prefect.server.api.server"), ("watchdog", "rowkeeper.flows.guard"),
          ("worker", "rowkeeper.flows"), ("rowkeeper run", "rowkeeper.cli"))


def hits(phase: str, n_docs: int) -> tuple[int, int]:
    """The range of the crash point's hit count that a run over `n_docs` documents reaches:
    `extract` and `write` fire once per document, `consolidate` twice per consolidation."""
    return {"startup": (1, 1), "extract": (1, n_docs), "write": (1, n_docs), "consolidate": (1, 2)}[phase]


def trial_counts(text: str) -> int | dict[str, int]:
    """`--trials`: N for every phase, or PHASE=N,PHASE=N."""
    if "=" not in text:
        return int(text)
    counts = {phase.strip(): int(k) for phase, _, k in (part.partition("=") for part in text.split(","))}
    unknown = set(counts) - set(POINTS)
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown phase(s) {sorted(unknown)}: choose from {', '.join(POINTS)}")
    return counts


def kind_of(cmd: str) -> str:
    """What a leftover process is, from its command line."""
    return next((kind for kind, needle in _KINDS if needle in cmd), "other")


def _marked(mark: str) -> list[str]:
    """Live (non-zombie) processes whose environment carries `mark`."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            env = Path(f"/proc/{pid}/environ").read_bytes()
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()[:160]
        except OSError:
            continue
        if mark.encode() in env and state != "Z":
            found.append(f"{pid} {kind_of(cmd)}: {cmd[:100]}")
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


def stray_files(out: Path, clean_out: Path) -> list[str]:
    """Files in `out` that the clean run's folder does not have (temp files, a DuckDB WAL, a
    part of a document the clean run never wrote); report.previous.json is a rerun's own."""
    def names(d: Path) -> set[str]:
        return {str(p.relative_to(d)) for p in d.rglob("*") if p.is_file()}

    return sorted(names(out) - names(clean_out) - {"report.previous.json"})


def report_ids(out: Path) -> list[str]:
    """The doc ids report.json lists, sorted: every document exactly once (the report is
    streamed from disk as documents finish: a kill must lose none of it)."""
    from rowkeeper.flows.report_stream import iter_report_documents

    return sorted(d["doc_id"] for d in iter_report_documents(str(out / "report.json")))


def config_for(out: Path, pg: dict[str, Any] | None, prefect: str) -> Path:
    """The crash tests' config (folder + DuckDB [+ Postgres], local runner) with runner.prefect."""
    cfg = _config(out, pg)
    data = json.loads(cfg.read_text())
    data["runner"]["prefect"] = prefect
    # a run through Prefect uses the shared server (flows.shared_server), which outlives a
    # killed run by its idle time and no longer: 5 s, so it is gone within the 15 s checked
    data["runner"]["prefect_server_idle_s"] = 5
    cfg.write_text(json.dumps(data))
    return cfg


def one_trial(corpus: Path, out: Path, clean: dict[str, Any], clean_out: Path, point: str,
              pg: dict[str, Any] | None, prefect: str = "auto") -> dict[str, Any]:
    """Kill a run at `point`, rerun it, compare with the clean run; the trial's findings."""
    started = time.monotonic()
    cfg = config_for(out, pg, prefect)
    rc, alive = kill_at(point, corpus, out, cfg)
    _run(corpus, out, cfg)
    got = {**_snapshot(out, cfg), "report.json": report_ids(out)}
    return {"point": point, "rc": rc, "differs": [k for k in clean if got.get(k) != clean[k]],
            "stray": stray_files(out, clean_out), "alive": alive,
            "seconds": round(time.monotonic() - started, 1)}


def trials(base: Path, n: int | dict[str, int], seed: int, n_docs: int, pg: dict[str, Any] | None,
           phases: tuple[str, ...] = POINTS, parallel: int = 1, prefect: str = "auto",
           progress: Any = None) -> dict[str, dict]:
    """n trials per phase (or {phase: n}; `parallel` at a time, the phases taken in turn, so a
    matrix stopped early has covered each phase alike); per phase the counts the module
    docstring lists; `progress(table)` after every trial (a long matrix keeps what it measured)."""
    counts = n if isinstance(n, dict) else dict.fromkeys(phases, n)
    phases = tuple(counts)
    corpus = _corpus(base / "in", n_docs)
    clean_out = base / "clean"
    clean_cfg = config_for(clean_out, pg and {**pg, "schema_name": pg["schema_name"] + "_clean"}, prefect)
    _run(corpus, clean_out, clean_cfg)
    clean = {**_snapshot(clean_out, clean_cfg), "report.json": report_ids(clean_out)}
    rng = random.Random(seed)
    jobs = [(phase, i, f"{phase}:{rng.randint(*hits(phase, n_docs))}") for phase in phases
            for i in range(counts[phase])]
    jobs.sort(key=lambda job: job[1])  # drawn phase by phase, run in turn (stable within a round)
    table = {phase: {"trials": 0, "killed": 0, "identical": 0, "stray_files": 0, "orphans": 0,
                     "orphans_by_kind": {}, "seconds": 0.0, "notes": []} for phase in phases}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, parallel)) as pool:
        futures = {pool.submit(one_trial, corpus, base / f"{phase}{i}", clean, clean_out, point,
                               pg and {**pg, "schema_name": f"{pg['schema_name']}_{phase}{i}"}, prefect): phase
                   for phase, i, point in jobs}
        for future in concurrent.futures.as_completed(futures):
            _tally(table[futures[future]], future.result())
            if progress is not None:
                progress(table)
    for phase in phases:
        print(phase, json.dumps(table[phase]), flush=True)
    return table


def _tally(row: dict[str, Any], t: dict[str, Any]) -> None:
    row["trials"] += 1
    row["killed"] += t["rc"] == -signal.SIGKILL
    row["identical"] += not t["differs"]
    row["stray_files"] += len(t["stray"])
    row["orphans"] += len(t["alive"])
    for line in t["alive"]:
        kind = line.split(" ", 1)[1].split(":")[0]
        row["orphans_by_kind"][kind] = row["orphans_by_kind"].get(kind, 0) + 1
    row["seconds"] = round(row["seconds"] + t["seconds"], 1)
    if t["differs"] or t["stray"] or t["alive"] or t["rc"] != -signal.SIGKILL:
        row["notes"].append({**t, "stray": t["stray"][:3], "alive": t["alive"][:3]})
    print(f"  {t['point']}: rc={t['rc']} differs={t['differs']} stray={len(t['stray'])} "
          f"alive={len(t['alive'])} {t['seconds']} s", flush=True)


def main(argv: list[str] | None = None) -> int:
    """Run the trials of the chosen part(s) and print one line per phase."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trials", type=trial_counts, default=2,
                    help="trials per phase (the issue's target: 20), or per phase: extract=14,write=17 "
                         "(then --phases is those phases)")
    ap.add_argument("--docs", type=int, default=3, help="documents in the corpus (one is corrupt)")
    ap.add_argument("--postgres", action="store_true", help="add a throwaway Postgres server as a third sink")
    ap.add_argument("--part", choices=["dev", "test", "all"], default="test")
    ap.add_argument("--phases", default=",".join(POINTS), help=f"comma-separated, of {', '.join(POINTS)}")
    ap.add_argument("--shared-prefect", action="store_true",
                    help="one Prefect server for every run (PREFECT_API_URL): a trial skips the ~10-30 s "
                         "server start-up, but no longer checks that a killed run's own server dies with it")
    ap.add_argument("--prefect", choices=["auto", "always"], default="auto",
                    help="runner.prefect of every run (auto: no Prefect, the default path)")
    ap.add_argument("--parallel", type=int, default=1, help="trials run at once")
    ap.add_argument("--json", help="write the per-phase tables here")
    args = ap.parse_args(argv)
    server, pg, prefect = None, None, _shared_prefect() if args.shared_prefect else None
    if args.postgres:
        from tests.sinks.pg_server import start_server

        server = start_server()
        pg = {"dsn": server.dsn, "schema_name": "killnine", "vector": "off"}
    found: dict[str, Any] = {}
    try:
        for part in (("dev", "test") if args.part == "all" else (args.part,)):
            print(f"## {part} (seed {SEEDS[part]}, {args.trials} trials per phase, {args.docs} documents, "
                  f"runner.prefect {args.prefect})")
            def save(table: dict[str, Any], part: str = part) -> None:
                if args.json:
                    Path(args.json).write_text(json.dumps({**found, part: table}, indent=1))

            found[part] = trials(Path(tempfile.mkdtemp(prefix=f"rk-kill9-{part}-")), args.trials,
                                 SEEDS[part], args.docs, pg and {**pg, "schema_name": f"killnine_{part}"},
                                 tuple(args.phases.split(",")), args.parallel, args.prefect, save)
            save(found[part])
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
