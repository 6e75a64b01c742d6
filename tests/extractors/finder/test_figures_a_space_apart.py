"""Two right-aligned columns of figures a word space apart (finder/aligned_columns.py
`after_fraction`): a figure that ends in a decimal fraction takes no further group of digits,
so the figure after it is the next column's value however narrow the space; figures grouped by
a space (`12 345`) stay one value."""

from __future__ import annotations

import random
from pathlib import Path

import pymupdf

from tests.extractors.finder.layout import new_page, put, width
from tests.transforms.pdf_docs import tables_of

SITES = ["Cần Thơ kho", "Hà Nội văn phòng", "Vinh kho", "Hạ Long nhà máy", "Nha Trang cửa hàng",
         "Đà Lạt dây chuyền", "Bắc Ninh chi nhánh", "Huế dây chuyền", "Quy Nhơn kho", "Biên Hòa kho",
         "Vũng Tàu kho", "Long Xuyên nhà máy"]


def _page(path: Path, rows: list[tuple[str, str, str]], labels: tuple[str, str, str]) -> Path:
    doc = pymupdf.open()
    page = new_page(doc)
    put(page, 60, 60, "Bảng 1 Chi phí theo cơ sở", 12, "bold")
    first = max(width(b) for _, b, _ in rows)  # the first figures' right edge
    right_x = 230 + first
    second = right_x + 4.0 + max(width(c) for _, _, c in rows)  # a word space (4 pt) apart
    put(page, 60, 100, labels[0], 9, "bold")
    put(page, right_x, 100, labels[1], 9, "bold", align="right")
    put(page, second, 100, labels[2], 9, "bold", align="right")
    for k, (a, b, c) in enumerate(rows):
        y = 118 + 13 * k
        put(page, 60, y, a)
        put(page, right_x, y, b, align="right")
        put(page, second, y, c, align="right")
    doc.save(path)
    return path


def test_a_figure_after_a_fraction_a_word_space_apart_is_the_next_columns(tmp_path: Path) -> None:
    # zoo dev19 long_repeated_header-329-vi: `55.881,5 730.206` read as one cell of one column
    rnd = random.Random(3)
    rows = [(s, f"{rnd.randint(10, 99)}.{rnd.randint(100, 999)},{rnd.randint(1, 9)}",
             f"{rnd.randint(100, 999)}.{rnd.randint(100, 999)}") for s in SITES]
    (table,) = tables_of(_page(tmp_path / "two.pdf", rows, ("Hạng mục", "Chi phí (VNĐ)", "Điểm")))
    assert list(table.columns) == ["Hạng mục", "Chi phí (VNĐ)", "Điểm"]
    assert [tuple(r) for r in table.rows] == rows


def test_figures_grouped_by_a_space_stay_one_value(tmp_path: Path) -> None:
    # no fraction before the space: `1 234` is one figure, its groups a space apart
    rnd = random.Random(5)
    rows = [(s, f"{rnd.randint(1, 99)}", f"{rnd.randint(100, 999)}") for s in SITES]
    (table,) = tables_of(_page(tmp_path / "one.pdf", rows, ("Hạng mục", "", "Összeg (Ft)")))
    assert [r[-1] for r in table.rows] == [f"{b} {c}" for _, b, c in rows]
