"""The sink contract, against every sink on its real engine: write replaces, never duplicates."""

from __future__ import annotations

import pytest

from rowkeeper.models import DocumentResult
from tests.sinks.batches import make_batch, with_bad_last_chunk


def _stored(sink, batch: DocumentResult) -> DocumentResult:
    """What a sink is expected to give back: everything, or only chunks for chunk stores."""
    if getattr(sink, "stores_tables", True):
        return batch
    return batch.model_copy(update={"tables": (), "lines": ()})


def _table_ids(result: DocumentResult | None) -> list[str]:
    return [t.table_id for t in result.tables] if result else []


def _chunk_ids(result: DocumentResult | None) -> list[str]:
    return [c.chunk_id for c in result.chunks] if result else []


def test_write_then_read_back_gives_the_same_records(open_sink):
    sink = open_sink()
    batch = make_batch("handbook", n_tables=2)
    sink.write(batch)
    got = sink.read(batch.document.doc_id)
    assert got == _stored(sink, batch)
    assert got.chunks[0].text.endswith("Property=Sun Heights Izumi / Management fee=13,000 / Repair reserve=11,500")


def test_state_is_on_storage_not_in_the_sink_object(open_sink):
    batch = make_batch("handbook", n_tables=1)
    writer = open_sink()
    writer.write(batch)
    writer.close()
    reader = open_sink()
    assert list(reader.documents()) == [batch.document.doc_id]
    assert reader.read(batch.document.doc_id) == _stored(reader, batch)


def test_writing_the_same_document_twice_does_not_duplicate(open_sink):
    sink = open_sink()
    batch = make_batch("handbook", n_tables=2)
    sink.write(batch)
    sink.write(batch)
    again = open_sink()
    again.write(batch)
    got = again.read(batch.document.doc_id)
    assert _chunk_ids(got) == _chunk_ids(batch) and len(got.chunks) == 6
    assert len(again.documents()) == 1


def test_replace_with_fewer_tables_removes_the_old_ones(open_sink):
    sink = open_sink()
    sink.write(make_batch("handbook", n_tables=3))
    smaller = make_batch("handbook", n_tables=1, rows=(("Maison Kita", "9,900", "8,000"),))
    sink.write(smaller)
    got = sink.read(smaller.document.doc_id)
    assert got == _stored(sink, smaller)
    assert [c.chunk_id for c in got.chunks] == [smaller.chunks[0].chunk_id]
    assert "9,900" in got.chunks[0].text


def test_delete_removes_one_document_and_keeps_the_others(open_sink):
    sink = open_sink()
    keep, gone = make_batch("keep"), make_batch("gone")
    sink.write(keep)
    sink.write(gone)
    sink.delete(gone.document.doc_id)
    assert sink.read(gone.document.doc_id) is None
    assert list(sink.documents()) == [keep.document.doc_id]
    assert sink.read(keep.document.doc_id) == _stored(sink, keep)
    sink.delete(gone.document.doc_id)  # deleting twice is harmless


def test_a_failure_mid_write_leaves_the_previous_version_intact(open_sink):
    sink = open_sink()
    old = make_batch("handbook", n_tables=2)
    sink.write(old)
    new = make_batch("handbook", n_tables=3, rows=(("Maison Kita", "1", "2"),))
    with pytest.raises(Exception):  # noqa: B017 - whatever the engine raises, nothing may change
        sink.write(with_bad_last_chunk(new))
    assert sink.read(old.document.doc_id) == _stored(sink, old)
    assert open_sink().read(old.document.doc_id) == _stored(sink, old)


def test_a_failed_first_write_leaves_nothing(open_sink):
    sink = open_sink()
    batch = make_batch("fresh")
    with pytest.raises(Exception):  # noqa: B017
        sink.write(with_bad_last_chunk(batch))
    assert sink.read(batch.document.doc_id) is None
    assert sink.documents() == {}


def test_failed_document_without_tables_is_recorded(open_sink):
    sink = open_sink()
    failed = make_batch("broken", n_tables=0, status="failed")
    failed = failed.model_copy(update={"document": failed.document.model_copy(
        update={"error": "BadInput: not a PDF (no %PDF header)"})})
    sink.write(failed)
    got = sink.documents()[failed.document.doc_id]
    assert got.status == "failed" and got.error == "BadInput: not a PDF (no %PDF header)"
