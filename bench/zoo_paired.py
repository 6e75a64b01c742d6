"""Two zoo runs scored on the documents neither one cut at the page deadline.

    python bench/zoo_paired.py RUN_A RUN_B [--corpus bench/out/zoo] [--summary]

RUN_A and RUN_B are `bench/zoo.py --out` folders over the same documents (say, `--scan` before
and after a change). The OCR layer's page budget is wall-clock time, so on a loaded machine a
long document's pages can pass it in one run and not the other; comparing the runs as they
are then measures the load. This scores both on the documents where no attempt of either run
was stopped by the deadline (named, except with --summary) and prints the zoo's figures.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.zoo.corpus import SPLITS  # noqa: E402
from bench.zoo.score import score_all  # noqa: E402


def load(run: Path) -> tuple[list[str], dict[str, list[dict]], set[str]]:
    """The run's documents in order, its tables by document, and the documents cut at the deadline."""
    docs, cut = [], set()
    for line in (run / "documents.jsonl").read_text().splitlines():
        d = json.loads(line)
        docs.append(d["source"].removesuffix(".pdf"))
        if any("deadline" in (a.get("reason") or "") for a in d["attempts"]):
            cut.add(docs[-1])
    tables: dict[str, list[dict]] = {d: [] for d in docs}
    for line in (run / "tables.jsonl").read_text().splitlines():
        t = json.loads(line)
        tables[t["source"].removesuffix(".pdf")].append(t)
    return docs, tables, cut


def main() -> int:
    """Score both runs on their documents that no deadline cut."""
    import importlib.util  # zoo.py is a script beside the bench.zoo package: loaded by path

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--corpus", default=str(ROOT / "bench" / "out" / "zoo"))
    ap.add_argument("--summary", action="store_true", help="count the left-out documents, do not name them")
    args = ap.parse_args()
    spec = importlib.util.spec_from_file_location("zoo_main", ROOT / "bench" / "zoo.py")
    zoo = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(zoo)
    da, ta, ca = load(Path(args.a))
    _, tb, cb = load(Path(args.b))
    keep = [d for d in da if d not in ca | cb and d in tb]
    left = len(ca | cb) if args.summary else sorted(ca | cb)
    print(f"{len(keep)} of {len(da)} documents; left out (cut at the page deadline in either run): {left}")
    truths = [json.loads((Path(args.corpus) / f"{d}.json").read_text()) for d in keep]
    splits = [s for s in SPLITS if any(t["split"] == s for t in truths)]
    for run, tables in ((args.a, ta), (args.b, tb)):
        print(f"\n### {run}")
        zoo.print_figures(score_all(truths, {d: tables[d] for d in keep}, set()), splits)
    return 0


if __name__ == "__main__":
    sys.exit(main())
