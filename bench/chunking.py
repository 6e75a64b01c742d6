"""Fixed-size vs table-aware chunking on generated documents, through the real pipeline.

    python bench/chunking.py [--docs 12] [--fixed 300] [--k 3]

For each generated PDF (ground truth known), the pipeline extracts the tables; then

- fixed-size: each table written as Markdown (caption + header + rows) and cut every `--fixed`
  characters, the way a generic splitter treats a table;
- rowkeeper: `chunk_document` (table, row_group, row and text chunks).

Figures: cells self-contained (`measure_self_contained`: some chunk holds row key, column name
and value), rows self-contained (every cell of the row is), and top-k BM25 (bm25s, the same
index and tokenizer as `rowkeeper query`) retrieval of the right row for one question per row,
"What is the <column> of <row key>?": a hit is a chunk holding the key, the column and the value.
Questions come from the extracted tables (chunking alone: the target) and from the generator's
ground truth (end to end: extraction errors count too).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rowkeeper.config import Config  # noqa: E402
from rowkeeper.flows.pipeline import load_document, process_document  # noqa: E402
from rowkeeper.flows.query import ChunkIndex  # noqa: E402
from rowkeeper.models import Chunk, Table  # noqa: E402
from rowkeeper.transforms.selfcontained import measure_self_contained  # noqa: E402
from rowkeeper.transforms.table_chunks import chunk_document  # noqa: E402
from rowkeeper.transforms.table_text import clean, column_labels, key_column, to_markdown  # noqa: E402
from samples.make_samples import sample_specs  # noqa: E402
from samples.pdfgen import DocSpec, Heading, Paragraph, TableSpec, build_pdf  # noqa: E402

SYLLABLES = "ka ren do mi sol ta vor lin ex ar po ze nu ti bel gar hon".split()


def _name(rng: random.Random, i: int) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(2)).capitalize() + f" {i + 1}"


def generated_spec(n: int) -> DocSpec:
    """A document with one priced table: 15-70 rows, 3-9 columns, key first or second."""
    rng = random.Random(n)
    n_cols, n_rows = rng.randint(3, 9), rng.randint(15, 70)
    metrics = rng.sample(["Price", "Stock", "Weight", "Lead time", "Discount", "Rating", "Volume",
                          "Width", "Height", "Depth", "Power", "Warranty"], n_cols - 1)
    header, key_first = ["Product"] + metrics, rng.random() < 0.7
    rows = [[_name(rng, i)] + [f"{rng.randint(1, 99999):,}" for _ in metrics] for i in range(n_rows)]
    if not key_first:  # an id column before the key, as in many price lists
        header = ["No"] + header[:-1]
        rows = [[str(i + 1)] + r[:-1] for i, r in enumerate(rows)]
    return DocSpec(title=f"Catalogue {n}", page_numbers=True, blocks=[
        Heading(f"{n}. Products"), Paragraph("All prices are list prices. " * rng.randint(1, 6)),
        TableSpec(caption=f"Table {n} Product data", header=[header], rows=rows,
                  repeat_header=rng.random() < 0.5, ruled=rng.random() < 0.8),
        Paragraph("Delivery terms apply."),
    ])


def fixed_chunks(table: Table, size: int) -> list[Chunk]:
    """The table as Markdown cut every `size` characters (no row metadata: any piece may hold any row)."""
    text = "\n".join([table.caption or "", to_markdown(table)])
    return [Chunk(chunk_id=f"{table.table_id}:f{n}", doc_id=table.doc_id, source=table.source,
                  table_id=table.table_id, kind="row_group", text=text[i:i + size], metadata={})
            for n, i in enumerate(range(0, len(text), size))]


def _answers(chunk: Chunk, key: str, column: str, value: str) -> bool:
    text = clean(chunk.text)
    return key in text and column in text and value in text


def rows_self_contained(table: Table, chunks: list[Chunk]) -> tuple[int, int]:
    """(rows whose every non-empty cell some covering chunk holds with key and column, rows)."""
    k, labels = key_column(table), column_labels(table.columns)
    mine = [c for c in chunks if c.table_id == table.table_id and c.kind in ("row", "row_group")]
    good = 0
    for i, row in enumerate(table.rows):
        cover = [c for c in mine if c.metadata.get("row_start") is None
                 or c.metadata["row_start"] <= i <= c.metadata["row_end"]]
        key = clean(row[k])
        good += all(any(_answers(c, key, labels[j], clean(v)) for c in cover)
                    for j, v in enumerate(row) if clean(v))
    return good, len(table.rows)


def truth_tables(specs: dict[str, DocSpec]) -> list[Table]:
    """The ground-truth tables of the specs (header as printed, every body row)."""
    out = []
    for name, spec in specs.items():
        for n, b in enumerate((b for b in spec.blocks if isinstance(b, TableSpec)), 1):
            out.append(Table(doc_id=name, source=name, table_id=f"{name}:t{n}", pages=(), regions=(),
                             columns=tuple(b.header[-1]), rows=tuple(tuple(r) for r in b.rows)))
    return out


def questions(tables: list[Table], seed: int = 7) -> list[tuple[str, str, str, str]]:
    """One (question, key, column, value) per ground-truth body row, the column drawn at random."""
    rng, out = random.Random(seed), []
    for t in tables:
        k, labels = key_column(t), column_labels(t.columns)
        for row in t.rows:
            cols = [j for j in range(len(row)) if j != k and clean(row[j])]
            if cols:
                j = rng.choice(cols)
                out.append((f"What is the {labels[j]} of {clean(row[k])}?", clean(row[k]),
                            labels[j], clean(row[j])))
    return out


def retrieval(chunks: list[Chunk], qs: list[tuple[str, str, str, str]], k: int) -> float:
    """Share of questions with a chunk holding key, column and value among the top k."""
    index = ChunkIndex(chunks)
    hits = sum(any(_answers(h.chunk, key, col, val) for h in index.search(q, k)) for q, key, col, val in qs)
    return hits / len(qs) if qs else 1.0


def main() -> int:
    """Run the comparison and print one line per strategy."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--docs", type=int, default=12, help="generated documents besides the samples")
    ap.add_argument("--fixed", type=int, default=300)
    ap.add_argument("--k", type=int, default=3)
    args = ap.parse_args()
    specs = {**sample_specs(), **{f"gen{n}": generated_spec(n) for n in range(1, args.docs + 1)}}
    config, tables, lines = Config(), [], []
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        for name, spec in specs.items():
            path = Path(tmp) / f"{name}.pdf"
            path.write_bytes(build_pdf(spec))
            result = process_document(load_document(str(path)), config.with_out(tmp))
            tables += list(result.tables)
            lines.append((result.document.doc_id, result.lines, result.tables))
        pipeline_s = time.perf_counter() - start
    start = time.perf_counter()
    ours = [c for doc_id, ls, ts in lines for c in chunk_document(doc_id, "", ts, ls, config.chunk)]
    chunk_s = time.perf_counter() - start
    groups_only = config.chunk.model_copy(update={"row_chunks": False, "table_chunks": False})
    only = [c for doc_id, ls, ts in lines for c in chunk_document(doc_id, "", ts, ls, groups_only)]
    fixed = [c for t in tables for c in fixed_chunks(t, args.fixed)]
    truth = truth_tables(specs)
    qs, qx = questions(truth), questions(tables)
    print(f"documents {len(specs)}, tables {len(tables)} extracted / {len(truth)} true, body rows "
          f"{sum(len(t.rows) for t in tables)} extracted / {sum(len(t.rows) for t in truth)} true, "
          f"questions {len(qs)}; pipeline {pipeline_s:.1f}s, chunking {chunk_s * 1000:.0f} ms")
    print(f"{'strategy':<22}{'chunks':>8}{'cells self-contained':>22}{'rows self-contained':>21}"
          f"{f'top-{args.k} (extracted)':>19}{f'top-{args.k} (truth)':>16}")
    for label, chunks in ((f"fixed {args.fixed} chars", fixed), ("rowkeeper row groups", only),
                          ("rowkeeper", ours)):
        cells = measure_self_contained(tables, chunks).fraction
        good, n = map(sum, zip(*(rows_self_contained(t, chunks) for t in tables), strict=True))
        print(f"{label:<22}{len(chunks):>8}{cells:>22.3f}{f'{good}/{n} = {good / n:.3f}':>21}"
              f"{retrieval(chunks, qx, args.k):>19.3f}{retrieval(chunks, qs, args.k):>16.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
