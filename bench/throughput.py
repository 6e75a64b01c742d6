"""Throughput: pages/s end to end on a generated text corpus, beside the PyMuPDF get_text floor.

    python bench/throughput.py [--docs 10] [--pages-per-doc 22] [--workdir DIR] [--no-run]
                               [--base REV] [--runner local] [--workers 1|auto|default] [--prefect]
                               [--prose [--stages]] [--repeat N]

The corpus is mostly prose pages with some ruled and borderless tables (about one page in
six holds a table), built with samples/pdfgen.py. "End to end" is flows.pipeline's
process_document (classify -> cascade -> transforms -> chunks) plus serialising the results to
JSONL, in one process; "floor" is PyMuPDF opening each file and calling get_text on every page.

Then (unless --no-run) `rowkeeper run` on the same corpus as a whole process (fresh --out,
start-up included), on this tree and, with --base REV, on that commit too (interleaved, one
run under one load). Orchestration per document = (the run's reported seconds - its start-up -
the sum of the bare per-document work above) / documents: what the flow adds around the work
(task runs, the worker round trips, sinks, report). Start-up is the run's own `startup_seconds`
(process start to flow start); the reported seconds end when the report is written, and "exit"
is the rest of the wall (stopping the server and workers). Use `--workers 1` for that figure:
with more workers the work overlaps. `--prefect` adds a run of this tree through the Prefect
flow (`runner.prefect: always`; a local run with no Prefect API configured has no Prefect).

`--prose` measures the per-page path of pages without a table candidate instead: the same
corpus less its tables, each document read by process_document and by get_text alternately
(best of 3 each), so the ms/page ratio holds even on a loaded machine; `--stages` then prints
the CPU per page of each step; with `--base REV`, REV's ratio and this tree's, alternated.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pymupdf  # noqa: E402

from rowkeeper.config import load_config  # noqa: E402
from rowkeeper.flows.pipeline import load_document, process_document  # noqa: E402
from rowkeeper.flows.shared_server import stopping_new_servers  # noqa: E402
from rowkeeper.models import to_json_dict  # noqa: E402
from samples.pdfgen import (  # noqa: E402
    DocSpec,
    Heading,
    PageBreak,
    Paragraph,
    TableSpec,
    build_pdf,
    numbers_rows,
)

WORDS = ("contract tenant payment schedule invoice clause liability period notice building "
         "maintenance reserve owner committee annual report revenue region quarter").split()


def _prose(rng: random.Random, n_words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n_words)).capitalize() + "."


def corpus_spec(seed: int, pages: int, tables: bool = True) -> DocSpec:
    """One document of about `pages` pages: prose, with a table on every sixth page (`tables`)."""
    rng = random.Random(seed)
    blocks: list = []
    for p in range(pages):
        blocks.append(Heading(f"{p + 1}. Section {p + 1}", level=2))
        if tables and p % 6 == 3:
            blocks.append(TableSpec(header=[["Item", "Amount", "Reserve", "Count"]],
                                    rows=numbers_rows(12, seed=seed + p, cols=4),
                                    ruled=(p % 12 == 3), caption=f"Table {p + 1} Amounts"))
        for _ in range(5):
            blocks.append(Paragraph(_prose(rng, 70)))
        blocks.append(PageBreak())
    return DocSpec(blocks=blocks[:-1], title=f"Handbook {seed}", page_numbers=True)


def build_corpus(folder: Path, docs: int, pages: int, tables: bool = True) -> list[Path]:
    """Write the corpus PDFs into `folder` (reused when already there)."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for i in range(docs):
        path = folder / f"handbook_{i:02d}.pdf"
        if not path.exists():
            path.write_bytes(build_pdf(corpus_spec(i, pages, tables)))
        out.append(path)
    return out


def floor(paths: list[Path]) -> tuple[int, float]:
    """(pages, seconds) for PyMuPDF get_text over every page."""
    start, n = time.perf_counter(), 0
    for p in paths:
        with pymupdf.open(p) as pdf:
            for page in pdf:
                page.get_text()
                n += 1
    return n, time.perf_counter() - start


def rowkeeper_run(tree: Path, corpus: Path, out: Path, runner: str, workers: str,
                  prefect: str = "auto") -> dict[str, float]:
    """`rowkeeper run` from `tree` as a whole process: wall, and the report's seconds and start-up.
    `prefect`: runner.prefect (only passed when not auto: older trees do not have it);
    `workers`: a count, auto, or default (not set: each tree's own default)."""
    shutil.rmtree(out, ignore_errors=True)
    cfg = out.parent / f"{out.name}.yaml"
    settings: dict[str, object] = {"type": runner}
    if workers != "default":
        settings["workers"] = int(workers) if workers.isdigit() else workers
    if prefect != "auto":
        settings["prefect"] = prefect
    cfg.write_text(json.dumps({"runner": settings}))
    cmd = [sys.executable, "-m", "rowkeeper.cli", "run", str(corpus), "--out", str(out),
           "--config", str(cfg), "--no-progress"]
    start, cpu = time.monotonic(), _children_cpu()
    # cwd=tree: `python -m` puts the working directory ahead of PYTHONPATH on sys.path
    got = subprocess.run(cmd, env=dict(os.environ, PYTHONPATH=str(tree)), cwd=tree,
                         capture_output=True, text=True, timeout=3600)
    wall, cpu = time.monotonic() - start, _children_cpu() - cpu
    if got.returncode != 0:
        raise SystemExit(f"rowkeeper run failed ({got.returncode}): {got.stderr[-1500:]}")
    report = json.loads((out / "report.json").read_text())
    totals = report["totals"]
    return {"wall": wall, "cpu": cpu, "seconds": float(totals["seconds"]), "docs": float(totals["documents"]),
            "startup": float(report.get("startup_seconds") or 0.0), "ok": float(totals["ok"])}


def _children_cpu() -> float:
    """CPU seconds of this process's finished children and theirs (the run and its workers)."""
    import resource

    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def end_to_end(paths: list[Path], out: Path) -> tuple[int, int, float, dict[str, int]]:
    """(pages, tables, seconds, attempts per extractor) for the whole pipeline, one process."""
    config = load_config()
    start, pages, tables = time.perf_counter(), 0, 0
    attempts: dict[str, int] = {}
    with open(out / "tables.jsonl", "w") as tf, open(out / "chunks.jsonl", "w") as cf:
        for p in paths:
            tf.flush()  # the pipeline may fork workers: never leave a buffer for them to copy
            cf.flush()
            result = process_document(load_document(str(p), p.name), config)
            assert result.document.status == "ok", result.document.error
            pages += len(result.document.pages)
            tables += len(result.tables)
            for a in result.document.attempts:
                attempts[a.extractor] = attempts.get(a.extractor, 0) + len(a.pages)
            for t in result.tables:
                tf.write(json.dumps(to_json_dict(t), ensure_ascii=False) + "\n")
            for c in result.chunks:
                cf.write(json.dumps(to_json_dict(c), ensure_ascii=False) + "\n")
    return pages, tables, time.perf_counter() - start, attempts


def prose_pages(paths: list[Path], rounds: int = 3) -> tuple[int, float, float]:
    """(pages, best seconds of process_document, best seconds of get_text) summed over the
    documents, the two read alternately per document so that load hits both alike."""
    config = load_config()
    pages, ours, theirs = 0, 0.0, 0.0
    for p in paths:
        best_ours, best_theirs = float("inf"), float("inf")
        for _ in range(rounds):
            start = time.perf_counter()
            result = process_document(load_document(str(p), p.name), config)
            best_ours = min(best_ours, time.perf_counter() - start)
            start = time.perf_counter()
            with pymupdf.open(p) as pdf:
                for page in pdf:
                    page.get_text()
            best_theirs = min(best_theirs, time.perf_counter() - start)
        assert result.document.status == "ok" and not result.tables, result.document.error
        pages += len(result.document.pages)
        ours, theirs = ours + best_ours, theirs + best_theirs
    return pages, ours, theirs


def main_prose(work: Path, docs: int, pages: int, stages: bool = False) -> int:
    """Print ms per prose page, rowkeeper's process_document against PyMuPDF get_text;
    `stages`: then the CPU per page of each step of the per-page path, in a separate pass."""
    paths = build_corpus(work / "prose", docs, pages, tables=False)
    prose_pages(paths[:1], rounds=1)  # warm imports and the file cache
    n, ours, theirs = prose_pages(paths)
    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f} (1-minute)")
    print(f"prose corpus: {len(paths)} PDFs, {n} pages, no table")
    print(f"process_document: {1000 * ours / n:.2f} ms/page")
    print(f"get_text floor:   {1000 * theirs / n:.2f} ms/page")
    print(f"ratio process_document / get_text: {ours / theirs:.2f}")
    if stages:
        from bench.stages import TEXT_STAGES, StageClock

        config = load_config()
        with StageClock(TEXT_STAGES) as clock:  # wrapped calls cost a little: not the ratio's run
            for p in paths:
                process_document(load_document(str(p), p.name), config)
        cpu = time.process_time()
        floor(paths)
        _print_stages(clock, n, (time.process_time() - cpu) / n)
    return 0


def prose_before_after(base: str, work: Path, docs: int, pages: int, rounds: int = 2) -> int:
    """`--prose` of commit `base` and of this tree, alternated `rounds` times (same load for both)."""
    from bench.startup import base_tree

    trees = {"before": base_tree(base, work), "after": ROOT}
    ratios: dict[str, list[float]] = {name: [] for name in trees}
    for _ in range(rounds):
        for name, tree in trees.items():
            got = subprocess.run([sys.executable, str(tree / "bench" / "throughput.py"), "--prose",
                                  "--docs", str(docs), "--pages-per-doc", str(pages), "--workdir", str(work)],
                                 env=dict(os.environ, PYTHONPATH=str(tree)), cwd=tree, capture_output=True,
                                 text=True, timeout=3600, check=True)
            line = next(ln for ln in got.stdout.splitlines() if ln.startswith("ratio process_document"))
            ratios[name].append(float(line.rsplit(":", 1)[1]))
    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f} (1-minute)")
    for name, got in ratios.items():
        print(f"prose page, process_document / get_text ({name}): {', '.join(f'{r:.2f}' for r in got)}")
    return 0


def _print_stages(clock, pages: int, floor_s: float) -> None:  # noqa: ANN001 - bench.stages.StageClock
    """CPU ms per page by step, largest first, each also as a multiple of get_text's CPU per page."""
    own, _ = clock.totals()
    rows = sorted(clock.seconds.items(), key=lambda kv: -kv[1])
    rows.append(("(rest: unstaged python)", own - sum(clock.seconds.values())))
    print(f"CPU per prose page by step (total {1000 * own / pages:.2f} ms = {own / pages / floor_s:.2f}x "
          f"get_text's {1000 * floor_s:.2f} ms of CPU; x: multiple of get_text's page):")
    for stage, s in rows:
        print(f"    {stage:28s} {1000 * s / pages:6.2f} ms  {s / pages / floor_s:5.2f}x"
              f"  ({clock.calls.get(stage, 0) / pages:.1f} calls/page)")


def main() -> int:
    """Build the corpus, time the floor and the pipeline, print both and their ratio; then the run."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--docs", type=int, default=10)
    ap.add_argument("--pages-per-doc", type=int, default=22)
    ap.add_argument("--workdir", default=str(Path(tempfile.gettempdir()) / "rowkeeper-throughput"))
    ap.add_argument("--prose", action="store_true", help="ms per prose page against get_text, one run")
    ap.add_argument("--stages", action="store_true", help="with --prose: CPU per page by step")
    ap.add_argument("--no-run", action="store_true", help="skip the `rowkeeper run` part")
    ap.add_argument("--base", help="also run `rowkeeper run` from this commit (before/after)")
    ap.add_argument("--runner", default="local")
    ap.add_argument("--workers", default="1", help="a count, auto, or default (each tree's own)")
    ap.add_argument("--repeat", type=int, default=1, help="run the trees this many times, interleaved")
    ap.add_argument("--prefect", action="store_true",
                    help="also run this tree through Prefect (runner.prefect: always)")
    args = ap.parse_args()
    work = Path(args.workdir)
    if args.prose and args.base:
        return prose_before_after(args.base, work, args.docs, args.pages_per_doc)
    if args.prose:
        return main_prose(work, args.docs, args.pages_per_doc, args.stages)
    paths = build_corpus(work / f"pdfs-{args.docs}x{args.pages_per_doc}", args.docs, args.pages_per_doc)
    floor(paths[:1])  # warm the imports and the file cache for both runs alike
    n_floor, t_floor = floor(paths)
    n, n_tables, t, attempts = end_to_end(paths, work)
    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f} (1-minute)")
    print(f"corpus: {len(paths)} PDFs, {n} pages, {n_tables} tables")
    print(f"floor (PyMuPDF get_text): {n_floor / t_floor:.1f} pages/s ({t_floor:.2f} s)")
    print(f"end to end:               {n / t:.1f} pages/s ({t:.2f} s)")
    print(f"ratio end-to-end / floor: {(n / t) / (n_floor / t_floor):.3f}")
    print(f"pages per extractor attempt: {attempts}")
    if not args.no_run:
        _print_runs(args, paths[0].parent, work, n, t, t_floor)
    return 0


def _print_runs(args: argparse.Namespace, corpus: Path, work: Path, pages: int, bare: float,
                t_floor: float) -> None:
    """`rowkeeper run` on this tree (and --base), with orchestration ms/document and x floor."""
    trees = {"after": ROOT}
    if args.base:
        from bench.startup import base_tree

        trees = {"before": base_tree(args.base, work), "after": ROOT}
    runs = [(name, tree, "auto") for name, tree in trees.items()]
    if args.prefect:
        runs.append(("after, through Prefect", ROOT, "always"))
    # a run through Prefect (--prefect, Dask, Ray) starts the shared server if none is up: the
    # later runs reuse it, and it is stopped at the end instead of idling for 600 s
    with stopping_new_servers():
        for name, tree, prefect in [run for _ in range(args.repeat) for run in runs]:
            r = rowkeeper_run(tree, corpus, work / f"run-{name.replace(' ', '_').replace(',', '')}",
                              args.runner, args.workers, prefect)
            # the flow's span: from its start to the report written (process exit not included)
            orchestration = (r["seconds"] - r["startup"] - bare) / max(r["docs"], 1)
            print(f"rowkeeper run ({name}, {args.runner} x{args.workers}): wall {r['wall']:.2f} s "
                  f"({pages / r['wall']:.1f} pages/s, {r['wall'] / t_floor:.1f}x the floor), CPU "
                  f"{r['cpu']:.2f} s, start-up {r['startup']:.2f} s, reported {r['seconds']:.2f} s, exit "
                  f"{r['wall'] - r['seconds']:.2f} s, {r['ok']:.0f}/{r['docs']:.0f} ok; "
                  f"orchestration {1000 * orchestration:.0f} ms/document", flush=True)


if __name__ == "__main__":
    sys.exit(main())
