"""Which zoo documents read better or worse? Two zoo run folders (`bench/zoo.py --out`) scored
document by document against the zoo's truth (`bench.zoo.score.score_doc`).

    python bench/zoo_compare.py BASE AFTER [--corpus DIR]

Prints each document of BASE whose tables differ in AFTER: `up` or `down` when its matched
cells plus right column names moved, `boxes` when only the output changed (a cell box, a
type), with the figures (tables found, cells, column names, captions, sections) before and
after. Only for tunable splits: test and holdout documents are not to be read one by one.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.zoo.score import score_doc  # noqa: E402


def _tables(folder: Path) -> dict[str, list[dict]]:
    """The run's tables by document name."""
    out: dict[str, list[dict]] = defaultdict(list)
    for line in open(folder / "tables.jsonl", encoding="utf-8"):
        t = json.loads(line)
        out[Path(t["source"]).stem].append(t)
    return out


def _figures(truth: dict, got: list[dict]) -> tuple[int, ...]:
    t = score_doc(truth, got)
    return t.found, t.cells_ok, t.columns_ok, t.captions_ok, t.sections_ok


def main() -> int:
    """Print the documents that changed between two zoo runs."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("base", type=Path)
    ap.add_argument("after", type=Path)
    ap.add_argument("--corpus", type=Path, default=Path(__file__).resolve().parent / "out" / "zoo")
    args = ap.parse_args()
    base, after = _tables(args.base), _tables(args.after)
    docs = [Path(json.loads(ln)["source"]).stem for ln in open(args.base / "documents.jsonl", encoding="utf-8")]
    for doc in docs:
        if json.dumps(base.get(doc), sort_keys=True) == json.dumps(after.get(doc), sort_keys=True):
            continue
        truth = json.loads((args.corpus / f"{doc}.json").read_text(encoding="utf-8"))
        if truth.get("split") in ("test", "holdout"):
            continue
        a, b = _figures(truth, base.get(doc, [])), _figures(truth, after.get(doc, []))
        kind = "up" if b[1] + b[2] > a[1] + a[2] else "down" if b[1] + b[2] < a[1] + a[2] else "boxes"
        print(f"{kind:6} {doc}  found/cells/names/captions/sections {a} -> {b}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
