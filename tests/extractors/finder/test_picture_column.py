"""A borderless table with a column of pictures (a thumbnail per row under "Photo"/"Bild"):
the images are ink in the x projection, so the picture column keeps its header and empty
cells instead of being merged, as a header-only column, into its neighbour
(finder/projection.picture_words)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tests.extractors.finder.layout import grids, new_page, put
from tests.transforms.pdf_docs import tables_of

GERMAN = [("Standort", "Bild", "Kosten (EUR)", "Volumen (m3)"), ("8721 Seeblick Filiale", "", "90.278", "9.686,08"),
          ("5081 Buchenallee Werk", "", "881.495", "1.491,10"), ("1797 Birkenweg Linie", "", "85.041", "94.578,2"),
          ("7396 Seeblick Linie", "", "337.852", "14.658,85")]
ENGLISH = [("Photo", "Site", "Lead time", "Cost [USD]"), ("", "Bay Point store 1648", "12", "284,767"),
           ("", "Riverside depot 1663", "7", "510,238"), ("", "Cedar Park line 2982", "31", "439,535"),
           ("", "Lakeside line 4566", "3", "613,027")]


def _thumbnail(page: pymupdf.Page, rect: pymupdf.Rect, k: int) -> None:
    """A small raster image (a flat tint with a dot) in `rect`."""
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 24, 24), False)
    pix.clear_with(200 - 30 * (k % 3))
    page.insert_image(rect, pixmap=pix)


@pytest.mark.parametrize(("rows", "picture_col", "xs"), [(GERMAN, 1, (56, 200, 330, 420)),
                                                         (ENGLISH, 0, (50, 90, 250, 330))])
@pytest.mark.parametrize("size", [24.0, 32.0])  # a thumbnail two or three lines high
def test_picture_column_keeps_its_header(tmp_path: Path, rows: list[tuple[str, ...]], picture_col: int,
                                         xs: tuple[float, ...], size: float) -> None:
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 50, 90, "Kennzahlen nach Standort", 12, "bold")
    y = 130.0
    for i, row in enumerate(rows):
        for j, text in enumerate(row):
            right = j >= 2  # figures right-aligned under their header's end
            if j == picture_col and i:
                _thumbnail(page, pymupdf.Rect(xs[j], y - 9, xs[j] + size, y - 9 + size), i)
            elif text:
                put(page, xs[j] + (60 if right else 0), y, text, face="bold" if i == 0 else "sans",
                    align="right" if right else "left")
        y += 18 if i == 0 else size + 10
    (grid,) = grids(doc, tmp_path / "pictures.pdf")
    assert [tuple(r) for r in grid] == rows


def test_picture_column_first_keeps_names_and_rows_when_assembled(tmp_path: Path) -> None:
    """Assembled (transforms): "Photo" and "Site", printed as one text line, stay two column
    names, and a name set close to its figure ("Cedar Park line 2982 439,535", one text line
    too) stays out of the figure's cell; no spanner label is joined from them
    (transforms/spanners._join_split_labels)."""
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 50, 90, "Sites", 12, "bold")
    xs = (50, 84, 200, 260)
    y = 130.0
    for i, row in enumerate(ENGLISH):
        for j, text in enumerate(row):
            if j == 0 and i:
                _thumbnail(page, pymupdf.Rect(xs[0], y - 9, xs[0] + 24, y + 15), i)
            elif text:
                put(page, xs[j] + (50 if j >= 2 else 0), y, text, face="bold" if i == 0 else "sans",
                    align="right" if j >= 2 else "left")
        y += 18 if i == 0 else 34
    doc.save(tmp_path / "first.pdf")
    (t,) = tables_of(tmp_path / "first.pdf")
    assert t.columns == ENGLISH[0]
    assert [tuple(r) for r in t.rows] == ENGLISH[1:]


def test_a_label_beside_a_wide_picture_column_keeps_its_words_when_assembled(tmp_path: Path) -> None:
    """The picture column's label stands in for its missing ink by its own printed extent,
    not by its cell: "Kosten (EUR)", right-aligned over narrow figures, starts inside the
    picture column's wide cell and stays whole (transforms/header_labels.stand_in_ink)."""
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 50, 90, "Kennzahlen nach Standort", 12, "bold")
    y = 130.0
    for i, row in enumerate(GERMAN):
        if i:
            _thumbnail(page, pymupdf.Rect(207, y - 9, 231, y + 15), i)
        put(page, 56, y, row[0], 11, "bold" if i == 0 else "sans")
        if not i:
            put(page, 207, y, row[1], 11, "bold")
        for text, right in zip(row[2:], (333, 433), strict=True):
            put(page, right, y, text, 11, "bold" if i == 0 else "sans", align="right")
        y += 18 if i == 0 else 34
    doc.save(tmp_path / "wide.pdf")
    (t,) = tables_of(tmp_path / "wide.pdf")
    assert t.columns == GERMAN[0]
    assert [tuple(r) for r in t.rows] == GERMAN[1:]
