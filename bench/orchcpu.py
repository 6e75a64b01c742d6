"""CPU seconds per process role of a `rowkeeper run`: where the CPU outside extraction goes.

    python bench/orchcpu.py [--docs 300 | --docs 150,600] [--runner dask|local|ray] [--workers 1]
                            [--base REV] [--rounds 1] [--prefect auto|always]

Runs `rowkeeper run` on `docs` generated business PDFs (bench/scale.py's corpus: the bundled
sample shapes, each copy with distinct bytes) and samples the CPU time (user + system) of every
process of the run's tree every 0.2 s, keeping each process's last reading. Processes are
grouped by role from their command line: the isolated workers (the extraction itself), the run
(`rowkeeper.cli run`: the flow, the sinks, the report; under Dask also the scheduler and the
nannies), the Dask workers (task runs, pickling, the pipe to the isolated worker), the Prefect
server, Ray's processes. Printed per role: CPU s and ms per document. The whole tree's CPU is
also read exactly from the run's rusage at exit (`wait4`: it includes every reaped descendant),
so what sampling missed (the last 0.2 s of short-lived processes) shows as "unsampled".

A shared Prefect server (flows.shared_server, `runner.prefect_server: reuse`) is not in the
run's tree: the CPU its processes use during the run is read from them and counted in the
server's role and in the total; the warm-up run starts it (its start-up is not per run: with
`--set prefect_server=per_run` each run starts a server of its own, as before).

A per-document figure from one corpus size mixes two costs: what a run pays once (its imports,
the workers' start, the Dask cluster, the flow run, the report) and what each document adds.
With two or more sizes (`--docs 150,600`) every tree runs each size and a least-squares line
through (documents, CPU s) per role splits them: the fixed cost per run (the intercept, s) and
the marginal cost per document (the slope, ms/doc), the figure issue 16's "50 ms of
orchestration per document" is about ("outside extraction": the whole tree less the isolated
workers, the extraction itself).

CPU seconds hold under a shared machine's load; wall time does not. With --base REV, that
commit (a `git archive` copy) and this tree run alternately, `rounds` times each. Each tree
first runs 2 documents (its Prefect database created and migrated: a one-off, not per document).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.scale import make_corpus  # noqa: E402
from bench.startup import server_delta, shared_server_cpu, stop_shared_servers  # noqa: E402

ROLES = ("isolated worker (extraction)", "run (flow, sinks, report)", "dask worker",
         "prefect server", "ray", "other")


def role_of(cmdline: list[str]) -> str:
    """The role of a process of a run's tree, from its command line."""
    line = " ".join(cmdline)
    if "rowkeeper.flows.worker_process" in line:
        return ROLES[0]
    if "rowkeeper.cli" in line:
        return ROLES[1]
    if "uvicorn" in line or "prefect.server" in line or ("prefect" in line and "server" in line):
        return ROLES[3]
    if "ray" in line and ("raylet" in line or "gcs_server" in line or "ray::" in line
                          or "default_worker.py" in line or "/ray/" in line):
        return ROLES[4]
    if "spawn_main" in line and "resource_tracker" not in line:
        return ROLES[2]  # LocalCluster's worker processes (multiprocessing spawn)
    return ROLES[5]


class TreeCPU(threading.Thread):
    """Samples the CPU seconds of every process under `pid` (each process's last reading)."""

    def __init__(self, pid: int, every: float = 0.2) -> None:
        super().__init__(daemon=True)
        self.root, self.every, self.stop = psutil.Process(pid), every, threading.Event()
        self.seen: dict[tuple[int, float], tuple[str, float]] = {}
        self.roles: dict[int, str] = {}

    def sample(self) -> None:
        """One reading of the whole tree."""
        try:
            procs = [self.root, *self.root.children(recursive=True)]
        except psutil.NoSuchProcess:
            return
        for p in procs:
            try:
                with p.oneshot():
                    key = (p.pid, p.create_time())
                    t = p.cpu_times()
                    role = self.seen[key][0] if key in self.seen else role_of(p.cmdline())
            except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
                continue
            self.seen[key] = (role, t.user + t.system)

    def run(self) -> None:
        while not self.stop.wait(self.every):
            self.sample()

    def by_role(self) -> dict[str, float]:
        """CPU seconds per role (processes' last readings summed)."""
        out = dict.fromkeys(ROLES, 0.0)
        for role, cpu in self.seen.values():
            out[role] += cpu
        return out


def run_once(tree: Path, corpus: Path, out: Path, runner: str, workers: int, prefect: str,
             extra: dict[str, object] | None = None) -> dict:
    """One `rowkeeper run` from `tree`: CPU per role, the exact tree total, documents, wall
    (`extra`: more `runner` settings, e.g. batch_docs)."""
    cfg = out.parent / f"{out.name}.yaml"
    settings: dict[str, object] = {"type": runner, "workers": workers, **(extra or {})}
    if prefect != "auto":
        settings["prefect"] = prefect
    cfg.write_text(json.dumps({"runner": settings}))
    cmd = [sys.executable, "-m", "rowkeeper.cli", "run", str(corpus), "--out", str(out),
           "--config", str(cfg), "--no-progress"]
    home = out.parent / f"prefect-{tree.name}"  # one per tree, kept across its runs
    env = dict(os.environ, PYTHONPATH=str(tree), PREFECT_HOME=str(home))
    served = shared_server_cpu(home)
    start = time.monotonic()
    # cwd=tree: `python -m` puts the working directory ahead of PYTHONPATH on sys.path
    proc = subprocess.Popen(cmd, cwd=tree, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    watch = TreeCPU(proc.pid)
    watch.start()
    err = proc.stderr.read() if proc.stderr else b""
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.monotonic() - start
    watch.stop.set()
    watch.join()
    if proc.returncode != 0:
        raise SystemExit(f"rowkeeper run failed ({proc.returncode}): {err.decode(errors='replace')[-1500:]}")
    totals = json.loads((out / "report.json").read_text())["totals"]
    roles = watch.by_role()
    # a shared Prefect server (flows.shared_server) is no child of the run: its CPU meanwhile
    # is read from its own processes and counted in the server's role and in the total
    shared = server_delta(served, shared_server_cpu(home))
    roles[ROLES[3]] += shared
    return {"roles": roles, "total": usage.ru_utime + usage.ru_stime + shared, "wall": wall,
            "docs": int(totals["documents"]), "failed": int(totals["failed"]),
            "load": os.getloadavg()[0]}


def table(label: str, r: dict) -> str:
    """The per-role lines of one run."""
    docs = max(r["docs"], 1)
    sampled = sum(r["roles"].values())
    rows = [f"{label}: {r['docs']} docs ({r['failed']} failed), wall {r['wall']:.1f} s, load {r['load']:.1f}"]
    for role, cpu in r["roles"].items():
        if cpu > 0:
            rows.append(f"  {role:32} {cpu:8.1f} CPU s {1000 * cpu / docs:7.1f} ms/doc")
    rows.append(f"  {'unsampled (exact total - sum)':32} {r['total'] - sampled:8.1f} CPU s")
    outside = r["total"] - r["roles"][ROLES[0]]
    rows.append(f"  {'total (rusage at exit)':32} {r['total']:8.1f} CPU s {1000 * r['total'] / docs:7.1f} ms/doc; "
                f"outside extraction {outside:.1f} s = {1000 * outside / docs:.1f} ms/doc")
    return "\n".join(rows)


def fit(points: list[tuple[int, float]]) -> tuple[float, float]:
    """(fixed s, marginal s per document): the least-squares line through (documents, CPU s)."""
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    slope = sum((x - mx) * (y - my) for x, y in points) / sxx if sxx else 0.0
    return my - slope * mx, slope


def fit_table(label: str, runs: list[dict]) -> str:
    """Per role and outside extraction: the fixed CPU per run and the marginal CPU per document,
    from runs of one tree at two or more corpus sizes."""
    rows = [f"{label}: fixed per run and marginal per document, fitted over "
            f"{', '.join(str(r['docs']) for r in runs)} documents"]

    def line(name: str, points: list[tuple[int, float]]) -> str:
        fixed, marginal = fit(points)
        return f"  {name:32} fixed {fixed:7.2f} CPU s  marginal {1000 * marginal:7.1f} ms/doc"

    for role in ROLES:
        points = [(r["docs"], r["roles"][role]) for r in runs]
        if any(cpu > 0 for _, cpu in points):
            rows.append(line(role, points))
    rows.append(line("total (rusage at exit)", [(r["docs"], r["total"]) for r in runs]))
    rows.append(line("outside extraction", [(r["docs"], r["total"] - r["roles"][ROLES[0]]) for r in runs]))
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    """Build the corpora, run each tree (alternately), print CPU per role; with two or more
    sizes, the fixed cost per run and the marginal cost per document."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--docs", default="300",
                    help="documents, or several sizes separated by commas (fixed and marginal costs)")
    ap.add_argument("--runner", default="dask", choices=("local", "process", "dask", "ray"))
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--prefect", default="auto", choices=("auto", "always", "never"))
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="a `runner` setting for every run, e.g. batch_docs=10, prefect_server=per_run (repeatable)")
    ap.add_argument("--base", help="a commit to measure beside this tree, alternately")
    ap.add_argument("--after", help="measure this commit (a `git archive` copy) instead of the working tree")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--json", help="write every run's figures here")
    ap.add_argument("--no-warm", action="store_true",
                    help="skip the 2-document warm-up per tree (Prefect's database, file caches)")
    args = ap.parse_args(argv)
    sizes = [int(n) for n in str(args.docs).split(",")]
    work = Path(tempfile.mkdtemp(prefix="rk-orchcpu-"))
    for n in sizes:
        make_corpus(work / f"corpus-{n}", n)
    from bench.startup import base_tree

    trees = {"after": base_tree(args.after, work) if args.after else ROOT}
    if args.base:
        trees = {"before": base_tree(args.base, work), **trees}
    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f} at start; "
          f"runner {args.runner} x{args.workers}, {args.docs} documents", flush=True)
    if not args.no_warm:  # the first run of a PREFECT_HOME creates its database: not per document
        make_corpus(work / "warm", 2)
        for name, tree in trees.items():
            run_once(tree, work / "warm", work / f"warm-{name}", args.runner, args.workers, args.prefect)
    extra = {k: int(v) if v.isdigit() else v for k, v in (kv.split("=", 1) for kv in args.set)}
    runs = []
    for i in range(args.rounds):
        for n in sizes:
            for name, tree in trees.items():
                r = run_once(tree, work / f"corpus-{n}", work / f"out-{name}-{n}-{i}", args.runner,
                             args.workers, args.prefect, extra)
                runs.append({"tree": name, "round": i, **r})
                print(table(f"{name} (round {i + 1})", r), flush=True)
    if len(set(sizes)) > 1:
        for name in trees:
            print(fit_table(name, [r for r in runs if r["tree"] == name]), flush=True)
    for name in trees:
        stop_shared_servers(work / f"prefect-{trees[name].name}")
    if args.json:
        Path(args.json).write_text(json.dumps(runs, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
