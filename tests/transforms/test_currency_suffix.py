"""A currency sign after an amount that a reader put in a column of its own (a wide space after
the figure, under no label) goes back to the amount (transforms/currency_signs.py): no column of
`€` under no name (issue 13)."""

from __future__ import annotations

from rowkeeper.models import Cell, RawTable
from rowkeeper.transforms.currency_signs import attach_currency_signs


def _piece(grid: list[list[str]]) -> RawTable:
    cells = tuple(Cell(row=r, col=c, text=x) for r, row in enumerate(grid) for c, x in enumerate(row))
    return RawTable(piece_id="p", doc_id="d", page=1, bbox=(0, 0, 100, 100), n_rows=len(grid),
                    n_cols=len(grid[0]), cells=cells, extractor="test", extractor_version="0")


def test_a_column_of_signs_after_the_amounts_joins_them() -> None:
    grid = [["Artikel", "Menge", "", "Gewicht [kg]"],
            ["Lindenhof Linie 6447", "1.578.746", "€", "20.471,3"],
            ["Altstadt Büro 867", "3.949.837", "€", "26.466,6"],
            ["Auwald Filiale 8436", "427.713", "€", "17.564,3"]]
    assert attach_currency_signs(_piece(grid)).grid() == [
        ["Artikel", "Menge", "Gewicht [kg]"],
        ["Lindenhof Linie 6447", "1.578.746 €", "20.471,3"],
        ["Altstadt Büro 867", "3.949.837 €", "26.466,6"],
        ["Auwald Filiale 8436", "427.713 €", "17.564,3"]]


def test_a_field_of_forints_across_a_form_joins_its_amount() -> None:
    grid = [["Ügyfél", "Dátum", "", "Projekt"], ["Öböl", "844 426", "Ft", "Szőlőhegy"]]
    assert attach_currency_signs(_piece(grid)).grid() == [["Ügyfél", "Dátum", "Projekt"],
                                                          ["Öböl", "844 426 Ft", "Szőlőhegy"]]


def test_a_currency_column_under_its_own_label_stays() -> None:
    """Codes under a label of their own ("Currency") are a column, not signs set apart."""
    grid = [["Item", "Amount", "Currency"], ["Rent", "1,200", "EUR"], ["Fees", "300", "USD"]]
    assert attach_currency_signs(_piece(grid)).grid() == grid


def test_signs_after_words_are_no_amounts_signs() -> None:
    grid = [["Item", "Note", ""], ["Rent", "monthly", "€"], ["Fees", "yearly", "€"]]
    assert attach_currency_signs(_piece(grid)).grid() == grid
