"""A form's blocks of fields keep `""` names (transforms/form_blocks.py, headers.py): blocks side
by side decide "header or not" together, an address where a label would stand is a field, and
a bold key column over regular values (one pair a row or two) is no header (issue 13)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tests.extractors.finder.layout import new_page, put, width
from tests.transforms.pdf_docs import tables_of


def grid(page: pymupdf.Page, x: float, y: float, rows: list[list[str]], bold_col: int | None = None,
         size: float = 8.0, pad: float = 4.0) -> None:
    """A ruled grid at (x, y): a rule around every cell, columns as wide as their longest text."""
    widths = [max(width(r[c], size, "bold") for r in rows) + 2 * pad for c in range(len(rows[0]))]
    xs = [x]
    for w in widths:
        xs.append(xs[-1] + w)
    h = size + 2 * pad
    for i, row in enumerate(rows):
        for c, text in enumerate(row):
            put(page, xs[c] + pad, y + i * h + pad + size * 0.8, text, size, "bold" if c == bold_col else "sans")
    for i in range(len(rows) + 1):
        page.draw_line((xs[0], y + i * h), (xs[-1], y + i * h), width=0.5)
    for xv in xs:
        page.draw_line((xv, y), (xv, y + len(rows) * h), width=0.5)


def _page(path: Path, blocks: list[tuple[float, list[list[str]]]], bold_col: int | None = None) -> Path:
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 72, 70, "Quotation 2026", 14, "bold")
    for x, rows in blocks:
        grid(page, x, 100, rows, bold_col)
    put(page, 72, 260, "Prices are valid for thirty days from the date of this quotation.", 10)
    doc.save(path)
    return path


LEFT = [["Address", "Oak Street"], ["Project", "Millbrook"], ["Total", "$ 861,750"]]
RIGHT = [["Date", "Ashford"], ["Customer", "Riverside"]]


def test_a_block_of_names_beside_a_headerless_block_has_no_header(tmp_path: Path) -> None:
    """The right block (two fields of names, nothing bold) cannot tell a header from a field;
    its sibling, an amount among its values, is headerless: both are read as fields."""
    tables = sorted(tables_of(_page(tmp_path / "form.pdf", [(72, LEFT), (330, RIGHT)])),
                    key=lambda t: t.regions[0].bbox[0])
    assert [t.columns for t in tables] == [("", ""), ("", "")]
    assert [[list(r) for r in t.rows] for t in tables] == [LEFT, RIGHT]


def test_two_halves_of_a_list_under_one_header_each_keep_it(tmp_path: Path) -> None:
    """Two grids side by side under the same first row are a list printed in two halves: the
    repeated row is their header, whatever a sibling without it says."""
    halves = [[["Item", "Colour"], ["Chair", "red"], ["Table", "oak"]],
              [["Item", "Colour"], ["Lamp", "black"], ["Shelf", "white"]]]
    tables = sorted(tables_of(_page(tmp_path / "halves.pdf", [(72, halves[0]), (330, halves[1])])),
                    key=lambda t: t.regions[0].bbox[0])
    assert [t.columns for t in tables] == [("Item", "Colour"), ("Item", "Colour")]
    assert [[list(r) for r in t.rows] for t in tables] == [h[1:] for h in halves]


def test_a_single_grid_whose_first_value_is_an_address_has_no_header(tmp_path: Path) -> None:
    """'Cedar Park 32' where a column label would stand is a field's value (a street and its
    number): the grid of keys and text values is headerless."""
    rows = [["Phone", "Cedar Park 32"], ["Date", "Maple Court"], ["Customer", "Fairfield"]]
    (t,) = tables_of(_page(tmp_path / "kv.pdf", [(72, rows)]))
    assert t.columns == ("", "")
    assert [list(r) for r in t.rows] == rows


def test_a_bold_key_column_of_two_pairs_a_row_has_no_header(tmp_path: Path) -> None:
    """Two pairs a row, the first keys bold in every row and nothing else bold: the first row
    is set like the rows under it, a row of fields."""
    rows = [["Valid until", "Waldstrasse", "Address", "Talweg"],
            ["Customer", "24.03.2024", "Date", "Birkenweg"],
            ["Project", "13.05.2021", "Contact", "Ostring"]]
    (t,) = tables_of(_page(tmp_path / "kv4.pdf", [(72, rows)], bold_col=0))
    assert t.columns == ("", "", "", "")
    assert [list(r) for r in t.rows] == rows


@pytest.mark.parametrize("rows", [
    [["Người liên hệ", "Bắc Ninh"], ["Ngày", "Nha Trang"], ["Số báo giá", "Nha Trang 14"]],
    [["Contact", "Harbor View"], ["Valid until", "Pine Valley"], ["Subject", "Oak Hill 53"]],
])
def test_a_plain_grid_of_short_names_beside_keys_has_no_header(tmp_path: Path, rows: list[list[str]]) -> None:
    """Keys beside names and places, every cell a short phrase, one value an address (a name
    and its number), nothing set apart (no bold, no figures to stand labels over): a form's
    fields, its first row one of them (issue 13, zoo dev11 headerless_kv-184-vi and -181-ja).
    A plain list of one kind under its labels keeps them (`test_key_value.py`: `Item | Colour`)."""
    (t,) = tables_of(_page(tmp_path / "kv.pdf", [(72, rows)]))
    assert t.columns == ("", "")
    assert [list(r) for r in t.rows] == rows


def test_a_plain_header_over_descriptions_stays_the_header(tmp_path: Path) -> None:
    """The same plain print, the second column sentences under `Description`: labels over
    columns, as a table of terms and their explanations prints them."""
    rows = [["Item", "Description"],
            ["Tuition", "The cost of a course varies from school to school."],
            ["Room and board", "The cost of lodging and food varies by school."]]
    (t,) = tables_of(_page(tmp_path / "terms.pdf", [(72, rows)]))
    assert t.columns == ("Item", "Description")
    assert [list(r) for r in t.rows] == rows[1:]
