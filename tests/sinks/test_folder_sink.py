"""The folder sink: CONTRACT.md files, a per-document Parquet dataset, fsspec URLs."""

from __future__ import annotations

import json
import uuid

import duckdb
import fsspec
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

from rowkeeper.errors import BadInput
from rowkeeper.sinks.folder_sink import FolderSink
from tests.sinks.batches import doc_id_of, make_batch


def _lines(path):
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def test_close_writes_the_contract_files(tmp_path):
    sink = FolderSink({"path": str(tmp_path)})
    sink.write(make_batch("a", n_tables=2))
    sink.write(make_batch("b", n_tables=1))
    sink.close()
    docs = _lines(tmp_path / "documents.jsonl")
    assert sorted(d["source"] for d in docs) == ["a.pdf", "b.pdf"]
    tables = _lines(tmp_path / "tables.jsonl")
    assert len(tables) == 3
    assert tables[0]["columns"] == ["Property", "Management fee", "Repair reserve"]
    assert len(_lines(tmp_path / "chunks.jsonl")) == 9
    cells = pq.read_table(tmp_path / "tables.parquet").to_pylist()
    assert len(cells) == 3 * 3 * 3  # 3 tables x 3 body rows x 3 columns
    fee = next(c for c in cells if c["text"] == "13,000")
    assert fee["column"] == "Management fee" and fee["type"] == "integer" and fee["value_num"] == 13000.0
    name = next(c for c in cells if c["text"] == "Maison Kita")
    assert name["type"] == "text" and name["value_num"] is None


def test_rerun_replaces_rows_in_every_file(tmp_path):
    for _ in range(2):
        sink = FolderSink({"path": str(tmp_path)})
        sink.write(make_batch("a", n_tables=2))
        sink.close()
    assert len(_lines(tmp_path / "tables.jsonl")) == 2
    assert pq.read_table(tmp_path / "tables.parquet").num_rows == 18
    assert not [p for p in tmp_path.rglob("*") if p.name.endswith(".tmp")]


def test_the_dataset_is_readable_without_rowkeeper(tmp_path):
    sink = FolderSink({"path": str(tmp_path)})
    for name in ("a", "b", "c"):
        sink.write(make_batch(name, n_tables=1))
    sink.write(make_batch("b", n_tables=2))  # replaced: b now has 2 tables
    con = duckdb.connect()
    top = con.execute(
        f"SELECT max(value_num) FROM read_parquet('{tmp_path}/cells/*/*.parquet') "
        "WHERE \"column\" = 'Management fee'").fetchone()[0]
    assert top == 15200.0
    per_doc = dict(con.execute(
        f"SELECT doc_id, count(*) FROM read_parquet('{tmp_path}/cells/**/*.parquet') GROUP BY 1").fetchall())
    assert per_doc == {doc_id_of("a"): 9, doc_id_of("b"): 18, doc_id_of("c"): 9}
    # pandas / Spark style: the directory itself is the dataset (hive partition `shard`)
    table = ds.dataset(tmp_path / "cells", format="parquet", partitioning="hive").to_table()
    assert table.num_rows == 36 and "shard" in table.column_names
    assert len(list((tmp_path / "cells").iterdir())) == 3  # one partition per doc id prefix


def test_memory_filesystem_url():
    url = f"memory://rk-{uuid.uuid4().hex[:8]}/out"
    sink = FolderSink({"path": url})
    batch = make_batch("mem", n_tables=1)
    sink.write(batch)
    sink.close()
    assert FolderSink({"path": url}).read(batch.document.doc_id) == batch
    with fsspec.open(url + "/tables.jsonl", "r") as f:
        assert json.loads(f.readline())["rows"][0][0] == "Sun Heights Izumi"
    with fsspec.open(url + "/tables.parquet", "rb") as f:
        assert pq.read_table(f).num_rows == 9


def test_paths_come_from_doc_ids_only(tmp_path):
    batch = make_batch("evil")
    evil = batch.model_copy(update={"document": batch.document.model_copy(update={"doc_id": "../../etc"})})
    with pytest.raises(BadInput):
        FolderSink({"path": str(tmp_path)}).write(evil)
    assert not (tmp_path.parent / "etc").exists()


def test_close_with_no_documents_writes_empty_files(tmp_path):
    FolderSink({"path": str(tmp_path / "out")}).close()
    assert (tmp_path / "out" / "documents.jsonl").read_text() == ""
    assert pq.read_table(tmp_path / "out" / "tables.parquet").column_names[-1] == "value_num"


def test_a_current_stamp_file_spares_the_rebuild_and_a_stale_one_forces_it(tmp_path):
    """The parts stamp beside the outputs decides whether close() must rebuild: current after a
    consolidation, stale (parts changed, or an older stamp left by a crash) means rebuild; without
    the file the stamp in tables.parquet's metadata decides, as before the file existed."""
    sink = FolderSink({"path": str(tmp_path)})
    sink.write(make_batch("a", n_tables=2))
    sink.close()
    stamp = tmp_path / ".parts-stamp"
    assert stamp.read_text().strip()
    assert not FolderSink({"path": str(tmp_path)}).needs_consolidation()
    stamp.write_text("an older consolidation\n")
    assert FolderSink({"path": str(tmp_path)}).needs_consolidation()
    stamp.unlink()
    assert not FolderSink({"path": str(tmp_path)}).needs_consolidation()
    FolderSink({"path": str(tmp_path)}).write(make_batch("b", n_tables=1))
    assert FolderSink({"path": str(tmp_path)}).needs_consolidation()


def test_a_crop_half_written_by_a_killed_worker_is_removed_by_the_next_run(tmp_path):
    """A worker killed between a crop's write and its rename (flows.crops) leaves a temp file in
    the output; the next consolidation must find it and remove it, as it does the sink's own."""
    from rowkeeper.flows.crops import CROPS_DIR

    sink = FolderSink({"path": str(tmp_path)})
    sink.write(make_batch("a", n_tables=1))
    sink.close()
    left = tmp_path / CROPS_DIR / "0123456789ab" / "p1_img0.tmp"
    left.parent.mkdir(parents=True)
    left.write_bytes(b"\x89PNG half a crop")
    again = FolderSink({"path": str(tmp_path)})
    assert again.needs_consolidation()
    again.close()
    assert not left.exists() and (tmp_path / "chunks.jsonl").stat().st_size > 0
    assert not FolderSink({"path": str(tmp_path)}).needs_consolidation()
