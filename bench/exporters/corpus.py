"""The exporter bench's corpus: which documents exist, their split, and writing them.

Document k of a shape gets its seed from a hash of (shape, k), so a document never changes
when shapes are added. Half of each shape's documents are dev and half test (k even/odd after
a hashed shuffle); languages rotate so each split holds every language. Each document is
written as HTML once per exporter (bench/out/exporters/v<VERSION>/<exporter>/) and printed
there to a PDF when its HTML is new or changed.
"""

from __future__ import annotations

import hashlib
import random
import sys
import time
from pathlib import Path

import pymupdf

from bench.exporters.html_doc import doc_html, doc_truth
from bench.exporters.printers import PRINTERS
from bench.exporters.shapes import SHAPES
from bench.zoo.content import LANGS, LANGUAGES

PER_SHAPE = 10  # documents per shape: half dev, half test
VERSION = "1"  # bump when a change alters documents already written


def seed_of(shape: str, k: int) -> int:
    """A stable 32-bit seed for document k of a shape."""
    return int(hashlib.sha256(f"exporters:{shape}:{k}".encode()).hexdigest()[:8], 16)


def plan() -> list[dict]:
    """Every document: name, shape, language, split, seed (k even/odd after a hashed shuffle)."""
    docs = []
    for s, shape in enumerate(SHAPES):
        order = sorted(range(PER_SHAPE), key=lambda k: seed_of(shape, k))
        for rank, k in enumerate(order):
            lang = LANGS[(rank // 2 + s) % len(LANGS)]
            docs.append({"doc": f"{shape}-{k:02d}-{lang}", "shape": shape, "lang": lang,
                         "split": "dev" if rank % 2 == 0 else "test", "seed": seed_of(shape, k)})
    return docs


def materialize(docs: list[dict], exporter: str, corpus: Path) -> list[dict]:
    """Write each document's HTML and print the missing PDFs; the truths, with page counts."""
    folder = corpus / f"v{VERSION}" / exporter
    folder.mkdir(parents=True, exist_ok=True)
    truths, todo = [], []
    for d in docs:
        rng = random.Random(d["seed"])
        hdoc = SHAPES[d["shape"]](LANGUAGES[d["lang"]], rng)
        path = folder / f"{d['doc']}.html"
        text = doc_html(hdoc, d["doc"])
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            path.with_suffix(".pdf").unlink(missing_ok=True)
        if not path.with_suffix(".pdf").exists():
            todo.append(path)
        truths.append({**d, "pdf": str(path.with_suffix(".pdf")), "tables": doc_truth(hdoc, d["doc"])})
    if todo:
        start = time.perf_counter()
        PRINTERS[exporter][0](todo)
        print(f"  {exporter}: printed {len(todo)} PDFs in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    for t in truths:
        pdf = Path(t["pdf"])
        t["pages"] = 0
        if pdf.exists():
            with pymupdf.open(pdf) as f:
                t["pages"] = f.page_count
        for tab in t["tables"]:
            tab["pages"] = list(range(1, t["pages"] + 1))
    return truths
