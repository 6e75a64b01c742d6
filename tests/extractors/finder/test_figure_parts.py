"""Figures printed in parts a word space apart ("65 000,6", "74,6 %", "2020. 04. 15."): in
one format the parts line up in every row, so the x projection shows a gap between them; no
column's edge stands there, so they stay one cell (finder/figure_parts.join_figure_parts)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tests.extractors.finder.layout import grids, new_page
from tests.transforms.pdf_docs import tables_of

_MONO = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
HUNGARIAN = [("Tétel", "Egységár", "Árrés", "Dátum"), ("Vörösfenyő egység 7345", "65 000,6", "74,6 %", "2020. 04. 15."),
             ("Hársfa bolt 6935", "26 076,9", "46,7 %", "2026. 02. 27."), ("Dunapart iroda 2427", "35 845,9", "48,7 %", "2019. 03. 13."),
             ("Öböl raktár 8629", "41 337,2", "12,5 %", "2021. 11. 02."), ("Tölgyes bolt 17", "90 120,0", "33,3 %", "2024. 06. 30.")]
GERMAN = [("Standort", "Anteil (%)", "Gewicht", "Datum"), ("Nordhafen Halle 6195", "26,6 %", "1.480.521 €", "27.04.2023"),
          ("Ostring Halle 1930", "4,8 %", "9.718.857 €", "25.07.2026"), ("Weidenhof Werk 692", "82,6 %", "53.768 €", "23.11.2022"),
          ("Talweg Lager 951", "65,7 %", "57.253 €", "27.12.2021")]


def _monospace(page: pymupdf.Page, rows: list[tuple[str, ...]], size: float, spaces: int) -> None:
    """Rows as a monospace report prints them: the first column left-aligned, the others
    right-aligned, `spaces` blanks between the widest cells of neighbouring columns."""
    widths = [max(len(r[j]) for r in rows) for j in range(len(rows[0]))]
    for i, row in enumerate(rows):
        line = row[0].ljust(widths[0]) + "".join(" " * spaces + t.rjust(w) for t, w in zip(row[1:], widths[1:], strict=True))
        page.insert_text((46, 120 + 1.5 * size * i), line, fontsize=size, fontname="mono", fontfile=_MONO)


def _proportional(page: pymupdf.Page, rows: list[tuple[str, ...]], size: float) -> None:
    """The first column left-aligned, the others right-aligned an inch apart."""
    font = pymupdf.Font(fontfile="/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    for i, row in enumerate(rows):
        y = 120 + 1.5 * size * i
        page.insert_text((46, y), row[0], fontsize=size, fontname="sans")
        for j, text in enumerate(row[1:]):
            x = 200 + 72 * (j + 1) - font.text_length(text, fontsize=size)
            page.insert_text((x, y), text, fontsize=size, fontname="sans")


@pytest.mark.parametrize("rows", [HUNGARIAN, GERMAN])
@pytest.mark.parametrize("spaces", [2, 3])
def test_monospace_figures_in_parts_stay_one_cell(tmp_path: Path, rows: list[tuple[str, ...]], spaces: int) -> None:
    doc = pymupdf.open()
    _monospace(new_page(doc), rows, 8.0, spaces)
    assert [[tuple(r) for r in t] for t in grids(doc, tmp_path / "mono.pdf")] == [rows]


@pytest.mark.parametrize("rows", [HUNGARIAN, GERMAN])
def test_proportional_figures_in_parts_stay_one_cell(tmp_path: Path, rows: list[tuple[str, ...]]) -> None:
    doc = pymupdf.open()
    _proportional(new_page(doc), rows, 9.0)
    assert [[tuple(r) for r in t] for t in grids(doc, tmp_path / "prop.pdf")] == [rows]


def test_two_figure_columns_of_one_format_a_narrow_gap_apart_stay_two(tmp_path: Path) -> None:
    """'36.509,84  76.921,19': whole figures in neighbouring columns, one format, so their gap
    is as wide in every row; they are no parts of one figure."""
    rows = [("Artikel", "Q1", "Q2"), ("Waldstraße Linie 2641", "36.509,84", "76.921,19"),
            ("Kirchberg Halle 5950", "81.038,30", "50.368,60"), ("Mühlbach Lager 696", "45.473,50", "39.780,88"),
            ("Feldkamp Halle 2559", "18.408,03", "89.589,47")]
    doc = pymupdf.open()
    _monospace(new_page(doc), rows, 8.0, 2)
    assert [[tuple(r) for r in t] for t in grids(doc, tmp_path / "two.pdf")] == [rows]


@pytest.mark.parametrize("rules", [False, True])
def test_a_two_row_blocks_amounts_and_dates_stay_one_cell(tmp_path: Path, rules: bool) -> None:
    """A key-value block of two rows, keys in bold, set in DejaVu Sans Mono: its amounts'
    group space ("704 532 Ft") and its dates' ("2019. 03. 18.") line up in both rows, the
    only lines there are; two lines are the whole block, so both showing it is enough."""
    rows = [("Cím", "704 532 Ft", "Dátum", "Fenyves"), ("Telefon", "357 634 Ft", "Ügyfél", "2019. 03. 18.")]
    doc = pymupdf.open()
    page = new_page(doc)
    page.insert_font(fontname="mono", fontfile=_MONO)
    page.insert_font(fontname="monob", fontfile=_MONO.replace("Mono.ttf", "Mono-Bold.ttf"))
    page.insert_text((42, 120), "Ez a fejezet összefoglalja a fő eredményeket, és összeveti őket az előző évvel.",
                     fontsize=9.5, fontname="mono")
    for i, row in enumerate(rows):
        y = 163 + 13.6 * i
        for x, text, face in zip((48, 95.8, 159.0, 201.7), row, ("monob", "mono", "mono", "mono"), strict=True):
            page.insert_text((x, y), text, fontsize=8.5, fontname=face)
    if rules:
        page.draw_line((42, 168.5), (274.2, 168.5), width=0.48)
        page.draw_line((42, 182.2), (274.2, 182.2), width=0.6)
    page.insert_text((42, 202), "Az értékek kerekítettek; az összesen sor kissé eltérhet a sorok összegétől.",
                     fontsize=9.5, fontname="mono")
    path = tmp_path / "block.pdf"
    doc.save(path)
    (table,) = tables_of(path)
    assert [tuple(r) for r in table.rows] == rows


WRAPPED_HEAD = [("Tétel", "Költség", "Mennyiség", "Tömeg", "Térfogat"), ("", "(Ft)", "(db)", "(kg)", "")]
GROUPED = [("Tópart iroda 7649", "526 427", "574 872", "807 851", "2 084 456 Ft"),
           ("Malomárok iroda 2279", "203 065", "989 866", "435 621", "1 338 531 Ft"),
           ("Erdőszél sor 7804", "771 487", "330 192", "619 197", "546 988 Ft"),
           ("Malomárok egység 5467", "681 540", "960 752", "735 400", "8 901 697 Ft"),
           ("Vörösfenyő iroda 7618", "670 866", "43 984", "261 690", "7 147 892 Ft"),
           ("Fenyves sor 4021", "371 705", "19 975", "830 598", "2 316 424 Ft")]


def test_grouped_figures_under_a_label_each_stay_two_columns(tmp_path: Path) -> None:
    """'574 872 807 851': two right-aligned columns of grouped figures one space apart in a
    monospaced face part like the groups of one figure; a header label over each, flush with
    each column's right edge ("Mennyiség (db)", "Tömeg (kg)"), keeps them two."""
    import rowkeeper

    doc = pymupdf.open()
    _monospace(new_page(doc), [*WRAPPED_HEAD, *GROUPED], 8.0, 1)
    path = tmp_path / "grouped.pdf"
    doc.save(path)
    tables = rowkeeper.extract(path).tables
    assert [t.columns for t in tables] == [("Tétel", "Költség (Ft)", "Mennyiség (db)", "Tömeg (kg)", "Térfogat")]
    assert [tuple(r) for r in tables[0].rows] == GROUPED


SHORT = [("Tétel", "Egységár [Ft]", "Szállítási idő", "Keret"),
         ("9954 Fenyves bolt", "5 320,2", "661 755 Ft", "9 340 190 Ft"),
         ("2813 Folyópart üzem", "38 266,82", "2 315 134 Ft", "7 447 569 Ft"),
         ("8753 Patakvölgy bolt", "57 290,01", "5 262 715 Ft", "7 548 536 Ft"),
         ("4187 Folyópart raktár", "34 475,26", "358 939 Ft", "421 170 Ft")]


def test_a_short_tables_millions_under_one_label_stay_in_their_figures(tmp_path: Path) -> None:
    """Four rows, two of them with a millions group ("2 315 134 Ft"): two lines of parts are
    too few to tell a figure from two columns by their gaps alone, but the label over the
    column ("Szállítási idő") runs across the gap, so the lone leading digits are no column."""
    import rowkeeper

    doc = pymupdf.open()
    _monospace(new_page(doc), SHORT, 8.0, 3)
    path = tmp_path / "short.pdf"
    doc.save(path)
    tables = rowkeeper.extract(path).tables
    assert [t.columns for t in tables] == [SHORT[0]]
    assert [tuple(r) for r in tables[0].rows] == SHORT[1:]


def test_a_label_whose_last_word_is_three_letters_heads_grouped_figures_whole(tmp_path: Path) -> None:
    """"Szállítási idő" right-aligned over "296 986" in a monospaced face: the label's last
    word is as long as a group of thousands, so its word space stands right over the figures'
    group space in every row. The label heads both parts, as a word across them would: one
    column, the figures whole (the first two columns left-aligned, the others right-aligned,
    as a report sets them)."""
    rows = [("Telephely", "Szállító", "Szállítási idő", "Keret"),
            ("Csúcs raktár 4931", "Sor", "296 986", "292 853"), ("Hegyalja sor 9275", "Raktár", "658 077", "577 983"),
            ("Öböl üzem 2436", "Egység", "817 774", "620 294"), ("Malomárok üzem 5914", "Bolt", "31 085", "479 341"),
            ("Szőlőhegy sor 646", "Bolt", "89 462", "309 160"), ("Öböl sor 8060", "Üzem", "412 507", "88 123")]
    doc = pymupdf.open()
    page = new_page(doc)
    mono = pymupdf.Font(fontfile=_MONO)
    for i, row in enumerate(rows):
        for j, (x, text) in enumerate(zip((76, 192, 334, 391), row, strict=True)):
            at = x if j < 2 else x - mono.text_length(text, fontsize=7.5)
            page.insert_text((at, 120 + 12.4 * i), text, fontsize=7.5, fontname="mono", fontfile=_MONO)
    assert [[tuple(r) for r in t] for t in grids(doc, tmp_path / "label.pdf")] == [rows]


def test_labels_a_space_apart_over_columns_a_space_apart_keep_them_apart(tmp_path: Path) -> None:
    """A monospaced report with one space between its columns ("7 323 802 705") and between
    their labels ("Keret Költség"): the groups' spaces and the columns' gap are one width.
    "Keret" ends flush with its figures and lies over them (no wider than the narrowest), so
    it is a label of its own and the gap after it parts two columns; the groups stay whole."""
    rows = [("Tétel", "Egységár", "Keret", "Költség"),
            ("Erdőszél raktár 6318", "854 274", "7 323", "802 705"), ("Királyút sor 7618", "971 442", "517 806", "216 358"),
            ("Csúcs raktár 3930", "374 259", "229 020", "336 303"), ("Mezőföld egység 1643", "290 814", "182 494", "473 868"),
            ("Öböl üzem 2436", "605 604", "75 798", "120 260")]
    doc = pymupdf.open()
    _monospace(new_page(doc), rows, 8.0, 1)
    assert [[tuple(r) for r in t] for t in grids(doc, tmp_path / "tight.pdf")] == [rows]


TIGHT = [("Tétel", "Térfogat", "Pontszám", "Költség", "Tömeg"),
         ("Vörösfenyő üzem 4101", "991 876", "591 954", "412 463", "527 266"),
         ("Csúcs bolt 7229", "376 550", "420 844", "319 439", "406 522"),
         ("Patakvölgy raktár 5741", "108 140", "425 210", "279 976", "588 715"),
         ("Kőhíd bolt 6185", "774 488", "870 476", "863 022", "132 333"),
         ("Malomárok bolt 3043", "127 903", "896 351", "867 252", "239 076"),
         ("Szőlőhegy bolt 8658", "398 075", "474 342", "78 447", "475 432"),
         ("Vörösfenyő raktár 4383", "987 563", "290 153", "12 245", "653 927")]


@pytest.mark.parametrize("turned", [False, True])
def test_grouped_figure_columns_set_tighter_than_a_column_gap_stay_apart(tmp_path: Path, turned: bool) -> None:
    """Right-aligned columns of grouped figures in a proportional face, their widest cells set
    closer than a column gap ("591 954 412 463"): in most rows the gap between the columns is
    one and the same, like a figure's group space; rows whose next figure is shorter ("474 342
    78 447", a full group then two digits: no one figure) show the columns, however wide the
    gap there (issue 13, zoo dev10 rotated_page-173-hu, a page turned by /Rotate)."""
    serif = pymupdf.Font(fontfile="/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf")
    bold = pymupdf.Font(fontfile="/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf")
    doc = pymupdf.open()
    page = doc.new_page(width=842, height=595)
    page.insert_font(fontname="serif", fontfile="/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf")
    page.insert_font(fontname="serifb", fontfile="/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf")
    rights, x = [], 200.0
    for j in range(1, 5):
        widest = max(serif.text_length(r[j], fontsize=11) for r in TIGHT[1:])
        label = bold.text_length(TIGHT[0][j], fontsize=11)
        x += max(widest, label) + 7.6
        rights.append(x)
    for i, row in enumerate(TIGHT):
        face, font = ("serifb", bold) if i == 0 else ("serif", serif)
        y = 120 + 17.4 * i
        page.insert_text((42, y), row[0], fontsize=11, fontname=face)
        for r, text in zip(rights, row[1:], strict=True):
            page.insert_text((r - font.text_length(text, fontsize=11), y), text, fontsize=11, fontname=face)
    path = tmp_path / "tight.pdf"
    if turned:  # the same content stored on a portrait page, a /Rotate showing it upright
        out = pymupdf.open()
        portrait = out.new_page(width=595, height=842)
        portrait.show_pdf_page(portrait.rect, doc, 0, rotate=90)
        portrait.set_rotation(90)
        out.save(path)
    else:
        doc.save(path)
    (table,) = tables_of(path)
    assert table.columns == TIGHT[0]
    assert [tuple(r) for r in table.rows] == TIGHT[1:]
