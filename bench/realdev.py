"""real-dev benchmark: rowkeeper over ../shared/corpus/real-dev (44 real PDFs with known tables
from other projects' test suites and public documents), scored by ../shared/bench/peer_score.py,
in a dev half (tune on it) and a test half (only measure).

    python bench/realdev.py [--split dev|test|all] [--out DIR] [--config FILE] [--worst N]

A case belongs to dev or test by the sha256 of its id (even/odd first byte), so the halves
never change when cases are added. Every selected PDF is run once (bench/corpus_run.py, shared
with bench/peer.py); peer_score is then run on each half; the figures of both halves and their
gap are printed, and the invariants (bench/invariants.py) of each half. The test half prints
its summary figures and its violation count only: it is measured, never inspected case by case.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.corpus_run import SHARED, layers_used, print_worst, run, score  # noqa: E402
from bench.invariants import print_violations  # noqa: E402

REAL_DEV = SHARED / "corpus" / "real-dev"


def split_of(case_id: str) -> str:
    """dev or test, from the hash of the case id."""
    return "dev" if hashlib.sha256(case_id.encode()).digest()[0] % 2 == 0 else "test"


def id_regex(ids: list[str]) -> str:
    """A peer_score --only regex selecting exactly these case ids."""
    return "^(?:" + "|".join(re.escape(i) for i in ids) + ")$"


def main() -> int:
    """Run, score and print real-dev by split."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", choices=("dev", "test", "all"), default="all")
    ap.add_argument("--out", default="/tmp/rowkeeper-realdev")
    ap.add_argument("--config", default=None)
    ap.add_argument("--worst", type=int, default=8)
    args = ap.parse_args()
    manifest = [c for c in json.loads((REAL_DEV / "manifest.json").read_text())
                if args.split == "all" or split_of(c["id"]) == args.split]
    out = Path(args.out)
    start = time.perf_counter()
    seconds, violations = run(REAL_DEV, manifest, args.config, out)
    wall = time.perf_counter() - start
    figures = {}
    for s in ("dev", "test"):
        ids = [c["id"] for c in manifest if split_of(c["id"]) == s]
        if not ids:
            continue
        print(f"\n== real-dev {s} ({len(ids)} cases{'' if s == 'dev' else ', summary only'})")
        figures[s] = score(REAL_DEV, out, id_regex(ids), name=f"score-{s}", cases=s == "dev")
        if s == "dev":
            print_worst(figures[s], args.worst)
    print(f"\nprocessed {len(seconds)} PDFs in {wall:.1f} s (machine shared); "
          f"tables by layer: {dict(layers_used(out))}")
    for s, f in figures.items():
        print(f"real-dev {s:<4}: cell accuracy {f['peer_cell_accuracy']:.3f} (micro "
              f"{f['peer_cell_micro']:.3f}), tables found {f['tables_found']}/{f['tables']}, "
              f"{f['cases']} cases")
    if len(figures) == 2:
        gap = figures["dev"]["peer_cell_accuracy"] - figures["test"]["peer_cell_accuracy"]
        print(f"real-dev gap (dev - test): {gap:+.3f}")
    pdf_split = {c["pdf"]: split_of(c["id"]) for c in manifest}
    for s in ("dev", "test"):
        mine = [v for v in violations if pdf_split.get(v.split(": ", 1)[0]) == s]
        print_violations(mine, f"real-dev {s}", show=20 if s == "dev" else 0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
