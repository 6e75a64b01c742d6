"""`rowkeeper query OUT "question"`: BM25 (bm25s) over a run's chunks.jsonl, with the
dispatcher rule that answers with the whole table when the hits cover most of its rows.

Prints each hit with its citation: source, pages, table id and caption, rows.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path

from rowkeeper.config import Config
from rowkeeper.errors import ConfigError, MissingExtra
from rowkeeper.models import Chunk
from rowkeeper.transforms.retrieval import Hit, expand_to_tables, tokenize


def load_chunks(out: str | Path) -> list[Chunk]:
    """The chunks of a run folder (its chunks.jsonl), in file order."""
    path = Path(out) / "chunks.jsonl" if Path(out).is_dir() else Path(out)
    if not path.exists():
        raise ConfigError(f"no chunks.jsonl in {out} (run `rowkeeper run ... --out {out}` first)")
    with path.open(encoding="utf-8") as f:
        return [Chunk.model_validate_json(line) for line in f if line.strip()]


class ChunkIndex:
    """A BM25 index over chunks (bm25s), searched with the same tokenizer as it was built."""

    def __init__(self, chunks: Sequence[Chunk]) -> None:
        try:
            import bm25s
        except ImportError as e:
            raise MissingExtra("rowkeeper query", "query", str(e)) from e
        self.chunks = list(chunks)
        self.tables = {c.table_id: c for c in self.chunks if c.kind == "table" and c.table_id}
        self._bm25 = bm25s.BM25()
        if self.chunks:
            self._bm25.index([tokenize(c.text) or ["\0"] for c in self.chunks], show_progress=False)

    def search(self, question: str, k: int = 5) -> list[Hit]:
        """The k best-scoring chunks for the question (zero scores dropped)."""
        tokens = tokenize(question)
        if not self.chunks or not tokens:
            return []
        docs, scores = self._bm25.retrieve([tokens], k=min(k, len(self.chunks)), show_progress=False)
        return [Hit(self.chunks[int(d)], float(s)) for d, s in zip(docs[0], scores[0], strict=True)
                if s > 0]

    def ask(self, question: str, k: int = 5, ratio: float = 0.6) -> list[Hit]:
        """Search, then answer with whole tables where hits cover k/n >= ratio of their rows."""
        return expand_to_tables(self.search(question, k), self.tables, ratio)


def citation(chunk: Chunk) -> str:
    """`source p.3-4, table <id> "caption", rows 12-20` (1-based rows, as a person reads)."""
    m = chunk.metadata
    pages = m.get("pages") or []
    span = "?" if not pages else str(pages[0]) if len(pages) == 1 else f"{pages[0]}-{pages[-1]}"
    where = f"{chunk.source} p.{span}"
    if chunk.table_id:
        where += f", table {chunk.table_id}"
        if m.get("caption"):
            where += f' "{m["caption"]}"'
        if chunk.kind != "table" and m.get("row_start") is not None:
            a, b = int(m["row_start"]) + 1, int(m["row_end"]) + 1
            where += f", row {a}" if a == b else f", rows {a}-{b}"
    elif m.get("section_path"):
        where += f", section {' > '.join(m['section_path'])}"
    return where


def format_hits(hits: Sequence[Hit], max_lines: int = 8) -> str:
    """Hits as numbered blocks: kind, score, citation, then the first lines of the text."""
    if not hits:
        return "no matching chunks"
    out = []
    for n, h in enumerate(hits, 1):
        note = f" (expanded from {len(h.expanded_from)} row hits)" if h.expanded_from else ""
        lines = h.chunk.text.splitlines()
        more = [f"   ... {len(lines) - max_lines} more lines"] if len(lines) > max_lines else []
        out += [f"{n}. [{h.chunk.kind}] score {h.score:.2f}{note}", f"   {citation(h.chunk)}"]
        out += ["   " + ln for ln in lines[:max_lines]] + more + [""]
    return "\n".join(out)


def run_cli(out: str, question: str, config: Config, args: argparse.Namespace | None = None) -> int:
    """The `query` subcommand: print the hits (or JSON lines with --json)."""
    k = getattr(args, "k", 5) or 5
    ratio = getattr(args, "expand_ratio", None)
    hits = ChunkIndex(load_chunks(out)).ask(question, k, config.chunk.expand_ratio
                                             if ratio is None else ratio)
    if getattr(args, "json", False):
        for h in hits:
            print(json.dumps({"chunk_id": h.chunk.chunk_id, "kind": h.chunk.kind, "score": h.score,
                              "citation": citation(h.chunk), "expanded_from": list(h.expanded_from),
                              "text": h.chunk.text}, ensure_ascii=False))
    else:
        print(format_hits(hits))
    return 0
