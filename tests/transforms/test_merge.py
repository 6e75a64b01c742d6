"""Cross-page merge on pieces built in the test (issue 3 item 1); PDFs in test_assemble_pdf.py."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rowkeeper.config import TransformConfig
from rowkeeper.transforms.assemble import assemble_tables
from tests.transforms.builders import line, pages, raw_table

HEADER = ["Part", "Price", "Count"]
CFG = TransformConfig()


def _rows(start: int, n: int) -> list[list[str]]:
    return [[f"Item {i:03d}", f"{1000 + i:,}", str(i)] for i in range(start, start + n)]


def _bottom_piece(grid: list[list[str]], page: int, n: int = 1) -> object:
    return raw_table(grid, page=page, top=780 - 16 * len(grid), n=n)


def _assemble(pieces, lines=(), n_pages=3):
    return assemble_tables("d" * 64, "x.pdf", pieces, list(lines), pages(n_pages), CFG)


def test_header_only_on_first_page_merges() -> None:
    a = _bottom_piece([HEADER, *_rows(0, 20)], page=1)
    b = raw_table(_rows(20, 15), page=2, top=60)
    (t,) = _assemble([a, b])
    assert t.columns == tuple(HEADER)
    assert len(t.rows) == 35
    assert t.pages == (1, 2)
    assert t.merged_from == (a.piece_id, b.piece_id)
    assert [r.page for r in t.regions] == [1, 2]
    assert t.validation.passed


def test_repeated_header_is_dropped_on_three_pages() -> None:
    a = _bottom_piece([HEADER, *_rows(0, 20)], page=1)
    b = raw_table([HEADER, *_rows(20, 40)], page=2, top=60)
    c = raw_table([HEADER, *_rows(60, 5)], page=3, top=60)
    furniture = [line(f"- {p} -", p, 815, size=8) for p in (1, 2, 3)]
    furniture += [line("Parts catalogue 2026", p, 25, size=8) for p in (1, 2, 3)]
    furniture += [line("Table 5 (continued)", p, 40) for p in (2, 3)]
    (t,) = _assemble([a, b, c], furniture)
    assert len(t.rows) == 65
    assert t.rows[20] == ("Item 020", "1,020", "20")
    assert HEADER not in [list(r) for r in t.rows]
    assert t.column_types == ("text", "integer", "integer")
    check = {c.name: c for c in t.validation.checks}["merged_row_count"]
    assert check.passed


def test_heading_between_same_shaped_tables_keeps_them_apart() -> None:
    a = _bottom_piece([HEADER, *_rows(0, 20)], page=1)
    b = raw_table(_rows(20, 5), page=2, top=90)
    heading = line("4. Other parts", 2, 60, size=14, bold=True)
    tables = _assemble([a, b], [heading])
    assert len(tables) == 2
    assert tables[1].section_path[-1] == "4. Other parts"


def test_new_caption_on_next_page_keeps_tables_apart() -> None:
    a = _bottom_piece([HEADER, *_rows(0, 20)], page=1)
    b = raw_table([HEADER, *_rows(20, 5)], page=2, top=80)
    tables = _assemble([a, b], [line("Table 6 Other parts", 2, 62, bold=True)])
    assert [t.caption for t in tables] == [None, "Table 6 Other parts"]


def test_different_header_on_next_page_is_a_new_table() -> None:
    a = _bottom_piece([HEADER, *_rows(0, 20)], page=1)
    b = raw_table([["Code", "Amount", "Qty"], *_rows(20, 5)], page=2, top=60)
    assert len(_assemble([a, b])) == 2


def test_table_ending_mid_page_does_not_merge() -> None:
    a = raw_table([HEADER, *_rows(0, 5)], page=1, top=100)
    b = raw_table(_rows(5, 5), page=2, top=60)
    assert len(_assemble([a, b])) == 2


def test_shifted_columns_do_not_merge() -> None:
    a = _bottom_piece([HEADER, *_rows(0, 20)], page=1)
    b = raw_table([["x", "y"], ["1", "2"]], page=2, top=60)
    assert len(_assemble([a, b])) == 2


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=30), min_size=1, max_size=4), st.booleans())
def test_no_body_row_is_lost_by_a_merge(sizes: list[int], repeat: bool) -> None:
    pieces, start = [], 0
    for p, n in enumerate(sizes, start=1):
        grid = ([HEADER] if p == 1 or repeat else []) + _rows(start, n)
        top = 60.0 if p > 1 else 780 - 16 * len(grid)
        bottom = 780.0 if p < len(sizes) else top + 16 * len(grid)
        pieces.append(raw_table(grid, page=p, top=top, row_h=(bottom - top) / len(grid)))
        start += n
    (t,) = _assemble(pieces, n_pages=len(sizes))
    assert [r[0] for r in t.rows] == [f"Item {i:03d}" for i in range(start)]
    assert all(len(r) == len(t.columns) for r in t.rows)


def test_section_label_between_stacked_pieces_joins_them() -> None:
    # a layout extractor ended the piece at the label row "Projected" (first column only)
    a = raw_table([HEADER, *_rows(0, 5)], page=1, top=100, n=1)
    label = line("Projected", 1, top=100 + 6 * 16 + 2)
    b = raw_table(_rows(5, 4), page=1, top=100 + 7 * 16, n=2)
    (t,) = _assemble([a, b], [label], n_pages=1)
    assert t.columns == tuple(HEADER)
    assert [r[0] for r in t.rows] == [*(f"Item {i:03d}" for i in range(5)), "Projected",
                                      *(f"Item {i:03d}" for i in range(5, 9))]
    assert t.rows[5] == ("Projected", "", "")
    assert t.rows[6] == ("Item 005", "1,005", "5")
    assert t.regions[0].bbox == (a.bbox[0], a.bbox[1], b.bbox[2], b.bbox[3])


def test_heading_or_new_header_between_stacked_pieces_keeps_them_apart() -> None:
    a = raw_table([HEADER, *_rows(0, 5)], page=1, top=100, n=1)
    b = raw_table(_rows(5, 4), page=1, top=100 + 7 * 16, n=2)
    heading = line("2. Spare parts", 1, top=100 + 6 * 16 + 2, size=14, bold=True)
    assert len(_assemble([a, b], [heading], n_pages=1)) == 2
    c = raw_table([["Name", "Weight", "Height"], *_rows(5, 4)], page=1, top=100 + 7 * 16, n=2)
    assert len(_assemble([a, c], [line("Other", 1, top=100 + 6 * 16 + 2)], n_pages=1)) == 2
    far = raw_table(_rows(5, 4), page=1, top=100 + 12 * 16, n=2)
    assert len(_assemble([a, far], [], n_pages=1)) == 2


def test_outdented_label_with_space_around_it_joins_but_a_note_does_not() -> None:
    # "Female" printed left of the first column, a blank line above and below it
    a = raw_table([HEADER, *_rows(0, 5)], page=1, top=100, n=1)
    b = raw_table(_rows(5, 4), page=1, top=100 + 6 * 16 + 40, n=2)
    (t,) = _assemble([a, b], [line("Female", 1, top=100 + 6 * 16 + 14, x0=30.0)], n_pages=1)
    assert [r[0] for r in t.rows][4:7] == ["Item 004", "Female", "Item 005"]
    note = line("* Significantly different from the control", 1, top=100 + 6 * 16 + 14, x0=50.0)
    assert len(_assemble([a, b], [note], n_pages=1)) == 2


def test_repeat_of_the_header_cut_at_other_column_edges_still_merges() -> None:
    """The text page cut its borderless header after "Đơn giá Số"; the scanned page's OCR repeats
    it cut right. Same text left to right: a repeated header, dropped, and the table continues."""
    head = ["Mã hàng", "Đơn giá Số", "lượng"]
    a = _bottom_piece([head, *_rows(0, 20)], page=1)
    b = raw_table([["Mã hàng", "Đơn giá", "Số lượng"], *_rows(20, 15)], page=2, top=60)
    (t,) = _assemble([a, b])
    assert len(t.rows) == 35
    assert t.pages == (1, 2)
    assert ("Mã hàng", "Đơn giá", "Số lượng") not in t.rows


def test_a_repeated_header_misread_on_a_scanned_page_still_merges() -> None:
    """OCR reads the repeated header on one page of several with a mark or a letter wrong
    ("Chí phí" for "Chi phí"): still the table's header read again, dropped, and the table
    goes on over the pages."""
    head = ["Hạng mục", "Chi phí", "Điểm", "Đơn giá [VNĐ]"]
    rows = [[f"Mục {i:03d}", f"{1000 + i:,}", str(i), f"{2000 + i:,}"] for i in range(75)]
    a = _bottom_piece([head, *rows[:20]], page=1)
    b = raw_table([["Hạng mục", "Chí phí", "Điểm", "Đơn giá [VNĐ]"], *rows[20:65]], page=2, top=60)
    c = raw_table([["Hạng mục", "Chỉ phí", "Điềm", "Đơn giá [VNĐ]"], *rows[65:]], page=3, top=60)
    (t,) = _assemble([a, b, c])
    assert t.pages == (1, 2, 3)
    assert [list(r) for r in t.rows] == rows


def test_a_header_of_other_years_on_the_next_page_is_another_table() -> None:
    """A header alike in its letters but not in its figures ("2023" | "2024" after "2022" |
    "2023") opens a table of its own."""
    a = _bottom_piece([["Revenue", "Sales 2022", "Sales 2023"], *_rows(0, 20)], page=1)
    b = raw_table([["Revenue", "Sales 2023", "Sales 2024"], *_rows(20, 5)], page=2, top=60)
    assert len(_assemble([a, b])) == 2
