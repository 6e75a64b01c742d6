"""Hard scanned-page benchmark: degraded scans in five languages, dev/test split, a classic baseline.

    python bench/scanned_hard.py [--split dev|test|all] [--only REGEX] [--baseline] [-v]

Cases come from bench/scanned_hard_gen.py (46 scanned pages: 40 one-page documents and 6
mixed text -> scan -> text documents; cached under --cache). Each document goes through the
whole pipeline (`flows.pipeline.process_document`, default config: classify, cascade,
headers, cross-page merge). Scores, per split, against the generator's truth:

* cells: body cells exact (same row and column of the best-matching logical table), over the
  one-page scans (the mixed documents' cells, mostly on text pages, are reported apart);
* column names: folded column names exact (whitespace collapsed);
* per language (Vietnamese separately), and per table kind;
* mixed merged: share of mixed documents read as one table over pages 1-3 with every row;
* seconds per scanned page: wall time of process_document over the one-page documents,
  engines loaded before (measured under whatever load the machine has; CPU seconds too, and
  Tesseract's, a subprocess, beside them);
* CPU seconds per page by stage over the one-page scans (render, deskew, rules, OCR detection,
  recognition, Tesseract, cell re-reads, SLANet-plus, assemble, ...: `bench/stages.py`), and
  the process's peak RSS.

`--baseline` also runs img2table 2.0 with RapidOCR (the same wheel models) over each scanned
page image, scored the same way (its leading rows as header); mixed merge does not apply.
img2table needs OpenCV's contrib modules (`cv2.ximgproc`), which would replace the
project's opencv-python-headless, so the baseline runs in a subprocess with a contrib build
kept apart (`--cv2-contrib DIR`, made once with
`pip install --no-deps --target DIR opencv-contrib-python-headless==5.0.0.93`).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

os.environ.setdefault("OMP_THREAD_LIMIT", "1")
os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

GEN_VERSION = "2"


def _norm(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip()


def load_cases(cache: Path) -> list[dict]:
    """The cases (PDF written under `cache`, truth as dicts), generated once per GEN_VERSION."""
    index = cache / f"cases-v{GEN_VERSION}.json"
    if index.exists():
        return json.loads(index.read_text())
    from scanned_hard_gen import cases

    cache.mkdir(parents=True, exist_ok=True)
    out = []
    for c in cases():
        path = cache / f"{c.name}.pdf"
        path.write_bytes(c.pdf)
        out.append({"name": c.name, "lang": c.lang, "kind": c.kind, "seed": c.seed, "split": c.split,
                    "path": str(path), "scanned_pages": list(c.scanned_pages), "columns": list(c.columns),
                    "header_rows": c.header_rows, "rows": [list(r) for r in c.rows], "mixed": c.mixed})
    index.write_text(json.dumps(out, ensure_ascii=False))
    return out


def score_grid(case: dict, columns: list[str], rows: list[list[str]]) -> Counter:
    """Cell and column-name hits of one read table against the case's truth."""
    c: Counter = Counter()
    for k, want in enumerate(case["columns"]):
        c["cols"] += 1
        c["cols_ok"] += k < len(columns) and _norm(columns[k]) == _norm(want)
    for r, row in enumerate(case["rows"]):
        got = rows[r] if r < len(rows) else []
        for k, want in enumerate(row):
            c["cells"] += 1
            c["cells_ok"] += k < len(got) and _norm(got[k]) == _norm(want)
    return c


def best_table(case: dict, tables: list[tuple[list[str], list[list[str]]]]) -> Counter:
    """The score of the read table that matches the truth best (an empty score when none)."""
    scores = [score_grid(case, cols, rows) for cols, rows in tables]
    empty = score_grid(case, [], [])
    return max(scores, key=lambda s: (s["cells_ok"], s["cols_ok"]), default=empty)


def run_rowkeeper(case: dict, config) -> tuple[Counter, float, float, list[str]]:  # noqa: ANN001
    """Score, wall and CPU seconds, and notes for one case through the whole pipeline."""
    from stages import child_cpu

    from rowkeeper.flows.pipeline import load_document, process_document

    wall, cpu, child = time.perf_counter(), time.process_time(), child_cpu()
    res = process_document(load_document(case["path"]), config)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    s: Counter = Counter(child_cpu=child_cpu() - child)
    tables = [(list(t.columns), [list(r) for r in t.rows]) for t in res.tables]
    s.update(best_table(case, tables))
    if case["mixed"]:
        s["mixed"] += 1
        s["merged"] += any(t.pages == (1, 2, 3) and len(t.rows) == len(case["rows"]) for t in res.tables)
    notes = [f"{a.extractor}:{'ok' if a.accepted else a.reason[:60]}" for a in res.document.attempts
             if a.extractor != "features"]
    notes += [f"table p{t.pages} {len(t.rows)}x{len(t.columns)} {list(t.columns)[:3]}" for t in res.tables]
    return s, wall, cpu, notes


class Img2TableBaseline:
    """img2table 2.0 + RapidOCR (the rapidocr wheel's own models, so nothing is downloaded)."""

    def __init__(self) -> None:
        import rapidocr
        from img2table.ocr import RapidOCR

        models = Path(rapidocr.__file__).parent / "models"
        det = sorted(models.glob("*_det_*.onnx"))[-1]
        rec = sorted(models.glob("*_rec_*.onnx"))[-1]
        self.ocr = RapidOCR(params={"Global.log_level": "error", "Global.use_cls": False,
                                    "Det.model_path": str(det), "Rec.model_path": str(rec),
                                    "EngineConfig.onnxruntime.intra_op_num_threads": 2})

    def tables(self, image: bytes, header_rows: int) -> list[tuple[list[str], list[list[str]]]]:
        """Every table img2table finds on the page image, as (folded columns, body rows)."""
        from img2table.document import Image

        from rowkeeper.label_text import fold_header_rows

        found = Image(src=image, detect_rotation=False).extract_tables(
            ocr=self.ocr, borderless_tables=True, implicit_rows=True, min_confidence=30)
        out = []
        for t in found:
            grid = [["" if v is None else str(v) for v in row] for row in t.df.astype(object).values.tolist()]
            out.append((list(fold_header_rows(grid[:header_rows])), grid[header_rows:]))
        return out


def run_baseline(case: dict, base: Img2TableBaseline) -> tuple[Counter, float]:
    """Score and wall seconds of img2table on the case's scanned page(s)."""
    from scanned_hard_gen import page_image

    pdf = Path(case["path"]).read_bytes()
    wall = time.perf_counter()
    tables = [t for p in case["scanned_pages"] for t in base.tables(page_image(pdf, p), case["header_rows"])]
    wall = time.perf_counter() - wall
    if case["mixed"]:  # only the scanned page's rows are the baseline's to read
        return Counter(), wall
    return best_table(case, tables), wall


def report(label: str, split: str, per: dict[str, Counter], secs: tuple[float, ...]) -> None:
    """Print one system's figures for one split."""
    tot: Counter = sum((c for k, c in per.items() if k.startswith("lang=")), Counter())
    tot.update({k: v for k, v in per.get("mixed", Counter()).items() if k in ("mixed", "merged")})
    line = (f"[{label} {split}] cells {tot['cells_ok'] / max(tot['cells'], 1):.3f} ({tot['cells_ok']}/{tot['cells']})"
            f"  columns {tot['cols_ok'] / max(tot['cols'], 1):.3f} ({tot['cols_ok']}/{tot['cols']})")
    if tot["mixed"]:
        line += f"  mixed_merged {tot['merged'] / tot['mixed']:.2f} ({tot['merged']}/{tot['mixed']})"
    wall, cpu, n, child = (*secs, 0.0)[:4]
    line += f"  s/scanned_page {wall / max(n, 1):.2f} wall, {cpu / max(n, 1):.2f} cpu"
    if child:
        line += f" (+ tesseract {child / max(n, 1):.2f} = {(cpu + child) / max(n, 1):.2f} cpu)"
    print(line)
    for key in sorted(per):
        c = per[key]
        print(f"    {key:16s} cells {c['cells_ok'] / max(c['cells'], 1):.3f}  columns {c['cols_ok'] / max(c['cols'], 1):.3f}")


def run_split(split: str, cases: list[dict], config, verbose: bool) -> None:  # noqa: ANN001
    """One split through rowkeeper: scores, seconds per scanned page, CPU per stage."""
    from stages import StageClock

    per: dict[str, Counter] = defaultdict(Counter)
    secs = [0.0, 0.0, 0, 0.0]
    stages: list[str] = []
    # one-page scans first, under the stage clock (mixed documents hold text pages too)
    with StageClock() as clock:
        for case in sorted(cases, key=lambda c: c["mixed"]):
            if case["mixed"] and not stages:
                stages = clock.report(int(secs[2]), split)
            s, wall, cpu, notes = run_rowkeeper(case, config)
            keys = ("mixed",) if case["mixed"] else (f"lang={case['lang']}", f"kind={case['kind']}")
            for key in keys:
                per[key].update(s)
            if not case["mixed"]:
                secs = [secs[0] + wall, secs[1] + cpu, secs[2] + 1, secs[3] + s["child_cpu"]]
            if verbose:
                print(f"  {case['name']:28s} cells {s['cells_ok']}/{s['cells']} cols {s['cols_ok']}/{s['cols']} "
                      f"{wall:.1f}s  " + " | ".join(notes[:4]), flush=True)
        stages = stages or clock.report(int(secs[2]), split)
    report("rowkeeper", split, per, tuple(secs))
    print("\n".join(stages))


def main(argv: list[str] | None = None) -> int:
    """Run the chosen split(s) through rowkeeper (and the baseline); print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", default="all", choices=["dev", "test", "all"])
    ap.add_argument("--only", default=None, help="regex over case names")
    ap.add_argument("--cache", default="/tmp/rk-scanned-hard")
    ap.add_argument("--baseline", action="store_true", help="also run img2table + RapidOCR")
    ap.add_argument("--baseline-only", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--cv2-contrib", default=str(Path.home() / ".cache/rowkeeper-bench/cv2contrib"))
    ap.add_argument("--config", default=None, help="a rowkeeper config file (default config otherwise)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    from rowkeeper.config import load_config

    config = load_config(args.config).with_out(str(Path(args.cache) / "out"))
    chosen = [c for c in load_cases(Path(args.cache))
              if args.split in ("all", c["split"]) and (not args.only or re.search(args.only, c["name"]))]
    if args.baseline_only:
        return baseline_main(chosen)
    side = None
    if args.baseline:  # side by side, in its own process
        cmd = [sys.executable, __file__, "--baseline-only", "--split", args.split, "--cache", args.cache]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([args.cv2_contrib, str(ROOT)])}
        side = subprocess.Popen(cmd + (["--only", args.only] if args.only else []), env=env)
    from stages import rss_mb

    run_rowkeeper(chosen[0], config)  # load the engines before timing
    for split in ("dev", "test"):
        cases = [c for c in chosen if c["split"] == split]
        if cases:
            run_split(split, cases, config, args.verbose)
    if side is not None:
        side.wait()
    print(f"peak_rss_mb {rss_mb():.0f} (this process, engines loaded)")
    return 0


def baseline_main(chosen: list[dict]) -> int:
    """The img2table baseline over the one-page cases (run in its own process, see above)."""
    try:
        base = Img2TableBaseline()
        import cv2

        _ = cv2.ximgproc
    except (ImportError, AttributeError) as e:
        print(f"[img2table+rapidocr] not run: {e}")
        return 0
    for split in ("dev", "test"):
        per: dict[str, Counter] = defaultdict(Counter)
        secs = [0.0, 0.0, 0]
        for case in (c for c in chosen if c["split"] == split and not c["mixed"]):
            b, wall = run_baseline(case, base)
            for key in (f"lang={case['lang']}", f"kind={case['kind']}"):
                per[key].update(b)
            secs = [secs[0] + wall, secs[1] + wall, secs[2] + 1]
        if secs[2]:
            report("img2table+rapidocr", split, per, tuple(secs))
    return 0


if __name__ == "__main__":
    t0 = time.perf_counter()
    rc = main()
    print(f"wall {time.perf_counter() - t0:.1f}s")
    sys.exit(rc)
