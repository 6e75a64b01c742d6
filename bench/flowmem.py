"""Flow-process memory: peak RSS of the `rowkeeper run` process itself (not its workers, not the
Prefect server) on N generated documents (issue 15 item 3: target <= 1 GB on 1,000), and the
peak of the whole process tree (run + workers + Prefect server, RSS summed, sampled every 0.2 s).

    python bench/flowmem.py [--docs 1000] [--workers 2] [--runner local] [--prefect auto|always]
                            [--every 100 | --at 100,250,500,1000] [--corpus samples|real]

`--prefect` is the run's `runner.prefect` (auto: a local run without Prefect, the default path;
always: through the Prefect flow and its own server). Every `--every` documents written it prints
the flow process's resident size, so the growth per document is read off the curve, not guessed
from the peak.

`--corpus samples` is bench/scale.py's corpus (the bundled sample shapes, each copy with distinct
bytes: the same four documents' content over and over). `--corpus real` is N distinct documents,
each extracted for real: layout-zoo documents over as many seeds as it takes (17 families, 5
languages: ruled, borderless, multi-page, rotated, picture columns, forms, slides), one in four
a throughput-corpus handbook (4 pages of prose, headings and a table) of its own seed. The
run process's VmHWM is read from /proc every 0.2 s; the report's totals and the size of the
consolidated files are printed beside it, with the load average (a shared machine: no time
here is a speed figure).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.scale import TreeMemory, make_corpus  # noqa: E402
from rowkeeper.flows.shared_server import stopping_new_servers  # noqa: E402


def _status_kb(pid: int, field: str) -> int:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            return int(f.read().split(f"{field}:")[1].split()[0])
    except (OSError, IndexError, ValueError):
        return 0


def make_real_corpus(folder: Path, n: int) -> int:
    """`n` distinct PDFs, each read for real: zoo documents over many seeds, every fourth a
    throughput handbook; returns how many were written (reused when already there)."""
    from bench.throughput import corpus_spec
    from bench.zoo.corpus import build, plan
    from bench.zoo.families import FAMILIES
    from samples.pdfgen import build_pdf

    folder.mkdir(parents=True, exist_ok=True)
    handbooks = n // 4
    zoo = plan(per_family=-(-(n - handbooks) // len(FAMILIES)))[: n - handbooks]
    for d in zoo:
        path = folder / f"zoo_{d.doc}.pdf"
        if not path.exists():
            path.write_bytes(build(d))
    for i in range(handbooks):
        path = folder / f"handbook_{i:04d}.pdf"
        if not path.exists():  # seeds apart from bench/throughput.py's own corpus
            path.write_bytes(build_pdf(corpus_spec(10_000 + i, 4)))
    return len(zoo) + handbooks


def _tree_mb(pid: int) -> float:
    """Summed RSS of the process and its descendants now, MB."""
    import psutil

    try:
        procs = [psutil.Process(pid), *psutil.Process(pid).children(recursive=True)]
    except psutil.NoSuchProcess:
        return 0.0
    total = 0
    for p in procs:
        try:
            total += p.memory_info().rss
        except psutil.NoSuchProcess:
            pass
    return total / 2**20


def _parts(out: Path) -> int:
    try:
        return sum(1 for _ in (out / "_docs").rglob("*.jsonl"))
    except OSError:  # the folder not there yet, or a temp file renamed while listing
        return -1


def run(corpus: Path, out: Path, workers: int, runner: str, prefect: str = "auto",
        at: list[int] | None = None) -> dict[str, float]:
    """One `rowkeeper run`; the flow process's peak RSS and virtual size, and the totals."""
    cfg = out.parent / f"{out.name}.yaml"
    cfg.write_text(json.dumps({"runner": {"type": runner, "workers": workers, "prefect": prefect}}))
    cmd = [sys.executable, "-m", "rowkeeper.cli", "run", str(corpus), "--out", str(out),
           "--config", str(cfg), "--no-progress"]
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    tree = TreeMemory(proc.pid, out)  # the run, its workers and its Prefect server, summed
    tree.start()
    hwm = peak_vm = 0
    curve, marks = [], list(at or [100 * k for k in range(1, 11)])
    while proc.poll() is None:
        hwm = max(hwm, _status_kb(proc.pid, "VmHWM"))
        peak_vm = max(peak_vm, _status_kb(proc.pid, "VmPeak"))
        if marks and _parts(out) >= marks[0]:
            rss, tree_now = _status_kb(proc.pid, "VmRSS") / 1024, _tree_mb(proc.pid)
            curve.append((marks.pop(0), rss, tree_now))
            print(f"  {curve[-1][0]} documents written: flow process RSS {rss:.0f} MB, tree {tree_now:.0f} MB "
                  f"(load {os.getloadavg()[0]:.1f})", flush=True)
        time.sleep(0.5)
    _, err = proc.communicate()
    tree.stop.set()
    tree.join()
    if proc.returncode != 0:
        raise SystemExit(f"rowkeeper run failed ({proc.returncode}): {err[-800:]}")
    totals = json.loads((out / "report.json").read_text())["totals"]
    outputs = sum(p.stat().st_size for p in out.iterdir() if p.is_file())
    return {"wall": time.monotonic() - start, "flow_rss_mb": hwm / 1024, "flow_vm_mb": peak_vm / 1024,
            "tree_rss_mb": tree.peak / 2**20, "largest_process_mb": tree.peak_one / 2**20,
            "docs": totals["documents"], "ok": totals["ok"], "failed": totals["failed"],
            "chunks": totals["chunks"], "top_level_mb": outputs / 2**20, "load": os.getloadavg()[0],
            "curve": curve}


def main(argv: list[str] | None = None) -> int:
    """Build the corpus, run once, print the flow process's peak."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--docs", type=int, default=1000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--runner", default="local", choices=["local", "process", "dask"])
    ap.add_argument("--prefect", default="auto", choices=["auto", "always"])
    ap.add_argument("--every", type=int, default=100, help="print the flow RSS every N documents")
    ap.add_argument("--at", default="", help="print the flow RSS at these counts (e.g. 100,250,500,1000)")
    ap.add_argument("--corpus", default="samples", choices=["samples", "real"])
    ap.add_argument("--work", default="", help="folder for the corpus (reused) and the run")
    args = ap.parse_args(argv)
    tmp = Path(args.work) if args.work else Path(tempfile.mkdtemp(prefix="rk-flowmem-"))
    tmp.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("PREFECT_HOME", str(tmp / "prefect"))
    # a shared machine's load can keep the run's own server from answering in Prefect's 120 s
    os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "900")
    corpus = tmp / f"corpus-{args.corpus}-{args.docs}"
    (make_real_corpus if args.corpus == "real" else make_corpus)(corpus, args.docs)
    at = [int(x) for x in args.at.split(",") if x] or list(range(args.every, args.docs + 1, args.every))
    out = tmp / f"out-{args.prefect}-{os.getpid()}"
    with stopping_new_servers():  # the shared server a run through Prefect started: not left idling
        r = run(corpus, out, args.workers, args.runner, args.prefect, at)
    print(f"{r['docs']} docs ({r['ok']} ok, {r['failed']} failed), {r['chunks']} chunks, top-level files "
          f"{r['top_level_mb']:.0f} MB; flow process peak RSS {r['flow_rss_mb']:.0f} MB (virtual peak "
          f"{r['flow_vm_mb']:.0f} MB); process tree peak RSS {r['tree_rss_mb']:.0f} MB summed, largest "
          f"process {r['largest_process_mb']:.0f} MB; wall {r['wall']:.0f} s under load {r['load']:.1f} "
          "(not a speed figure)")
    if len(r["curve"]) >= 2:
        (n0, m0, _), (n1, m1, _) = r["curve"][0], r["curve"][-1]
        print(f"growth from {n0} to {n1} documents: {(m1 - m0) / (n1 - n0) * 1024:.0f} KB per document")
    return 0


if __name__ == "__main__":
    sys.exit(main())
