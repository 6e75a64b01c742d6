"""A scanned catalogue page under its OCR text layer (issue 13, the pdftabextract kind): a sparse
first column of figures, a column of names with each entry's remarks set under its name, a
dozen narrow columns of figures; the OCR reads specks beside the figures as marks ("38 200—"),
sets some figures letter-spaced ("27 2 0 0") and a speck left of the table as a letter.

The text is invisible (render mode 3) over an image of the whole page, as OCR tools write it.
What a user needs: one table whose rows keep the entries' remarks, the first column apart from
the names, and the page's reading accepted from the PyMuPDF layer."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from rowkeeper.api import extract
from rowkeeper.extractors.finder.region_trims import drop_margin_numbers
from rowkeeper.extractors.finder.stray_marks import ink_core
from rowkeeper.transforms.validate import spaced_figure
from tests.extractors.finder.layout import font

SIZE = 6.0
PITCH = 6.6
NAME_X, NAME_RIGHT = 121.0, 286.0
FIGURES_X = (319.0, 336.0, 353.0, 370.0, 387.0, 404.0, 421.0, 438.0, 455.0, 474.0, 493.0, 515.0)
"""Right edges of the figure columns after the names."""

ENTRIES = [
    ("6 500", "Ballenstedt, Harz-Zeitung", ["2 800", "6", "46", "6", "6", "P", "90", "20", "A", "415", "280", "2490"],
     ["Siehe Anzeige S. 39"]),
    ("10 300", "Coswig, Elbe-Zeitung", ["1 945", "6", "46", "6", "6", "P", "90", "20", "A", "425", "282", "2550"], []),
    ("38 200—", "Bernburg, Anhalter Kurier", ["8 148", "6", "22", "14", "6", "P", "82", "40", "A", "468", "346", "6552"],
     ["* siehe auch Ges.-Ausg., Magdeburg (Prov. Sa.)", "Siehe Anzeige S. 169"]),
    ("85 000", "Dessau, Anhalter Anzeiger", ["13 520", "6", "22", "12", "8", "C", "89", "50", "B", "415", "279", "4980"],
     ["Siehe Anzeige S. 62", "Der Mitteldeutsche, Anhaltische Tageszeitung,",
      "Bei Aufgabe nur in der Landausgabe siehe Zerbst"]),
    ("3 500^", "Oranienbaum, Zeitung", ["1 108", "6", "22", "12", "3", "P", "93", "15", "A", "417", "280", "5004"],
     ["Siehe Anzeige S. 203"]),
    ("27 2 0 0", "Köthen, Tageblatt. Amtl. Kreisblatt", ["5 680", "6", "22", "12", "6", "P", "90", "40", "A", "420",
                                                          "279", "5040"], ["Siehe Anzeige S. 152"]),
    ("1 300-*", "Roßlau, Neueste Nachrichten", ["1 154", "6", "46", "6", "6", "P", "90", "15", "A", "415", "279",
                                                 "2490"], ["* siehe auch Ges.-Ausg., Magdeburg (Prov. Sa.)"]),
    ("3 400-", "Sandersleben, Zeitung", ["915", "3", "46", "6", "4", "K", "90", "10", "A", "425", "283", "2550"], []),
    ("4 500", "Harzgerode, Harzer Bote", ["730", "3", "46", "6", "4", "K", "92", "15", "A", "430", "282", "2580"],
     ["Siehe Anzeige S. 125"]),
]


def _put(page: pymupdf.Page, x: float, y: float, text: str, right: bool = False) -> None:
    """Invisible OCR text on its baseline `y`, starting at `x` (or ending there)."""
    if right:
        x -= font("serif").text_length(text, fontsize=SIZE)
    page.insert_text((x, y), text, fontsize=SIZE, fontname="serif", render_mode=3)


def _leader(name: str) -> str:
    """`name` and its dot leader up to the right edge of the names' column, read as one word
    with the name's last (the OCR layer sets no space between them)."""
    dot = font("serif").text_length(".", fontsize=SIZE)
    room = NAME_RIGHT - NAME_X - font("serif").text_length(name, fontsize=SIZE)
    return f"{name}{'.' * int(room / dot)}"


def _heading(page: pymupdf.Page, y: float, text: str) -> None:
    """A section heading centred over the table, letter by letter as the OCR layer reports a
    letter-spaced heading: at the body's size, one word per letter."""
    step = 10.0  # the advance of letters printed at about 18 pt
    x = (92.0 + FIGURES_X[-1]) / 2 - step * (len(text) - 1) / 2
    for k, ch in enumerate(text):
        _put(page, x + k * step, y, ch)


def catalogue_pdf(path: Path, speck: bool = True, heading: str = "", at: int = 4) -> Path:
    """The catalogue page: a grey scan of the whole page, the OCR layer over it; with a
    `heading`, the entries from `at` on are the next state's, under that heading centred in a
    band of its own."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_font(fontname="serif", fontfile="/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf")
    pix = pymupdf.Pixmap(pymupdf.csGRAY, pymupdf.IRect(0, 0, 60, 85), False)
    pix.set_rect(pix.irect, (235,))
    page.insert_image(page.rect, pixmap=pix)
    y = 200.0
    for k, (pop, name, figures, notes) in enumerate(ENTRIES):
        if heading and k == at:
            _heading(page, y + 4 * PITCH, heading)
            y += 8 * PITCH
        _put(page, 113.0, y, pop.rstrip("—^-*"), right=True)
        marks = pop[len(pop.rstrip("—^-*")):]
        if marks:  # the speck's mark hangs into the gutter, up to the names
            _put(page, 113.2, y, marks)
        _put(page, NAME_X, y, _leader(name))
        for x, text in zip(FIGURES_X, figures, strict=True):
            _put(page, x, y, text, right=True)
        for note in notes:  # an entry's remarks under its name, right-aligned when short
            y += PITCH
            _put(page, NAME_RIGHT if len(note) < 25 else NAME_X + 8, y, note, right=len(note) < 25)
        y += PITCH
    if speck:
        _put(page, 72.0, y - PITCH, "t")
    doc.save(path)
    return path


def _body(path: Path):
    record = extract(path)
    tables = [t for t in record.tables if len(t.rows) >= 3]
    return record, tables


def test_catalogue_page_under_its_ocr_layer_is_one_table(tmp_path: Path) -> None:
    record, tables = _body(catalogue_pdf(tmp_path / "catalogue.pdf"))
    assert len(tables) == 1
    table = tables[0]
    assert table.extractor == "pymupdf"
    assert len(table.columns) == 2 + len(FIGURES_X)
    rows = [[c.rstrip(". ") for c in r] for r in table.rows]
    names = [r[1] for r in rows]
    # the entries' remarks are rows of the table, under their entry, in the names' column
    for remark in ("Siehe Anzeige S. 169", "* siehe auch Ges.-Ausg., Magdeburg (Prov. Sa.)",
                   "Bei Aufgabe nur in der Landausgabe siehe Zerbst"):
        assert [c for c in rows[names.index(remark)] if c] == [remark]
    # the first column apart from the names, the specks' marks kept with their figures
    by_name = dict(zip(names, rows, strict=True))
    assert by_name["Bernburg, Anhalter Kurier"][:3] == ["38 200—", "Bernburg, Anhalter Kurier", "8 148"]
    assert by_name["Oranienbaum, Zeitung"][:3] == ["3 500^", "Oranienbaum, Zeitung", "1 108"]
    assert by_name["Köthen, Tageblatt. Amtl. Kreisblatt"][0] == "27 2 0 0"
    assert by_name["Harzgerode, Harzer Bote"][2:] == ENTRIES[-1][2]
    assert len(rows) == len(ENTRIES) + sum(len(e[3]) for e in ENTRIES)


def test_a_section_heading_centred_over_the_table_keeps_one_table(tmp_path: Path) -> None:
    """A state's name centred over the catalogue in a band of its own (printed large between
    two rules of the scan, reported by the OCR layer at the body's size, letter by letter)
    heads the next entries of the same table: one table, the heading a row of its own between
    the two states' entries."""
    record, tables = _body(catalogue_pdf(tmp_path / "states.pdf", heading="Baden"))
    assert len(tables) == 1
    rows = [[c.rstrip(". ") for c in r] for r in tables[0].rows]
    names = [r[1] for r in rows]
    assert names.index("Oranienbaum, Zeitung") > names.index("Dessau, Anhalter Anzeiger")
    assert sum(1 for r in rows if r[2]) == len(ENTRIES)  # every entry's circulation, both states
    heading = [r for r in rows if "B a d e n" in r or "Baden" in r]
    assert len(heading) == 1 and [c for c in heading[0] if c] == [heading[0][0]]
    assert names.index("Dessau, Anhalter Anzeiger") < rows.index(heading[0]) < names.index("Oranienbaum, Zeitung")


def test_a_caption_centred_between_two_tables_still_parts_them(tmp_path: Path) -> None:
    """A caption centred between two runs of the same columns opens a table of its own."""
    _, tables = _body(catalogue_pdf(tmp_path / "captioned.pdf", heading="Tabelle 2"))
    assert len(tables) == 2


def test_a_line_across_the_columns_still_parts_two_tables(tmp_path: Path) -> None:
    """A sentence set across the columns between two runs of entries is no remark in one of
    their cells: two regions, the sentence in neither."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_font(fontname="serif", fontfile="/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf")
    y, across = 200.0, 0.0
    for k, (pop, name, figures, _) in enumerate(ENTRIES[:8]):
        if k == 4:
            across = y
            page.insert_text((90, y), "The figures below are those the publishers gave for the year 1933, "
                             "in copies per issue and in millimetres.", fontsize=SIZE, fontname="serif")
            y += PITCH
        page.insert_text((90, y), pop.rstrip("—^-*"), fontsize=SIZE, fontname="serif")
        page.insert_text((NAME_X, y), name, fontsize=SIZE, fontname="serif")
        for x, text in zip(FIGURES_X, figures, strict=True):
            page.insert_text((x - font("serif").text_length(text, fontsize=SIZE), y), text, fontsize=SIZE,
                             fontname="serif")
        y += PITCH
    path = tmp_path / "across.pdf"
    doc.save(path)
    from rowkeeper.extractors.page_model import PageModel
    regions = PageModel(pymupdf.open(path)[0], 1).features.aligned_regions
    assert len(regions) == 2
    middle = across - SIZE / 3  # of the sentence's line (its baseline is `across`)
    assert not any(r[1] <= middle <= r[3] for r in regions)


@pytest.mark.parametrize(("text", "one"), [("27 2 0 0", True), ("17 0 00-", True), ("3 5 0 0 .", True),
                                           ("27 2 0 0 '", True), ("1 2 3", False), ("10 20 30", False),
                                           ("2.3 0.21 8.8", False), ("12 34", False)])
def test_letter_spaced_figure_is_one_value(text: str, one: bool) -> None:
    assert spaced_figure(text) is one


def test_stray_marks_are_no_ink_of_a_column() -> None:
    word = (102.0, 0.0, 119.0, 6.0, "200—")
    core = ink_core(word)
    assert core is not None and core[4] == "200" and core[2] < 115.0
    assert ink_core((115.0, 0.0, 117.0, 6.0, ",")) is None
    assert ink_core((200.0, 0.0, 204.0, 6.0, "–")) is not None  # a range's dash stands in its cell


def test_a_speck_left_of_a_table_is_no_column() -> None:
    words = [(96.0, 10.0 * i, 112.0, 10.0 * i + 6, "6 500") for i in range(5)]
    words += [(121.0, 10.0 * i, 180.0, 10.0 * i + 6, "Name") for i in range(5)]
    words.append((86.0, 40.0, 88.0, 46.0, "t"))
    kept, seps = drop_margin_numbers(words, [90.0, 116.0])
    assert seps == [116.0] and all(w[4] != "t" for w in kept)
