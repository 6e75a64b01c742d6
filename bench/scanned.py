"""Scanned-page benchmark: scanned twins of bench/structure.py's documents through the OCR path.

    python bench/scanned.py [--dpi 150] [--noise 0.02] [--rotate 0.5] [--only REGEX] [-v]

Each structure case is built as a text PDF and rendered to an image-only twin (pdfgen's
`scanned_twin`: grey, speckle noise, a small rotation alternating in sign). Both go through
the real cascade (`extractors.cascade.run_cascade`, default config): the text PDF takes the
text layers, the twin is classified scanned and takes the OCR layer. Scores, over the text
version's non-empty table cells:

* cell accuracy: the scan's matching piece (same page, largest bbox overlap) holds the same
  text in the same (row, col); whitespace-insensitive variant alongside;
* number accuracy: the same, over cells that read as numbers (exact, separators included);
* shape accuracy: pieces whose (rows, cols) equal the text version's;
* seconds per scanned page: the OCR layer's wall time over all scanned pages (engine loaded
  before), and the CPU seconds of the whole scan cascade per page (comparable under load: the
  layer runs ONNX on 2 threads, so an idle 2-core machine needs about CPU / 1.6 of wall time).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

os.environ.setdefault("OMP_THREAD_LIMIT", "1")
os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from structure import cases  # noqa: E402

from rowkeeper.config import ClassifyConfig, ExtractConfig  # noqa: E402
from rowkeeper.extractors.cascade import run_cascade  # noqa: E402
from rowkeeper.extractors.classify import classify_document  # noqa: E402
from rowkeeper.extractors.ocr_extractor import is_number  # noqa: E402
from rowkeeper.ids import sha256_file  # noqa: E402
from rowkeeper.models import DocumentInput, RawTable  # noqa: E402
from samples.pdfgen import build_pdf, scanned_twin  # noqa: E402


def _doc(path: Path) -> DocumentInput:
    return DocumentInput(path=str(path), source=path.name, doc_id=sha256_file(path))


def pieces(path: Path, config: ExtractConfig) -> tuple[list[RawTable], float, float, int]:
    """The cascade's pieces, OCR-layer wall seconds, CPU seconds, and the scanned page count."""
    doc = _doc(path)
    pages = classify_document(doc, ClassifyConfig())
    cpu = time.process_time()
    res = run_cascade(doc, pages, config)
    cpu = time.process_time() - cpu
    ocr_s = sum(a.seconds for a in res.attempts if a.extractor == "ocr")
    return list(res.tables), ocr_s, cpu, sum(p.kind == "scanned" for p in pages)


def _overlap(a: RawTable, b: RawTable) -> float:
    w = min(a.bbox[2], b.bbox[2]) - max(a.bbox[0], b.bbox[0])
    h = min(a.bbox[3], b.bbox[3]) - max(a.bbox[1], b.bbox[1])
    return max(w, 0) * max(h, 0)


def _norm(s: str) -> str:
    return re.sub(r"\s+", "", s)


def score(text: list[RawTable], scan: list[RawTable]) -> tuple[Counter, list[str]]:
    """Cell, number and shape hits of the scan's pieces against the text version's."""
    c: Counter = Counter()
    misses = []
    for t in text:
        cands = [s for s in scan if s.page == t.page and _overlap(s, t) > 0]
        best = max(cands, key=lambda s: _overlap(s, t), default=None)
        c["pieces"] += 1
        c["shape_ok"] += best is not None and (best.n_rows, best.n_cols) == (t.n_rows, t.n_cols)
        got = best.grid() if best else []
        for r, row in enumerate(t.grid()):
            for k, want in enumerate(row):
                if not want:
                    continue
                have = got[r][k] if r < len(got) and k < len(got[r]) else ""
                c["cells"] += 1
                c["cells_ok"] += have == want
                c["cells_ok_ws"] += _norm(have) == _norm(want)
                if is_number(want):
                    c["numbers"] += 1
                    c["numbers_ok"] += have == want
                if have != want and len(misses) < 8:
                    misses.append(f"p{t.page} ({r},{k}) {want!r} -> {have!r}")
    return c, misses


def main(argv: list[str] | None = None) -> int:
    """Build, scan, extract and score every case; print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dpi", type=int, default=150, help="scan resolution of the twins")
    ap.add_argument("--noise", type=float, default=0.02)
    ap.add_argument("--rotate", type=float, default=0.5, help="degrees, alternating sign")
    ap.add_argument("--only", default=None, help="regex over case names")
    ap.add_argument("--keep", default=None)
    ap.add_argument("--engine", default="rapidocr", choices=["rapidocr", "tesseract"])
    ap.add_argument("--languages", default="en,ja", help="OCR languages (Tesseract packs)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    folder = Path(args.keep or tempfile.mkdtemp(prefix="rk-scanned-"))
    folder.mkdir(parents=True, exist_ok=True)
    ocr_opts = {"engine": args.engine, "languages": args.languages.split(",")}
    config = ExtractConfig(options={"ocr": ocr_opts})
    from rowkeeper.extractors.ocr_extractor import OcrExtractor, OcrOptions

    _ = OcrExtractor(OcrOptions(**ocr_opts)).engine  # load the engine before timing
    totals: Counter = Counter()
    ocr_seconds, cpu_seconds, scanned_pages = 0.0, 0.0, 0
    selected = [c for c in cases() if not args.only or re.search(args.only, c.name)]
    for i, case in enumerate(selected):
        text_pdf = build_pdf(case.spec)
        (folder / f"{case.name}.pdf").write_bytes(text_pdf)
        rot = args.rotate if i % 2 == 0 else -args.rotate
        twin = scanned_twin(text_pdf, dpi=args.dpi, noise=args.noise, rotate_deg=rot, seed=i)
        (folder / f"{case.name}_scan.pdf").write_bytes(twin)
        text_pieces, *_ = pieces(folder / f"{case.name}.pdf", config)
        scan_pieces, secs, cpu, n_scanned = pieces(folder / f"{case.name}_scan.pdf", config)
        cpu_seconds += cpu
        c, misses = score(text_pieces, scan_pieces)
        totals.update(c)
        ocr_seconds += secs
        scanned_pages += n_scanned
        if args.verbose:
            acc = c["cells_ok"] / c["cells"] if c["cells"] else 1.0
            print(f"{case.name:24s} pages {n_scanned:2d}  {secs / max(n_scanned, 1):5.2f} s/page  "
                  f"cells {c['cells_ok']}/{c['cells']} = {acc:.3f}  " + "; ".join(misses[:4]), flush=True)
    n = max(totals["cells"], 1)
    print(f"documents {len(selected)}  scanned pages {scanned_pages}  pieces {totals['pieces']}  "
          f"cells {totals['cells']}  dpi {args.dpi}  noise {args.noise}  rotate ±{args.rotate}  "
          f"engine {args.engine} ({args.languages})")
    print(f"cell_accuracy {totals['cells_ok'] / n:.3f}")
    print(f"cell_accuracy_ignoring_spaces {totals['cells_ok_ws'] / n:.3f}")
    print(f"number_accuracy {totals['numbers_ok'] / max(totals['numbers'], 1):.3f} "
          f"({totals['numbers_ok']}/{totals['numbers']})")
    print(f"shape_accuracy {totals['shape_ok'] / max(totals['pieces'], 1):.3f}")
    print(f"seconds_per_scanned_page {ocr_seconds / max(scanned_pages, 1):.2f} (wall, OCR layer)")
    print(f"cpu_seconds_per_scanned_page {cpu_seconds / max(scanned_pages, 1):.2f} (whole scan cascade)")
    return 0


if __name__ == "__main__":
    t0 = time.perf_counter()
    rc = main()
    print(f"wall {time.perf_counter() - t0:.1f}s")
    sys.exit(rc)
