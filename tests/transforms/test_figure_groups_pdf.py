"""A table of figures only (no column of row labels) under two rows of labels: group labels set
at the left of their groups, one over the first column (transforms/spanners.span_group_labels).
The first column's label is a group label like the others: each names the columns up to the
next, not one column and every other column the second."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tests.transforms.pdf_docs import tables_of
from tests.transforms.surroundings_docs import Page, _save

DOCS = {
    "en": (["Fruits", "Dairy"], ["Apple", "Banana", "Cherry", "Cheese", "Milk", "Yogurt"]),
    "fr": (["Légumes", "Céréales"], ["Poireau", "Navet", "Chou", "Blé", "Orge", "Seigle"]),
}


def figure_groups(path: Path, lang: str) -> Path:
    """Six columns of counts, a rule under each header row, the group labels at their first
    column's left edge, the sub-labels and figures left-aligned in their columns."""
    groups, subs = DOCS[lang]
    doc = pymupdf.open()
    pg = Page(doc)
    xs = [40.0 + 90.0 * k for k in range(7)]
    top = 120.0
    pg.text(xs[0] + 3, top, groups[0], 10)
    pg.text(xs[3] + 3, top, groups[1], 10)
    pg.rule(xs[0], top + 5, xs[-1])
    for k, sub in enumerate(subs):
        pg.text(xs[k] + 3, top + 24, sub, 10)
    pg.rule(xs[0], top + 29, xs[-1])
    for r in range(4):
        for k in range(6):
            pg.text(xs[k] + 3, top + 48 + 24 * r, str(r + k + 1), 10)
    return _save(doc, path)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_first_columns_group_label_names_its_group(tmp_path: Path, lang: str) -> None:
    groups, subs = DOCS[lang]
    (t,) = tables_of(figure_groups(tmp_path / "groups.pdf", lang))
    assert t.columns == tuple(f"{groups[k // 3]} {s}" for k, s in enumerate(subs))
    assert t.rows[0] == tuple(str(k + 1) for k in range(6))
