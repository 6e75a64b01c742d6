"""The self-contained measure: what a lone row-level chunk can answer, per table and per run."""

from __future__ import annotations

from rowkeeper.config import ChunkConfig
from rowkeeper.models import Chunk, Region, Table
from rowkeeper.transforms.selfcontained import measure_self_contained
from rowkeeper.transforms.table_chunks import chunk_table


def _table(tid: str = "x:t1") -> Table:
    return Table(doc_id="x" * 64, source="x.pdf", table_id=tid, pages=(1,),
                 regions=(Region(page=1, bbox=(0, 0, 100, 100)),), header_rows=1,
                 columns=("Code", "Item", "Unit price"),
                 rows=(("01-001", "Desk lamp", "1,250.00"), ("01-002", "Office chair", "")))


def _chunk(text: str, kind: str = "row_group", **meta: object) -> Chunk:
    return Chunk(chunk_id="x:t1:c", doc_id="x" * 64, source="x.pdf", table_id="x:t1",
                 kind=kind, text=text, metadata=dict(meta))  # type: ignore[arg-type]


def test_rowkeeper_chunks_are_fully_self_contained_and_empty_cells_do_not_count() -> None:
    t = _table()
    report = measure_self_contained([t], chunk_table(t, ChunkConfig()))
    assert (report.cells, report.contained, report.fraction, report.below) == (5, 5, 1.0, ())


def test_a_chunk_without_the_header_loses_its_cells_and_they_are_listed() -> None:
    headerless = _chunk("01-001 | Desk lamp | 1,250.00\n01-002 | Office chair")
    report = measure_self_contained([_table()], [headerless])
    assert report.fraction == 0.0 and report.below == ("x:t1",)
    assert report.tables[0].missing[0] == "row 1, column Code: 01-001"


def test_a_chunk_counts_only_for_the_rows_it_covers() -> None:
    row0 = _chunk("Code: 01-001 | Item: Desk lamp | Unit price: 1,250.00 "
                  "Code: 01-002 Item: Office chair", kind="row", row_start=0, row_end=0)
    report = measure_self_contained([_table()], [row0])
    assert report.tables[0].contained == 3  # row 2's text is there, but the chunk is row 1's


def test_table_and_text_chunks_do_not_count() -> None:
    full = "Code Item Unit price 01-001 Desk lamp 1,250.00 01-002 Office chair"
    report = measure_self_contained([_table()], [_chunk(full, kind="table")])
    assert report.fraction == 0.0


def test_run_fraction_weights_tables_by_their_cells() -> None:
    a, b = _table("x:t1"), _table("x:t2")
    chunks = chunk_table(a, ChunkConfig())
    report = measure_self_contained([a, b], chunks)
    assert report.fraction == 0.5 and report.below == ("x:t2",)
    assert [t.fraction for t in report.tables] == [1.0, 0.0]


def _headerless(columns: tuple[str, ...]) -> Table:
    return Table(doc_id="x" * 64, source="x.pdf", table_id="x:t1", pages=(1,),
                 regions=(Region(page=1, bbox=(0, 0, 100, 100)),), header_rows=0, columns=columns,
                 rows=(("A-1", "21.6", "0.40"), ("A-2", "22.1", "0.38")))


def test_values_under_an_unnamed_column_are_not_self_contained() -> None:
    t = _headerless(("", "", ""))
    report = measure_self_contained([t], chunk_table(t, ChunkConfig()))
    # 'Column 2: 21.6' says nothing about what 21.6 is; only the row keys count
    assert (report.cells, report.contained, report.unnamed) == (6, 2, 4)
    assert report.fraction == round(2 / 6, 6) and report.below == ("x:t1",)
    assert report.tables[0].missing[0] == "row 1, column 2 (unnamed): 21.6"


def test_placeholder_names_count_as_unnamed_and_a_blank_stub_header_does_not() -> None:
    dashes = _headerless(("Sensor", "-", "Load"))
    assert measure_self_contained([dashes], chunk_table(dashes, ChunkConfig())).unnamed == 2
    stub = _headerless(("", "Temperature", "Load"))  # row labels under a blank corner cell
    report = measure_self_contained([stub], chunk_table(stub, ChunkConfig()))
    assert (report.contained, report.unnamed, report.fraction) == (6, 0, 1.0)
