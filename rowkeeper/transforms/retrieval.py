"""Retrieval rules over chunks, pure: how text becomes search tokens, and when a set of row hits
should be answered with the whole table instead (k matched rows of n, k / n >= ratio)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from rowkeeper.models import Chunk

_CJK = "\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f"
_RUN = re.compile(rf"[{_CJK}]+|\d+(?:[.,]\d+)*|[^\W\d_{_CJK}]+", re.UNICODE)
STOPWORDS = frozenset(
    "a an the of is are was were what which who how much many does do did in on for to and or "
    "by with at from as be this that it its".split())


def tokenize(text: str) -> list[str]:
    """Search tokens: lower-cased words, numbers without separators, CJK character bigrams.

    CJK text has no spaces, so bigrams stand in for words; `13,000` and `13000` match.
    """
    out: list[str] = []
    for run in _RUN.findall(unicodedata.normalize("NFKC", text).lower()):
        if _is_cjk(run[0]):
            out += [run] if len(run) == 1 else [run[i:i + 2] for i in range(len(run) - 1)]
        elif run[0].isdigit():
            out.append(run.replace(",", ""))
        elif run not in STOPWORDS:
            out.append(run)
    return out


def _is_cjk(ch: str) -> bool:
    return bool(re.match(rf"[{_CJK}]", ch))


@dataclass(frozen=True)
class Hit:
    """A retrieved chunk with its score; `expanded_from` lists the row hits a table replaced."""

    chunk: Chunk
    score: float
    expanded_from: tuple[str, ...] = ()


def rows_of(chunk: Chunk) -> set[int]:
    """The body rows a row or row_group chunk covers (empty for table and text chunks)."""
    m = chunk.metadata
    if chunk.kind not in ("row", "row_group") or m.get("row_start") is None:
        return set()
    return set(range(int(m["row_start"]), int(m["row_end"]) + 1))


def matched_rows(hits: Sequence[Hit]) -> dict[str, set[int]]:
    """Per table, the body rows the hits matched: rows of `row` hits, else of `row_group` hits.

    A row group matching says one of its rows matched, not all of them; so when a table has
    row hits, only those count (k), and group coverage counts only for row-group-only indexes.
    """
    by_kind: dict[str, dict[str, set[int]]] = {"row": {}, "row_group": {}}
    for h in hits:
        if h.chunk.table_id and h.chunk.kind in by_kind:
            by_kind[h.chunk.kind].setdefault(h.chunk.table_id, set()).update(rows_of(h.chunk))
    return {**by_kind["row_group"], **by_kind["row"]}


def expand_to_tables(hits: Sequence[Hit], tables: dict[str, Chunk], ratio: float) -> list[Hit]:
    """Replace a table's row hits by its `table` chunk when they cover k of n rows, k/n >= ratio.

    The table chunk takes the place (and best score) of that table's first row hit.
    """
    covered = matched_rows(hits)
    expand = {tid for tid, rows in covered.items() if tid in tables and rows
              and len(rows) / max(1, int(tables[tid].metadata.get("n_body_rows") or 0)) >= ratio}
    out: list[Hit] = []
    placed: set[str] = set()
    for h in hits:
        tid = h.chunk.table_id
        if tid not in expand:
            out.append(h)
        elif tid not in placed:
            placed.add(tid)
            mine = [x for x in hits if x.chunk.table_id == tid]
            out.append(Hit(tables[tid], max(x.score for x in mine),
                           tuple(x.chunk.chunk_id for x in mine if x.chunk.kind != "table")))
    return out
