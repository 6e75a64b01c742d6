"""Scoring extracted tables against the zoo's ground truth.

Per document, each truth table is paired with at most one extracted table sharing a page (the
pairs with the most matched cells first, one-to-one). For a pair:

- cells: truth body rows aligned to extracted body rows by a maximum-weight one-to-one row
  matching (peer_score's); a cell counts when its text equals the extracted cell in the SAME
  column index, after NFKC and whitespace collapse. Empty truth cells are not counted.
- column names, column types: by column index, over the truth's columns.
- caption, section path: equal after the same normalisation (no caption = "").

A truth table with no pair counts 0 on every measure. An extracted table with no pair is a
duplicate when it matches at least half the cells of some truth table of its document,
otherwise spurious; both lower precision.
"""

from __future__ import annotations

import importlib.util
import re
import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field

_WS = re.compile(r"\s+")


def norm(s: object) -> str:
    """NFKC, whitespace runs to one space, stripped (peer_score's normalisation)."""
    if s is None:
        return ""
    return _WS.sub(" ", unicodedata.normalize("NFKC", str(s))).strip()


def _load_matcher():
    """peer_score's exact row matching, so both benchmarks align rows the same way."""
    from bench.corpus_run import SCORER

    spec = importlib.util.spec_from_file_location("peer_score", SCORER)
    if spec is None or spec.loader is None:
        raise SystemExit(f"zoo: cannot load {SCORER}")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.max_row_matching


_max_row_matching = None


def matched_cells(truth_rows: list[list[str]], rows: list[list[str]]) -> int:
    """Truth cells equal to the extracted cell at the same column, rows aligned one-to-one."""
    global _max_row_matching
    if _max_row_matching is None:
        _max_row_matching = _load_matcher()
    index: dict[tuple[int, str], list[int]] = defaultdict(list)
    for j, row in enumerate(rows):
        for c, text in enumerate(row):
            if (t := norm(text)):
                index[(c, t)].append(j)
    edges: dict[tuple[int, int], int] = defaultdict(int)
    for i, row in enumerate(truth_rows):
        for c, text in enumerate(row):
            if (t := norm(text)):
                for j in index.get((c, t), ()):
                    edges[(i, j)] += 1
    return _max_row_matching(dict(edges))


def n_cells(rows: list[list[str]]) -> int:
    """Non-empty cells of a grid."""
    return sum(1 for r in rows for c in r if norm(c))


@dataclass
class Tally:
    """Sums behind every figure of one group (a split, a family, a language)."""

    tables: int = 0
    found: int = 0
    extracted: int = 0
    paired: int = 0
    duplicates: int = 0
    cells: int = 0
    cells_ok: int = 0
    columns: int = 0
    columns_ok: int = 0
    types_ok: int = 0
    captions_ok: int = 0
    sections_ok: int = 0
    failed_docs: int = 0
    misses: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        """Accumulate another tally."""
        for k, v in vars(other).items():
            setattr(self, k, getattr(self, k) + v)

    def figures(self) -> dict[str, float]:
        """The ratios printed for a group."""
        def r(a: int, b: int) -> float:
            return a / b if b else 1.0

        return {"recall": r(self.found, self.tables), "precision": r(self.paired, self.extracted),
                "cells": r(self.cells_ok, self.cells), "columns": r(self.columns_ok, self.columns),
                "captions": r(self.captions_ok, self.tables),
                "sections": r(self.sections_ok, self.tables), "types": r(self.types_ok, self.columns),
                "duplicates": float(self.duplicates)}


def _pair(truth: list[dict], got: list[dict]) -> tuple[dict[int, int], dict[tuple[int, int], int]]:
    """Truth index -> extracted index, greedily by matched cells; and all match counts."""
    scores = {}
    for i, t in enumerate(truth):
        for j, e in enumerate(got):
            if set(t["pages"]) & set(e.get("pages") or t["pages"]):
                if (m := matched_cells(t["rows"], e.get("rows") or [])):
                    scores[(i, j)] = m
    pairs: dict[int, int] = {}
    used: set[int] = set()
    for (i, j), _m in sorted(scores.items(), key=lambda kv: -kv[1]):
        if i not in pairs and j not in used:
            pairs[i] = j
            used.add(j)
    return pairs, scores


def score_doc(truth: dict, got: list[dict]) -> Tally:
    """The tally of one document: truth (TruthDoc as JSON) against its extracted tables."""
    tally = Tally(tables=len(truth["tables"]), extracted=len(got))
    pairs, scores = _pair(truth["tables"], got)
    for i, t in enumerate(truth["tables"]):
        ncol = len(t["columns"])
        tally.cells += n_cells(t["rows"])
        tally.columns += ncol
        if i not in pairs:
            tally.misses.append(f"{t['table']}: not found")
            continue
        e = got[pairs[i]]
        tally.found += 1
        tally.paired += 1
        tally.cells_ok += scores[(i, pairs[i])]
        names = [norm(x) for x in e.get("columns") or []]
        types = list(e.get("column_types") or [])
        tally.columns_ok += sum(1 for c in range(min(ncol, len(names))) if names[c] == norm(t["columns"][c]))
        tally.types_ok += sum(1 for c in range(min(ncol, len(types))) if types[c] == t["column_types"][c])
        tally.captions_ok += norm(e.get("caption")) == norm(t["caption"])
        tally.sections_ok += [norm(x) for x in e.get("section_path") or []] == [norm(x) for x in t["section_path"]]
    for j, _e in enumerate(got):
        if j in pairs.values():
            continue
        if any(m * 2 >= max(n_cells(truth["tables"][i]["rows"]), 1)
               for (i, jj), m in scores.items() if jj == j):
            tally.duplicates += 1
            tally.misses.append(f"{got[j].get('table_id')}: duplicate")
    return tally


def score_all(truths: list[dict], got_by_doc: dict[str, list[dict]], failed: set[str]) -> dict:
    """Tallies by split, by (split, family) and by (split, language)."""
    groups: dict[tuple, Tally] = defaultdict(Tally)
    for t in truths:
        tally = score_doc(t, got_by_doc.get(t["doc"], []))
        tally.failed_docs = int(t["doc"] in failed)
        for key in (("split", t["split"]), ("family", t["split"], t["family"]),
                    ("lang", t["split"], t["lang"])):
            groups[key].add(tally)
    return groups
