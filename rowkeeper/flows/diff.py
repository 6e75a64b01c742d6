"""What changed in a document's output between two pipeline versions, table by table.

Plain data in, a dict out: tables added and lost, rows added and lost, cells changed (with
before/after samples), columns and column types changed, validation checks that flipped, and
chunks added and lost. The
backfill flow uses `regressions` to refuse replacing a document whose output got worse.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from rowkeeper.models import Chunk, DocumentResult, Table

MAX_SAMPLES = 5


def _iou(a: Sequence[float], b: Sequence[float]) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    inter = w * h
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


def match_tables(old: Sequence[Table], new: Sequence[Table]) -> list[tuple[Table | None, Table | None]]:
    """Pairs (old, new) of the same table: same first page and overlapping first region
    (ids alone shift when a table is found or lost before it); unmatched ones paired with None."""
    pairs: list[tuple[Table | None, Table | None]] = []
    left = list(old)
    for t in new:
        best, score = None, 0.3
        for o in left:
            if o.pages[:1] == t.pages[:1] and o.regions and t.regions:
                s = _iou(o.regions[0].bbox, t.regions[0].bbox)
                if s > score:
                    best, score = o, s
        if best is None:
            best = next((o for o in left if o.table_id == t.table_id and not o.regions), None)
        if best is not None:
            left.remove(best)
        pairs.append((best, t))
    pairs += [(o, None) for o in left]
    return pairs


def _brief(t: Table) -> dict[str, Any]:
    return {"table_id": t.table_id, "pages": list(t.pages), "caption": t.caption,
            "columns": list(t.columns), "rows": len(t.rows)}


def diff_table(old: Table, new: Table) -> dict[str, Any]:
    """Row, cell, column, type and check changes of one matched table."""
    changed, samples = 0, []
    width = min(len(old.columns), len(new.columns))
    for i, (ro, rn) in enumerate(zip(old.rows, new.rows, strict=False)):
        for j in range(width):
            if ro[j] != rn[j]:
                changed += 1
                if len(samples) < MAX_SAMPLES:
                    samples.append({"row": i, "column": new.columns[j], "before": ro[j], "after": rn[j]})
    types = [{"column": new.columns[j], "before": old.column_types[j], "after": new.column_types[j]}
             for j in range(min(width, len(old.column_types), len(new.column_types)))
             if old.column_types[j] != new.column_types[j]]
    before = {c.name: c.passed for c in old.validation.checks}
    flips = [{"check": c.name, "before": "pass" if before[c.name] else "fail",
              "after": "pass" if c.passed else "fail", "detail": c.detail,
              "failures": list(c.failures[:MAX_SAMPLES])}
             for c in new.validation.checks if c.name in before and before[c.name] != c.passed]
    return {"table_id": new.table_id, "old_table_id": old.table_id, "caption": new.caption,
            "pages": list(new.pages), "rows_before": len(old.rows), "rows_after": len(new.rows),
            "rows_added": max(0, len(new.rows) - len(old.rows)),
            "rows_lost": max(0, len(old.rows) - len(new.rows)),
            "columns_before": list(old.columns) if old.columns != new.columns else None,
            "columns_after": list(new.columns) if old.columns != new.columns else None,
            "cells_changed": changed, "cell_samples": samples, "column_types_changed": types,
            "checks_flipped": flips}


def _changed(d: dict[str, Any]) -> bool:
    return bool(d["rows_added"] or d["rows_lost"] or d["cells_changed"] or d["columns_after"]
                or d["column_types_changed"] or d["checks_flipped"])


def _chunk_key(c: Chunk) -> tuple[str, str | None, str]:
    return (c.kind, c.table_id, c.text)


def diff_chunks(old: Sequence[Chunk], new: Sequence[Chunk]) -> dict[str, Any]:
    """Chunks before/after and how many were added or lost, by kind and text (chunk ids are
    positional, so a re-cut table renumbers them): what a RAG index would re-embed."""
    before, after = Counter(map(_chunk_key, old)), Counter(map(_chunk_key, new))
    added, lost = after - before, before - after
    by_kind: dict[str, dict[str, int]] = {}
    for sign, counts in (("added", added), ("lost", lost)):
        for (kind, _, _), n in counts.items():
            by_kind.setdefault(kind, {"added": 0, "lost": 0})[sign] += n
    samples = [{"kind": k, "table_id": t, "text": text[:200]}
               for (k, t, text) in list(added)[:MAX_SAMPLES]]
    return {"chunks_before": len(old), "chunks_after": len(new),
            "chunks_added": sum(added.values()), "chunks_lost": sum(lost.values()),
            "chunks_by_kind": dict(sorted(by_kind.items())), "chunk_samples": samples}


def diff_document(old: DocumentResult | None, new: DocumentResult) -> dict[str, Any]:
    """The document's diff: status change, tables added/lost, each changed table, and chunk
    counts (a new chunking alone is a change)."""
    old_tables = old.tables if old else ()
    added, lost, changed = [], [], []
    for o, n in match_tables(old_tables, new.tables):
        if o is None and n is not None:
            added.append(_brief(n))
        elif n is None and o is not None:
            lost.append(_brief(o))
        elif o is not None and n is not None and _changed(d := diff_table(o, n)):
            changed.append(d)
    out = {"doc_id": new.document.doc_id, "source": new.document.source,
           "status_before": old.document.status if old else None,
           "status_after": new.document.status, "tables_before": len(old_tables),
           "tables_after": len(new.tables), "tables_added": added, "tables_lost": lost,
           "tables_changed": changed, **diff_chunks(old.chunks if old else (), new.chunks)}
    out["regressions"] = regressions(out)
    out["changed"] = bool(added or lost or changed or out["status_before"] != out["status_after"]
                          or out["chunks_added"] or out["chunks_lost"])
    return out


def regressions(d: dict[str, Any]) -> int:
    """How much worse: checks flipped to failing, tables lost, and a document that now fails."""
    flips = sum(f["after"] == "fail" for t in d["tables_changed"] for f in t["checks_flipped"])
    worse_status = d["status_before"] == "ok" and d["status_after"] == "failed"
    return flips + len(d["tables_lost"]) + (1 if worse_status else 0)


def summarize(diffs: Sequence[dict[str, Any]]) -> dict[str, int]:
    """Totals over documents, for the top of the backfill report."""
    tables = [t for d in diffs for t in d["tables_changed"]]
    return {"documents": len(diffs), "documents_changed": sum(d["changed"] for d in diffs),
            "tables_added": sum(len(d["tables_added"]) for d in diffs),
            "tables_lost": sum(len(d["tables_lost"]) for d in diffs),
            "tables_changed": len(tables), "rows_added": sum(t["rows_added"] for t in tables),
            "rows_lost": sum(t["rows_lost"] for t in tables),
            "cells_changed": sum(t["cells_changed"] for t in tables),
            "column_types_changed": sum(len(t["column_types_changed"]) for t in tables),
            "checks_flipped": sum(len(t["checks_flipped"]) for t in tables),
            "chunks_before": sum(d["chunks_before"] for d in diffs),
            "chunks_after": sum(d["chunks_after"] for d in diffs),
            "chunks_added": sum(d["chunks_added"] for d in diffs),
            "chunks_lost": sum(d["chunks_lost"] for d in diffs),
            "regressions": sum(d["regressions"] for d in diffs)}
