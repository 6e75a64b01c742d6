"""Do the zoo's documents stay byte for byte what a base revision wrote?

    python bench/zoo_unchanged.py [--base REV] [--splits dev,test,dev17]

Writes every document of the base's families in the named splits twice, in memory: with the
generator of the working tree and with the base's (its bench/ taken out by `git archive` into a
temporary folder), and compares the SHA-256 of each PDF and of its truth JSON (as
bench/zoo/corpus.materialize writes it). A family appended after the base must leave the
others alone (the language rotation follows a family's index, the seeds its name); this says
whether it did. Exit status 1 when any document differs or is missing.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

LISTER = """
import hashlib, json, sys
from bench.zoo.corpus import TUNE_ONLY, build, plan
families, splits = sys.argv[1].split(","), sys.argv[2].split(",")
for d in plan(extra=True, tune_only=tuple(s for s in splits if s in TUNE_ONLY)):
    if d.family in families and d.split in splits:
        pdf = build(d)
        truth = json.dumps(d.to_json(), ensure_ascii=False).encode()
        print(d.doc, hashlib.sha256(pdf).hexdigest(), hashlib.sha256(truth).hexdigest())
"""
FAMILIES = "from bench.zoo.families import FAMILIES; print(','.join(FAMILIES))"


def _python(tree: Path, code: str, *args: str) -> str:
    return subprocess.run([sys.executable, "-c", code, *args], cwd=tree, check=True,
                          capture_output=True, text=True, env={"PYTHONPATH": str(tree),
                                                               "PATH": "/usr/bin:/bin"}).stdout


def hashes(tree: Path, families: str, splits: str) -> dict[str, tuple[str, str]]:
    """Document name -> (PDF hash, truth hash) as the generator in `tree` writes them."""
    out = {}
    for line in _python(tree, LISTER, families, splits).splitlines():
        doc, pdf, truth = line.split()
        out[doc] = (pdf, truth)
    return out


def main() -> int:
    """Compare the base's documents with the working tree's; print the count and differences."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", default="main", help="git revision whose generator is the reference")
    ap.add_argument("--splits", default="dev,test,dev17")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.base, "bench"],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        families = _python(Path(tmp), FAMILIES).strip()
        base = hashes(Path(tmp), families, args.splits)
    head = hashes(ROOT, families, args.splits)
    changed = sorted(d for d in base if head.get(d) != base[d])
    print(f"zoo_unchanged: {len(base)} documents of {families.count(',') + 1} families "
          f"({args.splits}) at {args.base}; {len(base) - len(changed)} identical (PDF and truth), "
          f"{len(changed)} differ or are missing")
    for d in changed[:20]:
        print(f"  {d}: base {base[d][0][:12]}/{base[d][1][:12]}, "
              f"here {head.get(d, ('-', '-'))[0][:12]}/{head.get(d, ('-', '-'))[1][:12]}")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
