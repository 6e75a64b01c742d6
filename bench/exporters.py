"""Exporter benchmark: HTML tables printed to tagged PDFs by real exporters, exact truth.

    python bench/exporters.py [--split dev|test|all] [--exporter chromium|libreoffice|all]
                              [--shape REGEX] [--lang ja,de] [--misses N] [--show REGEX]
                              [--out DIR] [--json FILE]

Writes seeded HTML documents of many table shapes (bench/exporters/shapes.py: thead/tbody/tfoot,
TH scope col/row/none, rowspan/colspan, two header levels, captions, tables over pages, rich
cells, CSS columns, a landscape page; en/de/hu/vi/ja words from the layout zoo), prints each
with every exporter asked for (bench/exporters/printers.py: headless Chromium; LibreOffice
Writer with UseTaggedPDF, optional: said so when missing), runs rowkeeper in-process on the PDFs
(flows.pipeline.process_document, like bench/zoo.py) and scores its tables against the table
as the HTML declares it with the zoo's scorer (bench/zoo/score.py: tables found, cells, column
names, captions, section paths, types). Per exporter and split: the figures, per shape and per
language, how many tables the tagged layer read, and every reason it refused a declaration.
Tune on dev only; test is measured (at the start and the end of a piece of work, never
inspected case by case). Documents and PDFs are written once to bench/out/exporters/.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.exporters.corpus import materialize, plan  # noqa: E402
from bench.exporters.printers import PRINTERS, available, tags_of  # noqa: E402
from bench.invariants import check_document, print_violations  # noqa: E402
from bench.zoo.score import Tally, score_doc  # noqa: E402
from rowkeeper.config import load_config  # noqa: E402
from rowkeeper.flows.pipeline import load_document, process_document  # noqa: E402
from rowkeeper.models import to_json_dict  # noqa: E402

METRICS = ("recall", "precision", "cells", "columns", "captions", "sections", "types")


def run(truths: list[dict], out: Path, config_path: str | None) -> tuple[dict, list, list, list]:
    """Process every PDF; tables per doc, document records, invariant violations."""
    config = load_config(config_path)
    out.mkdir(parents=True, exist_ok=True)
    tables, records, violations, failed = {}, [], [], []
    for t in truths:
        if not t["pages"]:
            failed.append(t["doc"])
            continue
        result = process_document(load_document(t["pdf"], Path(t["pdf"]).name), config)
        records.append(to_json_dict(result.document))
        tables[t["doc"]] = [to_json_dict(x) for x in result.tables]
        violations += check_document(t["doc"], t["pdf"], tables[t["doc"]])
    with open(out / "tables.jsonl", "w", encoding="utf-8") as f:
        for doc in tables.values():
            f.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in doc)
    (out / "documents.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    (out / "truth.json").write_text(json.dumps(truths, ensure_ascii=False, indent=1))
    return tables, records, violations, failed


def _row(label: str, fig: dict, extra: str = "") -> str:
    return f"{label:<22}" + " ".join(f"{fig[m]:>8.3f}" for m in METRICS) + extra


def report(truths: list[dict], tables: dict, records: list, splits: list[str], misses: int) -> dict:
    """Print the figures of one exporter: per split, per shape, per language; the tagged
    layer's share and its refusals. Returns the figures."""
    groups: dict[tuple, Tally] = collections.defaultdict(Tally)
    for t in truths:
        tally = score_doc(t, tables.get(t["doc"], []))
        for key in (("split", t["split"]), ("shape", t["split"], t["shape"]), ("lang", t["split"], t["lang"])):
            groups[key].add(tally)
    print(f"{'':<22}" + " ".join(f"{m:>8}" for m in METRICS))
    figs: dict = {}
    for s in splits:
        g = groups[("split", s)]
        figs[s] = g.figures()
        print(_row(s, figs[s], f"   ({g.tables} tables, {g.extracted} extracted)"))
    for kind in ("shape", "lang"):
        print(f"\nper {kind}: " + " | ".join(splits) + "   (recall cells columns captions sections)")
        for n in sorted({k[2] for k in groups if k[0] == kind}):
            parts = []
            for s in splits:
                f = groups[(kind, s, n)].figures() if (kind, s, n) in groups else None
                parts.append(" ".join(f"{f[m]:.2f}" for m in ("recall", "cells", "columns", "captions", "sections"))
                             if f else "   -")
                if f:
                    figs[f"{kind}:{s}:{n}"] = f
            print(f"  {n:<14}" + "  |  ".join(parts))
    _print_tagged(truths, tables, records)
    for s in splits if misses else ():
        print(f"\nmisses [{s}]:")
        for m in groups[("split", s)].misses[:misses]:
            print(f"  {m}")
    return figs


def _print_tagged(truths: list[dict], tables: dict, records: list) -> None:
    """How many PDFs declare tables, how many tables the tagged layer read, and why it refused."""
    declared = sum(1 for t in truths if t["pages"] and tags_of(Path(t["pdf"]))[1])
    layers = collections.Counter(x["extractor"] for doc in tables.values() for x in doc)
    refusals: collections.Counter = collections.Counter()
    for rec in records:
        for a in rec.get("attempts", ()):
            if a.get("extractor") == "tagged" and not a.get("accepted"):
                for why in re.split(r";\s*", a.get("reason") or ""):
                    refusals[re.sub(r"\d+", "N", re.sub(r"^p\d+: ", "", why))] += 1
    print(f"\ntagged: {declared} of {len(truths)} PDFs declare Table elements; tables by layer: "
          + ", ".join(f"{k} {v}" for k, v in layers.most_common()))
    for why, n in refusals.most_common(12):
        print(f"  {n:>4}  {why[:150]}")


def show(truths: list[dict], tables: dict, pattern: str) -> None:
    """Truth and rowkeeper's reading side by side for the documents matching `pattern`."""
    for d in truths:
        if not re.search(pattern, d["doc"]):
            continue
        print(f"\n== {d['doc']} ({d['split']}, {d['pages']} pages) {d['pdf']}")
        for t in d["tables"]:
            print(f"  truth {t['table']}: {t['columns']} | {t['caption']!r} | {t['section_path']} | "
                  f"{len(t['rows'])} rows, first {t['rows'][:1]}")
        for e in tables.get(d["doc"], []):
            print(f"  got   {e['table_id']} p{e['pages']} [{e['extractor']}]: {e['columns']} | "
                  f"{e.get('caption')!r} | {e.get('section_path')} | {len(e['rows'])} rows, first {e['rows'][:1]}")


def main() -> int:
    """Write, print, run, score."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", default="dev", choices=("dev", "test", "all"))
    ap.add_argument("--exporter", default="all", help="chromium, libreoffice or all")
    ap.add_argument("--shape", default="", help="regex over shape names")
    ap.add_argument("--lang", default="", help="comma list of languages")
    ap.add_argument("--corpus", default=str(ROOT / "bench" / "out" / "exporters"))
    ap.add_argument("--out", default="/tmp/rowkeeper-exporters")
    ap.add_argument("--config", default=None)
    ap.add_argument("--misses", type=int, default=0)
    ap.add_argument("--show", default="")
    ap.add_argument("--json", default="")
    args = ap.parse_args()
    splits = ["dev", "test"] if args.split == "all" else [args.split]
    docs = [d for d in plan() if d["split"] in splits and re.search(args.shape, d["shape"])
            and (not args.lang or d["lang"] in args.lang.split(","))]
    names = list(PRINTERS) if args.exporter == "all" else args.exporter.split(",")
    figs: dict = {}
    for name in names:
        if not available(name):
            print(f"\n== {name}: NOT INSTALLED, skipped (figures below are without it)")
            continue
        truths = materialize(docs, name, Path(args.corpus))
        start = time.perf_counter()
        tables, records, violations, failed = run(truths, Path(args.out) / name, args.config)
        print(f"\n== {name}: {len(truths)} documents, {sum(len(t['tables']) for t in truths)} truth tables, "
              f"{len(failed)} not printed; processed in {time.perf_counter() - start:.0f} s (machine shared)")
        figs[name] = report(truths, tables, records, splits, args.misses)
        if args.show:
            show(truths, tables, args.show)
        print_violations(violations, name)
        figs[name]["invariant_violations"] = len(violations)
    if args.json:
        Path(args.json).write_text(json.dumps(figs, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
