"""A column that is only the last words of the cells on its left (finder/tail_columns.py): in a
monospaced face two values of one shape (`Bergheim 23`, `Feldkamp 54`) line up their second
words, a character off, and the read made them a column of their own. A real column, however
close, starts where no word stands just left of it in some line."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tests.extractors.finder.layout import new_page
from tests.transforms.pdf_docs import tables_of

_MONO = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
FIELDS = [("Datum", "619-1347"), ("Telefon", "Bergheim 23"), ("Anschrift", "787-8405"), ("Angebotsnr.", "Feldkamp 54")]
SIDE = [("Kunde", "22.09.2025"), ("Projekt", "Feldkamp 9"), ("Ansprechpartner", "769-9080")]


def _page(path: Path, framed: bool) -> Path:
    doc = pymupdf.open()
    page = new_page(doc)
    page.insert_font(fontname="mono", fontfile=_MONO)
    page.insert_font(fontname="monob", fontfile=_MONO.replace("Mono.ttf", "Mono-Bold.ttf"))
    page.insert_text((42, 66), "Energieverbrauch 2024", fontsize=20.9, fontname="monob")
    for (x, value_x, size, pitch), block in (((48, 122.9, 9.5, 18.9), FIELDS), ((311.5, 414.3, 10.5, 18.1), SIDE)):
        for i, (key, value) in enumerate(block):
            y = 93 + pitch * i
            page.insert_text((x, y), key, fontsize=size, fontname="monob")
            page.insert_text((value_x, y), value, fontsize=size, fontname="mono")
    if framed:
        page.draw_rect(pymupdf.Rect(42, 81.7, 191.8, 157.2), width=0.6)
        page.draw_rect(pymupdf.Rect(307.5, 81.7, 481.5, 136.1), width=0.6)
    page.insert_text((42, 200), "Die folgenden Zahlen betreffen den Berichtszeitraum.", fontsize=9.5, fontname="mono")
    doc.save(path)
    return path


@pytest.mark.parametrize("framed", [True, False])
def test_values_of_one_shape_in_a_monospaced_block_stay_one_cell(tmp_path: Path, framed: bool) -> None:
    tables = tables_of(_page(tmp_path / "fields.pdf", framed))
    assert sorted(tuple(tuple(r) for r in t.rows) for t in tables) == sorted([tuple(FIELDS), tuple(SIDE)])


GROUPED = [("Ambulante Behandlung", None), ("Buchenallee Lager 5512", ("38.939,09", "16.05.2021")),
           ("Waldstraße Werk 3764", ("46.547,58", "08.06.2020")), ("Talweg Büro 7383", ("97.954,99", "08.08.2025")),
           ("Zahnbehandlung", None), ("Lindenhof Linie 1759", ("17.664,1", "11.01.2020")),
           ("Mühlbach Büro 9271", ("2.950,9", "15.12.2020"))]


def _grouped(path: Path) -> Path:
    """A monospaced table of group labels over their rows, its caption a line over the header,
    each date a word space right of its amount (right-aligned under `Budget (EUR)`)."""
    doc = pymupdf.open()
    page = new_page(doc)
    page.insert_font(fontname="mono", fontfile=_MONO)
    face = pymupdf.Font(fontfile=_MONO)
    size, pitch, amounts, dates = 9.0, 14.0, 253.2, 259.2
    page.insert_text((60, 150), "Tabelle 1. Quartalszahlen nach Standort", fontsize=size, fontname="mono")
    y = 150 + pitch
    for x, text in ((63, "Standort"), (amounts - face.text_length("Budget (EUR)", size), "Budget (EUR)"),
                    (dates, "Datum")):
        page.insert_text((x, y), text, fontsize=size, fontname="mono")
    for key, values in GROUPED:
        y += pitch
        page.insert_text((63, y), key, fontsize=size, fontname="mono")
        if values:
            page.insert_text((amounts - face.text_length(values[0], size), y), values[0], fontsize=size, fontname="mono")
            page.insert_text((dates, y), values[1], fontsize=size, fontname="mono")
    page.insert_text((60, y + 3 * pitch), "Die folgenden Zahlen betreffen den Berichtszeitraum.", fontsize=size,
                     fontname="mono")
    doc.save(path)
    return path


def test_a_caption_read_with_the_table_is_no_cell_without_a_tail(tmp_path: Path) -> None:
    # the caption's words end short of the dates' column: it is no line whose cell lacks a tail,
    # so the dates, a word space right of the amounts, stay a column
    (table,) = tables_of(_grouped(tmp_path / "grouped.pdf"))
    assert list(table.columns) == ["Standort", "Budget (EUR)", "Datum"]
    assert [tuple(r) for r in table.rows] == [(k, *(v or ("", ""))) for k, v in GROUPED]
