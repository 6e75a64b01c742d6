"""Two tables stacked in one column, the caption between them one line in the tables' own type
and close enough that the run of aligned rows bridges it: the next table starts where the
columns change (`finder.stacked_runs`); a group label inside one table, with its columns
going on under it, does not end the table."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from rowkeeper.extractors.finder.stacked_runs import columns_change, split_at_column_change
from rowkeeper.models import TextLine
from tests.extractors.finder.layout import grids, new_page, put

FIRST = [("Item", "Region", "Weight", "Budget"), ("Stone Bridge office 3453", "Hub", "277,770", "36,170.85"),
         ("Bay Point line 7598", "Plant", "154,354", "24,483.43"), ("Harbor View store 6333", "Depot", "240,535", "41,851.4")]
SECOND = [("Item", "Share", "Revenue", "Date"), ("Stone Bridge line 8876", "70.0%", "$8,539,423", "2020-07-21"),
          ("Redwood line 6870", "41.1%", "$9,284,646", "2019-12-14"), ("Pine Valley office 7365", "77.1%", "$8,695,533", "2023-10-05"),
          ("Brookfield line 2304", "94.0%", "$1,657,365", "2022-12-09")]
FIRST_X = ((54, "left"), (258, "left"), (480, "right"), (607, "right"))
SECOND_X = ((54, "left"), (340, "right"), (474, "right"), (487, "left"))


def _rows(page: pymupdf.Page, y: float, rows, xs, ruled: bool, pitch: float = 16.0) -> float:
    for i, row in enumerate(rows):
        for text, (x, align) in zip(row, xs, strict=True):
            put(page, x, y, text, 9, "bold" if i == 0 else "sans", align)
        if ruled:
            page.draw_line((48, y + 5), (613, y + 5), width=0.5)
        y += pitch
    return y


@pytest.mark.parametrize("ruled", [True, False])
def test_two_tables_apart_by_a_close_caption_are_two(tmp_path: Path, ruled: bool) -> None:
    doc = pymupdf.open()
    page = new_page(doc, 660, 842)
    put(page, 48, 100, "This section summarises the main results and compares them with the previous year.", 9)
    y = _rows(page, 130, FIRST, FIRST_X, ruled)
    put(page, 48, y + 2, "Table 1 Key indicators", 9, "bold")
    _rows(page, y + 22, SECOND, SECOND_X, ruled)
    got = grids(doc, tmp_path / "stacked.pdf")
    assert [g[0] for g in got] == [list(FIRST[0]), list(SECOND[0])]
    assert got[0][1:] == [list(r) for r in FIRST[1:]]
    assert got[1][1:] == [list(r) for r in SECOND[1:]]


THIRD = [("Item", "Region", "Margin", "Budget"), ("Pine Valley office 4412", "Depot", "83.8%", "823,713"),
         ("Redwood line 1649", "Hub", "61.4%", "443,290"), ("Bay Point store 716", "Plant", "96.2%", "184,832"),
         ("Brookfield office 9612", "Depot", "23.7%", "712,103")]
THIRD_X = ((54, "left"), (256.5, "left"), (462, "right"), (607, "right"))


@pytest.mark.parametrize("ruled", [True, False])
@pytest.mark.parametrize("gap", [2.0, 8.0])  # points the caption stands lower than a next row would
def test_a_caption_between_two_tables_on_nearly_the_same_columns_parts_them(tmp_path: Path, ruled: bool,
                                                                              gap: float) -> None:
    """The caption under the first table, in its own type, then the second table's header row
    (labels, no figure) under it: the second table starts there though its columns stand
    nearly where the first one's do (one column moved, the others a point or two off), so the
    columns tell nothing; a group label inside a table has body rows under it, not a header
    (`stacked_runs.split_at_column_change`, its `headed` cuts)."""
    doc = pymupdf.open()
    page = new_page(doc, 660, 842)
    put(page, 48, 100, "This section summarises the main results and compares them with the previous year.", 9)
    y = _rows(page, 130, FIRST, FIRST_X, ruled)
    put(page, 48, y + gap, "Table 1 Key indicators", 9.5, "bold")
    _rows(page, y + gap + 20, THIRD, THIRD_X, ruled)
    got = grids(doc, tmp_path / "stacked.pdf")
    assert [g[0] for g in got] == [list(FIRST[0]), list(THIRD[0])]
    assert got[0][1:] == [list(r) for r in FIRST[1:]]
    assert got[1][1:] == [list(r) for r in THIRD[1:]]


def test_a_group_label_over_body_rows_keeps_a_table_whole(tmp_path: Path) -> None:
    """A label line between body rows, the rows under it on the table's columns: one table."""
    doc = pymupdf.open()
    page = new_page(doc, 660, 842)
    y = _rows(page, 130, FIRST, FIRST_X, True)
    put(page, 54, y, "Northern sites", 9, "bold")
    _rows(page, y + 16, FIRST[1:], FIRST_X, True)
    (got,) = grids(doc, tmp_path / "grouped.pdf")
    assert got[0] == list(FIRST[0])
    assert [r[1:] for r in got if r[1]] == [list(r[1:]) for r in FIRST + FIRST[1:]]


def _row(y: float, xs: list[float], text: str = "1,204") -> list[TextLine]:
    return [TextLine(page=1, bbox=(x, y, x + 40, y + 9), text=text) for x in xs]


def test_a_group_label_keeps_the_columns_under_it() -> None:
    run = [_row(100 + 14 * i, [50, 200, 300]) for i in range(6)]
    assert not columns_change(run[:3], run[3:])
    assert split_at_column_change(run, [3]) == [run]


def test_new_columns_after_a_bridged_line_start_a_table() -> None:
    run = [_row(100 + 14 * i, [50, 200, 300]) for i in range(3)] + [_row(150 + 14 * i, [50, 150, 390]) for i in range(4)]
    assert split_at_column_change(run, [3]) == [run[:3], run[3:]]
    assert split_at_column_change(run, [2]) == [run]  # a piece of two rows is no table


def test_a_header_of_several_lines_stays_with_its_body() -> None:
    """Labels over sub-columns stand on other columns than the figures under them."""
    head = [_row(100 + 14 * i, [50, 200, 300], "Postnatal Day 4") for i in range(3)]
    body = [_row(150 + 14 * i, [50, 150, 390]) for i in range(4)]
    assert split_at_column_change(head + body, [3]) == [head + body]


def _words_row(y: float, texts: list[str], xs: list[float]) -> list[TextLine]:
    return [TextLine(page=1, bbox=(x, y, x + 6 * len(t), y + 9), text=t) for t, x in zip(texts, xs, strict=True)]


def test_a_next_header_is_a_row_of_labels_like_the_first_one() -> None:
    """After a bridged line, a row of labels as many as the run's own header starts a table
    (`stacked_runs.header_again`); not a catalogue entry's name in parts under a heading an
    OCR layer read letter-spaced ("B a d e n"), nor a row of fewer labels than the header."""
    from rowkeeper.extractors.finder.stacked_runs import header_again

    body = [_row(120 + 14 * i, [50, 200, 300, 400]) for i in range(3)]
    head = _words_row(100, ["Site", "Region", "Budget", "Share"], [50, 200, 300, 400])
    again = _words_row(180, ["Site", "Type", "Margin", "Keret"], [50, 200, 300, 400])
    assert header_again([head, *body], again)
    assert not header_again([head, *body], again[:2])
    spaced = _words_row(100, list("Baden"), [50, 60, 70, 80, 90])
    name = _words_row(180, ["Bretten", "Zeitung.", "Generalanzeiger für", "den"], [50, 120, 200, 330])
    assert not header_again([spaced, *body], name)



WIDE = [("Tétel", "Pontszám", "Egységár", "Árrés"), ("Hegyalja sor 1526", "481 302", "52 105,07", "69,2 %"),
        ("Szőlőhegy egység 3106", "999 968", "72 357,0", "42,5 %"), ("Hegyalja üzem 3992", "970 134", "79 729,04", "9,0 %"),
        ("Hársfa egység 440", "279 466", "31 853,63", "6,4 %"), ("Tölgyes sor 8247", "822 859", "80 421,94", "27,1 %")]
BARE = [("Tétel", "Mennyiség", "Pontszám"), ("Erdőszél egység 4482", "7 294 801 Ft", "99 904"),
        ("Mezőföld sor 7343", "6 117 711 Ft", "67 017"), ("Északi telep sor 1443", "8 412 612 Ft", "712 029"),
        ("Öböl egység 6020", "1 463 664 Ft", "987 222"), ("Patakvölgy üzem 3214", "890 481 Ft", "803 779")]


@pytest.mark.parametrize("ruled", [True, False])
def test_a_second_table_of_the_columns_width_under_the_first_without_a_caption_is_its_own(
        tmp_path: Path, ruled: bool) -> None:
    """Two tables set to the column's width, one under the other, the second with no caption:
    its header row of labels right under the first one's body. Both share the column's outer
    edges, as any two tables of that width do, and here one inner edge by chance (the second's
    figures end where the first's start); the rest of their inner edges differ, so the second
    is a table of its own (`stacked_runs.columns_change`; zoo dev9 stacked-159-hu)."""
    doc = pymupdf.open()
    page = new_page(doc, 612, 792)
    put(page, 72, 100, "Az értékek kerekítettek; az összesen sor kissé eltérhet a sorok összegétől.", 8.5)
    y = 130.0
    for rows, xs, size in ((WIDE, ((78, "left"), (337.1, "right"), (442.8, "right"), (534, "right")), 8.5),
                           (BARE, ((75, "left"), (399.1, "right"), (537, "right")), 8.0)):
        if ruled:
            page.draw_line((72, y - 10), (540, y - 10), width=0.5)
        for i, row in enumerate(rows):
            for text, (x, align) in zip(row, xs, strict=True):
                put(page, x, y, text, size, "bold" if i == 0 else "sans", align)
            if ruled and i == 0:
                page.draw_line((72, y + 4), (540, y + 4), width=0.5)
            y += 15.6 if size > 8 else 13
        if ruled:
            page.draw_line((72, y - 9), (540, y - 9), width=0.5)
        y += 4
    got = grids(doc, tmp_path / "bare.pdf")
    assert [g[0] for g in got] == [list(WIDE[0]), list(BARE[0])]
    assert got[0][1:] == [list(r) for r in WIDE[1:]]
    assert got[1][1:] == [list(r) for r in BARE[1:]]


def test_tables_of_one_width_are_told_apart_by_their_inner_edges() -> None:
    """Outer edges shared (both set to the column's width), inner edges elsewhere: the columns
    change; the same inner edges under a cut: they go on."""
    before = [_row(100 + 14 * i, [50, 200, 300, 400]) for i in range(3)]
    after = [_row(150 + 14 * i, [50, 150, 250, 400]) for i in range(3)]
    same = [_row(150 + 14 * i, [50, 200, 300, 400]) for i in range(3)]
    assert columns_change(before, after)
    assert not columns_change(before, same)



SITES = [("Site", "Supplier", "Revenue [USD]", "Weight [kg]", "Margin [%]"),
         ("Redwood plant 9690", "Plant", "93,217.05", "691,534", "21.9%"),
         ("Kingsway store 2180", "Unit", "79,545.82", "914,311", "6.7%"),
         ("Cedar Park line 9634", "Unit", "5,652.94", "869,431", "0.2%")]
SITES_X = ((78, "left"), (210.5, "left"), (366.2, "right"), (452.7, "right"), (534.0, "right"))
ITEMS = [("Item", "Headcount", "Score", "Quantity (units)", "Weight (kg)"),
         ("924 Maple Court office", "246,420", "2,968", "684,645", "197,803"),
         ("4717 Pine Valley store", "778,260", "506,595", "449,595", "239,666"),
         ("1217 Harbor View depot", "252,086", "656,475", "425,340", "791,730"),
         ("7936 Redwood unit", "24,145", "280,034", "615,476", "104,754")]
ITEMS_X = ((75, "left"), (281.8, "right"), (344.7, "right"), (453.6, "right"), (537.0, "right"))


_MONO = {"mono": "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
         "monob": "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"}


def _mono_rows(page: pymupdf.Page, y: float, rows, xs, ruled: bool, pitch: float) -> float:
    """`rows` in a monospaced face (the header bold), each ruled under from 72 to 540."""
    for i, row in enumerate(rows):
        for text, (x, align) in zip(row, xs, strict=True):
            face = "monob" if i == 0 else "mono"
            at = x - pymupdf.Font(fontfile=_MONO[face]).text_length(text, fontsize=8.5) if align == "right" else x
            page.insert_text((at, y), text, fontsize=8.5, fontname=face)
        if ruled:
            page.draw_line((72, y + 5), (540, y + 5), width=0.5)
        y += pitch
    return y


@pytest.mark.parametrize("ruled", [True, False])
def test_a_second_table_with_no_caption_after_a_gap_starts_at_its_header(tmp_path: Path, ruled: bool) -> None:
    """Two tables set to the column's width, no caption between them, two of the first one's
    inner column edges by chance where two of the second one's are: the second one's header row
    (labels, as many as the first one's) stands under the first one's body further than one and
    a half of its rows' pitch. The columns tell little, the gap and the header do
    (`stacked_runs.header_apart`; issue 13, zoo dev14 stacked-243-en: the two were read as one
    table of six columns, the second one's header a body row)."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    for name, path in _MONO.items():
        page.insert_font(fontname=name, fontfile=path)
    page.insert_text((72, 100), "Costs include maintenance, energy and services.", fontsize=8.5, fontname="mono")
    y = _mono_rows(page, 130, SITES, SITES_X, ruled, 15.6)
    _mono_rows(page, y + 13, ITEMS, ITEMS_X, ruled, 17.6)
    got = grids(doc, tmp_path / "stacked.pdf")
    assert [g[0] for g in got] == [list(SITES[0]), list(ITEMS[0])]
    assert got[0][1:] == [list(r) for r in SITES[1:]]
    assert got[1][1:] == [list(r) for r in ITEMS[1:]]
