"""The LanceDB sink: chunks findable by full text and by vector, replaced per document."""

from __future__ import annotations

import importlib.util

import lancedb
import pytest

from rowkeeper.models import Chunk
from rowkeeper.sinks.embeddings import HashingEmbedder, make_embedder
from rowkeeper.sinks.lancedb_sink import LanceDBSink
from tests.sinks.batches import make_batch, write_at_once

HAS_STATIC = importlib.util.find_spec("static_model") is not None


def _sink(tmp_path, **opts):
    return LanceDBSink({"path": str(tmp_path / "lancedb"), **opts})


def test_full_text_search_finds_the_row_chunk(tmp_path):
    sink = _sink(tmp_path, embedding="hashing")
    sink.write(make_batch("handbook-2025", n_tables=1))
    sink.write(make_batch("handbook-2026", n_tables=1, rows=(("Riverside Tower", "21,400", "14,000"),)))
    sink.close()
    hits = sink.chunks.search("Riverside", query_type="fts").limit(5).to_list()
    assert [h["source"] for h in hits] == ["handbook-2026.pdf"]
    assert "Management fee=21,400" in hits[0]["text"]


def test_full_text_search_in_japanese(tmp_path):
    sink = _sink(tmp_path, embedding="off")
    sink.write(make_batch("ja", n_tables=1, rows=(("サンハイツ泉", "13,000", "11,500"),
                                                  ("グランメゾン青葉", "15,200", "12,000"))))
    sink.close()
    hits = sink.chunks.search("グランメゾン", query_type="fts").limit(3).to_list()
    assert [h["text"].rsplit("\n", 1)[-1] for h in hits] == [
        "Row 1: Property=グランメゾン青葉 / Management fee=15,200 / Repair reserve=12,000"]


def test_rerun_and_close_twice_keep_one_row_per_chunk(tmp_path):
    for _ in range(2):
        sink = _sink(tmp_path, embedding="hashing")
        sink.write(make_batch("handbook", n_tables=2))
        sink.close()
    table = lancedb.connect(str(tmp_path / "lancedb")).open_table("chunks")
    assert table.count_rows() == 6
    assert len(set(table.to_arrow()["chunk_id"].to_pylist())) == 6


def test_two_runs_writing_the_same_document_at_once_store_it_once(tmp_path):
    """Two runs on different --out (each holds its own folder lock) share one LanceDB folder:
    two merges of the same document committed at once both insert its chunks (Lance rebases
    the second commit on the first), so writes of one document must not overlap."""
    sinks = [_sink(tmp_path, embedding="off", fts=False) for _ in range(2)]
    batch = make_batch("shared", n_tables=1)
    write_at_once(sinks, batch, rounds=10)
    db = lancedb.connect(str(tmp_path / "lancedb"))
    assert db.open_table("chunks").count_rows() == len(batch.chunks)
    assert db.open_table("documents").count_rows() == 1


@pytest.mark.skipif(not HAS_STATIC, reason="tokenlearn-static-model (extra 'lancedb') not installed")
def test_vector_search_with_the_bundled_static_model(tmp_path):
    sink = _sink(tmp_path, embedding="static")
    sink.write(make_batch("handbook", n_tables=1))
    weather = make_batch("weather", n_tables=0)
    chunk = Chunk(chunk_id="w:1", doc_id=weather.document.doc_id, source="weather.pdf", table_id=None,
                  kind="text", text="Heavy rain and strong wind are forecast for tomorrow morning.")
    sink.write(weather.model_copy(update={"chunks": (chunk,)}))
    query = sink.embedder.embed(["what is the monthly management fee of Maison Kita"])[0]
    top = sink.chunks.search(query).limit(1).to_list()[0]
    assert top["source"] == "handbook.pdf" and top["embedding_model"].startswith("tokenlearn")


def test_embedding_off_stores_chunks_without_vectors(tmp_path):
    sink = _sink(tmp_path, embedding="off")
    batch = make_batch("handbook", n_tables=1)
    sink.write(batch)
    assert "vector" not in sink.chunks.schema.names
    assert sink.read(batch.document.doc_id).chunks == batch.chunks


def test_hashing_vectors_prefer_shared_words_in_any_script():
    emb = HashingEmbedder(256)
    v = emb.embed(["管理費 13,000円 サンハイツ", "サンハイツ 管理費", "repair reserve"])
    assert v[0] @ v[1] > v[0] @ v[2]
    assert make_embedder("off") is None
