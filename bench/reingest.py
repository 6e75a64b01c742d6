"""First run vs unchanged rerun, and Prefect's start-up measured on its own.

    python bench/reingest.py [--docs 48] [--rows 130]

Generates a corpus of text PDFs (each: a multi-page ruled table plus a page of prose), runs
`rowkeeper run` on it twice as a user would (subprocesses, no progress bar), and prints:
the first run's work per document, the unchanged rerun's, their ratio (target <= 2%), Prefect's
ephemeral start-up, and what an opt-in extraction cache would cost to write per document.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from samples.pdfgen import (  # noqa: E402
    DocSpec,
    Heading,
    PageBreak,
    Paragraph,
    TableSpec,
    build_pdf,
    numbers_rows,
)

ENV = {**os.environ, "PREFECT_SERVER_ANALYTICS_ENABLED": "false", "ORT_DISABLE_TELEMETRY": "1",
       "OMP_THREAD_LIMIT": "1"}
PROSE = ("Terms apply to every order placed under this agreement. Prices are net of VAT; "
         "delivery is free above the threshold stated in section 2. ") * 12


def make_corpus(folder: Path, docs: int, rows: int) -> int:
    """Write `docs` PDFs; return the page count."""
    import pymupdf

    folder.mkdir(parents=True, exist_ok=True)
    pages = 0
    for i in range(docs):
        spec = DocSpec(title=f"Catalogue {i + 1}", page_numbers=True, blocks=[
            Heading(f"{i + 1}. Parts"), Paragraph("Unit prices in EUR."),
            TableSpec(caption=f"Table {i + 1} Parts", header=[["Part", "Price", "Weight", "Count"]],
                      rows=numbers_rows(rows, seed=i, cols=4), repeat_header=True),
            PageBreak(), Heading("Terms"), Paragraph(PROSE)])
        data = build_pdf(spec)
        (folder / f"doc{i:03d}.pdf").write_bytes(data)
        with pymupdf.open(stream=data) as pdf:
            pages += pdf.page_count
    return pages


def run_cli(inputs: Path, out: Path) -> tuple[float, dict]:
    """Wall seconds of `rowkeeper run` and its report."""
    start = time.perf_counter()
    subprocess.run(["rowkeeper", "run", str(inputs), "--out", str(out), "--no-progress"],
                   check=True, env=ENV, cwd=ROOT, capture_output=True)
    wall = time.perf_counter() - start
    return wall, json.loads((out / "report.json").read_text())


def prefect_startup(home: Path) -> float:
    """Seconds from process start to an empty flow finished (ephemeral server included)."""
    code = ("import time; t=time.perf_counter(); from prefect import flow\n"
            "@flow\ndef empty(): return 1\nempty(); print(time.perf_counter()-t)")
    env = {**ENV, "PREFECT_HOME": str(home), "PREFECT_LOGGING_LEVEL": "ERROR",
           "PREFECT_SERVER_LOGGING_LEVEL": "CRITICAL",
           "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "120"}
    res = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return float(res.stdout.strip().splitlines()[-1])


def cache_write_cost(out: Path) -> float:
    """Seconds per document to pickle and write its result, as Prefect's result cache would."""
    from rowkeeper.sinks.folder_sink import FolderSink

    sink = FolderSink({"path": str(out)})
    ids = list(sink.documents())
    total = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for doc_id in ids:
            result = sink.read(doc_id)
            t0 = time.perf_counter()
            Path(tmp, doc_id).write_bytes(pickle.dumps(result))
            total += time.perf_counter() - t0
    return total / max(len(ids), 1)


def main() -> int:
    """Build the corpus, run twice, print the figures."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--docs", type=int, default=48)
    ap.add_argument("--rows", type=int, default=130)
    args = ap.parse_args()
    base = ROOT / "bench" / "out" / "reingest"
    shutil.rmtree(base, ignore_errors=True)
    pages = make_corpus(base / "in", args.docs, args.rows)
    print(f"corpus: {args.docs} documents, {pages} pages; load {os.getloadavg()[0]:.2f}")
    startup_cold = prefect_startup(base / "prefect-home")
    startup_warm = prefect_startup(base / "prefect-home")
    print(f"prefect start-up (empty flow, ephemeral server): cold {startup_cold:.1f} s, warm {startup_warm:.1f} s")
    wall1, rep1 = run_cli(base / "in", base / "out")
    t1 = rep1["totals"]
    print(f"first run: wall {wall1:.1f} s, flow work {t1['seconds']:.1f} s, {t1['ok']} ok, "
          f"{t1['pages']} pages, {t1['pages'] / wall1:.2f} pages/s wall")
    wall2, rep2 = run_cli(base / "in", base / "out")
    t2 = rep2["totals"]
    per1, per2 = t1["seconds"] / args.docs, t2["seconds"] / args.docs
    print(f"unchanged rerun: wall {wall2:.2f} s (python + imports included, no Prefect started), "
          f"work {t2['seconds']:.3f} s, {t2['skipped']} skipped")
    print(f"work per document: first {per1 * 1000:.1f} ms, rerun {per2 * 1000:.2f} ms, "
          f"ratio {per2 / per1:.2%} (target <= 2%)")
    print(f"rerun wall per document incl. process start: {wall2 / args.docs * 1000:.1f} ms "
          f"({wall2 / args.docs / (wall1 / args.docs):.2%} of first run's wall per document)")
    print(f"extraction cache write (pickle + file) per document: {cache_write_cost(base / 'out') * 1000:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
