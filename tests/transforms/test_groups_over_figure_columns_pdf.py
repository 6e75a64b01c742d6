"""Group labels over a table with no row-label column (every column figures): the first
column's group label heads its group like the others (transforms/spanners.py)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from rowkeeper.config import load_config
from rowkeeper.flows.pipeline import load_document, process_document
from tests.extractors.finder.layout import new_page, put, width

GROUPS = {"en": (("Fruits", ("Apple", "Banana", "Cherry")), ("Dairy", ("Cheese", "Milk", "Yogurt"))),
          "de": (("Obst", ("Apfel", "Birne", "Kirsche")), ("Milchprodukte", ("Käse", "Milch", "Joghurt")))}


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("centred", [False, True])
def test_group_label_over_the_first_figure_column_heads_its_group(tmp_path: Path, lang: str,
                                                                 centred: bool) -> None:
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 40, 40, "Units sold per week", 12, "bold")
    pitch = 88.0
    for g, (label, subs) in enumerate(GROUPS[lang]):
        x0 = 40 + 3 * pitch * g
        x = x0 + (3 * pitch - 20 - width(label, 10, "bold")) / 2 if centred else x0
        put(page, x, 70, label, 10, "bold")
        for k, sub in enumerate(subs):
            put(page, x0 + pitch * k, 90, sub, 10, "bold")
    for i in range(4):
        for k in range(6):
            put(page, 40 + pitch * k, 110 + 16 * i, str(i + k + 1), 10)
    path = tmp_path / "groups.pdf"
    doc.save(path)
    (table,) = process_document(load_document(str(path), path.name), load_config(None)).tables
    assert table.columns == tuple(f"{label} {sub}" for label, subs in GROUPS[lang] for sub in subs)
    assert len(table.rows) == 4
