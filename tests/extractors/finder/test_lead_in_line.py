"""A short borderless table of words as a browser prints one: bold header cells, columns as
wide as their widest cell plus a cell padding. Where a bold header is its column's widest cell
and the padding under half an em, no gap of the x projection is wide enough; the columns then
come from the edges the body rows share (finder/projection.aligned_separators). A heading right
above the table ("Here is a table", a line spacing up, starting at the first column) is no
row of it (finder/region_trims.lead_in)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tests.extractors.finder.layout import grids, new_page, put, width

BODY = [("Joan", "saag paneer", "medium", "$11"), ("Sally", "vindaloo", "mild", "$14"),
        ("Erin", "lamb madras", "HOT", "$5")]
SHORT = ("Name", "Lunch order", "Spicy", "Owes")


def _orders_page(header: tuple[str, ...], pad: float, heading: str | None, size: float,
                 scale: float = 1.17) -> pymupdf.Document:
    """The table in `size` points, `pad` em of padding after each column's widest cell; the
    header bold and centred, the last column right-aligned."""
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 36, 80, "Sample page", 20, "bold")
    put(page, 36, 100, "A paragraph of running text under the title, before the table's heading.", size)
    if heading:
        put(page, 35, 130, heading, scale * size, "bold")
    rows = [header, *BODY]
    widths = [max(width(header[j], size, "bold"), *(width(r[j], size) for r in BODY)) + pad * size
              for j in range(4)]
    xs = [36.0]
    for w in widths[:-1]:
        xs.append(xs[-1] + w)
    for i, row in enumerate(rows):
        y = 130 + 2.5 * size + 1.375 * size * i
        face = "bold" if i == 0 else "sans"
        for j, text in enumerate(row[:3]):
            inset = (widths[j] - pad * size - width(text, size, face)) / 2 if i == 0 else 0.0
            put(page, xs[j] + inset, y, text, size, face)
        put(page, xs[3] + widths[3] - pad * size, y, row[3], size, face, align="right")
    put(page, 36, 130 + 10 * size, "Or inline code like var foo = 'bar'; in a sentence below.", size)
    return doc


@pytest.mark.parametrize(("header", "pad"), [(SHORT, 0.4), (SHORT, 0.5)])
@pytest.mark.parametrize("size", [9.0, 12.0])
def test_word_table_with_bold_header(tmp_path: Path, header: tuple[str, ...], pad: float,
                                     size: float) -> None:
    """Four columns, not a name column and a money column."""
    tables = grids(_orders_page(header, pad, None, size), tmp_path / "orders.pdf")
    assert [[tuple(r) for r in t] for t in tables] == [[header, *BODY]]


@pytest.mark.parametrize(("heading", "scale"), [("Here is a table", 1.17), ("Lunch orders this week", 1.0)])
@pytest.mark.parametrize(("header", "pad"), [(SHORT, 0.4), (SHORT, 0.5)])
@pytest.mark.parametrize("size", [9.0, 12.0])
def test_word_table_under_a_heading(tmp_path: Path, heading: str, scale: float,
                                    header: tuple[str, ...], pad: float, size: float) -> None:
    """The heading over the first two columns is not read into the table."""
    tables = grids(_orders_page(header, pad, heading, size, scale), tmp_path / "orders.pdf")
    assert [[tuple(r) for r in t] for t in tables] == [[header, *BODY]]


SUPPLIERS = [("Địa điểm", "Loại", "Công suất", "Đơn giá", "Ngày"),
             ("Đà Nẵng chi nhánh 1484", "Chi nhánh", "9.099.602 ₫", "54.197,21", "13/12/2020"),
             ("Phan Thiết nhà máy 3174", "Kho", "4.754.370 ₫", "33.618,94", "04/05/2021"),
             ("Rạch Giá dây chuyền 5556", "Nhà máy", "4.143.350 ₫", "87.593,40", "08/02/2026"),
             ("Huế dây chuyền 8417", "Văn phòng", "6.695.533 ₫", "39.117,1", "05/11/2023")]


@pytest.mark.parametrize("ruled", [True, False])
def test_a_bold_caption_a_row_pitch_over_the_header_is_no_row(tmp_path: Path, ruled: bool) -> None:
    """The caption in the header's bold type and size, one row pitch over it, running over the
    gap after the first column: the header row under it (labels of several phrases, no figure)
    is the table's, so the caption is no header line over it and cuts no column of its own
    into the names' gap (the table keeps its five columns, and merges with its continuation)."""
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 72, 90, "Số liệu dưới đây thuộc kỳ báo cáo và đã được bộ phận kiểm soát kiểm tra.", 9.5)
    put(page, 72, 128, "Bảng 2 Tổng quan nhà cung cấp", 9.5, "bold")
    for i, row in enumerate(SUPPLIERS):
        y = 146.8 + 18.8 * i
        face = "bold" if i == 0 else "sans"
        put(page, 75, y, row[0], 9.5, face)
        put(page, 224.2, y, row[1], 9.5, face)
        put(page, 374.5, y, row[2], 9.5, face, "right")
        put(page, 447.0, y, row[3], 9.5, face, "right")
        put(page, 452.6, y, row[4], 9.5, face)
        if ruled:
            page.draw_line((72, y + 5.4), (507.8, y + 5.4), width=0.5)
    (grid,) = grids(doc, tmp_path / "captioned.pdf")
    assert [tuple(r) for r in grid] == SUPPLIERS
