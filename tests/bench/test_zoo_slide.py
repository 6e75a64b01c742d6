"""The layout zoo's slides end to end (issue 13): a monospaced slide table whose first column's
text is left-aligned and one of its cells ("Regionális értékesítés") two words one character
cell apart, wider than the rest of the column. Joined as one string (`aligned_columns.
one_string`), the phrase runs over a column boundary; it starts on the left edge the column's
words share, so it stays that column's text (`aligned_columns.whole_phrases`), not a new column
of its own under an empty name.

The documents are the zoo generator's (bench/zoo: exact truth), the whole slide family of one
draw (dev9, where the kind was seen: 1 of its tables gained an empty column), not one file."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bench.zoo_family import read_family


@pytest.mark.parametrize("lang", ["en", "de", "hu", "vi", "ja"])
def test_every_slide_table_keeps_its_columns(tmp_path: Path, lang: str) -> None:
    for d, tables in read_family("dev9", "slide", lang, tmp_path):
        got = {tuple(t.columns): len(t.rows) for t in tables}
        for truth in d.tables:
            assert got.get(tuple(truth.columns)) == len(truth.rows), f"{d.doc}: {truth.columns} not among {sorted(got)}"
