"""Peer benchmark: rowkeeper over ../shared/corpus/peer, scored by ../shared/bench/peer_score.py.

    python bench/peer.py [--out DIR] [--config FILE] [--only REGEX] [--worst N]

Runs the pipeline (flows.pipeline.process_document: classify -> cascade -> transforms) on
every PDF of the manifest once, writes DIR/tables.jsonl and DIR/documents.jsonl, then prints
peer_score's figures, the per-source breakdown, the worst cases, which layer each table
came from and the invariants (bench/invariants.py). The PDFs are read in place; nothing is
copied into the repository. Running and scoring are shared with bench/realdev.py
(bench/corpus_run.py).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.corpus_run import SHARED, layers_used, print_worst, run, score  # noqa: E402
from bench.invariants import print_violations  # noqa: E402

PEER = SHARED / "corpus" / "peer"


def main() -> int:
    """Run, score and print the peer benchmark."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default="/tmp/rowkeeper-peer")
    ap.add_argument("--config", default=None)
    ap.add_argument("--only", default=None, help="regex over case ids")
    ap.add_argument("--worst", type=int, default=15)
    args = ap.parse_args()
    manifest = json.loads((PEER / "manifest.json").read_text())
    if args.only:
        manifest = [c for c in manifest if re.search(args.only, c["id"])]
    out = Path(args.out)
    start = time.perf_counter()
    seconds, violations = run(PEER, manifest, args.config, out)
    wall = time.perf_counter() - start
    result = score(PEER, out, args.only)
    print(f"\nprocessed {len(seconds)} PDFs in {wall:.1f} s; tables by layer: {dict(layers_used(out))}")
    print_worst(result, args.worst)
    print_violations(violations, "peer")
    return 0


if __name__ == "__main__":
    sys.exit(main())
