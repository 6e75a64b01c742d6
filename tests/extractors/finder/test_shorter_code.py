"""A code before a name in one headed cell, set in a monospaced face, where one of the first
of ten records or more has a shorter code ("876 Kirchberg Werk" among "7156 Nordhafen Werk"):
its name starts a character left of the others and runs across the word space after their
codes. The table's first three lines may be headings a column gap runs under, not its first
three rows of figures, which are records like the others once its header lines are left out
(`projection._gaps`), so the code and the name stay one cell. (A record right under a header of
one or two lines is still among the first three lines.)"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tests.extractors.finder.layout import grids

SITES = [("7156", "Nordhafen Werk"), ("1876", "Kirchberg Werk"), ("8639", "Hafenkai Halle"),
         ("3212", "Waldstraße Lager"), ("4162", "Feldkamp Büro"), ("7492", "Eichenau Lager"),
         ("9760", "Lindenhof Lager"), ("8421", "Waldstraße Halle"), ("2846", "Nordhafen Linie"), ("7144", "Sonnenhang Werk"),
         ("6207", "Auwald Büro")]
FIGURES = [("39.590,84", "7.654,1", "121.710"), ("54.196,7", "98.978,58", "602.420"),
           ("72.287,05", "10.827,61", "744.043"), ("22.516,38", "33.935,8", "362.897"),
           ("74.355,24", "59.658,0", "100.271"), ("76.586,6", "27.699,59", "562.468"),
           ("32.412,4", "20.253,90", "122.263"), ("57.530,53", "58.102,9", "163.941"), ("38.680,22", "36.546,4", "358.244"),
           ("26.105,82", "44.748,65", "565.307"), ("61.960,9", "52.825,39", "361.356")]


def _put(page: pymupdf.Page, x: float, y: float, text: str, right: bool = False, size: float = 7.0) -> None:
    if right:
        x -= pymupdf.get_text_length(text, fontname="cour", fontsize=size)
    page.insert_text((x, y), text, fontsize=size, fontname="cour")


def _page(short_row: int) -> pymupdf.Document:
    """Rows of 'code name | three figures' in Courier, the code one space before the name;
    the record `short_row` has a three-digit code."""
    doc = pymupdf.open()
    page = doc.new_page()
    _put(page, 56, 130, "Standort")
    for x, text, unit in zip((190, 245, 300), ("Lieferzeit", "Leistung", "Gewicht"), ("[Tage]", "[kW]", "[kg]"),
                             strict=True):
        _put(page, x, 130, text, True)
        _put(page, x, 138, unit, True)
    y = 150.0
    for k, ((code, site), figures) in enumerate(zip(SITES, FIGURES, strict=True)):
        code = code[1:] if k == short_row else code
        _put(page, 56, y, f"{code} {site}")
        for x, text in zip((190, 245, 300), figures, strict=True):
            _put(page, x, y, text, True)
        y += 13.7
    return doc


@pytest.mark.parametrize("short_row", [1, 2, 5])
def test_a_shorter_code_in_a_first_row_parts_no_column(tmp_path: Path, short_row: int) -> None:
    (grid,) = grids(_page(short_row), tmp_path / "codes.pdf")
    assert grid[:2] == [["Standort", "Lieferzeit", "Leistung", "Gewicht"], ["", "[Tage]", "[kW]", "[kg]"]]
    assert grid[2][0] == "7156 Nordhafen Werk"
    assert grid[3] == [("876 " if short_row == 1 else "1876 ") + "Kirchberg Werk", "54.196,7", "98.978,58", "602.420"]
    assert len(grid) == 13
