"""The Python API: ingest into sinks and get a summary, read tables back, extract in-process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import rowkeeper
from rowkeeper.errors import BadInput, ConfigError

ROOT = Path(__file__).resolve().parents[2]
RULED_COLUMNS = ("Code", "Item", "Unit price", "Stock")


def _python(code: str, cwd: Path) -> str:
    out = subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True,
                         timeout=300, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin",
                                           "OMP_THREAD_LIMIT": "1"})
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout.strip()


def test_import_rowkeeper_loads_no_stage_and_no_library(tmp_path: Path) -> None:
    loaded = _python("import sys, rowkeeper; print(sorted({m.split('.')[0] for m in sys.modules}"
                     " & {'prefect', 'pymupdf', 'pdfplumber', 'pydantic', 'yaml'}))"
                     "; print(callable(rowkeeper.extract))", tmp_path)
    assert loaded == "[]\nTrue"


def test_extract_returns_tables_and_chunks_without_prefect_or_files(pdf_dir: Path,
                                                                    tmp_path: Path) -> None:
    code = (f"import sys, rowkeeper; r = rowkeeper.extract({str(pdf_dir / 'ruled.pdf')!r}); "
            "print(r.status, r.tables[0].columns, sorted({c.kind for c in r.chunks})); "
            "print('prefect' in sys.modules)")
    status, prefect = _python(code, tmp_path).splitlines()
    assert status == f"ok {RULED_COLUMNS} ['row', 'row_group', 'table', 'text']"
    assert prefect == "False"
    assert list(tmp_path.iterdir()) == []  # nothing written where it ran


def test_extracted_table_exports_to_pandas_csv_and_markdown(pdf_dir: Path) -> None:
    table = rowkeeper.extract(pdf_dir / "ruled.pdf").tables[0]
    df = table.to_pandas()
    assert tuple(df.columns) == RULED_COLUMNS and len(df) == 5
    assert df.loc[2, "Item"] == "Standing desk" and df.loc[2, "Unit price"] == "38,500.00"
    csv_lines = table.to_csv().splitlines()
    assert csv_lines[0] == "Code,Item,Unit price,Stock"
    assert csv_lines[1] == '01-001,Desk lamp,"1,250.00",42'
    md = table.to_markdown().splitlines()
    assert md[0] == "| Code | Item | Unit price | Stock |"
    assert md[2] == "| 01-001 | Desk lamp | 1,250.00 | 42 |"


def test_extract_of_a_broken_pdf_raises_or_reports_failed(pdf_dir: Path) -> None:
    with pytest.raises(BadInput, match="corrupt.pdf"):
        rowkeeper.extract(pdf_dir / "corrupt.pdf")
    result = rowkeeper.extract(pdf_dir / "corrupt.pdf", raise_on_error=False)
    assert result.status == "failed" and result.document.error and result.tables == ()


def test_extract_checks_a_config_dict_like_a_file() -> None:
    with pytest.raises(ConfigError, match=r"extract\.options\.pymupdf\.snap_tolerence: unknown "
                                          r"option \(did you mean 'snap_tolerance'\?\)"):
        rowkeeper.extract("unused.pdf", {"extract": {"options": {"pymupdf": {"snap_tolerence": 3}}}})


def test_ingest_runs_the_flow_into_the_sinks_and_summarises(prefect_harness: None, pdf_dir: Path,
                                                            tmp_path: Path) -> None:
    inputs = [pdf_dir / "ruled.pdf", pdf_dir / "corrupt.pdf"]
    out = tmp_path / "out"
    summary = rowkeeper.ingest(inputs, out=out)
    assert (summary.documents, summary.ok, summary.failed, summary.tables) == (2, 1, 1, 1)
    by_name = {Path(s.source).name: s for s in summary.statuses}
    assert by_name["ruled.pdf"].status == "ok" and by_name["ruled.pdf"].tables == 1
    assert by_name["corrupt.pdf"].status == "failed" and by_name["corrupt.pdf"].error
    (table,) = rowkeeper.read_tables(out)
    assert table.columns == RULED_COLUMNS
    assert table.to_pandas().loc[4, "Item"] == "Docking station"
    assert summary.read_tables() == [table]
    assert any(c.kind == "row" for c in rowkeeper.read_chunks(out))
    again = rowkeeper.ingest(inputs, out=out)
    assert again.ok == 0 and {Path(s.source).name: s.status for s in again.statuses}[
        "ruled.pdf"] == "skipped_unchanged"


def test_read_tables_of_a_folder_without_a_run_says_so(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no tables.jsonl"):
        rowkeeper.read_tables(tmp_path)


def readme_examples() -> list[str]:
    """The python code blocks of the README's "Python API" section, in order."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Python API\n", 1)[1].split("\n## ", 1)[0]
    return [block.split("\n```", 1)[0] for block in section.split("```python\n")[1:]]


# The extra each loader example needs; without it that example is skipped, the others still run.
_EXTRAS = {"rowkeeper.integrations.langchain": "langchain_core",
           "rowkeeper.integrations.llamaindex": "llama_index.core"}


# llama-index-core's own models trip a pydantic warning on import; not ours to fix
@pytest.mark.filterwarnings("ignore:The 'validate_default' attribute")
def test_readme_python_examples_run_as_written(prefect_harness: None, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    import importlib.util

    from samples.make_samples import main as make_samples

    blocks = readme_examples()
    assert len(blocks) >= 4 and "rowkeeper.ingest(" in "".join(blocks)
    monkeypatch.chdir(tmp_path)
    make_samples(["samples/pdfs"])
    namespace: dict[str, object] = {}
    ran = 0
    for block in blocks:
        needs = [lib for mod, lib in _EXTRAS.items() if mod in block]
        if any(importlib.util.find_spec(lib.split(".")[0]) is None for lib in needs):
            continue
        exec(compile(block, "README.md (Python API)", "exec"), namespace)  # noqa: S102
        ran += 1
    out = capsys.readouterr().out
    assert ran >= 2
    assert "ok Table 1 Equipment prices ('Code', 'Item', 'Unit price', 'Stock')" in out
    assert "Desk lamp" in out and "| 01-001 | Desk lamp | 1,250.00 | 42 |" in out
    assert len((tmp_path / "first_table.csv").read_text(encoding="utf-8").splitlines()) > 2
