"""A borderless table with a column of thumbnails set close to the names beside it, and two
columns of single-word figures set less than a column gap apart (issue 13, zoo dev22
picture_column-393-vi: `Hình Hạng mục` read as one header, `150.508 174.584` as one cell).

- finder/picture_edges.py: the clear stretch between a column of pictures and the text beside
  it is a boundary, however narrow (a picture is no word of a phrase).
- finder/figure_columns.py: two figures in every row of a projection column, each one word,
  have no space of their own to tell a figure's inner space from the gap between two columns:
  the table's word space (its names' and labels') stands for it."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tests.extractors.finder.layout import new_page, put, width
from tests.transforms.pdf_docs import tables_of

VI = (("Hình", "Hạng mục", "Thời gian [ngày]", "Công suất [kW]", "Điểm"),
      [("Hạ Long chi nhánh 9825", "66.840,62", "150.508", "174.584"),
       ("Đà Nẵng dây chuyền 4381", "74.668,15", "349.870", "910.009"),
       ("Biên Hòa cửa hàng 4083", "85.944,8", "265.712", "820.447"),
       ("Cần Thơ kho 7310", "12.005,1", "408.116", "233.970")])
DE = (("Bild", "Standort", "Lieferzeit [Tage]", "Leistung [kW]", "Pkt."),
      [("Seeblick Filiale 8721", "90,25", "481.204", "905.113"),
       ("Buchenallee Werk 5081", "14,50", "112.860", "347.002"),
       ("Birkenweg Linie 1797", "7,75", "630.415", "218.964")])


def _thumbnail(page: pymupdf.Page, rect: pymupdf.Rect, k: int) -> None:
    """A small raster image (a flat tint) in `rect`."""
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 48, 48), False)
    pix.clear_with(200 - 30 * (k % 3))
    page.insert_image(rect, pixmap=pix)


def _page(path: Path, table, size: float, side: float, pictures: bool) -> Path:
    """A heading, a line of prose, the table: a `side`-point thumbnail per row (`pictures`; else
    the column's cells empty) 4 points left of the names, the header's first label over the
    thumbnails; the figures right-aligned, the last two columns' widest figures 1.4 word spaces
    apart (the last label, shorter than its figures, further); a caption under the table."""
    header, rows = table
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 42, 70, "Tổng quan 2021" if table is VI else "Übersicht 2021", 14, "bold")
    put(page, 42, 100, "Số liệu được làm tròn." if table is VI else "Die Werte sind gerundet.", 9)
    left = 44.0
    names = left + side + 4
    at = names + max(width(header[1], size, "bold"), *(width(r[0], size) for r in rows))
    ends = []
    for k in (1, 2, 3):  # a column's width: its widest figure or its label, the wider
        widest = max(width(header[k + 1], size, "bold"), *(width(r[k], size) for r in rows))
        at += widest + (3 * size if k < 3 else 0.44 * size)  # the last: 1.4 word spaces
        ends.append(at)
    y = 140.0
    if header[0]:
        put(page, left, y, header[0], size, "bold")
    put(page, names, y, header[1], size, "bold")
    for x, label in zip(ends, header[2:], strict=True):
        put(page, x, y, label, size, "bold", align="right")
    y += 1.8 * size
    for k, (name, *figures) in enumerate(rows):
        if pictures:
            _thumbnail(page, pymupdf.Rect(left, y - size, left + side, y - size + side), k)
        put(page, names, y, name, size)
        for x, f in zip(ends, figures, strict=True):
            put(page, x, y, f, size, align="right")
        y += side + 5
    put(page, 42, y + 6, "Bảng 1 Số liệu quý theo địa điểm" if table is VI else "Tabelle 1 Kennzahlen", 10)
    doc.save(path)
    return path


@pytest.mark.parametrize(("table", "size"), [(VI, 9.0), (DE, 8.5)], ids=["vi", "de"])
@pytest.mark.parametrize("side", [28.0, 32.0])
def test_a_close_picture_column_and_close_figures_keep_their_columns(tmp_path: Path, table, size: float,
                                                                     side: float) -> None:
    """Five columns: the pictures' (empty cells), the names', and three of figures."""
    header, rows = table
    (t,) = tables_of(_page(tmp_path / "pictures.pdf", table, size, side, pictures=True))
    assert t.columns == header
    assert [tuple(r) for r in t.rows] == [("", *r) for r in rows]


@pytest.mark.parametrize(("table", "size"), [(VI, 9.0), (DE, 8.5)], ids=["vi", "de"])
def test_two_close_columns_of_one_word_figures_are_two(tmp_path: Path, table, size: float) -> None:
    """No pictures (and no header over their column: the table starts at the names): the last
    two columns of figures, 1.4 word spaces apart, are two columns all the same."""
    header, rows = table
    (t,) = tables_of(_page(tmp_path / "figures.pdf", (("", *header[1:]), rows), size, 24.0, pictures=False))
    assert t.columns == header[1:]
    assert [tuple(r) for r in t.rows] == [tuple(r) for r in rows]


def test_a_tick_box_before_its_cells_text_parts_no_column() -> None:
    """Tick boxes set a few points before the text of their own cells (`☐ Open`), the header
    label starting over that text, not over the boxes: no boundary between box and text; with
    a label of its own over the boxes, the clear stretch is one."""
    from rowkeeper.extractors.finder.picture_edges import picture_edges
    from rowkeeper.extractors.finder.projection import picture_words

    boxes = picture_words([(100.0, 120.0 + 14 * k, 107.0, 127.0 + 14 * k) for k in range(3)])
    body = [(110.0, 119.0 + 14 * k, 140.0, 128.0 + 14 * k, t) for k, t in enumerate(("Open", "Closed", "Open"))]
    assert picture_edges([(110.0, 100.0, 140.0, 109.0, "Status"), *body], boxes, []) == []
    headed = picture_edges([(100.0, 100.0, 106.5, 109.0, "Ok"), (112.0, 100.0, 140.0, 109.0, "Status"), *body],
                           boxes, [])
    assert headed == [108.5]
