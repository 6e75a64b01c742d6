"""Sink throughput: write the tables, cells and chunks of N pages to each sink, then measure
the cost of replacing one whole document. Prints one line per sink.

    python bench/sinks.py [--docs 40] [--pages-per-doc 5] [--rows 30] [--sinks folder,duckdb,...]

Postgres: ROWKEEPER_BENCH_PG_DSN, else a throwaway local server (as in the tests).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rowkeeper.models import Chunk, DocumentResult  # noqa: E402
from rowkeeper.registry import resolve  # noqa: E402
from tests.sinks.batches import chunks_for, make_batch, property_table  # noqa: E402


def corpus(docs: int, pages: int, rows: int) -> list[DocumentResult]:
    """`docs` documents of `pages` pages, one `rows`-row table per page, a row chunk per row."""
    out = []
    for d in range(docs):
        base = make_batch(f"bench-{d}", n_tables=0)
        doc_id = base.document.doc_id
        body = tuple((f"Property {d}-{r}", f"{10_000 + 37 * r:,}", f"{8_000 + 11 * r:,}") for r in range(rows))
        tables = tuple(property_table(doc_id, p + 1, body, page=p + 1, source=f"bench-{d}.pdf")
                       for p in range(pages))
        chunks: list[Chunk] = []
        for t in tables:
            chunks.extend(chunks_for(t))
        doc = base.document.model_copy(update={"n_tables": len(tables), "n_chunks": len(chunks)})
        out.append(DocumentResult(document=doc, tables=tables, chunks=tuple(chunks)))
    return out


def options(kind: str, tmp: Path, pg_dsn: str | None) -> dict[str, object]:
    """Bench options for each sink, in a temp dir."""
    if kind == "folder":
        return {"path": str(tmp / "folder")}
    if kind == "duckdb":
        return {"path": str(tmp / "rowkeeper.duckdb")}
    if kind == "lancedb":
        return {"path": str(tmp / "lancedb"), "embedding": "auto"}
    return {"dsn": pg_dsn, "schema_name": "bench"}


def bench(kind: str, batches: list[DocumentResult], tmp: Path, pg_dsn: str | None) -> str:
    """Write all batches, close, then replace one document 5 times; a result line."""
    cls = resolve("sink", kind)
    sink = cls(cls.Options(**options(kind, tmp, pg_dsn)))
    t0 = time.perf_counter()
    sink.write(batches[0])  # connects, creates the schema, loads the embedding model
    t_first = time.perf_counter() - t0
    rest = batches[1:]
    full = getattr(cls, "stores_tables", True)  # LanceDB keeps documents and chunks only
    records = sum(1 + len(b.chunks) + (len(b.tables) + sum(len(t.rows) * len(t.columns) for t in b.tables)
                                       if full else 0) for b in rest)
    t0 = time.perf_counter()
    for b in rest:
        sink.write(b)
    t_write = time.perf_counter() - t0
    t0 = time.perf_counter()
    sink.close()
    t_close = time.perf_counter() - t0
    replaces = []
    for _ in range(5):
        t0 = time.perf_counter()
        sink.write(batches[len(batches) // 2])
        replaces.append(time.perf_counter() - t0)
    sink.close()
    return (f"{kind:8s} first_doc={t_first:5.2f}s then records={records} write={t_write:6.2f}s "
            f"({records / t_write:7.0f} rec/s, {len(rest) / t_write:5.1f} docs/s) close={t_close:5.2f}s "
            f"replace_one_doc_median={statistics.median(replaces) * 1000:6.1f}ms")


def main() -> None:
    """Parse arguments, build the corpus, run each sink."""
    p = argparse.ArgumentParser()
    p.add_argument("--docs", type=int, default=40)
    p.add_argument("--pages-per-doc", type=int, default=5)
    p.add_argument("--rows", type=int, default=30)
    p.add_argument("--sinks", default="folder,duckdb,lancedb,postgres")
    args = p.parse_args()
    batches = corpus(args.docs, args.pages_per_doc, args.rows)
    print(f"corpus: {args.docs} docs x {args.pages_per_doc} pages = {args.docs * args.pages_per_doc} pages, "
          f"{sum(len(b.tables) for b in batches)} tables, {sum(len(b.chunks) for b in batches)} chunks, "
          f"{sum(len(t.rows) * 3 for b in batches for t in b.tables)} cells; load {os.getloadavg()[0]:.2f}")
    server = None
    pg_dsn = os.environ.get("ROWKEEPER_BENCH_PG_DSN")
    kinds = args.sinks.split(",")
    if "postgres" in kinds and not pg_dsn:
        from tests.sinks.pg_server import start_server

        server = start_server()
        pg_dsn = server.dsn
    try:
        for kind in kinds:
            with tempfile.TemporaryDirectory(prefix=f"rk-bench-{kind}-") as tmp:
                print(bench(kind, batches, Path(tmp), pg_dsn), flush=True)
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__":
    main()
