"""The Postgres sink on a real server: typed cells answer questions; NUL text is stored."""

from __future__ import annotations

import uuid

import psycopg
import pytest

from rowkeeper.sinks.postgres_sink import PostgresSink
from tests.sinks.batches import make_batch, write_at_once

pytestmark = pytest.mark.postgres


@pytest.fixture
def sink(pg_dsn):
    s = PostgresSink({"dsn": pg_dsn, "schema_name": f"t_{uuid.uuid4().hex[:10]}", "embedding": "hashing"})
    yield s
    s.close()


def test_the_maximum_management_fee_comes_from_typed_cells(sink, pg_dsn):
    sink.write(make_batch("handbook-2025", n_tables=1))
    sink.write(make_batch("handbook-2026", n_tables=1, rows=(("Riverside Tower", "21,400", "14,000"),)))
    sink.write(make_batch("handbook-2026", n_tables=1, rows=(("Riverside Tower", "21,400", "14,000"),)))
    with psycopg.connect(pg_dsn) as con:
        con.execute(f'SET search_path TO "{sink.options.schema_name}"')
        top = con.execute("SELECT row_label, value_num, source FROM cells_numeric "
                          "WHERE \"column\" = 'Management fee' ORDER BY value_num DESC LIMIT 1").fetchone()
        cells = con.execute("SELECT count(*) FROM cells").fetchone()[0]
    assert top == ("Riverside Tower", 21400.0, "handbook-2026.pdf")
    assert cells == 3 * 3 + 1 * 3  # the rerun of handbook-2026 did not duplicate


def test_text_with_nul_characters_is_stored(sink):
    batch = make_batch("nul", n_tables=1, rows=(("Maison\x00Kita", "9,800", "8,000"),))
    sink.write(batch)
    got = sink.read(batch.document.doc_id)
    assert got.tables[0].rows[0][0] == "Maison\ufffdKita"
    assert "Maison\ufffdKita" in got.chunks[0].text


def test_schema_is_created_on_first_use_by_several_sinks(pg_dsn):
    schema = f"t_{uuid.uuid4().hex[:10]}"
    a, b = (PostgresSink({"dsn": pg_dsn, "schema_name": schema}) for _ in range(2))
    a.write(make_batch("a"))
    b.write(make_batch("b"))
    assert len(a.documents()) == 2
    a.close()
    b.close()


def test_vector_column_only_when_pgvector_exists(sink, pg_dsn):
    sink.write(make_batch("v", n_tables=1))
    with psycopg.connect(pg_dsn) as con:
        has_ext = con.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'").fetchone()
        cols = {r[0] for r in con.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = %s "
            "AND table_name = 'chunks'", [sink.options.schema_name])}
    assert ("embedding" in cols) == bool(has_ext) == sink.has_vector


def test_bad_schema_name_is_refused():
    from rowkeeper.errors import ConfigError

    with pytest.raises(ConfigError):
        PostgresSink({"schema_name": 'x"; DROP TABLE y; --'})


def test_two_runs_writing_the_same_document_at_once_store_it_once(pg_dsn):
    """Two runs on different --out (each holds its own folder lock) share one Postgres schema:
    writes of the same document must not interleave (each deletes, then inserts; two at once
    would both delete nothing and both insert)."""
    schema = f"t_{uuid.uuid4().hex[:10]}"
    sinks = [PostgresSink({"dsn": pg_dsn, "schema_name": schema, "vector": "off"}) for _ in range(2)]
    batch = make_batch("shared", n_tables=1)
    for s in sinks:
        s.conn  # noqa: B018 - connected and the schema made before the race
    write_at_once(sinks, batch, rounds=15)
    with psycopg.connect(pg_dsn) as con:
        con.execute(f'SET search_path TO "{schema}"')
        counts = [con.execute(f"SELECT count(*) FROM {t} WHERE doc_id = %s", [batch.document.doc_id]).fetchone()[0]
                  for t in ("documents", "tables", "chunks")]
    assert counts == [1, 1, len(batch.chunks)]
    for s in sinks:
        s.close()
