"""Table chunks: row groups repeat the header, row chunks name every column, wide rows split."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rowkeeper.config import ChunkConfig
from rowkeeper.models import Cell, Region, Table
from rowkeeper.transforms.selfcontained import measure_self_contained
from rowkeeper.transforms.table_chunks import chunk_document, chunk_table
from samples.make_samples import _property_rows

COLUMNS = ("物件名", "管理費", "修繕積立金")


def property_table(n: int = 40) -> Table:
    """The two-page property table of samples two_page.pdf, as its ground truth."""
    return Table(doc_id="d" * 64, source="two_page.pdf", table_id="dddddddddddd:t1", pages=(1, 2),
                 regions=(Region(page=1, bbox=(50, 120, 545, 790)),
                          Region(page=2, bbox=(50, 60, 545, 300))),
                 caption="表2 管理費一覧", section_path=("管理物件ハンドブック", "3. 管理物件"),
                 header_rows=1, columns=COLUMNS, rows=tuple(tuple(r) for r in _property_rows(n)))


def test_row_groups_each_repeat_caption_section_and_column_names() -> None:
    chunks = chunk_table(property_table(), ChunkConfig(max_chars=600))
    groups = [c for c in chunks if c.kind == "row_group"]
    assert len(groups) >= 3
    for g in groups:
        assert "Columns: 物件名 / 管理費 / 修繕積立金" in g.text
        assert "表2 管理費一覧" in g.text and "3. 管理物件" in g.text
        assert len(g.text) <= 600
    spans = [(g.metadata["row_start"], g.metadata["row_end"]) for g in groups]
    assert spans[0][0] == 0 and spans[-1][1] == 39
    assert all(b[0] == a[1] + 1 for a, b in zip(spans, spans[1:], strict=False))


def test_every_row_chunk_holds_key_column_and_value() -> None:
    table = property_table()
    rows = [c for c in chunk_table(table, ChunkConfig()) if c.kind == "row"]
    assert len(rows) == 40
    for i, (chunk, row) in enumerate(zip(rows, table.rows, strict=True)):
        assert chunk.text.endswith(f"表2 管理費一覧. 物件名: {row[0]} | 管理費: {row[1]} | 修繕積立金: {row[2]}")
        assert chunk.metadata["row_key"] == row[0]
        assert chunk.metadata["row_start"] == chunk.metadata["row_end"] == i
    assert rows[12].text.startswith("管理物件ハンドブック > 3. 管理物件\n")


def test_metadata_lets_a_dispatcher_expand_to_the_table() -> None:
    for c in chunk_table(property_table(), ChunkConfig()):
        m = c.metadata
        assert m["table_id"] == "dddddddddddd:t1" and m["n_body_rows"] == 40
        assert m["columns"] == list(COLUMNS) and m["caption"] == "表2 管理費一覧"
        assert {"pages", "regions", "section_path", "row_start", "row_end"} <= m.keys()


def test_rows_are_cited_on_the_page_they_lie_on() -> None:
    rows = [c for c in chunk_table(property_table(), ChunkConfig()) if c.kind == "row"]
    assert rows[0].metadata["pages"] == [1] and rows[-1].metadata["pages"] == [2]


def test_table_chunk_is_markdown_of_the_whole_table() -> None:
    parent = chunk_table(property_table(), ChunkConfig())[0]
    assert parent.kind == "table" and parent.metadata["format"] == "markdown"
    assert "| 物件名 | 管理費 | 修繕積立金 |" in parent.text
    assert "| パークサイド仙台39 | 13,600 | 8,700 |" in parent.text


def test_spanned_table_chunk_is_html_with_spans() -> None:
    cells = (Cell(row=0, col=0, text="Region", is_header=True),
             Cell(row=0, col=1, text="Q1", is_header=True),
             Cell(row=1, col=0, row_span=2, text="North"), Cell(row=1, col=1, text="5"),
             Cell(row=2, col=1, text="6"))
    t = Table(doc_id="e" * 64, source="s.pdf", table_id="eeeeeeeeeeee:t1", pages=(1,),
              regions=(Region(page=1, bbox=(0, 0, 100, 100)),), header_rows=1,
              columns=("Region", "Q1"), rows=(("North", "5"), ("North", "6")), cells=cells)
    parent = chunk_table(t, ChunkConfig())[0]
    assert '<td rowspan="2">North</td>' in parent.text and parent.metadata["format"] == "html"


def test_a_row_wider_than_the_budget_splits_by_columns_keeping_the_key() -> None:
    cols = ("Model",) + tuple(f"Metric {k}" for k in range(30))
    rows = (("alpha-7",) + tuple(f"{k}.5" for k in range(30)),)
    t = Table(doc_id="f" * 64, source="w.pdf", table_id="ffffffffffff:t1", pages=(1,),
              regions=(Region(page=1, bbox=(0, 0, 500, 100)),), header_rows=1,
              columns=cols, rows=rows, caption="Table 9 Wide")
    chunks = chunk_table(t, ChunkConfig(max_chars=200))
    for kind in ("row_group", "row"):
        parts = [c for c in chunks if c.kind == kind]
        assert len(parts) > 1
        assert all("alpha-7" in p.text and len(p.text) <= 200 for p in parts)
        for k in range(30):
            assert sum(f"Metric {k}" in p.text and f"{k}.5" in p.text for p in parts) >= 1
    assert measure_self_contained([t], chunks).fraction == 1.0


def test_detected_key_column_is_the_unique_text_column() -> None:
    t = property_table(5).model_copy(update={
        "columns": ("No", "物件名", "管理費"),
        "rows": tuple((str(i + 1), r[0], r[1]) for i, r in enumerate(property_table(5).rows))})
    rows = [c for c in chunk_table(t, ChunkConfig()) if c.kind == "row"]
    assert rows[2].metadata["row_key"] == "パークサイド仙台3"
    assert "表2 管理費一覧. 物件名: パークサイド仙台3 | No: 3" in rows[2].text


def test_chunk_kinds_follow_the_config() -> None:
    t = property_table(5)
    kinds = {c.kind for c in chunk_document(t.doc_id, t.source, [t], [],
                                            ChunkConfig(row_chunks=False, table_chunks=False))}
    assert kinds == {"row_group"}


def test_token_budget_counts_cjk_characters_and_words() -> None:
    groups = [c for c in chunk_table(property_table(), ChunkConfig(max_chars=120, size_unit="tokens"))
              if c.kind == "row_group"]
    assert len(groups) > 3


_cell = st.text(alphabet=st.sampled_from("ab1 ,.|=:/円é漢"), max_size=12)


@st.composite
def tables(draw: st.DrawFn) -> Table:
    """Random small tables with random headers (some empty) and ragged-free rows."""
    n_cols = draw(st.integers(1, 6))
    cols = tuple(draw(st.lists(_cell, min_size=n_cols, max_size=n_cols)))
    rows = tuple(tuple(r) for r in draw(st.lists(
        st.lists(_cell, min_size=n_cols, max_size=n_cols), min_size=0, max_size=25)))
    return Table(doc_id="h" * 64, source="p.pdf", table_id="hhhhhhhhhhhh:t1", pages=(1,),
                 regions=(Region(page=1, bbox=(0, 0, 500, 700)),), header_rows=1,
                 columns=cols, rows=rows, caption=draw(st.none() | _cell))


@settings(max_examples=80, deadline=None)
@given(tables(), st.integers(40, 800))
def test_every_value_stays_readable_and_groups_partition_rows(table: Table, budget: int) -> None:
    chunks = chunk_table(table, ChunkConfig(max_chars=budget))
    measure = measure_self_contained([table], chunks)
    assert measure.contained == measure.cells - measure.unnamed  # unnamed columns never count
    covered = sorted({i for c in chunks if c.kind == "row_group"
                      for i in range(c.metadata["row_start"], c.metadata["row_end"] + 1)})
    assert covered == list(range(len(table.rows)))
    assert len({c.chunk_id for c in chunks}) == len(chunks)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(_cell, min_size=0, max_size=5), max_size=8), st.integers(0, 4))
def test_ragged_rows_and_missing_headers_never_crash(rows: list[list[str]], n_cols: int) -> None:
    t = Table(doc_id="r" * 64, source="r.pdf", table_id="rrrrrrrrrrrr:t1", pages=(1,), regions=(),
              columns=tuple(f"C{j}" for j in range(n_cols)), rows=tuple(tuple(r) for r in rows))
    chunks = chunk_table(t, ChunkConfig(max_chars=120))
    assert sum(c.kind == "row" for c in chunks) >= len(rows)


def test_a_long_caption_and_notes_are_cut_where_every_row_repeats_them() -> None:
    """Output bound (issue 15): row and row-group chunks repeat context lines cut to
    chunk.max_context_chars; the table chunk keeps them whole. A note with no mark speaks to the
    whole table: row-group chunks repeat it, row chunks do not (`row_notes`)."""
    notes = "Amounts include the building insurance levy. " * 40  # ~1,800 characters
    table = property_table(10).model_copy(update={"footnotes": (notes,), "caption": "表2 管理費一覧 " + "注" * 600})
    chunks = chunk_table(table, ChunkConfig(max_context_chars=300))
    whole = next(c for c in chunks if c.kind == "table")
    assert notes.strip() in whole.text and "注" * 600 in whole.text
    for c in chunks:
        if c.kind in ("row", "row_group"):
            notes_line = next((ln for ln in c.text.splitlines() if ln.startswith("Notes: ")), "")
            assert (len(notes_line) <= 300 and notes_line.endswith(" the…")) if c.kind == "row_group" \
                else not notes_line  # cut at a word
            assert "注" * 300 not in c.text
            assert "表2 管理費一覧" in c.text and "物件名" in c.text  # still self-contained
    rows = [c for c in chunks if c.kind == "row"]
    assert len(rows) == 10 and all(c.text.count("…") == 1 for c in rows)
    uncut = chunk_table(table, ChunkConfig(max_context_chars=0))
    assert sum(len(c.text) for c in chunks) < sum(len(c.text) for c in uncut) / 3
