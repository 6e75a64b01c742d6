"""A currency sign set apart at the left edge of an amount's cell, on a statement's first and
total rows only (accounting style), is part of that amount, not a column or a label's end
(transforms/currency_signs)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from rowkeeper.models import Cell, RawTable
from rowkeeper.transforms.currency_signs import attach_currency_signs
from tests.extractors.finder.layout import new_page, put, width
from tests.transforms.pdf_docs import tables_of

ROWS = [("Net sales", "2,474,954", "1,715,727"), ("Cost of sales", "(653,575)", "(596,119)"),
        ("Gross profit", "1,821,379", "1,119,608"), ("Selling expenses", "(156,069)", "(131,632)"),
        ("Administrative expenses", "(95,996)", "(80,487)"), ("Total", "1,569,314", "907,489")]


@pytest.mark.parametrize("sign", ["$", "€", "Ft"])
@pytest.mark.parametrize("label_right", [160.0, 235.0])
def test_a_sign_set_apart_on_the_first_and_total_rows_joins_its_amount(
        tmp_path: Path, sign: str, label_right: float) -> None:
    """Signs at the left edge of two right-aligned amount columns; with label_right 235 the
    longest label ends a few points before the first sign."""
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 60, 80, "Income statement", 14, "bold")
    lefts, rights = (label_right + 12, 400.0), (360.0, 520.0)
    for x, year in zip(rights, ("2024", "2023"), strict=True):
        put(page, x, 110, year, 9, "bold", "right")
    for i, row in enumerate(ROWS):
        y = 128 + 16 * i
        put(page, 60, y, row[0])
        for left, right, text in zip(lefts, rights, row[1:], strict=True):
            if i in (0, len(ROWS) - 1):
                put(page, left, y, sign)
            put(page, right, y, text, align="right")
    assert width("Administrative expenses") + 60 < label_right + 12
    path = tmp_path / "statement.pdf"
    doc.save(path)
    (t,) = tables_of(path)
    assert t.columns == ("", "2024", "2023")
    assert tuple(t.rows[0]) == ("Net sales", f"{sign} 2,474,954", f"{sign} 1,715,727")
    assert tuple(t.rows[-1]) == ("Total", f"{sign} 1,569,314", f"{sign} 907,489")
    assert tuple(t.rows[1]) == ROWS[1]


def _piece(grid: list[list[str]]) -> RawTable:
    cells = tuple(Cell(row=r, col=c, text=x) for r, row in enumerate(grid) for c, x in enumerate(row))
    return RawTable(piece_id="p", doc_id="d", page=1, bbox=(0, 0, 100, 100), n_rows=len(grid),
                    n_cols=len(grid[0]), cells=cells, extractor="test", extractor_version="0")


def test_amounts_written_with_the_sign_after_them_keep_it():
    """A column of `830.999 €` amounts is the sign's own style, not a sign set apart."""
    grid = [["Kunde", "830.999 €", "12"], ["Projekt", "1.200 €", "13"], ["Datum", "5.000 €", "14"]]
    assert attach_currency_signs(_piece(grid)).grid() == grid


def test_a_column_with_its_own_name_is_no_sign_column():
    grid = [["Item", "Currency", "Amount"], ["A", "$", "12"], ["B", "€", "13"]]
    assert attach_currency_signs(_piece(grid)).grid() == grid


@pytest.mark.parametrize(("values", "amount"), [
    (("794 715 Ft", "2024. 07. 08.", "725 932 Ft"), "794 715 Ft"),
    (("857 291 Ft", "674 741 Ft", "2022. 02. 16."), "857 291 Ft"),
    (("308.197 ₫", "981-1283", "800-3654"), "308.197 ₫")])
def test_a_fields_sign_after_its_amount_stays_before_a_date_or_a_number_with_its_own(
        tmp_path: Path, values: tuple[str, ...], amount: str) -> None:
    """A form's fields set across in a box (labels over one row of values): the sign after the
    first amount is its own; the next field's date, code or signed amount takes none (issue 13,
    zoo form-94-hu, -100-hu, -101-vi)."""
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 60, 70, "Ajánlat", 14, "bold")
    xs, top = (60.0, 220.0, 390.0, 540.0), 100.0
    for y in (top, top + 17, top + 34):
        page.draw_line((xs[0], y), (xs[-1], y))
    for x in (xs[0], xs[-1]):
        page.draw_line((x, top), (x, top + 34))
    for x, label, value in zip(xs, ("Ügyfél", "Ajánlatszám", "Dátum"), values, strict=False):
        put(page, x + 4, top + 12, label, 8, "bold")
        put(page, x + 4, top + 29, value, 8)
    path = tmp_path / "fields.pdf"
    doc.save(path)
    (t,) = tables_of(path)
    assert t.columns == ("Ügyfél", "Ajánlatszám", "Dátum")
    assert tuple(t.rows[0]) == values
    assert t.rows[0][0] == amount
