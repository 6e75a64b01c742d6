"""Bounds on output: noise headers rejected, long names and cells cut, chunks capped."""

from __future__ import annotations

from rowkeeper.config import ChunkConfig, TransformConfig
from rowkeeper.models import Chunk, Region, Table
from rowkeeper.transforms.bounds import bound_chunks, bound_tables, is_noise, measured_chars


def _table(columns: tuple[str, ...], rows: tuple[tuple[str, ...], ...], n: int = 1) -> Table:
    return Table(doc_id="d" * 64, source="a.pdf", table_id=f"dddddddddddd:t{n}", pages=(1,),
                 regions=(Region(page=1, bbox=(0.0, 0.0, 100.0, 100.0)),), columns=columns, rows=rows)


def test_a_header_of_ocr_noise_is_rejected_with_a_warning():
    noise = ("~:;|'.,_-=~':", "\\\\||//..,,;;::", "Name")
    kept, warnings = bound_tables([_table(noise, (("a", "b", "c"),)), _table(("Item", "Fee"), (("x", "1"),), 2)],
                                  TransformConfig())
    assert [t.columns for t in kept] == [("Item", "Fee")]
    assert warnings[0].startswith("table dddddddddddd:t1 (page 1) rejected: 2 of 3 column names are noise")


def test_real_headers_are_not_noise():
    for name in ("Management fee", "(USD)", "増加率 (%)", "BLEU EN-DE", "Q1/Q2", "No."):
        assert not is_noise(name, 200), name
    assert not is_noise("x" * 800, 200) and is_noise("x" * 801, 200)


def test_long_column_names_and_cells_are_cut_to_the_maxima():
    config = TransformConfig(max_column_name_chars=20, max_cell_chars=30)
    (t,), warnings = bound_tables([_table(("Item", "Monthly management fee (JPY)"), (("x", "word " * 40),))], config)
    assert t.columns == ("Item", "Monthly management …")
    assert len(t.rows[0][1]) == 30 and t.rows[0][1].endswith("…")
    assert warnings == ("table dddddddddddd:t1: text cut to transform.max_column_name_chars=20 / max_cell_chars=30",)


def test_no_chunk_exceeds_the_hard_maximum():
    chunks = [Chunk(chunk_id=f"c{i}", doc_id="d", source="s", table_id=None, kind="text", text=t)
              for i, t in enumerate(("short", "y" * 500))]
    out, warnings = bound_chunks(chunks, ChunkConfig(hard_max_chars=100))
    assert [len(c.text) for c in out] == [5, 100]
    assert warnings == ("chunk c1: cut to chunk.hard_max_chars=100",)


def test_the_text_a_scan_shows_is_what_ocr_read():
    from rowkeeper.models import Cell, PageInfo, TextLine
    from rowkeeper.transforms.bounds import document_text_chars

    pages = [PageInfo(page=1, kind="text", chars=100, image_coverage=0.0),
             PageInfo(page=2, kind="scanned", chars=3, image_coverage=1.0)]
    lines = [TextLine(page=1, bbox=(0, 0, 1, 1), text="on the text page"),
             TextLine(page=2, bbox=(0, 0, 1, 1), text="Fees 2026")]
    table = _table(("Item", "Fee"), (("Desk", "12"),)).model_copy(update={
        "pages": (2,), "cells": (Cell(row=0, col=0, text="Item", page=2), Cell(row=1, col=1, text="12", page=2))})
    assert document_text_chars(pages, lines, [table]) == 100 + len("Fees 2026") + len("Item") + len("12")


def test_the_output_bound_does_not_count_picture_sentences_or_the_context_rows_must_repeat():
    t = _table(("Part", "Status"), (("P1", "ok"),)).model_copy(
        update={"caption": "Table 1 Parts", "section_path": ("Report", "1. Findings")})
    row = Chunk(chunk_id="c:r0", doc_id="d", source="s", table_id=t.table_id, kind="row",
                text="Report > 1. Findings\nTable 1 Parts. Part: P1 | Status: ok\n"
                     "Image dddddddddddd:p1.i2 (page 1) in row 1, column Status.")
    text = Chunk(chunk_id="c:x0", doc_id="d", source="s", table_id=None, kind="text", text="Report > 1. Findings")
    assert measured_chars([row], [t], ChunkConfig()) == len("Part: P1 | Status: ok")
    assert measured_chars([text], [t], ChunkConfig()) == len(text.text)  # only row chunks repeat it
