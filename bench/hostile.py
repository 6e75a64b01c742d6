"""Hostile benchmark: malformed PDFs made by generated damage (tests/hostile/generate.py:
truncation, bit flips, broken xrefs, encryption, bombs, giant pages, loops, active content,
non-PDF bytes) through the real `rowkeeper run`.

    python bench/hostile.py [--heavy] [--workers N] [--part dev|test|all] [--keep DIR]
    python bench/hostile.py --ratios OUT [--top N]    # the output bound of any run folder

Prints, per part: every input recorded once (yes/no), ok / failed counts, failure reasons
grouped, documents with warnings, text-only second readings and per-page deadlines, output
characters (and bytes) per character of PDF text (max, p95), peak RSS of the flow process and of
any process of the run, and whether a temp file or a process was left behind. `dev` holds the cases whose name hashes even (tune on
these), `test` the others (only measure). Nothing is downloaded.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rowkeeper.config import ChunkConfig  # noqa: E402
from rowkeeper.models import Chunk, Table  # noqa: E402
from rowkeeper.transforms.bounds import measured_chars  # noqa: E402
from tests.hostile.generate import PASSWORD, generate  # noqa: E402

_MEASURE = ("import resource, subprocess, sys, time\n"
            "p = subprocess.Popen(sys.argv[1:]); hwm = 0\n"
            "while p.poll() is None:\n"
            "    try:\n"
            "        s = open(f'/proc/{p.pid}/status').read()\n"
            "        hwm = max(hwm, int(s.split('VmHWM:')[1].split()[0]))\n"
            "    except (OSError, IndexError):\n"
            "        pass\n"
            "    time.sleep(0.2)\n"
            "print(hwm, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)\n"
            "sys.exit(p.returncode)\n")


def part_of(name: str) -> str:
    """dev or test, by a stable hash of the case name."""
    return "dev" if zlib.crc32(name.encode()) % 2 == 0 else "test"


def run(corpus: Path, out: Path, workers: int) -> tuple[int, float, float, float, str]:
    """`rowkeeper run` over the corpus: exit status, seconds, flow-process peak MB, any-process
    peak MB, stderr tail."""
    cfg = out.parent / f"{out.name}.yaml"
    cfg.write_text(f"extract:\n  passwords: [{PASSWORD}]\nrunner:\n  type: local\n  workers: {workers}\n"
                   "  document_timeout_s: 60\n  memory_limit_mb: 1536\n  fallback_timeout_s: 60\n")
    cmd = [sys.executable, "-c", _MEASURE, sys.executable, "-m", "rowkeeper.cli", "run", str(corpus),
           "--out", str(out), "--config", str(cfg), "--no-progress"]
    start = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=7200)
    hwm, peak = (int(x) for x in proc.stderr.strip().splitlines()[-1].split())
    return proc.returncode, time.monotonic() - start, hwm / 1024, peak / 1024, proc.stderr[-1500:]


def _reason(error: str | None) -> str:
    """A failure reason without the file name and numbers, for grouping."""
    text = re.sub(r"^.*?\.pdf: ", "", error or "", flags=re.IGNORECASE)
    text = re.sub(r"(starts with|Failed to open file) .*", r"\1 ...", text)
    return re.sub(r"\d+", "N", text)[:110]


def _output_sizes(out: Path) -> tuple[dict[str, int], dict[str, int]]:
    """Characters and UTF-8 bytes of chunk text per doc_id."""
    chars: collections.Counter[str] = collections.Counter()
    size: collections.Counter[str] = collections.Counter()
    with open(out / "chunks.jsonl", encoding="utf-8") as f:
        for line in f:
            c = json.loads(line)
            chars[c["doc_id"]] += len(c["text"])
            size[c["doc_id"]] += len(c["text"].encode())
    return chars, size


def ratios(out: Path, top: int = 10) -> dict[str, object]:
    """Output characters per character of PDF text for every ok document of a run folder
    (documents.jsonl + chunks.jsonl: `rowkeeper run`, or bench/zoo.py's --out), with the
    documents over 10x and, for the `top` highest, the characters by chunk kind; `measured` is
    the ratio chunk.max_output_ratio bounds (transforms.bounds.measured_chars: without picture
    sentences and the context each row chunk repeats), and `cut` the documents it cut."""
    docs = [json.loads(x) for x in (out / "documents.jsonl").read_text(encoding="utf-8").splitlines()]
    text = {d["doc_id"]: sum(p["chars"] for p in d.get("pages") or ()) for d in docs if d["status"] == "ok"}
    by_kind: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    chunks: dict[str, list[Chunk]] = collections.defaultdict(list)
    with open(out / "chunks.jsonl", encoding="utf-8") as f:
        for line in f:
            c = Chunk.model_validate_json(line)
            by_kind[c.doc_id][c.kind] += len(c.text)
            chunks[c.doc_id].append(c)
    tables: dict[str, list[Table]] = collections.defaultdict(list)
    with open(out / "tables.jsonl", encoding="utf-8") as f:
        for line in f:
            t = Table.model_validate_json(line)
            tables[t.doc_id].append(t)
    got = {d: sum(by_kind[d].values()) / n for d, n in text.items() if n > 0}
    measured = {d: measured_chars(chunks[d], tables[d], ChunkConfig()) / text[d] for d in got}
    names = {d["doc_id"]: Path(d["source"]).name for d in docs}
    cut = sorted(names[d["doc_id"]] for d in docs if any("row chunks left out" in w for w in d.get("warnings") or ()))
    high = sorted(got, key=got.get, reverse=True)[:top]
    ratio_max, ratio_p95 = _max_p95(list(got.values()))
    return {"documents": len(got), "max": ratio_max, "p95": ratio_p95,
            "over_10": sum(r > 10 for r in got.values()),
            "measured_max": _max_p95(list(measured.values()))[0],
            "measured_over_10": sum(r > 10 for r in measured.values()), "cut": cut,
            "top": [{"source": names[d], "ratio": round(got[d], 2), "measured": round(measured[d], 2),
                     "pdf_chars": text[d],
                     **{k: round(v / text[d], 2) for k, v in sorted(by_kind[d].items())}} for d in high]}


def _max_p95(ratios: list[float]) -> tuple[float | None, float | None]:
    ratios = sorted(ratios)
    return (round(ratios[-1], 2), round(ratios[int(0.95 * (len(ratios) - 1))], 2)) if ratios else (None, None)


def summarize(names: list[str], out: Path) -> dict[str, object]:
    """The figures of one part from the run's documents.jsonl and chunks.jsonl. The output bound
    compares like with like, characters of chunk text per character of PDF text (a byte ratio
    counts CJK text three times over: it is printed too, for comparison with older figures)."""
    records = [json.loads(x) for x in (out / "documents.jsonl").read_text(encoding="utf-8").splitlines()]
    mine = [r for r in records if Path(r["source"]).name in set(names)]
    seen = collections.Counter(Path(r["source"]).name for r in mine)
    chars, size = _output_sizes(out)
    read = [(r["doc_id"], sum(p["chars"] for p in r["pages"])) for r in mine if r["status"] == "ok"]
    read = [(d, n) for d, n in read if n > 0]
    char_max, char_p95 = _max_p95([chars[d] / n for d, n in read])
    byte_max, byte_p95 = _max_p95([size[d] / n for d, n in read])
    return {
        "inputs": len(names), "recorded_once": sorted(seen) == sorted(names) and max(seen.values()) == 1,
        "ok": sum(r["status"] == "ok" for r in mine), "failed": sum(r["status"] == "failed" for r in mine),
        "with_warnings": sum(bool(r.get("warnings")) for r in mine),
        "text_only_second_reading": sum(any(a["extractor"] in ("deadline", "pdfium") for a in r["attempts"])
                                        for r in mine),
        "page_deadlines": sum(any(a["reason"].startswith("deadline:") for a in r["attempts"]) for r in mine),
        "reasons": collections.Counter(_reason(r["error"]) for r in mine if r["status"] == "failed").most_common(),
        "output_chars_per_text_char_max": char_max, "output_chars_per_text_char_p95": char_p95,
        "output_bytes_per_text_char_max": byte_max, "output_bytes_per_text_char_p95": byte_p95,
    }


def main(argv: list[str] | None = None) -> int:
    """Generate, run, print the figures of the dev and test parts."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--heavy", action="store_true", help="include the GiB-scale and 5,000-page cases")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--part", choices=["dev", "test", "all"], default="all")
    ap.add_argument("--keep", help="folder for the corpus and the output (default: a temp folder)")
    ap.add_argument("--summarize", action="store_true",
                    help="only print the figures of the run already in --keep (no new run)")
    ap.add_argument("--ratios", help="only print the output ratios of this run folder")
    ap.add_argument("--top", type=int, default=10)
    args = ap.parse_args(argv)
    if args.ratios:
        print(json.dumps(ratios(Path(args.ratios), args.top), ensure_ascii=False, indent=1))
        return 0
    base = Path(args.keep or tempfile.mkdtemp(prefix="rk-hostile-"))
    parts = ("dev", "test") if args.part == "all" else (args.part,)
    if args.summarize:
        done = sorted(p.name for p in (base / "corpus").iterdir())
        for p in parts:
            mine = [n for n in done if part_of(n) == p]
            print(f"## {p}: " + json.dumps(summarize(mine, base / "out"), ensure_ascii=False, indent=1))
        return 0
    cases = generate(base / "corpus_all", heavy=args.heavy)
    corpus = base / "corpus"
    corpus.mkdir(exist_ok=True)
    names = {p: [c.name for c in cases if part_of(c.name) == p] for p in parts}
    for p in parts:
        for n in names[p]:
            (corpus / n).write_bytes((base / "corpus_all" / n).read_bytes())
    rc, seconds, flow_mb, peak_mb, tail = run(corpus, base / "out", args.workers)
    temps = [str(p) for p in (base / "out").rglob("*.tmp")]
    print(f"rowkeeper run: exit {rc}, {seconds:.0f} s (wall, under load), flow process peak "
          f"{flow_mb:.0f} MB, any process peak {peak_mb:.0f} MB, temp files left: {len(temps)}")
    if rc != 0:
        print(tail)
        return 1
    for p in parts:
        print(f"## {p}: " + json.dumps(summarize(names[p], base / "out"), ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
