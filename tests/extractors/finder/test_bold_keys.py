"""A form's field printed as one line (finder/bold_keys.py): a block of fields whose longest
bold key stands one word space from its value prints that row as one text line; the change
from bold to regular print inside the line is where the key ends. A bold run-in heading
before a sentence, bold terms each followed by its own definition, and a caption's numbered
label stay text."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from rowkeeper.extractors.finder.bold_keys import split_bold_key
from rowkeeper.extractors.text_layer import read_lines
from tests.extractors.finder.layout import new_page, put, width
from tests.extractors.helpers import doc_for
from tests.transforms.pdf_docs import tables_of

FIELDS = [("Datum", "898.445 €"), ("Angebotsnr.", "Talweg"), ("Anschrift", "11.02.2023")]


def _block(page: pymupdf.Page, x: float, top: float, fields: list[tuple[str, str]], pitch: float,
           rules: bool, pad: float = 6) -> None:
    """Bold keys, values starting `pad` right of the longest key: at 6 pt (a cell's padding)
    MuPDF prints that key and its value as one line."""
    at = x + max(width(f[0], 8, "bold") for f in fields) + pad
    for i, (key, value) in enumerate(fields):
        y = top + pitch * i
        put(page, x, y, key, 8, "bold")
        put(page, at, y, value, 8)
        if rules:
            page.draw_line((x - 3, y + 5), (at + 60, y + 5), width=0.5)


def _form(path: Path, rules: bool) -> Path:
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 50, 70, "Kennzahlen 2021", 15, "bold")
    put(page, 50, 100, "Dieser Abschnitt fasst die wichtigsten Ergebnisse zusammen und vergleicht sie mit dem Vorjahr.", 8)
    _block(page, 53, 130, FIELDS, 13, rules)
    put(page, 50, 200, "Die folgenden Zahlen betreffen den Berichtszeitraum und wurden vom Controlling geprüft.", 8)
    doc.save(path)
    return path


@pytest.mark.parametrize("rules", [False, True])
def test_a_block_whose_longest_key_prints_with_its_value_is_a_table(tmp_path: Path, rules: bool) -> None:
    (table,) = tables_of(_form(tmp_path / "block.pdf", rules))
    assert table.columns == ("", "")
    assert [tuple(r) for r in table.rows] == FIELDS


def test_a_run_in_heading_and_bold_terms_stay_text(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 72, 60, "Glossary", 14, "bold")
    for i, (term, text) in enumerate((("Yield", "the income a holding returns"), ("Spread", "a price gap"),
                                      ("Duration", "how long until repaid"), ("Par", "the face value"))):
        put(page, 72, 100 + 14 * i, term, 9, "bold")
        put(page, 72 + width(term + " ", 9, "bold"), 100 + 14 * i, text, 9)
    put(page, 72, 170, "Note.", 9, "bold")
    put(page, 72 + width("Note. ", 9, "bold"), 170, "The figures above are rounded to the nearest thousand euros.", 9)
    put(page, 72, 190, "Figure 16", 9, "bold")
    put(page, 72 + width("Figure 16 ", 9, "bold"), 190, "(data until 7 July 2010)", 9)
    path = tmp_path / "glossary.pdf"
    doc.save(path)
    assert tables_of(path) == ()
    lines = {ln.text: ln for ln in read_lines(doc_for(path), [1])}
    spread, note = lines["Spread a price gap"], next(ln for t, ln in lines.items() if t.startswith("Note."))
    assert split_bold_key(spread, [72.0]) == [spread]  # no other line starts where its text does
    assert [t.text for t in split_bold_key(spread, [72.0, spread.bold_lead[2]])] == ["Spread", "a price gap"]
    assert split_bold_key(note, [72.0, note.bold_lead[2]]) == [note]  # a sentence after the bold lead is no value
    figure = next(ln for t, ln in lines.items() if t.startswith("Figure 16"))
    assert split_bold_key(figure, [72.0, figure.bold_lead[2]]) == [figure]  # a numbered label is a caption's
