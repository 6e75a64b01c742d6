"""Scaling benchmark: python bench/scale.py [--docs 1000] [--small 250] [--skip-growth].

Prints, for `rowkeeper run` (Dask runner: a LocalCluster of single-threaded workers) on
generated business PDFs (the bundled sample shapes, each copy with distinct bytes):
  1. pages/s with 1 and with 2 Dask workers on the same `docs` documents (target: 2 workers
     >= 1.8x one), end to end and in steady state (first to last document written);
  2. peak RSS of the whole process tree (flow, Prefect server, Dask scheduler/nannies/workers,
     isolated workers; target <= 1.5 GB), and for `small` documents beside `docs`;
  3. wall time growth from `small` to `docs` documents with 2 workers (target: linear).
Load matters on a shared machine: the 1-minute load average is printed beside each figure.
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

from samples import pdfgen  # noqa: E402
from samples.make_samples import sample_specs  # noqa: E402


def make_corpus(folder: Path, n: int) -> int:
    """`n` PDFs cycling through the sample shapes; returns their total page count."""
    import pymupdf

    bases = {name: pdfgen.build_pdf(spec) for name, spec in sample_specs().items()}
    pages = {name: len(pymupdf.open(stream=data, filetype="pdf")) for name, data in bases.items()}
    folder.mkdir(parents=True, exist_ok=True)
    names = sorted(bases)
    total = 0
    for i in range(n):
        name = names[i % len(names)]
        # A trailing comment changes the bytes (a new doc id) and nothing a parser reads.
        (folder / f"{name}_{i:05d}.pdf").write_bytes(bases[name] + b"%% copy %d\n" % i)
        total += pages[name]
    return total


class TreeMemory(threading.Thread):
    """Samples the summed RSS of a process and all its descendants (peak), and when the folder
    sink's per-document parts appear (first and last: the steady-state span)."""

    def __init__(self, pid: int, out: Path) -> None:
        super().__init__(daemon=True)
        self.root, self.peak, self.peak_one, self.stop = psutil.Process(pid), 0, 0, threading.Event()
        self.out, self.parts, self.first, self.last = out, 0, 0.0, 0.0

    def _count_parts(self) -> None:
        docs = self.out / "_docs"
        n = sum(1 for _ in docs.rglob("*.jsonl")) if docs.exists() else 0
        if n > self.parts:
            now = time.monotonic()
            self.first = self.first or now
            self.parts, self.last = n, now

    def run(self) -> None:
        while not self.stop.wait(0.2):
            self._count_parts()
            try:
                procs = [self.root, *self.root.children(recursive=True)]
            except psutil.NoSuchProcess:
                return
            rss = []
            for p in procs:
                try:
                    rss.append(p.memory_info().rss)
                except psutil.NoSuchProcess:
                    pass
            self.peak = max(self.peak, sum(rss))
            self.peak_one = max(self.peak_one, max(rss, default=0))


def run(corpus: Path, out: Path, workers: int, runner: str = "dask") -> dict[str, float]:
    """One `rowkeeper run`; wall time, steady-state span, peak tree RSS."""
    cfg = out.parent / f"{out.name}.yaml"
    cfg.write_text(json.dumps({"runner": {"type": runner, "workers": workers}}))
    cmd = [sys.executable, "-m", "rowkeeper.cli", "run", str(corpus), "--out", str(out),
           "--config", str(cfg), "--no-progress"]
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    mem = TreeMemory(proc.pid, out)
    mem.start()
    rc = proc.wait()
    wall = time.monotonic() - start
    mem.stop.set()
    mem.join()
    if rc != 0:
        raise SystemExit(f"rowkeeper run failed ({rc}) on {corpus}")
    report = json.loads((out / "report.json").read_text())
    return {"wall": wall, "steady": mem.last - mem.first, "docs": mem.parts,
            "pages": report["totals"]["pages"], "failed": report["totals"]["failed"],
            "peak_mb": mem.peak / 2**20, "peak_one_mb": mem.peak_one / 2**20,
            "load": os.getloadavg()[0]}


def _line(label: str, r: dict[str, float]) -> str:
    steady_pages = r["pages"] * (r["docs"] - 1) / max(r["docs"], 1)
    return (f"{label}: {r['docs']} docs, {r['pages']} pages, {r['failed']} failed; wall {r['wall']:.1f} s "
            f"({r['pages'] / r['wall']:.2f} pages/s), steady {steady_pages / max(r['steady'], 1e-9):.2f} "
            f"pages/s; peak RSS tree {r['peak_mb']:.0f} MB, largest process {r['peak_one_mb']:.0f} MB; "
            f"load {r['load']:.1f}")


def main(argv: list[str] | None = None) -> int:
    """Build the corpora, run the three measurements, print the figures."""
    p = argparse.ArgumentParser()
    p.add_argument("--docs", type=int, default=1000, help="documents for the 1 vs 2 workers runs")
    p.add_argument("--small", type=int, default=250, help="documents for the growth comparison")
    p.add_argument("--skip-growth", action="store_true")
    args = p.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="rk-scale-"))
    os.environ.setdefault("PREFECT_HOME", str(tmp / "prefect"))
    print(f"machine: {os.cpu_count()} cores, {psutil.virtual_memory().total / 2**30:.0f} GB; "
          f"load {os.getloadavg()[0]:.1f} at start", flush=True)
    make_corpus(tmp / "large", args.docs)
    # Prefect's database created, and a shared server (flows.shared_server) started, before
    # either timed run: both find them (before this warm-up the 1-worker run paid for both)
    make_corpus(tmp / "warm", 2)
    run(tmp / "warm", tmp / "out_warm", 1)
    try:
        return _measure(tmp, args)
    finally:
        from bench.startup import stop_shared_servers

        stop_shared_servers(Path(os.environ["PREFECT_HOME"]))


def _measure(tmp: Path, args: argparse.Namespace) -> int:
    one = run(tmp / "large", tmp / "out_w1", 1)
    print(_line("dask 1 worker ", one), flush=True)
    two = run(tmp / "large", tmp / "out_w2", 2)
    print(_line("dask 2 workers", two), flush=True)
    e2e = one["wall"] / two["wall"]
    steady = one["steady"] / max(two["steady"], 1e-9)
    print(f"speed-up 2 vs 1 workers, {args.docs} docs: end to end {e2e:.2f}x, steady state "
          f"{steady:.2f}x (target 1.8x)")
    if args.skip_growth:
        return 0
    make_corpus(tmp / "small", args.small)
    few = run(tmp / "small", tmp / "out_small", 2)
    print(_line(f"dask 2 workers, {args.small} docs", few), flush=True)
    print(f"peak RSS {args.small} -> {args.docs} docs: {few['peak_mb']:.0f} -> {two['peak_mb']:.0f} MB "
          f"(x{two['peak_mb'] / few['peak_mb']:.2f}); time x{two['wall'] / few['wall']:.2f} end to end, "
          f"x{two['steady'] / max(few['steady'], 1e-9):.2f} steady, for x{args.docs / args.small:.1f} documents")
    return 0


if __name__ == "__main__":
    sys.exit(main())
