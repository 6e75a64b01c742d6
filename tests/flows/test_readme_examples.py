"""The README's examples, read from the README itself, return results on the bundled samples:
every `rowkeeper sql out ...` and `rowkeeper query out ...` command of its bash blocks, and the
LanceDB Python block, after the run the README shows (samples/lancedb.yaml, under `out/`).
"""

from __future__ import annotations

import ast
import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from rowkeeper.config import load_config
from rowkeeper.flows.ingest import ingest_plain
from samples import make_samples

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")

pytest.importorskip("rapidocr")  # the scanned and mixed samples go through the OCR layer


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", README, flags=re.S)


def readme_commands(prefix: str) -> list[list[str]]:
    """Shell commands of the README's bash blocks that start with `prefix`, split as a shell
    would (a quoted argument may span lines); `[...]` usage notation is dropped."""
    found = []
    for block in _blocks("bash"):
        pending = ""
        for line in block.splitlines():
            pending = f"{pending}\n{line}" if pending else line
            try:
                argv = shlex.split(pending, comments=True)
            except ValueError:  # an open quote: the command goes on
                continue
            pending = ""
            if " ".join(argv).startswith(prefix):
                found.append([a for a in argv if not re.fullmatch(r"\[.*\]|\[.*|.*\]", a)])
    return found


@pytest.fixture(scope="module")
def quick_start(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The samples written and ingested into `out/` of a fresh folder, as the README says."""
    cwd = tmp_path_factory.mktemp("quickstart")
    make_samples.main([str(cwd / "samples" / "pdfs")])
    config = load_config(ROOT / "samples" / "lancedb.yaml").with_out(str(cwd / "out"))
    report = ingest_plain([str(cwd / "samples" / "pdfs")], config)
    assert report["totals"]["failed"] == 0, [d["error"] for d in report["documents"]]
    yield cwd


def _rowkeeper(argv: list[str], cwd: Path) -> str:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)}
    done = subprocess.run([sys.executable, "-m", "rowkeeper.cli", *argv[1:]], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_samples_exercise_ocr_and_escalation(quick_start: Path) -> None:
    docs = {Path(d["source"]).stem: d for d in map(
        json.loads, (quick_start / "out" / "documents.jsonl").read_text().splitlines())}
    assert docs["ruled_scanned"]["kind"] == "scanned" and docs["mixed"]["kind"] == "mixed"
    accepted = [(a["extractor"], a["pages"]) for a in docs["mixed"]["attempts"] if a["accepted"]]
    assert ("ocr", [2]) in accepted
    tables = {Path(t["source"]).stem: t for t in map(
        json.loads, (quick_start / "out" / "tables.jsonl").read_text().splitlines())}
    assert tables["ruled_scanned"]["rows"][2] == ["01-003", "Standing desk", "38,500.00", "3"]
    handbook = tables["mixed"]
    assert handbook["pages"] == [1, 2] and len(handbook["rows"]) == 44
    assert handbook["columns"] == ["Property", "Management fee", "Repair reserve"]
    assert handbook["rows"][-1] == ["Grand Maison Aoba 44", "19,500", "12,000"]  # from the scan


def test_readme_sql_examples_return_rows(quick_start: Path) -> None:
    commands = readme_commands("rowkeeper sql out")
    assert len(commands) >= 2
    for argv in commands:
        lines = [x for x in _rowkeeper(argv, quick_start).splitlines()[1:] if x.strip()]
        assert lines, f"no rows: {shlex.join(argv)}"
    [fees] = [a for a in commands if "Management fee" in " ".join(a)]
    top = _rowkeeper(fees, quick_start).splitlines()[1].split("\t")
    assert top[:2] == ["Grand Maison Aoba 44", "19500.0"]


def test_readme_query_example_cites_the_row(quick_start: Path) -> None:
    [argv] = readme_commands("rowkeeper query out")
    said = _rowkeeper(argv, quick_start)
    assert "Sun Heights Izumi 13" in said and "mixed.pdf p.1" in said


def test_readme_lancedb_example_finds_chunks(quick_start: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    [block] = [b for b in _blocks("python") if "lancedb.connect" in b]
    monkeypatch.chdir(quick_start)
    scope: dict[str, object] = {}
    hits = []
    for stmt in ast.parse(block).body:
        code = ast.Module(body=[stmt], type_ignores=[])
        if isinstance(stmt, ast.Expr):
            hits.append(eval(compile(ast.Expression(stmt.value), "README", "eval"), scope))  # noqa: S307
        else:
            exec(compile(code, "README", "exec"), scope)  # noqa: S102
    assert len(hits) == 2 and all(hits)
    assert any("Sun Heights" in h["text"] for h in hits[0])  # the full-text search
