"""bench/zoo_compare.py: the documents whose reading moved between two zoo runs, up or down."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TRUTH = {"doc": "ruled_grid-01-en", "split": "dev", "tables": [
    {"table": "ruled_grid-01-en:t1", "pages": [1], "columns": ["Site", "Cost"], "rows": [["Oak Hill", "5"], ["Elm", "6"]],
     "column_types": ["text", "integer"], "caption": "Table 1 Costs", "section_path": ["Costs"]}]}


def _run(folder: Path, rows: list[list[str]]) -> Path:
    folder.mkdir()
    table = {"source": "ruled_grid-01-en.pdf", "pages": [1], "columns": ["Site", "Cost"], "rows": rows,
             "column_types": ["text", "integer"], "caption": "Table 1 Costs", "section_path": ["Costs"]}
    (folder / "tables.jsonl").write_text(json.dumps(table) + "\n")
    (folder / "documents.jsonl").write_text(json.dumps({"source": "ruled_grid-01-en.pdf"}) + "\n")
    return folder


def test_a_document_read_better_is_listed_up(tmp_path: Path) -> None:
    corpus = tmp_path / "zoo"
    corpus.mkdir()
    (corpus / "ruled_grid-01-en.json").write_text(json.dumps(TRUTH))
    base = _run(tmp_path / "base", [["Oak", "Hill 5"], ["Elm", "6"]])
    after = _run(tmp_path / "after", [["Oak Hill", "5"], ["Elm", "6"]])
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "zoo_compare.py"), str(base), str(after),
                          "--corpus", str(corpus)], capture_output=True, text=True, check=True).stdout
    assert out.split()[:2] == ["up", "ruled_grid-01-en"]
    assert subprocess.run([sys.executable, str(ROOT / "bench" / "zoo_compare.py"), str(after), str(after),
                           "--corpus", str(corpus)], capture_output=True, text=True, check=True).stdout == ""
