"""Flow-process memory: peak RSS of the `rowkeeper run` process itself (not its workers, not the
Prefect server) on N generated documents (issue 15 item 3: target <= 1 GB on 1,000), and the
peak of the whole process tree (run + workers + Prefect server, RSS summed, sampled every 0.2 s).

    python bench/flowmem.py [--docs 1000] [--workers 2] [--runner local]

The corpus is bench/scale.py's (the bundled sample shapes, each copy with distinct bytes). The
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


def _status_kb(pid: int, field: str) -> int:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            return int(f.read().split(f"{field}:")[1].split()[0])
    except (OSError, IndexError, ValueError):
        return 0


def run(corpus: Path, out: Path, workers: int, runner: str) -> dict[str, float]:
    """One `rowkeeper run`; the flow process's peak RSS and virtual size, and the totals."""
    cfg = out.parent / f"{out.name}.yaml"
    cfg.write_text(json.dumps({"runner": {"type": runner, "workers": workers}}))
    cmd = [sys.executable, "-m", "rowkeeper.cli", "run", str(corpus), "--out", str(out),
           "--config", str(cfg), "--no-progress"]
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    tree = TreeMemory(proc.pid, out)  # the run, its workers and its Prefect server, summed
    tree.start()
    hwm = peak_vm = 0
    while proc.poll() is None:
        hwm = max(hwm, _status_kb(proc.pid, "VmHWM"))
        peak_vm = max(peak_vm, _status_kb(proc.pid, "VmPeak"))
        time.sleep(0.2)
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
            "chunks": totals["chunks"], "top_level_mb": outputs / 2**20, "load": os.getloadavg()[0]}


def main(argv: list[str] | None = None) -> int:
    """Build the corpus, run once, print the flow process's peak."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--docs", type=int, default=1000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--runner", default="local", choices=["local", "process", "dask"])
    args = ap.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="rk-flowmem-"))
    os.environ.setdefault("PREFECT_HOME", str(tmp / "prefect"))
    make_corpus(tmp / "corpus", args.docs)
    r = run(tmp / "corpus", tmp / "out", args.workers, args.runner)
    print(f"{r['docs']} docs ({r['ok']} ok, {r['failed']} failed), {r['chunks']} chunks, top-level files "
          f"{r['top_level_mb']:.0f} MB; flow process peak RSS {r['flow_rss_mb']:.0f} MB (virtual peak "
          f"{r['flow_vm_mb']:.0f} MB); process tree peak RSS {r['tree_rss_mb']:.0f} MB summed, largest "
          f"process {r['largest_process_mb']:.0f} MB; wall {r['wall']:.0f} s under load {r['load']:.1f} "
          "(not a speed figure)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
