"""A name and its code after it in one headed cell, set in a monospaced face, where the
longest name runs so far that its code stands alone past the shorter names' codes
("Nyugati kapu raktár 575" over "Öböl egység 6169"): the projection opens a gap before that
code, but no header label heads the column it would make, and the one line with words there
parts them by a word space, so the code stays with its name (`projection.join_unheaded`)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tests.extractors.finder.layout import grids

SITES = ["Nyugati kapu raktár 575", "Öböl egység 6169", "Kohíd sor 70", "Dunapart bolt 7931"]
FIGURES = [("23,4", "92,7", "65,0"), ("27,4", "57,5", "61,3"), ("77,9", "58,1", "55,3"), ("76,5", "12,1", "40,8")]
PITCH = 9 * 0.6


def _put(page: pymupdf.Page, x: float, y: float, text: str, right: bool = False) -> None:
    if right:
        x -= PITCH * len(text)
    page.insert_text((x, y), text, fontsize=9, fontname="cour")


def _page(first: int) -> pymupdf.Document:
    """A 'Telephely' column of names with their codes, then three right-aligned columns of
    figures, the first `first` points from the page's left; the longest name one character and a
    column gap short of the first figures."""
    doc = pymupdf.open()
    page = doc.new_page()
    longest = first + PITCH * len(SITES[0])
    rights = [longest + 3 * PITCH + PITCH * 4 + k * 7 * PITCH for k in range(3)]
    _put(page, first, 120, "Telephely")
    for x, label in zip(rights, ("EN-DE", "HU-EN", "EN-VI"), strict=True):
        _put(page, x, 120, label, right=True)
    for i, (site, figures) in enumerate(zip(SITES, FIGURES, strict=True)):
        y = 142 + 16 * i
        _put(page, first, y, site)
        for x, text in zip(rights, figures, strict=True):
            _put(page, x, y, text, right=True)
    return doc


@pytest.mark.parametrize("first", [56.0, 80.0])
def test_the_longest_names_code_stays_in_its_cell(tmp_path: Path, first: float) -> None:
    (grid,) = grids(_page(first), tmp_path / "code.pdf")
    assert grid[0] == ["Telephely", "EN-DE", "HU-EN", "EN-VI"]
    assert [row[0] for row in grid[1:]] == SITES
    assert grid[1][1:] == list(FIGURES[0])
