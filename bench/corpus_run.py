"""Running rowkeeper over a real corpus with a peer-style manifest, scoring it with the shared
peer_score.py, and checking the invariants: the part bench/peer.py and bench/realdev.py share.

The corpora live in the project's `shared/` folder, beside the checkout (`../shared`) or, for a
worktree, beside one of its parent folders; ROWKEEPER_SHARED names it explicitly.
"""

from __future__ import annotations

import collections
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.invariants import check_document  # noqa: E402
from rowkeeper.config import load_config  # noqa: E402
from rowkeeper.flows.pipeline import load_document, process_document  # noqa: E402
from rowkeeper.models import to_json_dict  # noqa: E402


def find_shared() -> Path:
    """The shared folder: $ROWKEEPER_SHARED, else the nearest `shared/` holding a scorer."""
    if os.environ.get("ROWKEEPER_SHARED"):
        return Path(os.environ["ROWKEEPER_SHARED"])
    for up in ROOT.parents:
        if (up / "shared" / "bench" / "peer_score.py").exists():
            return up / "shared"
    return ROOT.parent / "shared"


SHARED = find_shared()
SCORER = SHARED / "bench" / "peer_score.py"


def run(corpus: Path, manifest: list[dict], config_path: str | None,
        out: Path) -> tuple[dict[str, float], list[str]]:
    """Process every PDF of the manifest; write tables.jsonl/documents.jsonl; seconds per PDF
    and the invariant violations."""
    config = load_config(config_path)
    out.mkdir(parents=True, exist_ok=True)
    seconds: dict[str, float] = {}
    pdfs = sorted({c["pdf"] for c in manifest})
    tables, documents, violations = [], [], []
    for rel in pdfs:
        start = time.perf_counter()
        result = process_document(load_document(str(corpus / rel), rel), config)
        seconds[rel] = time.perf_counter() - start
        documents.append(json.dumps(to_json_dict(result.document), ensure_ascii=False))
        records = [to_json_dict(t) for t in result.tables]
        tables += [json.dumps(t, ensure_ascii=False) for t in records]
        violations += check_document(rel, str(corpus / rel), records)
        if result.document.status != "ok":
            print(f"  FAILED {rel}: {result.document.error}", file=sys.stderr)
    # Written at the end: the pipeline may fork workers, which would flush open buffers twice.
    (out / "tables.jsonl").write_text("".join(t + "\n" for t in tables))
    (out / "documents.jsonl").write_text("".join(d + "\n" for d in documents))
    return seconds, violations


def score(corpus: Path, out: Path, only: str | None, name: str = "score", cases: bool = True) -> dict:
    """peer_score's JSON result (its own printout goes to our stdout; with `cases` False only
    its summary lines, for a split that is measured and never inspected case by case)."""
    cmd = [sys.executable, str(SCORER), "--manifest", str(corpus / "manifest.json"),
           "--tables", str(out / "tables.jsonl"), "--json", str(out / f"{name}.json")]
    if only:
        cmd += ["--only", only]
    sys.stdout.flush()
    done = subprocess.run(cmd, check=True, capture_output=not cases, text=True)
    if not cases:
        print("".join(ln + "\n" for ln in done.stdout.splitlines() if ln.startswith(("quality=", "peer_cell"))),
              end="")
    return json.loads((out / f"{name}.json").read_text())


def layers_used(out: Path) -> collections.Counter:
    """How many tables each extractor produced (after the cascade)."""
    c: collections.Counter = collections.Counter()
    for line in open(out / "tables.jsonl"):
        c[json.loads(line)["extractor"]] += 1
    return c


def print_worst(result: dict, n: int) -> None:
    """The n cases with the lowest cell accuracy."""
    cases = [r for r in result.get("results", []) if isinstance(r, dict)]
    if cases and n:
        print("worst cases:")
        for c in sorted(cases, key=lambda c: c["accuracy"])[:n]:
            print(f"  {c['accuracy']:.3f}  {c.get('id')}")
