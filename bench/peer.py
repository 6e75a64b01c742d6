"""Peer benchmark: rowkeeper over ../shared/corpus/peer, scored by ../shared/bench/peer_score.py.

    python bench/peer.py [--out DIR] [--config FILE] [--only REGEX] [--worst N] [--corpus DIR]

Runs the pipeline (flows.pipeline.process_document: classify -> cascade -> transforms) on
every PDF of the manifest once, writes DIR/tables.jsonl and DIR/documents.jsonl, then prints
peer_score's figures, the per-source breakdown, the worst cases and which layer each table
came from. The PDFs are read in place; nothing is copied into the repository.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rowkeeper.config import load_config  # noqa: E402
from rowkeeper.flows.pipeline import load_document, process_document  # noqa: E402
from rowkeeper.models import to_json_dict  # noqa: E402

# The shared folder sits beside the checkout (../shared), or beside the folder of worktrees.
SHARED = next((p / "shared" for p in ROOT.parents if (p / "shared" / "bench").is_dir()),
              ROOT.parent / "shared")
PEER = SHARED / "corpus" / "peer"
SCORER = SHARED / "bench" / "peer_score.py"


def run(manifest: list[dict], config_path: str | None, out: Path,
        corpus: Path = PEER) -> dict[str, float]:
    """Process every PDF of the manifest; write tables.jsonl/documents.jsonl; seconds per PDF."""
    config = load_config(config_path)
    out.mkdir(parents=True, exist_ok=True)
    seconds: dict[str, float] = {}
    pdfs = sorted({c["pdf"] for c in manifest})
    tables, documents = [], []
    for rel in pdfs:
        start = time.perf_counter()
        result = process_document(load_document(str(corpus / rel), rel), config)
        seconds[rel] = time.perf_counter() - start
        documents.append(json.dumps(to_json_dict(result.document), ensure_ascii=False))
        tables += [json.dumps(to_json_dict(t), ensure_ascii=False) for t in result.tables]
        if result.document.status != "ok":
            print(f"  FAILED {rel}: {result.document.error}", file=sys.stderr)
    # Written at the end: the pipeline may fork workers, which would flush open buffers twice.
    (out / "tables.jsonl").write_text("".join(t + "\n" for t in tables))
    (out / "documents.jsonl").write_text("".join(d + "\n" for d in documents))
    return seconds


def score(out: Path, only: str | None, corpus: Path = PEER) -> dict:
    """peer_score's JSON result (its own printout goes to our stdout)."""
    cmd = [sys.executable, str(SCORER), "--manifest", str(corpus / "manifest.json"),
           "--tables", str(out / "tables.jsonl"), "--json", str(out / "score.json")]
    if only:
        cmd += ["--only", only]
    subprocess.run(cmd, check=True)
    return json.loads((out / "score.json").read_text())


def layers_used(out: Path) -> collections.Counter:
    """How many tables each extractor produced (after the cascade)."""
    c: collections.Counter = collections.Counter()
    for line in open(out / "tables.jsonl"):
        c[json.loads(line)["extractor"]] += 1
    return c


def main() -> int:
    """Run, score and print the peer benchmark."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default="/tmp/rowkeeper-peer")
    ap.add_argument("--config", default=None)
    ap.add_argument("--only", default=None, help="regex over case ids")
    ap.add_argument("--worst", type=int, default=15)
    ap.add_argument("--corpus", type=Path, default=PEER,
                    help="a folder in the peer schema (manifest.json), e.g. ../shared/corpus/real-dev")
    args = ap.parse_args()
    manifest = json.loads((args.corpus / "manifest.json").read_text())
    if args.only:
        manifest = [c for c in manifest if re.search(args.only, c["id"])]
    out = Path(args.out)
    start = time.perf_counter()
    seconds = run(manifest, args.config, out, args.corpus)
    wall = time.perf_counter() - start
    result = score(out, args.only, args.corpus)
    print(f"\nprocessed {len(seconds)} PDFs in {wall:.1f} s; tables by layer: {dict(layers_used(out))}")
    cases = [r for r in result.get("results", []) if isinstance(r, dict)]
    key = next((k for k in ("accuracy", "cell_accuracy", "acc") if cases and k in cases[0]), None)
    if key:
        print("worst cases:")
        for c in sorted(cases, key=lambda c: c[key])[: args.worst]:
            print(f"  {c[key]:.3f}  {c.get('id')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
