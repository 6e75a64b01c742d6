"""Two borderless tables stacked in one column of text, a caption between them in larger print
than their rows (page_features: a group label inside a table is set in its type, a caption is
not), and header labels wider than their columns (finder/aligned_columns.whole_phrases)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from tests.extractors.finder.layout import grids, new_page, put, width

FIRST = [("Hạng mục", "Điểm", "Thể tích", "Đơn giá"), ("Thái Nguyên nhà máy 4575", "571.535", "842.318", "92.023,4"),
         ("Nam Định cửa hàng 7692", "727.587", "992.854", "36.292,88"), ("Hà Nội kho 5065", "362.338", "573.463", "42.188,95"),
         ("Huế dây chuyền 1508", "869.640", "10.417", "60.062,05")]
SECOND = [("Địa điểm", "Chi phí", "Biên lợi nhuận", "Ngày"), ("Hải Phòng kho 19", "97.385,60", "31,0 %", "09/05/2023"),
          ("Vũng Tàu văn phòng 9900", "28.354,9", "1,0 %", "22/08/2026"), ("Huế nhà máy 7429", "64.350,9", "99,7 %", "07/10/2020"),
          ("Phan Thiết chi nhánh 9348", "32.655,81", "17,0 %", "19/12/2022")]


def _rights(rows: list[tuple[str, ...]], size: float) -> tuple[float, ...]:
    """Right edges of the columns after the first: each as wide as its widest cell plus an em
    and a half (a header label wider than the figures under it reaches over their gap)."""
    x = 66 + max(width(r[0], size) for r in rows[1:]) + 1.5 * size
    out = []
    for j in range(1, len(rows[0])):
        x += max(width(rows[0][j], size, "bold"), *(width(r[j], size) for r in rows[1:])) + 1.5 * size
        out.append(x)
    return tuple(out)


def _table(page: pymupdf.Page, y: float, rows: list[tuple[str, ...]], rights: tuple[float, ...],
           size: float, last_left: bool) -> float:
    """Rows from `y` (first column left at 66, the others right-aligned at `rights`, the last
    left-aligned 12 points after the one before when `last_left`); the y under them."""
    if last_left:
        rights = (*rights[:-1], rights[-2] + 12)
    for i, row in enumerate(rows):
        face = "bold" if i == 0 else "sans"
        put(page, 66, y, row[0], size, face)
        for j, (text, x) in enumerate(zip(row[1:], rights, strict=True)):
            left = last_left and j == len(rights) - 1
            put(page, x, y, text, size, face, "left" if left else "right")
        y += 1.9 * size
    return y


@pytest.mark.parametrize(("first", "second"), [(6.5, 8.0), (8.0, 8.0)])
@pytest.mark.parametrize("gap", [6.0, 12.0])  # caption baseline under the last row's
def test_stacked_tables_with_a_larger_caption_between_them(tmp_path: Path, first: float, second: float,
                                                           gap: float) -> None:
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 60, 100, "Bảng 1: Nhân sự và ngân sách", 9.5, "bold")
    y = _table(page, 122, FIRST, _rights(FIRST, first), first, False)
    put(page, 60, y - 1.9 * first + 2 * gap, "Bảng 2: Chi phí theo địa điểm", 9.5, "bold")
    _table(page, y - 1.9 * first + 2 * gap + 20, SECOND, _rights(SECOND, second), second, True)
    tables = grids(doc, tmp_path / "stacked.pdf")
    assert [[tuple(r) for r in t] for t in tables] == [FIRST, SECOND]


@pytest.mark.parametrize("size", [7.0, 8.5])
@pytest.mark.parametrize("pitches", [1.0, 1.6])  # the gap under the first table, in row pitches
def test_a_second_table_without_a_caption_close_under_the_first(tmp_path: Path, size: float,
                                                                pitches: float) -> None:
    """No caption between them: the second table's header row (bold labels, no figure) right
    under the first one's figures, on other columns, starts the second table
    (stacked_runs.header_after_body)."""
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 60, 100, "Bảng 1: Nhân sự và ngân sách", 9.5, "bold")
    y = _table(page, 122, FIRST, _rights(FIRST, size), size, False)
    _table(page, y + (pitches - 1) * 1.9 * size, SECOND, _rights(SECOND, size), size, True)
    tables = grids(doc, tmp_path / "stacked.pdf")
    assert [[tuple(r) for r in t] for t in tables] == [FIRST, SECOND]


def test_a_header_row_under_figures_on_the_same_columns_does_not_cut_a_table(tmp_path: Path) -> None:
    """A row of labels inside a table (a sub-header over the same columns) keeps it one table."""
    doc = pymupdf.open()
    page = new_page(doc)
    rows = FIRST + [("Địa điểm", "Điểm", "Thể tích", "Đơn giá")] + FIRST[1:]
    _table(page, 122, rows, _rights(rows, 8.0), 8.0, False)
    tables = grids(doc, tmp_path / "one.pdf")
    assert len(tables) == 1 and len(tables[0]) == len(rows)


def _seg(x0: float, top: float, text: str, bottom: float | None = None):
    from rowkeeper.models import TextLine

    return TextLine(page=1, bbox=(x0, top, x0 + 40, top + 8 if bottom is None else bottom), text=text)


def test_a_header_row_whose_top_is_above_a_segment_of_the_run_is_no_place_to_cut():
    """A scanned page's rows interleave (a tall segment of the last body row reaches below the
    next row's top): two regions cut there would share words."""
    from rowkeeper.extractors.finder.stacked_runs import header_after_body

    run = [[_seg(60, 100, "Oak Hill 12"), _seg(200, 100, "1,234")],
           [_seg(60, 112, "Elm Street 7"), _seg(200, 112, "5,678")]]
    header = [_seg(60, 126, "Site"), _seg(200, 126, "Budget")]
    assert header_after_body(run, header)
    run[-1][1] = _seg(200, 112, "5,678", bottom=130)  # reaches below the header's top
    assert not header_after_body(run, header)
