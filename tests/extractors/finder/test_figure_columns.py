"""Columns of whole figures set close (finder/figure_columns.py, figure_parts.join_figure_parts):
two right-aligned columns whose widest cells stand closer than a word space stay two, their
tight labels each over its own column; a figure in parts stays one cell, also where a shorter
figure of the column leaves its first part's place to the column before; one string holding
two figures a word space apart stays one cell."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tests.extractors.finder.layout import grids, new_page

_MONO = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
_FONT = pymupdf.Font(fontfile=_MONO)


def _place(page: pymupdf.Page, rows: list[tuple[str, ...]], rights: list[float], size: float) -> None:
    """Each cell as its own string: the first left-aligned at 46, the others right-aligned
    at `rights`."""
    for i, row in enumerate(rows):
        y = 120 + 1.6 * size * i
        page.insert_text((46, y), row[0], fontsize=size, fontname="mono", fontfile=_MONO)
        for text, right in zip(row[1:], rights, strict=True):
            x = right - _FONT.text_length(text, fontsize=size)
            page.insert_text((x, y), text, fontsize=size, fontname="mono", fontfile=_MONO)


SHARES = [("Tétel", "Részesedés (%)", "Árbevétel", "Pontszám"),
          ("Nyugati kapu bolt 5658", "79,8 %", "7 290 496 Ft", "979 576"),
          ("Fő utca egység 6515", "31,1 %", "5 094 532 Ft", "692 838"),
          ("Mezőföld iroda 7242", "5,3 %", "6 530 738 Ft", "739 533"),
          ("Nyugati kapu üzem 4635", "85,6 %", "7 336 163 Ft", "625 145"),
          ("Fenyves sor 2762", "54,9 %", "9 201 872 Ft", "568 702")]


@pytest.mark.parametrize("apart", [0.6, 0.7])
def test_figure_columns_closer_than_a_word_space_stay_two(tmp_path: Path, apart: float) -> None:
    """'79,8 %' and '7 290 496 Ft' placed `apart` of a character from each other (less than
    the face's word space, one character): two columns, each label over its own."""
    size = 9.0
    char = _FONT.text_length("0", fontsize=size)
    first = 300.0
    second = first + apart * char + _FONT.text_length("7 290 496 Ft", fontsize=size)
    doc = pymupdf.open()
    _place(new_page(doc), SHARES, [first, second, second + 60], size)
    assert [[tuple(r) for r in t] for t in grids(doc, tmp_path / "close.pdf")] == [SHARES]


AMOUNTS = [("Telephely", "Pontszám", "Mennyiség", "Dátum"),
           ("5474 Tölgyes sor", "652 127", "4 973 160 Ft", "2025. 01. 08."),
           ("3251 Patakvölgy bolt", "453 885", "8 463 426 Ft", "2025. 12. 11."),
           ("103 Malomárok üzem", "642 770", "468 123 Ft", "2024. 09. 23."),
           ("6961 Északi telep bolt", "950 535", "4 595 641 Ft", "2021. 07. 19."),
           ("2882 Öböl egység", "362 947", "6 571 374 Ft", "2024. 03. 24."),
           ("8989 Hársfa iroda", "62 294", "49 625 Ft", "2019. 04. 05.")]


def test_figure_in_parts_stays_one_where_a_shorter_one_leaves_its_place(tmp_path: Path) -> None:
    """'4 973 160 Ft' in parts a word space apart; the shorter '468 123 Ft' of another row
    starts right of the '4', beside the column before ('642 770'): no boundary after '4'."""
    size = 8.0
    doc = pymupdf.open()
    _place(new_page(doc), AMOUNTS, [250.0, 340.0, 420.0], size)
    assert [[tuple(r) for r in t] for t in grids(doc, tmp_path / "amounts.pdf")] == [AMOUNTS]


PAIRED = [("Region", "Sales (share)", "Staff"),
          ("North harbour", "1,234 (5.6%)", "412"),
          ("East ring", "8,870 (40.1%)", "77"),
          ("Willow court", "2,045 (9.3%)", "1,208"),
          ("Valley road", "9,901 (45.0%)", "96")]


def test_two_figures_in_one_string_stay_one_cell(tmp_path: Path) -> None:
    """'1,234 (5.6%)' printed as one string: its word space is the same in every row, so the
    two figures are one cell."""
    doc = pymupdf.open()
    _place(new_page(doc), PAIRED, [260.0, 340.0], 9.0)
    assert [[tuple(r) for r in t] for t in grids(doc, tmp_path / "paired.pdf")] == [PAIRED]
