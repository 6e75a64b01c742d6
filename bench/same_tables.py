"""Same output? Two run folders' tables.jsonl, chunks.jsonl and documents.jsonl compared line
for line, every `seconds` field (a clock, the only one) left out.

    python bench/same_tables.py OUT_A OUT_B [--quiet]

Prints per file "same" or "different" with the count of differing records; with --quiet it
prints no record's content (for splits whose per-document output is not to be read: zoo test
and holdout, real-dev's test part), else the first difference's source and record index.
Exit status 1 when any file differs or is missing in one folder only.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

FILES = ("tables.jsonl", "chunks.jsonl", "documents.jsonl")


def unclocked(value):
    """`value` with every `seconds` key dropped, at any depth."""
    if isinstance(value, dict):
        return {k: unclocked(v) for k, v in value.items() if k != "seconds"}
    if isinstance(value, list):
        return [unclocked(v) for v in value]
    return value


def records(path: Path) -> list:
    return [unclocked(json.loads(line)) for line in path.read_text().splitlines() if line.strip()]


def compare(a: Path, b: Path, name: str, quiet: bool) -> bool:
    """Whether file `name` is the same in run folders `a` and `b` (the outcome printed)."""
    pa, pb = a / name, b / name
    if not pa.exists() and not pb.exists():
        print(f"{name}: in neither")
        return True
    if not pa.exists() or not pb.exists():
        print(f"{name}: in one folder only")
        return False
    ra, rb = records(pa), records(pb)
    diff = [i for i, (x, y) in enumerate(zip(ra, rb, strict=False)) if x != y]
    if not diff and len(ra) == len(rb):
        print(f"{name}: same ({len(ra)} records)")
        return True
    where = "" if quiet or not diff else f"; first at record {diff[0]} ({ra[diff[0]].get('source')})"
    print(f"{name}: different ({len(ra)} vs {len(rb)} records, {len(diff)} differ{where})")
    return False


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("a", type=Path)
    ap.add_argument("b", type=Path)
    ap.add_argument("--quiet", action="store_true", help="say same/different only, no record named")
    args = ap.parse_args()
    ok = [compare(args.a, args.b, name, args.quiet) for name in FILES]
    return 0 if all(ok) else 1


if __name__ == "__main__":
    sys.exit(main())
