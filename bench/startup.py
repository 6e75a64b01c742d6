"""Start-up: python bench/startup.py [--base REV] [--repeat 3] [--json FILE].

Times, as whole processes (wall clock and CPU of the process tree), one after the other:
  `rowkeeper --help`; `rowkeeper run` on one 1-page PDF into a fresh folder (a run with work);
  the same run again (no work: every input unchanged); the run with work through Prefect
  (`runner.prefect: always`: a worker, the flow, and the server: where the tree has
  flows.shared_server, the shared one, started by the warm-up and reused, its CPU during the
  run counted; and once more with `prefect_server: per_run`, a server of the run's own);
and, as same-run references, `python -c pass` and PyMuPDF's get_text of that page in a fresh
process. With --base REV the same is measured on that commit (a `git archive` copy in a temp
folder, run with PYTHONPATH pointing at it), interleaved with this tree, so before/after come
from one run under one load. Each figure is the median of --repeat runs after one untimed
warm-up per tree (the first run with a new PREFECT_HOME also creates Prefect's database).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from samples import pdfgen  # noqa: E402
from samples.make_samples import sample_specs  # noqa: E402

FLOOR = "import sys, pymupdf\nwith pymupdf.open(sys.argv[1]) as d:\n    d[0].get_text()\n"


def shared_server_cpu(home: str | Path) -> dict[int, float]:
    """CPU s so far of the shared Prefect server's processes (flows.shared_server: the keeper
    and the server, found through the state files in PREFECT_HOME `home`), by pid. They are not
    the run's children, so the run's rusage misses what they do for it: callers add the delta."""
    import psutil

    got: dict[int, float] = {}
    for state in Path(home).glob("rowkeeper-server-*.json"):
        try:
            d = json.loads(state.read_text())
        except (OSError, ValueError):
            continue
        for pid in (d.get("pid"), d.get("keeper")):
            try:
                t = psutil.Process(int(pid)).cpu_times()
                got[int(pid)] = t.user + t.system
            except (psutil.Error, TypeError, ValueError):
                pass
    return got


def server_delta(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU the shared server's processes used between two `shared_server_cpu` readings (a
    process that started meanwhile counts whole)."""
    return sum(cpu - before.get(pid, 0.0) for pid, cpu in after.items())


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float, subprocess.CompletedProcess[str]]:
    """(wall s, CPU s of the process and the children it waited for, result). Runs in the
    tree's folder: `python -m` puts the working directory first on sys.path. The CPU includes
    what a shared Prefect server (flows.shared_server) did meanwhile, though not a child."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    served = shared_server_cpu(env["PREFECT_HOME"])
    start = time.monotonic()
    got = subprocess.run(cmd, env=env, cwd=env["PYTHONPATH"], capture_output=True, text=True,
                         timeout=900)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    cpu += server_delta(served, shared_server_cpu(env["PREFECT_HOME"]))
    if got.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({got.returncode}): {got.stderr[-1500:]}")
    return wall, cpu, got


def measure(tree: Path, pdf: Path, work: Path, env: dict[str, str]) -> dict[str, tuple[float, float]]:
    """One round of every measurement on `tree`: name -> (wall, cpu); plus the run's own seconds."""
    env = dict(env, PYTHONPATH=str(tree))
    rk = [sys.executable, "-m", "rowkeeper.cli"]
    out = work / f"out-{tree.name}"
    shutil.rmtree(out, ignore_errors=True)
    got: dict[str, tuple[float, float]] = {}
    got["python -c pass"] = timed([sys.executable, "-c", "pass"], env)[:2]
    got["pymupdf get_text, 1 page"] = timed([sys.executable, "-c", FLOOR, str(pdf)], env)[:2]
    got["rowkeeper --help"] = timed([*rk, "--help"], env)[:2]
    run = [*rk, "run", str(pdf), "--out", str(out), "--no-progress"]
    got["run, 1-page PDF"] = timed(run, env)[:2]
    totals = json.loads((out / "report.json").read_text())["totals"]
    got["  of which the run reports"] = (float(totals["seconds"]), float("nan"))
    got["run, no work"] = timed(run, env)[:2]
    shutil.rmtree(out, ignore_errors=True)  # the same run with work, through the Prefect flow
    got["run, 1-page PDF, Prefect"] = timed([*run, *_through_prefect(tree, work)], env)[:2]
    if "prefect_server:" in (tree / "rowkeeper" / "config.py").read_text():
        shutil.rmtree(out, ignore_errors=True)  # the same, on a server of its own (as before reuse)
        got["run, 1-page PDF, Prefect, own server"] = timed(
            [*run, *_through_prefect(tree, work, "  prefect_server: per_run\n")], env)[:2]
    return got


def _through_prefect(tree: Path, work: Path, more: str = "") -> list[str]:
    """Arguments that send a run from `tree` through Prefect: `runner.prefect: always` where the
    tree has that setting; none before it (every run with work went through Prefect then).
    A tree with a shared server (flows.shared_server) reuses it: the warm-up round started it."""
    if "prefect: Literal" not in (tree / "rowkeeper" / "config.py").read_text():
        return []
    cfg = work / f"through_prefect{len(more)}.yaml"
    cfg.write_text("runner:\n  prefect: always\n" + more)
    return ["--config", str(cfg)]


def stop_shared_servers(home: Path) -> None:
    """End the shared servers the runs left in `home` (their keepers stop them)."""
    import signal

    for state in home.glob("rowkeeper-server-*.json"):
        try:
            os.kill(int(json.loads(state.read_text())["keeper"]), signal.SIGTERM)
        except (OSError, ValueError, KeyError):
            pass


def median_rounds(rounds: list[dict[str, tuple[float, float]]]) -> dict[str, tuple[float, float]]:
    """Per measurement, the median wall and the median CPU over the rounds."""
    return {k: (statistics.median(r[k][0] for r in rounds), statistics.median(r[k][1] for r in rounds))
            for k in rounds[0]}


def base_tree(rev: str, work: Path) -> Path:
    """A copy of commit `rev`'s files (git archive: the repository's worktrees are untouched)."""
    dest = work / f"base-{rev[:12]}"
    dest.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive.stdout, check=True)
    return dest


def main(argv: list[str] | None = None) -> int:
    """Measure this tree (and --base), print a table, optionally save JSON."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--base", help="a commit to measure beside this tree (before/after)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", help="write every round's figures here")
    args = ap.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="rk-startup-"))
    pdf = work / "one_page.pdf"
    pdf.write_bytes(pdfgen.build_pdf(sample_specs()["ruled"]))
    env = dict(os.environ, PREFECT_HOME=str(work / "prefect"))
    trees = {"after": ROOT} if not args.base else {"before": base_tree(args.base, work), "after": ROOT}
    for tree in trees.values():
        measure(tree, pdf, work, env)  # warm-up: Prefect's database, file caches
    rounds: dict[str, list[dict[str, tuple[float, float]]]] = {k: [] for k in trees}
    for _ in range(args.repeat):
        for name, tree in trees.items():  # interleaved: both see the same load
            rounds[name].append(measure(tree, pdf, work, env))
    stop_shared_servers(work / "prefect")
    medians = {name: median_rounds(r) for name, r in rounds.items()}
    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}; median of {args.repeat}; "
          "wall s / CPU s of the process tree")
    print(f"{'':28}" + "".join(f"{name:>22}" for name in medians))
    for key in medians["after"]:
        cells = "".join(f"{m[key][0]:>12.2f} /{m[key][1]:>7.2f}" if key in m else f"{'-':>21}"
                        for m in medians.values())
        print(f"{key:28}{cells}")
    if args.json:
        Path(args.json).write_text(json.dumps(rounds, indent=1))
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
