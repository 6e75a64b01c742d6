"""A tall header of wrapped labels, set bottom-aligned over a borderless table (a statistical
agency's participation-rate table): each column's label wraps onto up to five lines, the
labels of fewer lines start lower, and a label may break after a connecting word (`Percentage
of` / `international` / ...). What a user needs: every line of the labels in the header, none
read as the first body row, and each column named by its own label only."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from tests.extractors.finder.layout import new_page, put
from tests.transforms.pdf_docs import tables_of

XS = (72, 190, 270, 350, 430, 510)
LABELS = [
    ["Education system"],
    ["Percentage of", "international", "desired population", "coverage"],
    ["National desired", "population overall", "exclusion rate"],
    ["Weighted school", "participation rate", "before substitution"],
    ["Weighted student", "response rate"],
    ["Combined", "weighted school", "participation", "and student", "response rate"],
]
BODY = [("Australia", "100", "4", "96", "95", "93"), ("Austria", "100", "5", "99", "91", "90"),
        ("Azerbaijan", "100", "2", "100", "98", "98"), ("Belgium", "100", "6", "77", "97", "82"),
        ("Botswana", "100", "1", "100", "99", "99"), ("Canada", "100", "7", "97", "95", "94"),
        ("Chile", "100", "3", "98", "96", "94"), ("Croatia", "100", "5", "100", "97", "97")]


def _table(path: Path) -> Path:
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 72, 60, "Table 2. Coverage and participation rates, by education system", 10, "bold")
    page.draw_line((72, 70), (560, 70))
    deepest = max(len(label) for label in LABELS)
    for x, label in zip(XS, LABELS, strict=True):
        for k, line in enumerate(label):  # bottom-aligned: the last lines of all labels level
            put(page, x, 84 + 10 * (deepest - len(label) + k), line, 8)
    top = 84 + 10 * deepest
    page.draw_line((72, top - 6), (560, top - 6))
    for i, row in enumerate(BODY):
        for x, text in zip(XS, row, strict=True):
            put(page, x, top + 8 + 12 * i, text, 8)
    doc.save(path)
    return path


def test_every_line_of_a_tall_header_is_header(tmp_path: Path) -> None:
    (table,) = tables_of(_table(tmp_path / "tall.pdf"))
    assert [tuple(r) for r in table.rows] == BODY
    assert table.columns[0] == "Education system"
    assert table.columns[1] == "Percentage of international desired population coverage"


def test_a_label_broken_after_a_connecting_word_heads_its_own_column_only(tmp_path: Path) -> None:
    (table,) = tables_of(_table(tmp_path / "tall.pdf"))
    assert table.columns[2] == "National desired population overall exclusion rate"
    assert table.columns[3] == "Weighted school participation rate before substitution"
