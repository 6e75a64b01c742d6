"""The DuckDB sink: typed cells answer real questions; `rowkeeper sql` queries a run's output."""

from __future__ import annotations

import json

import duckdb

from rowkeeper.cli import main
from rowkeeper.sinks.duckdb_sink import DuckDBSink
from rowkeeper.sinks.folder_sink import FolderSink
from tests.sinks.batches import make_batch

MAX_FEE = """
SELECT row_label, value_num, source, pages FROM cells_numeric
WHERE "column" = 'Management fee' ORDER BY value_num DESC LIMIT 1
"""


def _write_corpus(sink) -> None:
    sink.write(make_batch("handbook-2025", n_tables=1))
    sink.write(make_batch("handbook-2026", n_tables=1, rows=(
        ("Riverside Tower", "21,400", "14,000"), ("Maison Kita", "9,800", "8,000"))))
    sink.close()


def test_the_maximum_management_fee_comes_from_typed_cells(tmp_path):
    db = tmp_path / "rowkeeper.duckdb"
    _write_corpus(DuckDBSink({"path": str(db)}))
    con = duckdb.connect(str(db), read_only=True)
    label, fee, source, pages = con.execute(MAX_FEE).fetchone()
    assert (label, fee, source) == ("Riverside Tower", 21400.0, "handbook-2026.pdf")
    assert json.loads(pages) == [1]
    total = con.execute("SELECT sum(value_num) FROM cells WHERE \"column\" = 'Repair reserve'").fetchone()[0]
    assert total == 11_500 + 8_000 + 12_000 + 14_000 + 8_000
    types = dict(con.execute("SELECT \"column\", any_value(type) FROM cells GROUP BY 1").fetchall())
    assert types == {"Property": "text", "Management fee": "integer", "Repair reserve": "integer"}


def test_rerun_keeps_one_copy_of_each_cell(tmp_path):
    db = tmp_path / "rowkeeper.duckdb"
    for _ in range(3):
        sink = DuckDBSink({"path": str(db)})
        sink.write(make_batch("handbook", n_tables=2))
        sink.close()
    con = duckdb.connect(str(db), read_only=True)
    counts = [con.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
              for t in ("documents", "tables", "cells", "chunks")]
    assert counts == [1, 2, 18, 6]
    dupes = con.execute('SELECT count(*) FROM (SELECT doc_id, table_id, "row", col FROM cells '
                        "GROUP BY ALL HAVING count(*) > 1)").fetchone()[0]
    assert dupes == 0


def test_rowkeeper_sql_on_a_duckdb_output(tmp_path, capsys):
    _write_corpus(DuckDBSink({"path": str(tmp_path / "rowkeeper.duckdb")}))
    assert main(["sql", str(tmp_path), MAX_FEE, "--format", "jsonl"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["row_label"] == "Riverside Tower" and row["value_num"] == 21400.0


def test_rowkeeper_sql_on_a_plain_folder_output(tmp_path, capsys):
    _write_corpus(FolderSink({"path": str(tmp_path)}))
    assert main(["sql", str(tmp_path), MAX_FEE, "--format", "csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "row_label,value_num,source,pages"
    assert lines[1].startswith("Riverside Tower,21400.0,handbook-2026.pdf")


def test_rowkeeper_sql_reports_a_bad_query(tmp_path, capsys):
    _write_corpus(DuckDBSink({"path": str(tmp_path / "rowkeeper.duckdb")}))
    assert main(["sql", str(tmp_path), "SELECT nope FROM cells"]) == 1
    assert "nope" in capsys.readouterr().err
