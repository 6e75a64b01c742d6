"""Peer corpus speed, side by side in one run: rowkeeper, Camelot lattice->stream, the floor.

    python bench/peerspeed.py [--only REGEX] [--limit N] [--no-camelot] [--out DIR] [--config FILE]

For each PDF of ../shared/corpus/peer (one after the other, so the machine's load falls on
all three alike): PyMuPDF `get_text` of every page (the floor: reading the text at all),
rowkeeper's `process_document` (classify -> cascade -> transforms -> chunks), and Camelot's
`read_pdf` lattice on every page, then stream on the pages where lattice found no table (the
usual way to use Camelot without knowing a page's kind). Wall seconds and CPU seconds (this
process and its children: Tesseract, Ghostscript) per page, and each one's cell accuracy from
`../shared/bench/peer_score.py`. On a shared machine read the CPU columns and the ratios to
the floor; wall seconds are a speed figure only on a quiet one.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import re
import resource
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.corpus_run import SHARED, score  # noqa: E402
from rowkeeper.config import load_config  # noqa: E402
from rowkeeper.flows.pipeline import load_document, process_document  # noqa: E402
from rowkeeper.models import to_json_dict  # noqa: E402

PEER = SHARED / "corpus" / "peer"


def _cpu() -> float:
    """CPU seconds of this process and its waited-for children."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def timed(fn: Callable[[], list[dict]]) -> tuple[list[dict], float, float]:
    """fn()'s tables, wall seconds and CPU seconds."""
    wall, cpu = time.perf_counter(), _cpu()
    out = fn()
    return out, time.perf_counter() - wall, _cpu() - cpu


def floor(path: Path) -> list[dict]:
    """Every page's text through PyMuPDF (what reading the text layer costs at least)."""
    import pymupdf

    with pymupdf.open(path) as pdf:
        for page in pdf:
            page.get_text()
    return []


def rowkeeper_tables(path: Path, rel: str, config) -> list[dict]:
    """rowkeeper's logical tables of one PDF, as tables.jsonl records."""
    result = process_document(load_document(str(path), rel), config)
    return [to_json_dict(t) for t in result.tables]


def camelot_tables(path: Path, rel: str) -> list[dict]:
    """Camelot lattice on every page, stream where lattice found none; scorer records."""
    n = _page_count(path)
    found = _camelot(path, "lattice", "1-end")
    empty = sorted(set(range(1, n + 1)) - {int(t.page) for t in found})
    if empty:
        found += _camelot(path, "stream", ",".join(map(str, empty)))
    return [{"source": rel, "pages": [int(t.page)], "columns": [], "header_rows": 0,
             "rows": t.df.astype(str).values.tolist()} for t in found]


def _camelot(path: Path, flavor: str, pages: str) -> list:
    import camelot

    try:
        with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
            warnings.simplefilter("ignore")
            return list(camelot.read_pdf(str(path), pages=pages, flavor=flavor, suppress_stdout=True))
    except Exception as e:  # noqa: BLE001 - a page Camelot cannot read scores as no table
        print(f"  camelot {flavor} failed on {path.name}: {type(e).__name__}: {e}", file=sys.stderr)
        return []


def main() -> int:
    """Run the three side by side over the peer corpus and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="/tmp/rowkeeper-peerspeed")
    ap.add_argument("--config", default=None)
    ap.add_argument("--only", default=None, help="regex over case ids")
    ap.add_argument("--limit", type=int, default=0, help="first N PDFs only")
    ap.add_argument("--no-camelot", action="store_true")
    args = ap.parse_args()
    manifest = json.loads((PEER / "manifest.json").read_text())
    if args.only:
        manifest = [c for c in manifest if re.search(args.only, c["id"])]
    pdfs = sorted({c["pdf"] for c in manifest})[: args.limit or None]
    config = load_config(args.config)
    rowkeeper_tables(PEER / pdfs[0], pdfs[0], config)  # imports and first-use caches, not timed
    runners = {"floor (get_text)": lambda p, rel: floor(p),
               "rowkeeper": lambda p, rel: rowkeeper_tables(p, rel, config)}
    if not args.no_camelot:
        runners["camelot lattice->stream"] = camelot_tables
    totals = {name: [0.0, 0.0] for name in runners}
    tables: dict[str, list[dict]] = {name: [] for name in runners}
    pages = 0
    for rel in pdfs:
        pages += _page_count(PEER / rel)
        for name, fn in runners.items():
            out, wall, cpu = timed(lambda fn=fn, rel=rel: fn(PEER / rel, rel))
            totals[name][0] += wall
            totals[name][1] += cpu
            tables[name] += out
    accuracy = _scores(tables, Path(args.out), args.only, set(pdfs) if args.limit else None)
    _print(totals, accuracy, pages, len(pdfs))
    return 0


def _page_count(path: Path) -> int:
    import pymupdf

    with pymupdf.open(path) as pdf:
        return pdf.page_count


def _scores(tables: dict[str, list[dict]], out: Path, only: str | None,
            pdfs: set[str] | None) -> dict[str, str]:
    """peer_score's cell accuracy of each runner that returns tables."""
    manifest = json.loads((PEER / "manifest.json").read_text())
    ids = [c["id"] for c in manifest if (not only or re.search(only, c["id"])) and (pdfs is None or c["pdf"] in pdfs)]
    regex = "^(?:" + "|".join(re.escape(i) for i in ids) + ")$"
    out.mkdir(parents=True, exist_ok=True)
    accuracy = {}
    for name, records in tables.items():
        if name.startswith("floor"):
            continue
        slug = name.split()[0]
        (out / slug).mkdir(exist_ok=True)
        (out / slug / "tables.jsonl").write_text("".join(json.dumps(t, ensure_ascii=False) + "\n" for t in records))
        with contextlib.redirect_stdout(io.StringIO()):
            result = score(PEER, out / slug, regex)
        accuracy[name] = f"{result['peer_cell_accuracy']:.3f} (micro {result['peer_cell_micro']:.3f})"
    return accuracy


def _print(totals: dict[str, list[float]], accuracy: dict[str, str], pages: int, n_pdfs: int) -> None:
    base_wall, base_cpu = (v / pages for v in totals["floor (get_text)"])
    print(f"\npeer corpus: {n_pdfs} PDFs, {pages} pages, each PDF through all runners in turn")
    print(f"{'':26} {'wall s/page':>11} {'CPU s/page':>11} {'x floor (CPU)':>13}  accuracy")
    for name, (wall, cpu) in totals.items():
        ratio = cpu / pages / base_cpu if base_cpu else float("nan")
        print(f"{name:26} {wall / pages:11.4f} {cpu / pages:11.4f} {ratio:13.1f}  {accuracy.get(name, '')}")
    print(f"(floor: {base_wall:.4f} s/page wall, {base_cpu:.4f} CPU)")


if __name__ == "__main__":
    sys.exit(main())
