"""Invariants every benchmark run checks on rowkeeper's tables (bench/zoo.py, peer.py, realdev.py).

- no table emitted twice: two tables on the same page whose regions overlap (half the smaller
  one) and whose cell texts are mostly the same;
- no text in two tables: no word of the page (PyMuPDF words, the page's own coordinates, which
  are the ones regions use) has its centre inside regions of two different tables;
- every body row of a merged table accounted for: the pipeline's own count (the pieces' rows
  minus repeated header rows, its `merged_row_count` check) equals the body rows, and the body
  cells of the table cover exactly its body rows.

Tables are the JSON records of tables.jsonl. A violation is one line naming the document and
the table ids; `print_violations` makes a non-zero count a visible failure line.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Sequence

Box = Sequence[float]


def _area(b: Box) -> float:
    return max(b[2] - b[0], 0) * max(b[3] - b[1], 0)


def _overlap(a: Box, b: Box) -> float:
    """Intersection area over the smaller box's area."""
    inter = (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))
    small = min(_area(a), _area(b))
    return _area(inter) / small if small > 0 else 0.0


def _texts(t: dict) -> Counter:
    cells = [c for r in t.get("rows") or [] for c in r] + list(t.get("columns") or [])
    return Counter(unicodedata.normalize("NFKC", c).strip() for c in cells if c and c.strip())


def _regions(t: dict) -> list[tuple[int, Box]]:
    return [(r["page"], r["bbox"]) for r in t.get("regions") or [] if r.get("bbox")]


def duplicated_tables(doc: str, tables: Sequence[dict]) -> list[str]:
    """Pairs of tables covering the same place with mostly the same cells."""
    out = []
    for i, a in enumerate(tables):
        for b in tables[i + 1:]:
            if not any(pa == pb and _overlap(ra, rb) >= 0.5
                       for pa, ra in _regions(a) for pb, rb in _regions(b)):
                continue
            ta, tb = _texts(a), _texts(b)
            small = min(sum(ta.values()), sum(tb.values()))
            if small and sum((ta & tb).values()) * 2 >= small:
                out.append(f"{doc}: {a.get('table_id')} and {b.get('table_id')} emitted twice "
                           f"(same region, {sum((ta & tb).values())}/{small} cells alike)")
    return out


def _inside(word: Sequence, box: Box) -> bool:
    x, y = (word[0] + word[2]) / 2, (word[1] + word[3]) / 2
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def shared_words(doc: str, tables: Sequence[dict], words: dict[int, list]) -> list[str]:
    """Words whose centre lies in regions of two different tables."""
    out = []
    for i, a in enumerate(tables):
        for b in tables[i + 1:]:
            hits = []
            for pa, ra in _regions(a):
                for pb, rb in _regions(b):
                    if pa == pb and _overlap(ra, rb) > 0:
                        hits += [w[4] for w in words.get(pa, ()) if _inside(w, ra) and _inside(w, rb)]
            if hits:
                out.append(f"{doc}: {len(hits)} word(s) in both {a.get('table_id')} and "
                           f"{b.get('table_id')} (e.g. {' '.join(hits[:4])!r})")
    return out


def unaccounted_rows(doc: str, tables: Sequence[dict]) -> list[str]:
    """Merged tables whose body rows differ from what their pieces account for."""
    out = []
    for t in tables:
        if len(t.get("merged_from") or ()) < 2:
            continue
        tid, n = t.get("table_id"), len(t.get("rows") or [])
        for check in (t.get("validation") or {}).get("checks", []):
            if check.get("name") == "merged_row_count" and not check.get("passed"):
                out.append(f"{doc}: {tid} rows not accounted for ({check.get('detail')})")
        h = int(t.get("header_rows") or 0)
        body = {c["row"] for c in t.get("cells") or [] if not c.get("is_header") and c["row"] >= h}
        if t.get("cells") and body and body != set(range(h, h + n)):
            out.append(f"{doc}: {tid} body cells cover {len(body)} rows, the table has {n}")
    return out


def page_words(pdf: str) -> dict[int, list]:
    """PyMuPDF words per 1-based page (x0, top, x1, bottom, text, ...)."""
    import pymupdf

    with pymupdf.open(pdf) as d:
        return {i + 1: d[i].get_text("words") for i in range(len(d))}


def check_document(doc: str, pdf: str | None, tables: Sequence[dict]) -> list[str]:
    """Every invariant violation of one document's tables."""
    out = duplicated_tables(doc, tables) + unaccounted_rows(doc, tables)
    if pdf and len(tables) > 1:
        try:
            out += shared_words(doc, tables, page_words(pdf))
        except Exception as e:  # an unreadable PDF is the pipeline's failure, reported there
            out.append(f"{doc}: words not readable for the invariants ({e})")
    return out


def print_violations(violations: Sequence[str], label: str, show: int = 20) -> None:
    """One summary line (a visible failure when non-zero) and the first violations."""
    if not violations:
        print(f"invariants [{label}]: ok (no table twice, no word in two tables, merged rows accounted)")
        return
    kinds = Counter("twice" if "twice" in v else "shared words" if "in both" in v else "rows"
                    for v in violations)
    print(f"INVARIANTS FAILED [{label}]: {len(violations)} violation(s) {dict(kinds)}")
    for v in violations[:show]:
        print(f"  {v}")
    if len(violations) > show:
        print(f"  ... {len(violations) - show} more")
