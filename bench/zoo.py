"""Layout zoo benchmark: generated documents of many layouts, exact truth, dev and test splits.

    python bench/zoo.py [--split dev|test|dev2|holdout|dev3|dev4|dev5|dev6|dev7|dev8|dev9|dev10|dev11|dev12|dev13|dev14|dev15|dev16|dev17|dev18|dev19|dev20|dev21|dev22|dev23|dev24|all|every|tune|LIST] [--family REGEX] [--lang ja,de] [--limit N]
                        [--no-retrieval] [--misses N] [--json FILE] [--show REGEX] [--scan]

Generates the zoo (bench/zoo/: 20 layout families x 18 documents, 5 languages, seeded, written
once to bench/out/zoo/; the last three, merged_cells, wrapped_body and group_rows, were appended
after generator v10 and leave every older document as it was: bench/zoo_unchanged.py), runs rowkeeper in-process on every selected document
(flows.pipeline.process_document, like bench/peer.py), and prints per split: tables found
(recall, precision), cell, column-name, caption, section-path and column-type accuracy and
duplicated tables, then per family and per language, the dev - test gap, the retrieval check
(bench/zoo/retrieval.py) and the invariants (bench/invariants.py). Tune on dev only; test is
for measuring. `--split dev2` (a second, fresh draw; tunable) tells whether a rule tuned on dev
holds on documents it was not tuned on; `holdout` is measured like test (bench/zoo/corpus.py).
`dev3` .. `dev24` (each twice dev's size, from a third to a twenty-fourth seed range) are tunable only and generated when named:
dev and dev2 are read right almost everywhere, so new failure kinds are found there. `all` is
dev,test; `every` the four measured splits; `tune` dev,dev2,dev3..dev23 (the latest draw, dev24, waits for its first read and runs only by name). Outputs (tables.jsonl, chunks.jsonl, documents.jsonl per run) go to --out.
`--scan` reads the documents' scanned twins instead (bench/zoo/scan.py: every page a seeded,
degraded scan in an image-only PDF, cached under bench/out/zoo-scan/), scored against the same
truth, and prints seconds per scanned page; OCR costs seconds a page, so pair it with --limit.
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

from bench.invariants import check_document, print_violations  # noqa: E402
from bench.zoo.corpus import SPLITS, TUNE_ONLY, materialize, plan  # noqa: E402
from bench.zoo.noise import print_gap_intervals  # noqa: E402
from bench.zoo.scan import SCAN_TIMEOUT_S, bench_config  # noqa: E402
from bench.zoo.score import score_all  # noqa: E402
from rowkeeper.flows.pipeline import load_document, process_document  # noqa: E402
from rowkeeper.models import to_json_dict  # noqa: E402

METRICS = ("recall", "precision", "cells", "columns", "captions", "sections", "types")


def select(args) -> list:
    """The planned documents the options keep, interleaved across families for --limit."""
    wanted = _splits(args.split)
    docs = [d for d in plan(extra=bool(set(wanted) - {"dev", "test", *TUNE_ONLY}),
                            tune_only=tuple(s for s in TUNE_ONLY if s in wanted))
            if d.split in wanted
            and (not args.family or re.search(args.family, d.family))
            and (not args.lang or d.lang in args.lang.split(","))]
    families = list(dict.fromkeys(d.family for d in docs))
    rank: dict[str, int] = {}
    keyed = []
    for d in docs:
        key = (d.split, d.family)
        rank[str(key)] = rank.get(str(key), -1) + 1
        keyed.append(((rank[str(key)], families.index(d.family)), d))
    ordered = [d for _, d in sorted(keyed, key=lambda kd: kd[0])]
    if args.limit:
        by_split: dict[str, list] = {}
        for d in ordered:
            by_split.setdefault(d.split, []).append(d)
        ordered = [d for s in by_split.values() for d in s[: args.limit]]
    return ordered


def _splits(option: str) -> list[str]:
    """The splits `--split` names: one, a comma list, `all` (dev and test), `every` (all four
    measured ones) or `tune` (every split one may tune on: dev, dev2, dev3 .. the draw before the
    latest; the latest draw waits for the next round's first read and is run only by name)."""
    named = {"all": ["dev", "test"], "every": [s for s in SPLITS if s not in TUNE_ONLY],
             "tune": ["dev", "dev2", *TUNE_ONLY[:-1]]}.get(option) or option.split(",")
    unknown = [s for s in named if s not in SPLITS]
    if unknown:
        raise SystemExit(f"zoo: unknown split {', '.join(unknown)} (choose from {', '.join(SPLITS)}, all, every, tune)")
    return named


def run(docs, corpus: Path, out: Path, config_path: str | None,
        document_timeout_s: float | None = None) -> tuple[dict, dict, set, list]:
    """Process the documents; tables and chunks per doc, failed docs, invariant violations.
    `document_timeout_s` replaces the config's runner.document_timeout_s (the pages' deadlines
    derive from it) when given."""
    config = bench_config(config_path, document_timeout_s)
    out.mkdir(parents=True, exist_ok=True)
    tables, chunks, failed, violations, records = {}, {}, set(), [], []
    for i, d in enumerate(docs):
        pdf = str(corpus / f"{d.doc}.pdf")
        result = process_document(load_document(pdf, f"{d.doc}.pdf"), config)
        records.append(to_json_dict(result.document))
        if result.document.status != "ok":
            failed.add(d.doc)
            print(f"  FAILED {d.doc}: {result.document.error}", file=sys.stderr)
        tables[d.doc] = [to_json_dict(t) for t in result.tables]
        chunks[d.doc] = [to_json_dict(c) for c in result.chunks]
        violations += check_document(d.doc, pdf, tables[d.doc])
        if (i + 1) % 50 == 0:
            print(f"  ... {i + 1}/{len(docs)} documents", file=sys.stderr)
    for name, rows in (("tables", tables), ("chunks", chunks)):
        with open(out / f"{name}.jsonl", "w") as f:
            for doc in rows.values():
                f.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in doc)
    (out / "documents.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    return tables, chunks, failed, violations


def _row(label: str, fig: dict, extra: str = "") -> str:
    cells = " ".join(f"{fig[m]:>8.3f}" for m in METRICS)
    return f"{label:<26}{cells} {int(fig['duplicates']):>5}{extra}"


def print_figures(groups: dict, splits: list[str]) -> dict:
    """The split table, the gap, per family and per language; the figures as a dict."""
    head = f"{'':<26}" + " ".join(f"{m:>8}" for m in METRICS) + "  dups"
    print("\n" + head)
    figs: dict = {s: groups[("split", s)].figures() for s in splits}
    for kind in ("family", "lang"):
        figs[kind] = {f"{k[1]}:{k[2]}": g.figures() for k, g in groups.items() if k[0] == kind}
    for s in splits:
        g = groups[("split", s)]
        print(_row(s, figs[s], f"   ({g.tables} tables, {g.extracted} extracted, {g.failed_docs} failed docs)"))
    for other in (s for s in splits if s != "dev" and "dev" in splits):
        gap = {m: figs["dev"][m] - figs[other][m] for m in (*METRICS, "duplicates")}
        print(_row(f"gap (dev - {other})", gap))
    for kind in ("family", "lang"):
        print(f"\nper {kind}: " + " | ".join(splits) + "   (cells columns captions sections)")
        names = sorted({k[2] for k in groups if k[0] == kind})
        for n in names:
            parts = []
            for s in splits:
                g = groups.get((kind, s, n))
                f = g.figures() if g else None
                parts.append(" ".join(f"{f[m]:.2f}" for m in ("cells", "columns", "captions", "sections"))
                             if f else "   -")
            print(f"  {n:<24}" + "  |  ".join(parts))
    return figs


def show(truths: list[dict], tables: dict, pattern: str) -> None:
    """Truth and extracted tables side by side for the documents matching `pattern`."""
    for d in truths:
        if not re.search(pattern, d["doc"]):
            continue
        print(f"\n== {d['doc']} ({d['split']}, {d['pages']} pages)")
        for t in d["tables"]:
            print(f"  truth {t['table']} p{t['pages']}: {t['columns']} | {t['caption']!r} | "
                  f"{t['section_path']} | {len(t['rows'])} rows, first {t['rows'][:1]}")
        for e in tables.get(d["doc"], []):
            print(f"  got   {e['table_id']} p{e['pages']}: {e['columns']} | {e.get('caption')!r} | "
                  f"{e.get('section_path')} | {len(e['rows'])} rows, first {e['rows'][:1]}")


def main() -> int:
    """Generate, run, score and print the zoo."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", default="all", help="dev, test, dev2, holdout, dev3 .. dev24, a comma "
                    "list, all (dev,test), every (the four measured) or tune (dev,dev2,dev3.."
                    f"{TUNE_ONLY[-2]}; the latest draw, {TUNE_ONLY[-1]}, only by name)")
    ap.add_argument("--family", default="", help="regex over family names")
    ap.add_argument("--lang", default="", help="comma list of languages")
    ap.add_argument("--limit", type=int, default=0, help="documents per split (spread over families)")
    ap.add_argument("--corpus", default=str(ROOT / "bench" / "out" / "zoo"))
    ap.add_argument("--out", default="/tmp/rowkeeper-zoo")
    ap.add_argument("--config", default=None)
    ap.add_argument("--no-retrieval", action="store_true")
    ap.add_argument("--misses", type=int, default=0, help="print this many misses per split")
    ap.add_argument("--json", default="", help="write the figures here")
    ap.add_argument("--scan", action="store_true", help="read the scanned twins (bench/zoo/scan.py)")
    ap.add_argument("--scan-corpus", default=str(ROOT / "bench" / "out" / "zoo-scan"))
    ap.add_argument("--document-timeout", type=float, default=None,
                    help="runner.document_timeout_s for this run (the page deadlines derive from it); "
                    f"default the config's, or {SCAN_TIMEOUT_S:.0f} s with --scan")
    ap.add_argument("--show", default="", help="regex over document names: print truth beside "
                    "rowkeeper's reading (columns, caption, section path, rows)")
    args = ap.parse_args()
    docs = select(args)
    corpus = Path(args.corpus)
    start = time.perf_counter()
    docs = materialize(docs, corpus)
    truths = [d.to_json() for d in docs]
    read_from = corpus
    if args.scan:
        from bench.zoo.scan import materialize_scans

        read_from = materialize_scans(docs, corpus, Path(args.scan_corpus))
    gen = time.perf_counter() - start
    splits = [s for s in SPLITS if any(d.split == s for d in docs)]
    print(f"zoo: {len(docs)} documents ({', '.join(f'{sum(d.split == s for d in docs)} {s}' for s in splits)}), "
          f"{len({d.family for d in docs})} families, {len({d.lang for d in docs})} languages, "
          f"{sum(len(d.tables) for d in docs)} truth tables; generated/loaded in {gen:.1f} s")
    start = time.perf_counter()
    timeout = args.document_timeout or (SCAN_TIMEOUT_S if args.scan else None)
    if timeout:
        print(f"runner.document_timeout_s = {timeout:.0f} s for this run")
    tables, chunks, failed, violations = run(docs, read_from, Path(args.out), args.config, timeout)
    took = time.perf_counter() - start
    print(f"processed in {took:.1f} s (wall clock, machine shared)")
    if args.scan:
        pages = sum(d.pages for d in docs)
        print(f"scanned twins: {pages} pages, {took / max(pages, 1):.2f} s per scanned page")
    groups = score_all(truths, tables, failed)
    figs = print_figures(groups, splits)
    figs["gap_intervals"] = print_gap_intervals(truths, tables, splits)
    if args.misses:
        for s in splits:
            print(f"\nmisses [{s}]:")
            for m in groups[("split", s)].misses[: args.misses]:
                print(f"  {m}")
    if args.show:
        show(truths, tables, args.show)
    if not args.no_retrieval:
        from bench.zoo.retrieval import print_retrieval

        figs["retrieval"] = print_retrieval(truths, chunks, corpus, splits)
    print()
    print_violations(violations, "zoo")
    figs["invariant_violations"] = len(violations)
    if args.json:
        Path(args.json).write_text(json.dumps(figs, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
