"""Two columns of figures set a word space apart print as one text line per row ("1,127,814
(240,082)"): the page features read each figure as its own segment (`finder.close_figures`), so the columns' shared
edges show and the statement is a table candidate; groups of one figure stay one."""

from __future__ import annotations

from pathlib import Path

import pymupdf

import rowkeeper
from rowkeeper.extractors.finder.close_figures import split_figures, split_row_figures
from rowkeeper.glyphs import WIDE_CELLS
from rowkeeper.models import TextLine
from tests.extractors.finder.layout import new_page, put

ROWS = [("Net sales", "1,127,814", "(240,082)", 0), ("Cost of sales", "864,296", "938,860", 0),
        ("Gross profit", "(490,339)", "(37,319)", 1), ("Selling expenses", "349,116", "613,048", 0),
        ("Administrative expenses", "472,639", "1,173,175", 0), ("Other operating income", "757,331", "2,198,622", 1),
        ("Operating result", "306,555", "971,058", 0), ("Financial expenses", "1,809,187", "2,346,636", 0),
        ("Income tax", "(668,637)", "1,090,026", 1), ("Total", "2,114,020", "4,520,011", 1)]


def test_a_statement_with_close_columns_of_figures_is_a_table(tmp_path: Path) -> None:
    """The figures of a row typed as one string in a monospaced face, each column right-aligned:
    where both are as wide as their column, one space parts them."""
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 50, 120, "All amounts are stated before tax unless a note says otherwise.", 10)
    y = 160.0
    for label, a, b, bold in [("", "2024", "2023", 0), *ROWS]:
        put(page, 53 if bold else 63, y, label, 8.5, "bold" if bold else "sans")
        figures = f"{a:>9} {b:>9}"
        page.insert_text((285 - pymupdf.get_text_length(figures, "cour", 8.5), y), figures, fontsize=8.5, fontname="cour")
        y += 13.5
    path = tmp_path / "statement.pdf"
    doc.save(path)
    (table,) = rowkeeper.extract(str(path)).tables
    assert list(table.columns) == ["", "2024", "2023"]
    assert [tuple(r) for r in table.rows] == [r[:3] for r in ROWS]


def _line(text: str) -> TextLine:
    return TextLine(page=1, bbox=(100, 10, 100 + 5 * len(text), 20), text=text)


def test_whole_figures_part_and_groups_of_one_figure_stay() -> None:
    assert [s.text for s in split_figures(_line("1,127,814 (240,082)"))] == ["1,127,814", "(240,082)"]
    assert [s.text for s in split_figures(_line("2024 2023"))] == ["2024", "2023"]
    assert [s.text for s in split_figures(_line("4 973 160"))] == ["4 973 160"]
    assert [s.text for s in split_figures(_line("568 033 63,3 %"))] == ["568 033 63,3 %"]  # a unit: not all figures
    assert [s.text for s in split_figures(_line("Net sales 1,204"))] == ["Net sales 1,204"]
    first, second = split_figures(_line("472,639 1,173,175"))
    assert first.bbox[0] == 100 and second.bbox[2] == 100 + 5 * 17 and first.bbox[2] < second.bbox[0]


def test_a_row_printed_as_one_line_parts_its_label_and_figures() -> None:
    """A borderless row whose right-aligned figure columns are set close prints as one text
    line: the label is one segment, each figure (or date) one more; a sentence, a label with
    one figure and a line of labels stay whole."""
    parts = split_row_figures(_line("North Ridge unit 2788 $1,555,492 $1,976,359 694,393"))
    assert [s.text for s in parts] == ["North Ridge unit", "2788", "$1,555,492", "$1,976,359", "694,393"]
    assert parts[0].bbox[0] == 100 and parts[-1].bbox[2] == 100 + 5 * len(parts[0].text + " 2788 $1,555,492 $1,976,359 694,393")
    assert all(a.bbox[2] <= b.bbox[0] for a, b in zip(parts, parts[1:], strict=False))
    assert [s.text for s in split_row_figures(_line("92,422 ¥9,832,317 2020年8月1日"))] == \
        ["92,422", "¥9,832,317", "2020年8月1日"]
    assert [s.text for s in split_row_figures(_line("Net sales 1,204"))] == ["Net sales 1,204"]
    assert [s.text for s in split_row_figures(_line("Item Unit price Budget"))] == ["Item Unit price Budget"]
    sentence = "Revenue in the northern region grew by a fifth over the year to 2,340 5,120"
    assert [s.text for s in split_row_figures(_line(sentence))] == [sentence]


def test_a_date_after_a_cjk_label_is_placed_by_glyph_width() -> None:
    """Full-width glyphs take two character cells: the figures after a CJK name sit where
    they print, not where counting characters would put them."""
    line = TextLine(page=1, bbox=(0, 0, 100, 10), text="名古屋 12 34")
    parts = split_row_figures(line)
    assert [p.text for p in parts] == ["名古屋", "12", "34"]
    cells = 3 * WIDE_CELLS + 6  # three full-width glyphs, a space, "12", a space, "34"
    assert abs(parts[1].bbox[0] - 100 * (3 * WIDE_CELLS + 1) / cells) < 0.01
    assert parts[1].bbox[0] > 100 * 4 / 9  # counting characters would put it further left


SITES = [("4867 Dunapart üzem", "6 088 505 Ft", "2 730 838 Ft"), ("7489 Folyópart iroda", "9 034 246 Ft", "3 600 003 Ft"),
         ("2476 Nyugati kapu egység", "2 115 938 Ft", "1 332 477 Ft"), ("7579 Patakvölgy bolt", "5 854 919 Ft", "1 987 289 Ft"),
         ("4636 Erdőszél bolt", "9 729 844 Ft", "7 043 906 Ft"), ("5533 Malomárok sor", "3 896 830 Ft", "2 781 460 Ft")]


def test_a_row_with_its_amounts_units_printed_as_one_line_keeps_its_cells(tmp_path: Path) -> None:
    """Amounts printed with their unit after them ("2 115 938 Ft"), right-aligned in two close
    columns: the longest label stands so near the first amount that the text layer prints the
    row as one line ("2476 Nyugati kapu egység 2 115 938 Ft 1 332 477 Ft"). Each amount and its
    unit is one figure, so the row parts into its label and two figures like the others, and
    its cells are its own, not one first cell."""
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 60, 70, "1. táblázat Negyedéves adatok", 9, "serif")
    for i, row in enumerate([("Telephely", "Térfogat", "Mennyiség"), *SITES]):
        face, size = ("bold", 8) if i == 0 else ("serif", 8)
        put(page, 63, 92 + 15 * i, row[0], size, face)
        put(page, 229.6, 92 + 15 * i, row[1], size, face, "right")
        put(page, 287.6, 92 + 15 * i, row[2], size, face, "right")
    path = tmp_path / "amounts.pdf"
    doc.save(path)
    with pymupdf.open(path) as pdf:  # the layout this test is about: that row prints as one line
        assert any(ln["bbox"][2] > 280 and "egység" in "".join(s["text"] for s in ln["spans"])
                   for b in pdf[0].get_text("dict")["blocks"] for ln in b.get("lines", []))
    (table,) = rowkeeper.extract(str(path)).tables
    assert list(table.columns) == ["Telephely", "Térfogat", "Mennyiség"]
    assert [tuple(r) for r in table.rows] == SITES


def test_figures_with_their_unit_after_them_part_figure_by_figure() -> None:
    """A unit after every figure of a line goes with its figure; a line where only some
    figures have it, or a word between figures, stays as it was."""
    assert [s.text for s in split_row_figures(_line("2476 Nyugati kapu egység 2 115 938 Ft 1 332 477 Ft"))] == \
        ["2476 Nyugati kapu egység", "2 115 938 Ft", "1 332 477 Ft"]
    assert [s.text for s in split_figures(_line("1.234,56 € 7.890,12 €"))] == ["1.234,56 €", "7.890,12 €"]
    assert [s.text for s in split_figures(_line("74,6 % 12,5 %"))] == ["74,6 %", "12,5 %"]
    assert [s.text for s in split_figures(_line("568 033 63,3 %"))] == ["568 033 63,3 %"]
    assert [s.text for s in split_row_figures(_line("Total 5 of 12"))] == ["Total 5 of 12"]
    assert [s.text for s in split_row_figures(_line("Kosten 12 €"))] == ["Kosten 12 €"]


_DEJAVU = "/usr/share/fonts/truetype/dejavu"
EURO = [("Feldkamp Linie 6037", "9.800.132 €", "5.185.722 €", "244.038"),
        ("Rosenau Halle 2659", "422.032 €", "5.892.737 €", "545.511"),
        ("Hafenkai Lager 3937", "4.854.168 €", "3.781.453 €", "142.547"),
        ("Birkenweg Büro 245", "6.740.816 €", "5.391.216 €", "925.848"),
        ("Buchenallee Werk 7244", "3.584.393 €", "4.401.290 €", "298.600")]


def test_a_row_of_amounts_with_a_sign_before_a_column_without_one_keeps_its_cells(tmp_path: Path) -> None:
    """Two columns of amounts printed with a currency sign after them, then a column of plain
    figures, set close: the longest label runs the row into one line ("Buchenallee Werk 7244
    3.584.393 € 4.401.290 € 298.600"). Each amount with its sign is one figure though the last
    column has none, so the row is a row of the table (issue 13, zoo dev8 borderless_prose-129-de:
    that last row was lost)."""
    doc = pymupdf.open()
    page = new_page(doc)
    faces = {"cond": pymupdf.Font(fontfile=f"{_DEJAVU}/DejaVuSansCondensed.ttf"),
             "condb": pymupdf.Font(fontfile=f"{_DEJAVU}/DejaVuSansCondensed-Bold.ttf")}
    for name, f in faces.items():
        page.insert_font(fontname=name, fontbuffer=f.buffer)
    put(page, 242, 170, "Tabelle 1: Lieferantenübersicht", 9.5, "bold")
    for i, row in enumerate([("Artikel", "Umsatz", "Leistung", "Menge"), *EURO]):
        face = "condb" if i == 0 else "cond"
        y = 195 + 16.9 * i
        page.insert_text((242, y), row[0], fontsize=9.5, fontname=face)
        for text, x in zip(row[1:], (401.6, 459.2, 500.5), strict=True):
            page.insert_text((x - faces[face].text_length(text, fontsize=9.5), y), text, fontsize=9.5, fontname=face)
    put(page, 42, 300, "Die Werte sind gerundet; Summen können geringfügig von der Zeilensumme abweichen.", 9.5)
    path = tmp_path / "euro.pdf"
    doc.save(path)
    with pymupdf.open(path) as pdf:  # the layout this test is about: the last row prints as one line
        assert any(ln["bbox"][2] > 500 and "Buchenallee" in "".join(s["text"] for s in ln["spans"])
                   for b in pdf[0].get_text("dict")["blocks"] for ln in b.get("lines", []))
    (table,) = rowkeeper.extract(str(path)).tables
    assert list(table.columns) == ["Artikel", "Umsatz", "Leistung", "Menge"]
    assert [tuple(r) for r in table.rows] == EURO
    assert [s.text for s in split_row_figures(_line("Nord 1 234 € 5 678"))] == ["Nord", "1 234 €", "5 678"]
