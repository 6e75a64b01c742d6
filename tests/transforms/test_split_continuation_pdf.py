"""A long table whose continuation pages read its first column as two (ids of one width line
the names up, and no header on those pages joins them): still one table over every page
(transforms/split_columns.py through the pipeline)."""

from __future__ import annotations

import random
from pathlib import Path

import pymupdf
import pytest

from rowkeeper.config import load_config
from rowkeeper.flows.pipeline import load_document, process_document
from tests.extractors.finder.layout import new_page, put

NAMES = {"en": ["Matsuyama depot", "Osaka north", "Kobe harbour", "Sendai east", "Nagoya central"],
         "de": ["Lager Nord", "Hafen Hamburg", "Werk München", "Depot Köln Ost", "Halle Süd"]}
HEADER = {"en": ("Warehouse", "Units", "Value"), "de": ("Lager", "Stück", "Wert")}


def _long_table(path: Path, lang: str, n: int) -> list[tuple[str, str, str]]:
    """`n` rows over as many pages as they need; the header on page 1 only. Each first cell is
    an id and a name, the names all starting at one x."""
    rng = random.Random(n)
    rows = [(f"{3700 + 7 * i} {NAMES[lang][i % 5]} {i // 5 + 1}", str(rng.randint(10, 999)),
             f"{rng.randint(1000, 99999):,}.00") for i in range(n)]
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 72, 60, "Stock by warehouse", 12, "bold")
    for x, label, align in zip((72, 300, 420), HEADER[lang], ("left", "right", "right"), strict=True):
        put(page, x, 80, label, face="bold", align=align)
    y = 94.0
    for key, units, value in rows:
        if y > 800:
            page, y = new_page(doc), 60.0
        ident, name = key.split(" ", 1)
        put(page, 72, y, ident)
        put(page, 100, y, name)
        put(page, 300, y, units, align="right")
        put(page, 420, y, value, align="right")
        y += 14
    put(page, 72, y + 20, "Values at cost at the end of the quarter.")
    doc.save(path)
    return rows


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("n", [70, 130])  # two and three pages
def test_continuation_with_its_first_column_split_still_merges(tmp_path: Path, lang: str, n: int) -> None:
    rows = _long_table(tmp_path / "long.pdf", lang, n)
    (table,) = process_document(load_document(str(tmp_path / "long.pdf"), "long.pdf"), load_config(None)).tables
    assert table.columns == HEADER[lang]
    assert [tuple(r) for r in table.rows] == rows
