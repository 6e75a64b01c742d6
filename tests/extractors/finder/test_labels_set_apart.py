"""Header labels on one line, each right-aligned over its column of figures, set a little
further apart than the face's word space but closer than a column gap ("Net weight" 3.8 pt
before "Delivery time (days)", the space 2.9 pt): the line's words read as one phrase, and a
label wider than its column reaches over the boundary into its neighbour. A gap of another
width than the line's own word space parts two strings (`aligned_columns.set_apart`), so each
label names its own column."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tests.extractors.finder.layout import grids, new_page, put, width

ITEMS = ["North depot", "Elm Street line", "Harbor plant", "Oak Lane office", "Kanazawa centre",
         "West yard"]
FIGURES = [("506,032", "8,009,729", "5,743,492", "326,520"), ("704,576", "1,116,312", "2,389,399", "881,188"),
           ("36,102", "4,512,090", "712,044", "12,775"), ("998,411", "6,001,873", "1,020,350", "405,660"),
           ("120,007", "2,733,615", "8,840,112", "77,301"), ("455,980", "3,090,442", "6,114,208", "590,014")]


def _page(labels: tuple[str, ...], apart: float) -> pymupdf.Document:
    """An item column and four columns of right-aligned figures; the header labels on one line,
    each right-aligned over its column, `apart` points after the label before it where a label
    is wider than the white between the columns."""
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 50, 120, "Item", face="bold")
    right = 150.0
    rights = []
    for k, label in enumerate(labels):
        column = max(width(f[k]) for f in FIGURES)
        right = max(right + 14 + column, right + apart + width(label, face="bold"))
        rights.append(right)
        put(page, right, 120, label, face="bold", align="right")
    for i, (item, figures) in enumerate(zip(ITEMS, FIGURES, strict=True)):
        y = 136 + 13 * i
        put(page, 50, y, item)
        for x, text in zip(rights, figures, strict=True):
            put(page, x, y, text, align="right")
    return doc


@pytest.mark.parametrize("labels", [("Score", "Unit price", "Net weight", "Delivery time (days)"),
                                    ("Points", "List price (USD)", "Gross weight", "Lead time (weeks)")])
def test_labels_set_apart_wider_than_a_space_name_their_own_columns(tmp_path: Path, labels: tuple[str, ...]) -> None:
    (grid,) = grids(_page(labels, 3.8), tmp_path / "apart.pdf")
    assert grid[0] == ["Item", *labels]
    assert grid[1] == [ITEMS[0], *FIGURES[0]]
    assert len(grid) == 7
