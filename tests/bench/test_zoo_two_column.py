"""The layout zoo's two-column pages end to end (issue 13): a table in each page column, each
level with the other column's prose, the end of one level with the start of the other. Read
over the page width, the run of aligned rows mixes both tables with prose and is dropped whole;
each page column read alone (`finder/column_boxes.in_column_boxes`) finds both tables.

The documents are the zoo generator's (bench/zoo: exact truth), the whole two_column family of
one draw (dev7, where the kind was seen: 3 of its 31 tables were not found), not one file."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bench.zoo_family import read_family


@pytest.mark.parametrize("lang", ["en", "de", "hu", "vi", "ja"])
def test_every_table_of_a_two_column_page_is_found(tmp_path: Path, lang: str) -> None:
    for d, tables in read_family("dev7", "two_column", lang, tmp_path):
        got = {tuple(t.columns) for t in tables}
        for truth in d.tables:
            assert tuple(truth.columns) in got, f"{d.doc}: {truth.columns} not found among {sorted(got)}"


@pytest.mark.parametrize(("family", "lang"), [("two_column", "vi"), ("two_column", "de"), ("borderless_prose", "ja")])
def test_dev9_column_pages_read_every_table_with_its_names_and_caption(tmp_path: Path, family: str, lang: str) -> None:
    """dev9's kinds (colz20): a full-width table whose header line runs over the gutter (vi), a
    wrapped caption level with the next column's caption (de), a sentence between two tables (ja)."""
    for d, tables in read_family("dev9", family, lang, tmp_path):
        got = {(tuple(t.columns), t.caption or "", len(t.rows)) for t in tables}
        for truth in d.tables:
            want = (tuple(truth.columns), truth.caption or "", len(truth.rows))
            assert want in got, f"{d.doc}: {want} not among {sorted(got)}"
