"""The run report streamed: entries on disk as documents finish, totals as running sums.

A report entry is ~20 KB per document (tables, first rows, checks, cell boxes for report.html's
enlarged pages): 2 GB held until the end of a 100,000-document run. So `ReportLog` appends each
entry to an unnamed temporary file beside the outputs (O_TMPFILE where the system has it: a kill
-9 leaves no file behind, and nothing has to clean up) and adds its figures to `RunTotals`; the
run holds nothing per document. At the end the entries are read back once, in report order
(failures first, then the most failing tables, then by source: the order is sorted from a
second temp file of small keys), and written as they are read: report.json one document per
line (still one JSON value, and readable line by line: `iter_report_documents`) and report.html
bounded (flows.report_page).
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

from rowkeeper.config import Config

STATUS_ORDER = {"failed": 0, "ok": 1, "skipped_unchanged": 2}
_PRIVATE_HELD = ("_record", "_pictures")
"""Entry keys not written to the log: the record is summed into the totals when the entry is
added, the pictures (bounded by report.html's budget) are attached when it is read back."""
DOCUMENTS_LINE = '"documents": ['


class RunTotals:
    """The report's totals, summed one entry at a time (report.build_report's figures)."""

    def __init__(self, config: Config | None) -> None:
        self.config = config
        self.status: Counter[str] = Counter()
        self.by_kind: Counter[str] = Counter()
        self.by_layer: Counter[str] = Counter()
        self.reasons: Counter[str] = Counter()
        self.n = {"tables": 0, "rows": 0, "failing": 0, "chunks": 0, "cells": 0, "contained": 0,
                  "unnamed": 0, "warned": 0, "no_output": 0}
        self.cost = 0.0

    def add(self, entry: dict[str, Any]) -> None:
        """One document's entry (its `_record` when it was processed this run)."""
        from rowkeeper.flows.report import cloud_cost, count_pages

        self.status[entry["status"]] += 1
        for sc in (t["self_contained"] for t in entry["tables"] if t["self_contained"]):
            self.n["cells"] += sc["cells"]
            self.n["contained"] += sc["contained"]
            self.n["unnamed"] += sc.get("unnamed", 0)
        rec = entry.get("_record")
        if entry["status"] == "skipped_unchanged" or rec is None:
            return
        count_pages(rec, self.by_kind, self.by_layer, self.reasons)
        tables = entry["tables"]
        self.n["tables"] += len(tables)
        self.n["rows"] += sum(t["n_rows"] for t in tables)
        self.n["failing"] += sum(not t["passed"] for t in tables)
        self.n["chunks"] += rec.n_chunks
        self.n["warned"] += bool(rec.warnings)
        self.n["no_output"] += sum(w.endswith("no chunk or table") for w in rec.warnings)
        if self.config is not None:
            self.cost += cloud_cost((rec,), self.config)

    def figures(self, seconds: float) -> dict[str, Any]:
        """The report's `totals`."""
        n, layers = self.n, {k: v for k, v in self.by_layer.items() if v}
        pages = sum(self.by_kind.values())
        return {"documents": sum(self.status.values()), "ok": self.status["ok"],
                "failed": self.status["failed"], "skipped": self.status["skipped_unchanged"],
                "pages": pages, "pages_by_kind": dict(self.by_kind), "pages_by_layer": layers,
                "escalations": sum(self.reasons.values()),
                "escalation_reasons": dict(self.reasons.most_common()), "tables": n["tables"],
                "rows": n["rows"], "tables_failing_checks": n["failing"], "chunks": n["chunks"],
                "seconds": round(seconds, 3),
                "pages_per_second": round(pages / seconds, 2) if seconds > 0 else None,
                "estimated_cloud_cost_usd": round(self.cost, 4),
                "self_contained_rate": round(n["contained"] / n["cells"], 6) if n["cells"] else None,
                "self_contained_unnamed_cells": n["unnamed"],
                "documents_with_warnings": n["warned"], "pages_without_output": n["no_output"]}


def report_key(entry: dict[str, Any]) -> tuple[int, int, str]:
    """A document's place in the report: failures first, then most failing tables, by source."""
    return STATUS_ORDER.get(entry["status"], 3), -entry["failing_tables"], entry["source"]


class ReportLog:
    """A run's report entries, appended to disk as documents finish (see the module doc)."""

    def __init__(self, config: Config | None = None, folder: str | None = None) -> None:
        where = folder if folder and os.path.isdir(folder) else None
        self.totals = RunTotals(config)
        self._entries = tempfile.TemporaryFile("w+b", dir=where)
        self._keys = tempfile.TemporaryFile("w+b", dir=where)
        self._offset, self.count = 0, 0
        self.pictures: dict[str, Any] = {}

    def add(self, entry: dict[str, Any]) -> None:
        """Sum the entry into the totals and append it to the log."""
        self.totals.add(entry)
        line = json.dumps({k: v for k, v in entry.items() if k not in _PRIVATE_HELD},
                          ensure_ascii=False).encode() + b"\n"
        self._entries.write(line)
        self._keys.write(json.dumps([*report_key(entry), self._offset], ensure_ascii=False).encode() + b"\n")
        self._offset += len(line)
        self.count += 1

    def extend(self, entries: Iterable[dict[str, Any]]) -> None:
        """`add` each entry."""
        for entry in entries:
            self.add(entry)

    def __len__(self) -> int:
        return self.count

    def attach_pictures(self, done: dict[str, Any]) -> None:
        """Pages report.html may show, rendered during the run (flows.page_pictures), by source."""
        self.pictures = done

    def ordered(self) -> Iterator[dict[str, Any]]:
        """Every entry once, in report order, read back from disk one at a time."""
        self._entries.flush()
        self._keys.flush()
        self._keys.seek(0)
        offsets = sorted((tuple(k[:3]), k[3]) for k in map(json.loads, self._keys))
        for _, offset in offsets:
            self._entries.seek(offset)
            entry = json.loads(self._entries.readline())
            if entry["source"] in self.pictures:
                entry["_pictures"] = self.pictures[entry["source"]]
            yield entry

    def close(self) -> None:
        """Drop the log (the temp files have no name: closing frees their space)."""
        self._entries.close()
        self._keys.close()


def public(entry: dict[str, Any]) -> dict[str, Any]:
    """The entry as report.json has it (no `_` keys: cell boxes and pictures are for the page)."""
    return {k: v for k, v in entry.items() if not k.startswith("_")}


def write_report_json(path: str, head: dict[str, Any], documents: Iterable[dict[str, Any]],
                      each: Any = None) -> None:
    """report.json atomically, `documents` last and one per line; `each(entry)` is called with
    every entry as it is written (report.html is written in the same pass)."""
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    tmp = f"{path}.tmp"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write("{\n")
            for key, value in head.items():
                if key != "documents":
                    f.write(f"{json.dumps(key)}: {json.dumps(value, ensure_ascii=False)},\n")
            f.write(DOCUMENTS_LINE)
            for i, entry in enumerate(documents):
                f.write(f"{',' if i else ''}\n{json.dumps(public(entry), ensure_ascii=False)}")
                if each is not None:
                    each(entry)
            f.write("\n]}\n")
        os.replace(tmp, path)
    finally:  # a full disk (or any failure) leaves no half report behind
        with contextlib.suppress(FileNotFoundError):
            os.remove(tmp)


def read_report_head(path: str) -> dict[str, Any]:
    """A report.json without its documents (a 100,000-document report is not loaded whole)."""
    head: list[str] = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.rstrip("\n") == DOCUMENTS_LINE:
                return json.loads("".join(head) + '"documents": []}')
            head.append(line)
    # not written by write_report_json (an older rowkeeper's report): the whole file
    data = json.loads("".join(head))
    return {k: v for k, v in data.items() if k != "documents"} | {"documents": []}


def iter_report_documents(path: str) -> Iterator[dict[str, Any]]:
    """The documents of a report.json one at a time, in report order."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.rstrip("\n") == DOCUMENTS_LINE:
                break
        else:  # an older report, indented: load it whole
            f.seek(0)
            yield from json.load(f).get("documents", [])
            return
        for line in f:
            line = line.rstrip().rstrip(",")
            if line in ("", "]}"):
                continue
            yield json.loads(line)


def read_report(path: str) -> dict[str, Any]:
    """A report.json's head, with `documents` read back from the file on each pass."""
    return {**read_report_head(path), "documents": ReportDocuments(path)}


class ReportDocuments:
    """A report's `documents` read back from its report.json on each pass, never all held."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return iter_report_documents(self.path)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __getitem__(self, i: int) -> dict[str, Any]:
        for k, d in enumerate(self):
            if k == i:
                return d
        raise IndexError(i)
