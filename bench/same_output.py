"""Same output, less CPU? `process_document` of a base commit and of this tree on the same PDFs,
interleaved, compared record for record.

    python bench/same_output.py --base REV [--corpus peer|real-dev|DIR] [--every N] [--chunks K]

The PDFs (every N-th of the corpus, sorted by path) are split into K chunks; each chunk goes
through a fresh process of the base tree (a `git archive` copy of REV) and one of this tree, in
alternating order, so both see the same machine load. Each process reads its chunk's smallest
PDF once untimed (imports, first-use caches), then times every PDF with `process_time` (plus
waited children: Ghostscript, Tesseract). The figures are CPU seconds, a speed figure on a loaded
machine as long as both trees ran under the same load. The document record, tables, chunks
and text lines of each PDF are compared with every `seconds` field left out (the only field
that is a clock); the first differences are printed, those of the records a sink writes
(document, tables, chunks) first, and their count apart from the text lines' (a field added to
TextLine changes every PDF's lines). Exit status 1 when any PDF differs.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.same_tables import unclocked  # noqa: E402

SHARED_CORPORA = ("peer", "real-dev")


def _cpu() -> float:
    """CPU seconds of this process and its waited-for children."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def worker(tree: Path, pdfs: list[str], out: Path) -> None:
    """Process `pdfs` with the rowkeeper of `tree`; one JSON line per PDF into `out`."""
    sys.path.insert(0, str(tree))
    import rowkeeper
    from rowkeeper.config import load_config
    from rowkeeper.flows.pipeline import load_document, process_document

    assert Path(rowkeeper.__file__).parent.parent == tree, f"{rowkeeper.__file__} is not from {tree}"
    config = load_config(None)
    smallest = min(pdfs, key=lambda p: Path(p).stat().st_size)
    process_document(load_document(smallest), config)  # imports and first-use caches, not timed
    with out.open("w") as f:
        for pdf in pdfs:
            cpu = _cpu()
            result = process_document(load_document(pdf), config)
            used = _cpu() - cpu
            dumped = unclocked(result.model_dump(mode="json", exclude={"images"}))
            f.write(json.dumps({"pdf": pdf, "cpu": used, "pages": len(result.document.pages),
                                "result": dumped}, sort_keys=True) + "\n")


def corpus_pdfs(corpus: str, every: int) -> list[str]:
    """Every `every`-th PDF of a shared corpus (by name) or of a folder."""
    from bench.corpus_run import SHARED

    folder = SHARED / "corpus" / corpus if corpus in SHARED_CORPORA else Path(corpus)
    return [str(p) for p in sorted(folder.rglob("*.pdf"))][::every]


def _first_difference(a, b, path: str = "") -> str:
    """Where two JSON values first differ, as a path and the two values (shortened)."""
    if type(a) is not type(b) or not isinstance(a, dict | list):
        return f"{path}: {str(a)[:120]!r} != {str(b)[:120]!r}"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if a.get(k) != b.get(k):
                return _first_difference(a.get(k), b.get(k), f"{path}.{k}")
    if len(a) != len(b):
        return f"{path}: {len(a)} items != {len(b)} items"
    for i, (x, y) in enumerate(zip(a, b, strict=True)):
        if x != y:
            return _first_difference(x, y, f"{path}[{i}]")
    return path


def main() -> int:
    """Run both trees over the PDFs, interleaved; print CPU and differences."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", help="the commit to compare with")
    ap.add_argument("--corpus", default="peer")
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("--chunks", type=int, default=4)
    ap.add_argument("--worker", nargs=2, metavar=("TREE", "OUT"), help=argparse.SUPPRESS)
    ap.add_argument("pdfs", nargs="*", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(Path(args.worker[0]), args.pdfs, Path(args.worker[1]))
        return 0
    if not args.base:
        ap.error("--base is required")
    from bench.startup import base_tree

    work = Path(tempfile.mkdtemp(prefix="rk-same-"))
    trees = {"before": base_tree(args.base, work), "after": ROOT}
    pdfs = corpus_pdfs(args.corpus, args.every)
    chunks = [pdfs[i::args.chunks] for i in range(args.chunks) if pdfs[i::args.chunks]]
    records: dict[str, dict[str, dict]] = {name: {} for name in trees}
    start = time.perf_counter()
    for i, chunk in enumerate(chunks):
        order = list(trees) if i % 2 == 0 else list(trees)[::-1]
        for name in order:
            out = work / f"{name}-{i}.jsonl"
            env = dict(os.environ, PYTHONPATH=str(trees[name]))
            cwd = work / f"cwd-{name}"  # crops go under ./out: the same relative paths for both
            cwd.mkdir(exist_ok=True)
            subprocess.run([sys.executable, __file__, "--worker", str(trees[name]), str(out), *chunk],
                           check=True, env=env, cwd=cwd)
            for line in out.read_text().splitlines():
                rec = json.loads(line)
                records[name][rec["pdf"]] = rec
    return report(records, time.perf_counter() - start)


def report(records: dict[str, dict[str, dict]], wall: float) -> int:
    """Print CPU per page of both trees and the PDFs whose output differs."""
    before, after = records["before"], records["after"]
    pages = sum(r["pages"] for r in after.values())
    differ = [p for p in before if before[p]["result"] != after[p]["result"]]
    # what a sink writes (document record, tables, chunks) apart from the text lines: a field
    # added to TextLine changes every PDF's lines, and must not hide whether a table moved
    seen = [p for p in differ if _written(before[p]["result"]) != _written(after[p]["result"])]
    view = _written if seen else (lambda result: result)
    for pdf in (seen or differ)[:10]:
        print(f"DIFFERS {pdf}: {_first_difference(view(before[pdf]['result']), view(after[pdf]['result']))}")
    cpu_b, cpu_a = (sum(r["cpu"] for r in side.values()) for side in (before, after))
    n_tables = sum(len(r["result"]["tables"]) for r in after.values())
    n_chunks = sum(len(r["result"]["chunks"]) for r in after.values())
    print(f"{len(after)} PDFs, {pages} pages, {n_tables} tables, {n_chunks} chunks; {wall:.0f} s wall, "
          f"load {os.getloadavg()[0]:.1f} at the end")
    print(f"CPU s/page  before {cpu_b / max(pages, 1):.4f}  after {cpu_a / max(pages, 1):.4f}  "
          f"(after/before {cpu_a / max(cpu_b, 1e-9):.3f})")
    print(f"output: {len(after) - len(differ)} of {len(after)} PDFs identical; tables, chunks and "
          f"document records: {len(after) - len(seen)} of {len(after)} identical")
    return 1 if differ else 0


def _written(result: dict) -> dict:
    """A result less its text lines: the document record, tables and chunks."""
    return {k: v for k, v in result.items() if k != "lines"}


if __name__ == "__main__":
    sys.exit(main())
