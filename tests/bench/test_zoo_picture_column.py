"""The layout zoo's picture columns end to end (issue 13): one picture per row in the first or
second column, the header's labels right-aligned over right-aligned figures. In a monospaced
face the text layer prints labels a word space apart as one line, long enough to read as a
caption's sentence ("Árbevétel [Ft] Pontszám Szállítási idő [nap]"); the header row stays the
table's, each label goes whole to its column and the picture column keeps its name
(finder/run_heads._labels_line, finder/aligned_columns.one_string).

The documents are the zoo generator's (bench/zoo: exact truth), the whole picture_column family
of one draw (dev8, where the kind was seen: 1 of its 18 tables lost its header), not one file."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bench.zoo_family import read_family


@pytest.mark.parametrize("lang", ["en", "de", "hu", "vi", "ja"])
def test_every_picture_column_table_keeps_its_header(tmp_path: Path, lang: str) -> None:
    for d, tables in read_family("dev8", "picture_column", lang, tmp_path):
        got = {tuple(t.columns): len(t.rows) for t in tables}
        for truth in d.tables:
            assert got.get(tuple(truth.columns)) == len(truth.rows), f"{d.doc}: {truth.columns} not among {sorted(got)}"
