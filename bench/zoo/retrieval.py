"""Retrieval check on the zoo: can one retrieved chunk answer "<row key> <column name>"?

For every body cell of a truth table with a named column, the query is the row's key (its
first text column) and the column name; BM25 (bm25s, rowkeeper's own tokenizer: words, numbers
without separators, CJK bigrams) searches all chunks of the split, and the cell is answered
when one of the top 3 chunks holds the key, the column name and the value (after NFKC and
whitespace collapse). Three chunk sets are scored on the same queries:

- rowkeeper: the chunks the pipeline wrote (chunks.jsonl);
- perfect: one chunk per truth row, built like rowkeeper's row chunks (section path, caption,
  column names, `name=value` pairs): the ceiling of the check;
- fixed-300: the page text (PyMuPDF) of every document cut every 300 characters, the way a
  generic splitter treats a PDF.
"""

from __future__ import annotations

from pathlib import Path

from bench.zoo.score import norm

K = 3
FIXED = 300


def questions(truths: list[dict]) -> list[tuple[str, str, str]]:
    """(key, column name, value) for every answerable body cell."""
    out = []
    for d in truths:
        for t in d["tables"]:
            key_col = next((c for c, ty in enumerate(t["column_types"]) if ty == "text"), None)
            if key_col is None:
                continue
            for row in t["rows"]:
                key = norm(row[key_col])
                for c, value in enumerate(row):
                    name = norm(t["columns"][c])
                    if c != key_col and key and name and norm(value):
                        out.append((key, name, norm(value)))
    return out


def perfect_chunks(truths: list[dict]) -> list[str]:
    """One self-contained chunk per truth row."""
    out = []
    for d in truths:
        for t in d["tables"]:
            head = " > ".join(t["section_path"]) + f"\nTable: {t['caption']}\nColumns: " + \
                " / ".join(t["columns"])
            for i, row in enumerate(t["rows"]):
                pairs = " / ".join(f"{n}={v}" for n, v in zip(t["columns"], row, strict=True))
                out.append(f"{head}\nRow {i + 1}: {pairs}")
    return out


def fixed_chunks(truths: list[dict], corpus: Path) -> list[str]:
    """Page text cut into fixed-size pieces."""
    import pymupdf

    out = []
    for d in truths:
        with pymupdf.open(corpus / f"{d['doc']}.pdf") as pdf:
            text = "\n".join(page.get_text() for page in pdf)
        out += [text[i:i + FIXED] for i in range(0, len(text), FIXED)]
    return out


def answered(chunks: list[str], qs: list[tuple[str, str, str]]) -> float:
    """Share of questions whose top-K chunks include one holding key, column and value."""
    import bm25s

    from rowkeeper.transforms.retrieval import tokenize

    if not qs:
        return 1.0
    if not chunks:
        return 0.0
    texts = [norm(c) for c in chunks]
    index = bm25s.BM25()
    index.index([tokenize(t) or ["\0"] for t in texts], show_progress=False)
    k = min(K, len(texts))
    hits = 0
    batch = 2000
    for start in range(0, len(qs), batch):
        part = qs[start:start + batch]
        tokens = [tokenize(f"{key} {name}") or ["\0"] for key, name, _ in part]
        docs, _scores = index.retrieve(tokens, k=k, show_progress=False)
        for (key, name, value), top in zip(part, docs, strict=True):
            hits += any(key in texts[j] and name in texts[j] and value in texts[j] for j in top)
    return hits / len(qs)


def print_retrieval(truths: list[dict], chunks_by_doc: dict[str, list[dict]], corpus: Path,
                    splits: list[str]) -> dict:
    """Retrieval per split for rowkeeper's chunks and the two baselines; the figures."""
    figs: dict[str, dict[str, float]] = {}
    print(f"\nretrieval (BM25 top {K}, '<row key> <column name>', answered = key, column and "
          "value in one chunk)")
    for s in splits:
        part = [d for d in truths if d["split"] == s]
        qs = questions(part)
        ours = [c["text"] for d in part for c in chunks_by_doc.get(d["doc"], [])]
        figs[s] = {"rowkeeper": answered(ours, qs), "perfect": answered(perfect_chunks(part), qs),
                   "fixed300": answered(fixed_chunks(part, corpus), qs), "questions": len(qs)}
        f = figs[s]
        print(f"  {s:<7} rowkeeper {f['rowkeeper']:.3f}   perfect chunks {f['perfect']:.3f}   "
              f"fixed {FIXED}-char chunks {f['fixed300']:.3f}   ({len(qs)} questions)")
    for other in (s for s in splits if s != "dev" and "dev" in splits):
        print(f"  gap (dev - {other}) rowkeeper {figs['dev']['rowkeeper'] - figs[other]['rowkeeper']:+.3f}")
    return figs
