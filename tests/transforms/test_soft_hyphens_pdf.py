"""A word hyphenated at a cell's line break with a soft hyphen (U+00AD) reads as one word, and
a soft hyphen elsewhere is dropped: `Reklameteil`, not `Reklame\u00ad teil`
(label_text.join_soft_hyphens, in clean_text)."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from rowkeeper.label_text import clean_text
from tests.extractors.finder.layout import new_page, put
from tests.transforms.pdf_docs import tables_of

XS = (60, 200, 330, 460)
HEADER = (["Zeitung"], ["Druck\u00ad", "fläche"], ["Ein\u00adwohner"])
RECORDS = [
    (["Anzeiger"], ["Reklame\u00ad", "teil"], ["12 400"]),
    (["Tageblatt"], ["Text"], ["8 150"]),
    (["Bote"], ["Reklame\u00ad", "teil"], ["3 900"]),
]


def _newspapers(path: Path) -> Path:
    doc = pymupdf.open()
    page = new_page(doc)
    ys = [80.0]
    for rec in (HEADER, *RECORDS):
        ys.append(ys[-1] + 8.0 + 11 * max(len(c) for c in rec))
    for x in XS:
        page.draw_line((x, ys[0]), (x, ys[-1]))
    for y in ys:
        page.draw_line((XS[0], y), (XS[-1], y))
    for i, rec in enumerate((HEADER, *RECORDS)):
        for x, lines in zip(XS, rec, strict=False):
            for k, line in enumerate(lines):
                put(page, x + 3, ys[i] + 11 + 11 * k, line, 8, "bold" if i == 0 else "sans")
    doc.save(path)
    return path


def test_soft_hyphen_at_a_cell_line_break_joins_the_word(tmp_path: Path) -> None:
    (t,) = tables_of(_newspapers(tmp_path / "newspapers.pdf"))
    assert t.columns == ("Zeitung", "Druckfläche", "Einwohner")
    assert [r[:2] for r in t.rows] == [("Anzeiger", "Reklameteil"), ("Tageblatt", "Text"), ("Bote", "Reklameteil")]


def test_soft_hyphen_before_a_capital_or_a_bracket_parts_words() -> None:
    assert clean_text("Grund\u00ad Spalten") == "Grund Spalten"
    assert clean_text("Net \u00adCO2 (mmol \u00ads\u22121)") == "Net CO2 (mmol s\u22121)"
