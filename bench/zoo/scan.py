"""Scanned twins of the zoo: each document's pages as a degraded scan in an image-only PDF.

The zoo draws text-layer pages only; users send scans of the same layouts. A twin is the
materialised zoo PDF with every page rendered as displayed (/Rotate applied) and degraded by
bench/scanned_hard_gen.py's `degrade` (150-200 dpi, paper tone, sensor noise and speckle, a
slight blur, JPEG q62-75, rotation up to 1 degree; one document in four in colour; no stamps,
which could cover a cell of a page holding several tables). The degradation is seeded from the
document's own seed, so a twin is the same bytes every time it is written. Twins share the zoo
document's name and truth and are cached under bench/out/zoo-scan/ (rewritten when
SCAN_VERSION or the zoo's GENERATOR_VERSION changes).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

from bench.scanned_hard_gen import scan_pages
from bench.zoo.corpus import GENERATOR_VERSION
from rowkeeper.config import Config, load_config

SCAN_VERSION = "1"  # bump when a change alters twins already written

SCAN_TIMEOUT_S = 3600.0
"""The scanned twins' document timeout: the product's 600 s is wall time, and on a shared machine
(load 10-25 while helpers run) 3-5 page scans lost pages to the page deadlines it derives, so the
accuracy figure read the machine's load. Accuracy is measured here with a deadline no scan reaches;
OCR speed is bench/scanned_hard.py's and bench/throughput.py's figure, at the product default."""


def bench_config(config_path: str | None, document_timeout_s: float | None = None) -> Config:
    """The config at `config_path` (default: the product's), with runner.document_timeout_s
    replaced when `document_timeout_s` is given."""
    config = load_config(config_path)
    if not document_timeout_s:
        return config
    runner = config.runner.model_copy(update={"document_timeout_s": document_timeout_s})
    return config.model_copy(update={"runner": runner})


def twin(pdf: bytes, seed: int) -> bytes:
    """`pdf` with every page replaced by a degraded scan, seeded by `seed`."""
    import pymupdf

    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        pages = set(range(1, doc.page_count + 1))
    rng = random.Random(f"zoo-scan:{seed}")
    return scan_pages(pdf, pages, rng, colour=rng.random() < 0.25, stamp=False)


def materialize_scans(docs: list, corpus: Path, out: Path) -> Path:
    """Write the twins of the (materialised) `docs` of `corpus` to `out`; returns `out`."""
    out.mkdir(parents=True, exist_ok=True)
    stamp = out / "VERSION"
    version = f"{GENERATOR_VERSION}.{SCAN_VERSION}"
    if not stamp.exists() or stamp.read_text() != version:
        for p in out.glob("*.pdf"):
            p.unlink()
        stamp.write_text(version)
    for d in docs:
        path = out / f"{d.doc}.pdf"
        if not path.exists():
            tmp = path.with_suffix(f".{os.getpid()}.tmp")  # two runs may write the same twin
            tmp.write_bytes(twin((corpus / f"{d.doc}.pdf").read_bytes(), d.seed))
            tmp.rename(path)
    return out
